import {
  BOARD_PAGING,
  boardCollectorListSchema,
  boardCreatorListSchema,
  collectorBoardQuerySchema,
  creatorBoardQuerySchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { PUBLIC_READ_RULES, publicReadErrors } from "../docs.ts";
import type { BoardService } from "./service.ts";

const RULES = `Built from the indexer's projection of the market runtimes' claims (each \`Claimed\` event of a runtime's ClaimDrops contract, at the indexed head; a reorg that removes a claim removes it from the next board). By default the board spans every runtime of \`GET /market/runtime\` (all on chain 8453, so amounts add up in one currency); \`version\` narrows it to one runtime (404 for a version that is not one).

Window: a claim counts when its block time is at or after the time of the read minus the window (\`24h\`, \`7d\`, \`30d\`); \`all\` counts every claim. \`from\` and \`to\` state the bounds used. \`all\` reads the all-time figures the indexer keeps per drop and per wallet as it applies each claim (undone with it by a reorg), so its cost does not grow with the number of claims; the shorter windows add up the claims of the window.

Amounts: \`packs\` is the sum of the claims' quantities and \`volume\` the sum of what they paid in wei (the drop's price times the quantity; free drops add 0), both decimal strings. Only wallets with at least one claim in the window are listed.

Paging: \`limit\` 1 to ${BOARD_PAGING.maxLimit} (default ${BOARD_PAGING.defaultLimit}), \`offset\` 0 to ${BOARD_PAGING.maxOffset}; \`next\` is the offset of the next page or null. The order is total, so while no claim is indexed every entry appears on exactly one page; the board moves with every indexed claim, so a client walking pages of a busy board may see an entry twice or miss one (read \`rank\` as a position in the page's snapshot).

Served from the shared read cache (strong \`ETag\`, \`If-None-Match\` → 304), invalidated by every commit of the indexer in the market registry's scope (\`indexer:market\`: every market runtime) and at most 30 seconds old. Also served by the first-party proxy. ${PUBLIC_READ_RULES}`;

const errors = {
  400: {
    description:
      "An unknown `window` or `sort`, `limit` out of 1 to 100, `offset` out of 0 to 10000, or a malformed `version`.",
  },
  404: { description: "`version` is not a runtime of the market." },
  ...publicReadErrors,
};

/** The Board: leaderboards of creators and collectors. */
export function boardRoutes({ board }: { board: BoardService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/board/creators",
      operationId: "listBoardCreators",
      summary: "Leaderboard of creators",
      description: `Wallets that created drops, ranked by the claims of their drops in the window: packs claimed (\`sort=claims\`, the default), volume paid (\`volume\`) or distinct holders (\`holders\`). \`holders\` counts the distinct wallets that claimed from the creator's drops in the window; \`drops\` the creator's drops claimed from in it.

${RULES}`,
      tags: ["Board"],
      request: { query: creatorBoardQuerySchema },
      responses: {
        200: { description: "One page of the board.", schema: boardCreatorListSchema },
        ...errors,
      },
      handler: async (request) => board.creators(request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/board/collectors",
      operationId: "listBoardCollectors",
      summary: "Leaderboard of collectors",
      description: `Wallets that claimed packs, ranked by their claims in the window: packs claimed (\`sort=claims\`, the default), volume paid (\`volume\`) or distinct drops claimed from (\`drops\`). \`creators\` counts the distinct creators of those drops.

${RULES}`,
      tags: ["Board"],
      request: { query: collectorBoardQuerySchema },
      responses: {
        200: { description: "One page of the board.", schema: boardCollectorListSchema },
        ...errors,
      },
      handler: async (request) => board.collectors(request.query),
    }),
  ];
}

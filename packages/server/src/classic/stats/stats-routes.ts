import {
  CLASSIC_PAGE_DEPTH_RULE,
  classicCollectorsPageSchema,
  classicCollectorsQuerySchema,
  classicGameLeaderboardPageSchema,
  classicGameLeaderboardQuerySchema,
  classicStatsQuerySchema,
  classicStatsSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { keyRefused } from "../responses.ts";
import type { ClassicStatsService } from "./service.ts";

const CACHE =
  "Analytics: served from the shared read cache for up to 5 minutes, and rebuilt as soon as the classic projection moves (`Cache-Control: private, max-age=300`: the answer needed a key, so only the caller's own cache keeps it; strong `ETag`).";

const errors = {
  400: { description: "A malformed query value (`VALIDATION_ERROR`)." },
  429: keyRefused,
  503: { description: "The database is unavailable (`SERVICE_UNAVAILABLE`)." },
};

/** Leaderboards and platform statistics: key-gated reads of the classic projection. */
export function classicStatsRoutes({ stats }: { stats: ClassicStatsService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/leaderboards/collectors",
      operationId: "classicCollectorsLeaderboard",
      summary: "Rank wallets by the packs they hold",
      description: `Wallets ranked by packs held now (not burned; opened packs are still held), then packs opened, then Wei spent, all descending, then the address ascending: a total order, so paging is stable. \`spentWei\` sums the mint price of the wallet's packs, held or burned (a pack bought from another wallet counts at its mint price). Every wallet that holds or has burned a pack of the chain (of \`contractAddress\` when given) is ranked. The ranking is a summary the projection keeps in the transaction of every indexed block, so a page costs the same at any volume; ${CLASSIC_PAGE_DEPTH_RULE} ${CACHE}`,
      tags: ["Analytics"],
      request: { query: classicCollectorsQuerySchema },
      responses: {
        200: { description: "One page of the leaderboard.", schema: classicCollectorsPageSchema },
        ...errors,
        400: {
          description: `A malformed query value (\`VALIDATION_ERROR\`), or a page too deep (\`PAGE_TOO_DEEP\`): ${CLASSIC_PAGE_DEPTH_RULE}`,
        },
      },
      handler: async (request) => ({ success: true, ...(await stats.collectors(request.query)) }),
    }),
    defineRoute({
      method: "GET",
      path: "/leaderboards/games",
      operationId: "classicGamesLeaderboard",
      summary: "Rank games by mint volume or packs minted",
      description: `Games of the chain ranked by \`sortBy\`: \`volume\` (Wei paid for packs, then packs minted) or \`packs\` (packs minted, then Wei paid), descending, then the drop address ascending. \`holders\` counts distinct wallets holding an unburned pack of the game. ${CACHE}`,
      tags: ["Analytics"],
      request: { query: classicGameLeaderboardQuerySchema },
      responses: {
        200: { description: "One page of the leaderboard.", schema: classicGameLeaderboardPageSchema },
        ...errors,
      },
      handler: async (request) => ({ success: true, ...(await stats.games(request.query)) }),
    }),
    defineRoute({
      method: "GET",
      path: "/stats",
      operationId: "classicPlatformStats",
      summary: "Platform statistics of one chain",
      description: `Totals of the classic projection for \`chainId\`: games (active = open for minting, graduated), packs minted, opened and burned, holders (distinct wallets with an unburned pack), mint volume in Wei and in US dollars, rewards paid for sold-back packs, and the packs minted in the last 24 hours (by block time). Every figure over packs is read from summaries the projection keeps in the transaction of each indexed block (and undoes with a reorg), so the answer costs the same at any volume. They are aggregate public figures, so the route takes the API key only, no bearer token. ${CACHE}`,
      tags: ["Analytics"],
      request: { query: classicStatsQuerySchema },
      responses: {
        200: { description: "The statistics.", schema: classicStatsSchema },
        400: errors[400],
        429: errors[429],
        503: {
          description:
            "No ETH/USD price is available (`PRICE_UNAVAILABLE`, with Retry-After), or the database is unavailable (`SERVICE_UNAVAILABLE`).",
        },
      },
      handler: async (request) => ({ success: true, stats: await stats.platform(request.query.chainId) }),
    }),
  ];
}

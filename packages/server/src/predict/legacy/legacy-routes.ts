import {
  predictLegacyMarketParamsSchema,
  predictLegacyMarketSchema,
  predictLegacyMarketsQuerySchema,
  predictLegacyMarketsSchema,
  predictLegacyTradesSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { keyRefused, projectionUnavailable } from "../responses.ts";
import type { LegacyMarkets } from "./legacy.ts";

const LEGACY_MARKET_DOC =
  "A legacy market is flat: `id` (the factory's market id, a JSON number), `contract` (the market's address), `title` (the question), `status` (`active`, `paused` or `resolved`; a resolved market is `resolved` whatever its pause flag), `winner` (`YES`, `NO`, or null until resolved), `yesPool` and `noPool` (share units), `liquidity` (the contract's backing, Wei), `volume` (Wei), `createdBlock` (a JSON number). Amounts are decimal strings. Unlike V9 the answer names no block; it is read from the same finalized projection, with the predict scope's head, in one snapshot.";

/** `GET /legacy/markets`, `/legacy/markets/{id}` and `/legacy/markets/{id}/trades`: the earlier generation's routes. */
export function legacyRoutes({ legacy }: { legacy: LegacyMarkets }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/legacy/markets",
      operationId: "predictLegacyListMarkets",
      summary: "Earlier generation: a page of markets (deprecated; use GET /predict/v9/markets)",
      description: `An earlier-generation route kept for first-party history and migration; it is NOT the supported developer surface: use \`GET /predict/v9/markets\` (cursor paging, the V9 market shape, the block read) instead.

Paged by \`page\`, oldest market id first: \`page\` 1 to 10000 (default 1), \`per_page\` 1 to 100 (default 20); \`has_more\` is true when a market exists after this page. Page \`p\` holds the markets whose id is from \`first + (p − 1) × per_page\` up to but excluding \`first + p × per_page\`, \`first\` being the oldest market's id: the factory numbers its markets consecutively, so this is offset paging (every page full but the last), and any page, however deep, costs the same (a range of the id index, not an offset walked). Market ids only grow and no market leaves the projection, so markets created during a walk land after its end: a walk by \`page\` neither repeats nor skips a market. A malformed or out-of-range \`page\` or \`per_page\` is 400 \`INVALID_INPUT\`.

${LEGACY_MARKET_DOC}`,
      tags: ["Legacy"],
      deprecated: true,
      request: { query: predictLegacyMarketsQuerySchema },
      responses: {
        200: { description: "A page of legacy markets.", schema: predictLegacyMarketsSchema },
        400: { description: "`page` is not 1 to 10000 or `per_page` not 1 to 100 (`INVALID_INPUT`)." },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: async (request) => legacy.page(request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/legacy/markets/:id",
      operationId: "predictLegacyGetMarket",
      summary:
        "Earlier generation: one market by numeric id (deprecated; use GET /predict/v9/markets/{address})",
      description: `An earlier-generation route kept for first-party history and migration; it is NOT the supported developer surface: use \`GET /predict/v9/markets/{address}\` (by the market's address, with the block read) instead.

\`id\` is the factory's numeric market id (\`^(0|[1-9][0-9]{0,17})$\`; anything else is 400 \`INVALID_INPUT\`); 404 \`MARKET_NOT_FOUND\` when the projection has no market with that id.

${LEGACY_MARKET_DOC}`,
      tags: ["Legacy"],
      deprecated: true,
      request: { params: predictLegacyMarketParamsSchema },
      responses: {
        200: { description: "The legacy market.", schema: predictLegacyMarketSchema },
        400: { description: "`id` is not a numeric market id (`INVALID_INPUT`)." },
        404: { description: "The projection has no market with this id (`MARKET_NOT_FOUND`)." },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: async (request) => legacy.get(request.params.id),
    }),
    defineRoute({
      method: "GET",
      path: "/legacy/markets/:id/trades",
      operationId: "predictLegacyMarketTrades",
      summary: "Earlier generation: a market's trades by numeric id (deprecated; no V9 equivalent)",
      description: `An earlier-generation route kept for first-party history and migration; it is NOT the supported developer surface: V9 has no per-market trade list; follow \`GET /predict/v9/stream\` (\`trade\` events) and read \`GET /predict/v9/markets/{address}\` (\`trades\`, \`volumeWeth\`) instead.

The finalized buys, sells and redemptions of the market with numeric \`id\` (as \`GET /predict/v9/legacy/markets/{id}\`), oldest first (block, then log index). Paged by \`page\`: \`page\` 1 to 10000 (default 1), \`per_page\` 1 to 100 (default 20), \`has_more\` true when a trade exists after this page. Each trade has an ordinal in its market (1, 2, … in chain order, kept by the projection as it indexes): page \`p\` holds the ordinals \`(p − 1) × per_page + 1\` to \`p × per_page\`, which is offset paging, and any page, however deep in a busy market's history, costs the same (a range of the ordinal index, not an offset walked). Trades are only appended at the head, so a walk by \`page\` neither repeats nor skips one. A malformed \`id\`, \`page\` or \`per_page\` is 400 \`INVALID_INPUT\`; 404 \`MARKET_NOT_FOUND\` when the projection has no market with that id.

A legacy trade: \`txHash\`, \`blockNumber\` and \`logIndex\` (JSON numbers), \`timestamp\` (the block's time, Unix seconds), \`trader\`, \`type\` (\`buy\`, \`sell\`, \`redeem\`), \`outcome\` (\`YES\` or \`NO\`), \`amount\` (WETH in for a buy, fee included; out for a sell or a redemption; Wei), \`fee\` (Wei), \`shares\`. Amounts are decimal strings.`,
      tags: ["Legacy"],
      deprecated: true,
      request: { params: predictLegacyMarketParamsSchema, query: predictLegacyMarketsQuerySchema },
      responses: {
        200: { description: "A page of the market's trades.", schema: predictLegacyTradesSchema },
        400: {
          description:
            "`id` is not a numeric market id, `page` not 1 to 10000 or `per_page` not 1 to 100 (`INVALID_INPUT`).",
        },
        404: { description: "The projection has no market with this id (`MARKET_NOT_FOUND`)." },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: async (request) => legacy.trades(request.params.id, request.query),
    }),
  ];
}

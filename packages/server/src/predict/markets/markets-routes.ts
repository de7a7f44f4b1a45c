import {
  PREDICT_MARKETS_LIMIT,
  predictMarketParamsSchema,
  predictMarketResponseSchema,
  predictMarketsPageSchema,
  predictMarketsQuerySchema,
  predictQuoteQuerySchema,
  predictQuoteSchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { keyRefused, projectionUnavailable } from "../responses.ts";
import type { PredictMarkets } from "./markets.ts";

const BLOCK_DOC =
  "`block` is the finalized block whose end state the answer reflects: `number` (decimal string), `hash`, `timestamp` (ISO 8601, UTC). It is the prediction scope's indexer head (its last indexed block), read in the same database snapshot as the rows.";

const MARKET_DOC = `A market: \`address\`, \`marketId\` (the factory's sequential id), \`creator\`, \`question\`, \`outcomes\` (yes = side index 0, no = 1), \`state\` (\`open\`, \`paused\` by an operator, \`resolved\` with \`outcome\` \`yes\` or \`no\`; a resolved market stays \`resolved\` whatever its pause flag, which \`paused\` shows as the contract holds it), \`feeBps\` (0 to 1000), \`totalSeed\` and \`backingWeth\` (Wei), \`pool\` (the market maker's YES and NO balances, share units), \`prices\` (each side's \`probabilityBps\` exactly as the contract computes it: the other pool's share of both, rounded down, so YES + NO may be 9999; null once liquidity was collected and both pools are empty), \`feesAccrued\`, \`liquidityCollected\`, \`volumeWeth\` (buys' WETH in plus sells' WETH out), \`trades\`, \`createdBlock\`/\`createdAt\`, \`resolvedBlock\`/\`resolvedAt\` (null until resolved), \`updatedBlock\`. Wei and share amounts are decimal strings; basis points are integers (10000 = 100%).`;

/** `GET /markets`, `GET /markets/{address}` and `GET /quote` of the prediction feed. */
export function predictMarketsRoutes({ markets }: { markets: PredictMarkets }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/markets",
      operationId: "predictListMarkets",
      summary: "A page of markets, newest first",
      description: `Markets of the official projection, newest first (\`marketId\` descending), in \`markets\`.

Paging: \`limit\` 1 to ${PREDICT_MARKETS_LIMIT.max} (default ${PREDICT_MARKETS_LIMIT.default}); \`cursor\` is the previous page's \`nextCursor\` (a positive integer: the last \`marketId\` of that page; the next page holds the markets with a smaller id). \`nextCursor\` is null only when no older market exists; a short page is not the end. Market ids are assigned once, in creation order, and never change, so following \`nextCursor\` until null returns every market that existed when the walk started exactly once, even while markets are created (new markets come before the first page). A malformed \`cursor\` or \`limit\` is 400 \`INVALID_INPUT\`.

${MARKET_DOC}

${BLOCK_DOC}

Kept in the shared read cache until the prediction scope indexes another block (\`Cache-Control: private, max-age=2\`, \`ETag\`, \`If-None-Match\` → 304).`,
      tags: ["Markets"],
      request: { query: predictMarketsQuerySchema },
      responses: {
        200: { description: "A page of markets.", schema: predictMarketsPageSchema },
        400: {
          description: "`cursor` is not a positive integer, or `limit` is not 1 to 100 (`INVALID_INPUT`).",
        },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: async (request) => markets.page(request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/markets/:address",
      operationId: "predictGetMarket",
      summary: "One market by address",
      description: `The market at \`address\` (\`^0x[0-9a-fA-F]{40}$\`, any case) with the block it was read at. 404 \`MARKET_NOT_FOUND\` when the official projection does not have it (not created by the feed's factory, or not yet final).

${MARKET_DOC}

${BLOCK_DOC}

Kept in the shared read cache until the prediction scope indexes another block (\`Cache-Control: private, max-age=2\`, \`ETag\`).`,
      tags: ["Markets"],
      request: { params: predictMarketParamsSchema },
      responses: {
        200: { description: "The market.", schema: predictMarketResponseSchema },
        400: { description: "`address` is not a 20-byte hex address (`INVALID_INPUT`)." },
        404: { description: "The projection has no market at `address` (`MARKET_NOT_FOUND`)." },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: async (request) => markets.get(request.params.address),
    }),
    defineRoute({
      method: "GET",
      path: "/quote",
      operationId: "predictQuote",
      summary: "A block-pinned buy preview",
      description: `What \`Market.buy(side, amount, 0)\` returns on the market's state at \`block\`: computed with exactly the contract's integer math (\`calcBuyAmount\`) on the projection at the finalized head, so executing the buy on that state yields exactly \`sharesOut\`. Rounded against the buyer: \`fee\` = floor(amount × feeBps / 10000), taken from \`amount\` as the contract does; \`sharesOut\` rounds the pool's remainder up, as the contract does; \`averagePriceBps\` = ceil(amount × 10000 / sharesOut). \`probabilityBeforeBps\` and \`probabilityAfterBps\` are the side's \`probabilityBps\` on the pools before and after the buy.

Query: \`market\` (\`^0x[0-9a-fA-F]{40}$\`, any case), \`side\` (\`yes\` or \`no\`), \`amount\` (WETH in Wei, fee included: a whole number, 1 to 2^256 − 1, and small enough that no intermediate of the contract's buy passes 2^256 − 1: amount × feeBps, yes × no pools, each pool plus the investment, backing plus the investment, accrued fees plus the fee).

Errors: 400 \`INVALID_INPUT\` for a malformed \`market\`, \`side\` or \`amount\` (negative, fractional, not a number, more than 78 digits); 400 \`INVALID_AMOUNT\` for an amount of 0, one beyond the contract's bounds above (the contract would revert), or one that buys no share (the contract's \`sharesOut > 0\` guard; unreachable while fees stay below 100%, since sharesOut ≥ amount − fee ≥ 1); 404 \`MARKET_NOT_FOUND\` when the projection does not have the market; 409 \`MARKET_NOT_TRADING\` when it is resolved or paused (the contract refuses every buy). The buyer's own WETH balance and allowance are not checked.

A later block may quote differently: execute with \`minSharesOut\` for slippage protection. ${BLOCK_DOC}

Kept in the shared read cache, keyed by the query, until the prediction scope indexes another block (\`Cache-Control: private, max-age=1\`, \`ETag\`): a kept answer is dropped as soon as the head moves, and always names its own block.`,
      tags: ["Markets"],
      request: { query: predictQuoteQuerySchema },
      responses: {
        200: { description: "The quote.", schema: predictQuoteSchema },
        400: {
          description:
            "Malformed input (`INVALID_INPUT`), or an amount the contract refuses (`INVALID_AMOUNT`).",
        },
        404: { description: "The projection has no market at `market` (`MARKET_NOT_FOUND`)." },
        409: { description: "The market is resolved or paused (`MARKET_NOT_TRADING`)." },
        429: keyRefused,
        503: projectionUnavailable,
      },
      handler: async (request) => markets.quote(request.query),
    }),
  ];
}

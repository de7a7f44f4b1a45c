import { z } from "zod";
import { liveEndSchema, liveReadySchema } from "../market/live.ts";
import { integerParam } from "../params/index.ts";
import { address, addressInput, shares, uintString, wei } from "./common.ts";
import { PREDICT_MARKET_STATES, PREDICT_SIDES, predictBlockSchema } from "./markets.ts";

/**
 * The prediction feed's stream, portfolio, points, media and legacy shapes
 * (docs/predict.md). Amounts are integer strings
 * (Wei of WETH, or share units: one winning share redeems for 1 Wei).
 */

// ---------------------------------------------------------------------------
// Stream

/** `GET /predict/v9/stream`: the numbers are the live hub's (the market's live updates'). */
export const PREDICT_STREAM = {
  path: "/predict/v9/stream",
} as const;

export const predictResyncSchema = z
  .object({
    reason: z
      .enum(["expired", "unknown", "reorg"])
      .describe(
        "`expired`: events after `Last-Event-ID` left the log's window; `unknown`: the id is not one this server issued (another database, a made-up id); `reorg`: the feed's finalized projection moved back (a reorganisation below the finalized head, or the projection was rebuilt).",
      ),
  })
  .meta({ id: "PredictResync" });

export const predictMarketEventSchema = z
  .object({
    chainId: z.number().int(),
    market: address("The market contract"),
    marketId: uintString("The factory's id of the market."),
    change: z
      .enum(["created", "status"])
      .describe("`created`: a new market; `status`: it was paused or unpaused."),
    state: z
      .enum(["active", "paused"])
      .describe("The projection's status after the change (`active` is the wire state `open`)."),
  })
  .meta({ id: "PredictMarketEvent" });

export const predictResolutionEventSchema = z
  .object({
    chainId: z.number().int(),
    market: address("The market contract"),
    marketId: uintString("The factory's id of the market."),
    outcome: z.number().int().min(0).max(1).nullable().describe("Side index of the winner: 0 yes, 1 no."),
  })
  .meta({ id: "PredictResolutionEvent" });

export const predictTradeEventSchema = z
  .object({
    chainId: z.number().int(),
    market: address("The market contract"),
    kind: z.enum(["buy", "sell", "redeem"]),
    block: uintString("The block of the trade."),
  })
  .meta({ id: "PredictTradeEvent" });

export const predictHeadEventSchema = z
  .object({
    scope: z.string().describe("The indexer scope of the feed's projection (the runtime record's `scope`)."),
    finalizedBlock: z
      .number()
      .int()
      .describe("The last finalized block the projection holds; reads now reflect it."),
    revision: z.number().int().describe("The projection's revision."),
  })
  .meta({ id: "PredictHeadEvent" });

/** Every event of the stream by its SSE `event:` name, with the schema of its `data:` JSON. */
export const predictStreamEventSchemas = {
  ready: liveReadySchema,
  resync: predictResyncSchema,
  end: liveEndSchema,
  market: predictMarketEventSchema,
  resolution: predictResolutionEventSchema,
  trade: predictTradeEventSchema,
  head: predictHeadEventSchema,
  position: z.object({}).meta({ id: "PredictStreamPosition" }),
} as const;

export type PredictStreamEventName = keyof typeof predictStreamEventSchemas;
export type PredictStreamEventData = {
  [K in PredictStreamEventName]: z.output<(typeof predictStreamEventSchemas)[K]>;
};
/** One parsed event of the prediction feed's stream. */
export type PredictStreamEvent = {
  [K in PredictStreamEventName]: { event: K; id: string | undefined; data: PredictStreamEventData[K] };
}[PredictStreamEventName];

const PREDICT_STREAM_EVENT_NAMES = Object.keys(predictStreamEventSchemas) as PredictStreamEventName[];

/** Parses one SSE event of the stream; undefined for an event name this version does not know. */
export function parsePredictStreamEvent(raw: {
  event?: string | undefined;
  id?: string | undefined;
  data: string;
}): PredictStreamEvent | undefined {
  const name = raw.event ?? "message";
  if (!Object.hasOwn(predictStreamEventSchemas, name)) return undefined;
  const schema: z.ZodType = predictStreamEventSchemas[name as PredictStreamEventName];
  return { event: name, id: raw.id, data: schema.parse(JSON.parse(raw.data)) } as PredictStreamEvent;
}

/** The stream as OpenAPI documents it: each SSE event as `{event, id, data}`. */
export const predictStreamEventSchema = z
  .discriminatedUnion(
    "event",
    PREDICT_STREAM_EVENT_NAMES.map((name) =>
      z.object({
        event: z.literal(name),
        id: z.string().optional().describe("The SSE `id:` line: resume after it with `Last-Event-ID`."),
        data: predictStreamEventSchemas[name],
      }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .meta({ id: "PredictStreamEvent" });

// ---------------------------------------------------------------------------
// Portfolio

export const PREDICT_PORTFOLIO_LIMIT = { default: 50, max: 100 } as const;

export const predictAddressParamsSchema = z.object({ address: addressInput("address") });

export const predictPortfolioQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "cursor must be the `nextCursor` of an earlier page (a market address)")
    .transform((value) => value.toLowerCase())
    .optional()
    .describe("The `nextCursor` of the previous page; absent for the first page."),
  limit: integerParam("limit", {
    min: 1,
    max: PREDICT_PORTFOLIO_LIMIT.max,
    default: PREDICT_PORTFOLIO_LIMIT.default,
  }).describe(
    `Positions per page, 1 to ${PREDICT_PORTFOLIO_LIMIT.max} (default ${PREDICT_PORTFOLIO_LIMIT.default}).`,
  ),
});
export type PredictPortfolioQuery = z.input<typeof predictPortfolioQuerySchema>;

export const predictPositionSchema = z
  .object({
    market: address("The market contract"),
    marketId: uintString("The factory's id of the market."),
    question: z.string(),
    state: z.enum(PREDICT_MARKET_STATES),
    outcome: z.enum(PREDICT_SIDES).nullable(),
    yesShares: shares("YES shares held."),
    noShares: shares("NO shares held."),
    valueWeth: wei(
      "Current value estimate. Open or paused market: `floor(yesShares * noPool / (yesPool + noPool)) + floor(noShares * yesPool / (yesPool + noPool))` (shares times the marginal price, each side rounded down; 0 when both pools are empty). Resolved market: the redeemable winnings.",
    ),
    redeemableWeth: wei(
      "Resolved markets: winning-side shares not yet redeemed (1 Wei per share); 0 otherwise.",
    ),
    redeemedWeth: wei("WETH already redeemed from this market."),
  })
  .meta({ id: "PredictPosition" });
export type PredictPosition = z.output<typeof predictPositionSchema>;

export const predictPortfolioSchema = z
  .object({
    address: address("The owner"),
    positions: z
      .array(predictPositionSchema)
      .describe("Markets where the owner holds shares or has redeemed, by market address ascending."),
    nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null at the end."),
    totals: z
      .object({
        positions: z.number().int().describe("Positions of the owner (every page)."),
        valueWeth: wei("Sum of `valueWeth` over every position (every page)."),
        redeemableWeth: wei("Sum of `redeemableWeth` over every position (every page)."),
        redeemedWeth: wei("Sum of `redeemedWeth` over every position (every page)."),
      })
      .describe("Over all of the owner's positions, not only this page."),
    block: predictBlockSchema,
  })
  .meta({ id: "PredictPortfolio" });
export type PredictPortfolio = z.output<typeof predictPortfolioSchema>;

// ---------------------------------------------------------------------------
// Points

/** Wei of WETH per point: 10^15 (0.001 WETH). */
export const PREDICT_POINTS_UNIT = 1_000_000_000_000_000n;

/**
 * The points rule, the one definition every writer and reader applies:
 * `floor((buyWeth + sellWeth) / 10^15) + floor(redeemedWeth / 10^15)`.
 * `buyWeth` is the WETH paid into buys (fee included, the `Buy` event's
 * `wethIn`), `sellWeth` the WETH received from sells (`wethOut`),
 * `redeemedWeth` the payouts of `Redeemed`.
 */
export function predictPointsOf({
  buyWeth,
  sellWeth,
  redeemedWeth,
}: {
  buyWeth: bigint;
  sellWeth: bigint;
  redeemedWeth: bigint;
}): bigint {
  return (buyWeth + sellWeth) / PREDICT_POINTS_UNIT + redeemedWeth / PREDICT_POINTS_UNIT;
}
export const PREDICT_LEADERBOARD_LIMIT = { default: 20, max: 100 } as const;

export const predictPointsSchema = z
  .object({
    address: address("The trader"),
    points: uintString(
      "`floor((buyWeth + sellWeth) / 10^15) + floor(redeemedWeth / 10^15)`, over the trader's finalized trades.",
    ),
    buyWeth: wei("WETH paid into buys (fees included)."),
    sellWeth: wei("WETH received from sells."),
    redeemedWeth: wei("WETH received from redemptions."),
    trades: z.number().int().describe("Buys, sells and redemptions counted."),
    block: predictBlockSchema,
  })
  .meta({ id: "PredictPoints" });
export type PredictPoints = z.output<typeof predictPointsSchema>;

export const predictLeaderboardQuerySchema = z.object({
  limit: integerParam("limit", {
    min: 1,
    max: PREDICT_LEADERBOARD_LIMIT.max,
    default: PREDICT_LEADERBOARD_LIMIT.default,
  }).describe(
    `Traders, 1 to ${PREDICT_LEADERBOARD_LIMIT.max} (default ${PREDICT_LEADERBOARD_LIMIT.default}).`,
  ),
});

export const predictLeaderboardSchema = z
  .object({
    leaders: z
      .array(
        z.object({ rank: z.number().int(), address: address("The trader"), points: uintString("Points.") }),
      )
      .describe("Most points first; ties by address ascending. Only the top `limit`; no further pages."),
    block: predictBlockSchema,
  })
  .meta({ id: "PredictLeaderboard" });
export type PredictLeaderboard = z.output<typeof predictLeaderboardSchema>;

// ---------------------------------------------------------------------------
// Legacy (earlier generation; not the supported surface)

export const predictLegacyMarketSchema = z
  .object({
    id: z
      .number()
      .int()
      .describe("The factory's market id (a JSON number, as the earlier generation sent it)."),
    contract: address("The market contract"),
    title: z.string(),
    status: z.enum(["active", "paused", "resolved"]),
    winner: z.enum(["YES", "NO"]).nullable(),
    yesPool: z.string(),
    noPool: z.string(),
    liquidity: z.string().describe("The contract's backing, Wei."),
    volume: z.string().describe("Wei."),
    createdBlock: z.number().int(),
  })
  .meta({ id: "PredictLegacyMarket" });
export type PredictLegacyMarket = z.output<typeof predictLegacyMarketSchema>;

export const predictLegacyMarketsQuerySchema = z.object({
  page: integerParam("page", { min: 1, max: 10_000, default: 1 }).describe("1-based page, oldest id first."),
  per_page: integerParam("per_page", { min: 1, max: 100, default: 20 }).describe("1 to 100 (default 20)."),
});

export const predictLegacyMarketsSchema = z
  .object({
    data: z.array(predictLegacyMarketSchema),
    page: z.number().int(),
    per_page: z.number().int(),
    has_more: z.boolean(),
  })
  .meta({ id: "PredictLegacyMarkets" });

export const predictLegacyMarketParamsSchema = z.object({
  id: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,17})$/, "id must be a market's numeric id")
    .describe("The factory's numeric market id."),
});

export const predictLegacyTradeSchema = z
  .object({
    txHash: z.string().describe("The transaction's hash."),
    blockNumber: z.number().int().describe("A JSON number, as the earlier generation sent it."),
    logIndex: z.number().int(),
    timestamp: z.number().int().describe("The block's time, Unix seconds."),
    trader: address("The trader"),
    type: z.enum(["buy", "sell", "redeem"]),
    outcome: z.enum(["YES", "NO"]).nullable().describe("The side traded or redeemed."),
    amount: z.string().describe("WETH in (buy, fee included) or out (sell, redeem), Wei."),
    fee: z.string().describe("Wei."),
    shares: z.string().describe("Shares bought, sold or redeemed."),
  })
  .meta({ id: "PredictLegacyTrade" });
export type PredictLegacyTrade = z.output<typeof predictLegacyTradeSchema>;

export const predictLegacyTradesSchema = z
  .object({
    data: z.array(predictLegacyTradeSchema),
    page: z.number().int(),
    per_page: z.number().int(),
    has_more: z.boolean(),
  })
  .meta({ id: "PredictLegacyTrades" });

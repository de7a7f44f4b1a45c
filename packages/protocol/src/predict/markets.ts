import { z } from "zod";
import { integerParam } from "../params/index.ts";
import { address, addressInput, bps, hash, shares, uintString, wei } from "./common.ts";

/**
 * The prediction feed's market and quote shapes
 * (docs/predict.md). Amounts are integer strings: WETH values in Wei, shares
 * in share units (one winning share redeems for 1 Wei of WETH).
 * Probabilities and prices are basis points (10000 = 100%).
 */

/** Outcome sides as the wire names them; the contract's side index is 0 for yes, 1 for no. */
export const PREDICT_SIDES = ["yes", "no"] as const;
export type PredictSide = (typeof PREDICT_SIDES)[number];

/**
 * A market's state: `open` (trading), `paused` (an operator paused trading;
 * not resolved), `resolved` (an outcome is set; trading is over for good).
 */
export const PREDICT_MARKET_STATES = ["open", "paused", "resolved"] as const;
export type PredictMarketState = (typeof PREDICT_MARKET_STATES)[number];

/** The finalized block a read reflects: every value of the answer is the chain's state at its end. */
export const predictBlockSchema = z
  .object({
    number: uintString("Block number."),
    hash: hash("Block hash"),
    timestamp: z.string().describe("The block's time, ISO 8601 (UTC)."),
  })
  .meta({ id: "PredictBlock" });
export type PredictBlock = z.output<typeof predictBlockSchema>;

export const predictMarketSchema = z
  .object({
    address: address("The market contract"),
    marketId: uintString("The factory's sequential id of the market (the `/markets` cursor orders by it)."),
    chainId: z.number().int(),
    creator: address("The account that created and seeded the market"),
    question: z.string(),
    outcomes: z
      .array(z.object({ side: z.enum(PREDICT_SIDES), index: z.number().int().min(0).max(1) }))
      .describe("The two outcomes: yes (side index 0) and no (side index 1)."),
    state: z.enum(PREDICT_MARKET_STATES),
    paused: z.boolean().describe("The contract's pause flag (an operator may pause a resolved market too)."),
    outcome: z.enum(PREDICT_SIDES).nullable().describe("The winning side once resolved, else null."),
    feeBps: bps("Trading fee taken from each buy's WETH and added to each sell's gross amount."),
    totalSeed: wei("The creator's seed: the WETH that backed the first complete sets."),
    backingWeth: wei("WETH backing the outstanding complete sets (the contract's `backing`)."),
    pool: z
      .object({ yes: shares("Pool balance of YES shares."), no: shares("Pool balance of NO shares.") })
      .describe("The market maker's outcome balances."),
    prices: z
      .object({
        yes: bps(
          "Marginal probability (price) of YES: the NO pool's share of both pools, rounded down (the contract's `probabilityBps(0)`).",
        ),
        no: bps(
          "Marginal probability (price) of NO: the YES pool's share of both pools, rounded down (`probabilityBps(1)`); YES + NO may be 9999.",
        ),
      })
      .nullable()
      .describe("Null once liquidity was collected (both pools empty)."),
    feesAccrued: wei("Trading fees the market holds for the creator (zero after collection)."),
    liquidityCollected: z.boolean(),
    volumeWeth: wei("WETH traded: buys' WETH in plus sells' WETH out."),
    trades: z.number().int().describe("Buys and sells so far."),
    createdBlock: uintString("Block of the `MarketCreated` event."),
    createdAt: z.string().describe("Time of that block, ISO 8601 (UTC)."),
    resolvedBlock: uintString("Block of the `Resolved` event.").nullable(),
    resolvedAt: z.string().nullable(),
    updatedBlock: uintString("Block of the last event that changed the market."),
  })
  .meta({ id: "PredictMarket" });
export type PredictMarket = z.output<typeof predictMarketSchema>;

export const PREDICT_MARKETS_LIMIT = { default: 20, max: 100 } as const;

export const predictMarketsQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,77}$/, "cursor must be a positive integer (a `nextCursor` of an earlier page)")
    .optional()
    .describe("The `nextCursor` of the previous page; absent for the first (newest) page."),
  limit: integerParam("limit", {
    min: 1,
    max: PREDICT_MARKETS_LIMIT.max,
    default: PREDICT_MARKETS_LIMIT.default,
  }).describe(
    `Markets per page, 1 to ${PREDICT_MARKETS_LIMIT.max} (default ${PREDICT_MARKETS_LIMIT.default}).`,
  ),
});
export type PredictMarketsQuery = z.input<typeof predictMarketsQuerySchema>;

export const predictMarketsPageSchema = z
  .object({
    markets: z.array(predictMarketSchema).describe("Newest first (by `marketId`, descending)."),
    nextCursor: z
      .string()
      .nullable()
      .describe("Pass as `cursor` for the next page; null only when no older market exists."),
    block: predictBlockSchema,
  })
  .meta({ id: "PredictMarketsPage" });
export type PredictMarketsPage = z.output<typeof predictMarketsPageSchema>;

export const predictMarketParamsSchema = z.object({
  address: addressInput("address"),
});

export const predictMarketResponseSchema = z
  .object({ market: predictMarketSchema, block: predictBlockSchema })
  .meta({ id: "PredictMarketResponse" });
export type PredictMarketResponse = z.output<typeof predictMarketResponseSchema>;

/** `GET /quote`: a buy preview. */
export const predictQuoteQuerySchema = z.object({
  market: addressInput("market").describe("The market contract."),
  side: z.enum(PREDICT_SIDES).describe("The outcome to buy."),
  amount: z
    .string()
    .regex(/^[0-9]{1,78}$/, "amount must be a whole number of Wei")
    .describe("WETH to spend, in Wei (fee included), a positive integer within uint256."),
});
export type PredictQuoteQuery = z.input<typeof predictQuoteQuerySchema>;

export const predictQuoteSchema = z
  .object({
    market: address("The market contract"),
    side: z.enum(PREDICT_SIDES),
    amountIn: wei("WETH spent, fee included."),
    fee: wei("Fee taken from `amountIn` (rounded down, as the contract does)."),
    sharesOut: shares(
      "Shares the buy returns at `block`: exactly `calcBuyAmount(side, amountIn)` of the contract, rounded against the buyer.",
    ),
    averagePriceBps: z
      .number()
      .int()
      .min(0)
      .describe(
        "Average price per share, `amountIn * 10000 / sharesOut` rounded up (against the buyer); basis points of 1 Wei per share, so it can pass 10000 when the fee outweighs the gain.",
      ),
    probabilityBeforeBps: bps("The side's marginal probability at `block`, before the buy."),
    probabilityAfterBps: bps("The side's marginal probability after the buy."),
    block: predictBlockSchema,
  })
  .meta({ id: "PredictQuote" });
export type PredictQuote = z.output<typeof predictQuoteSchema>;

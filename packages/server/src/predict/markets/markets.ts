import { BuyRefusedError, probabilityBps, quoteBuyChecked, SIDE, type Side } from "@mkt/chain";
import type {
  PredictBlock,
  PredictMarket,
  PredictMarketResponse,
  PredictMarketState,
  PredictMarketsPage,
  PredictQuote,
  PredictSide,
} from "@mkt/protocol";
import type { FactoryRole } from "../../chains/index.ts";
import type { Database } from "../../db/index.ts";
import { AppError, badRequest, notFound, UnavailableError } from "../../errors.ts";

export interface PredictMarketsDeps {
  db: Database;
  /** The predict role (chains/roles.ts): the factory scope whose projection is read. */
  predict: FactoryRole | undefined;
}

export interface MarketsPageRequest {
  /** The previous page's `nextCursor`: markets with a smaller id follow. */
  cursor?: string | undefined;
  limit: number;
}

export interface QuoteRequest {
  /** Lowercase market address. */
  market: string;
  side: PredictSide;
  /** WETH in Wei, a decimal string of digits (checked here: above zero, within uint256). */
  amount: string;
}

/**
 * A market as the page's JSON array holds it, in this order (one JSON value
 * per statement: both drivers parse one JSON aggregate far faster than rows
 * of typed columns). Amounts are text, so no digit is lost.
 */
export type MarketTuple = [
  address: string,
  marketId: string,
  creator: string,
  question: string,
  seed: string,
  feeBps: number,
  yesPool: string,
  noPool: string,
  backing: string,
  volume: string,
  status: "active" | "paused" | "resolved",
  outcome: 0 | 1 | null,
  paused: boolean,
  feesAccrued: string,
  liquidityCollected: boolean,
  tradeCount: number,
  createdBlock: string,
  createdAt: string,
  resolvedBlock: string | null,
  resolvedAt: string | null,
  updatedBlock: string,
];

/** The head columns every read returns with its rows, from the same statement. */
export interface HeadColumns {
  head_block: string | null;
  head_hash: string | null;
  head_time: string | null;
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const MARKET_TUPLE = `json_build_array(m.address, m.market_id::text, m.creator, m.question, m.seed::text, m.fee_bps,
  m.yes_pool::text, m.no_pool::text, m.backing::text, m.volume::text, m.status, m.outcome, m.paused,
  m.fees_accrued::text, m.liquidity_collected, m.trade_count, m.created_block::text, ${iso("m.created_at")},
  m.resolved_block::text, ${iso("m.resolved_at")}, m.updated_block::text)`;

/**
 * The head of the scope and `rows` (a JSON value over `predict_markets m`
 * filtered by `$1` chain id, `$2` scope and `where`) in ONE statement: one
 * statement reads one snapshot on PostgreSQL (any isolation level) and on
 * PGlite, so the block the answer names is exactly the projection its rows
 * come from, as a repeatable-read transaction would give, in one round trip.
 */
const withHead = (rows: string) =>
  `SELECT (h.next_block - 1)::text AS head_block, h.block_hash AS head_hash, ${iso("h.block_time")} AS head_time,
     (${rows}) AS rows
   FROM (SELECT 1) one LEFT JOIN indexer_heads h ON h.scope = $2`;

const SIDE_NAMES = ["yes", "no"] as const satisfies readonly PredictSide[];
const OUTCOMES = SIDE_NAMES.map((side, index) => ({ side, index }));
const STATE_OF: Record<MarketTuple[10], PredictMarketState> = {
  active: "open",
  paused: "paused",
  resolved: "resolved",
};

/** `probabilityBps` of the contract, as a number; null when both pools are empty (the contract divides by zero). */
const priceOf = (pool: { yes: bigint; no: bigint }, side: Side): number | null =>
  pool.yes + pool.no === 0n ? null : Number(probabilityBps(pool, side));

export function toMarket(chainId: number, row: MarketTuple): PredictMarket {
  const [
    address,
    marketId,
    creator,
    question,
    seed,
    feeBps,
    yesPool,
    noPool,
    backing,
    volume,
    status,
    outcome,
  ] = row;
  const [
    paused,
    feesAccrued,
    liquidityCollected,
    trades,
    createdBlock,
    createdAt,
    resolvedBlock,
    resolvedAt,
  ] = row.slice(12) as [boolean, string, boolean, number, string, string, string | null, string | null];
  const updatedBlock = row[20];
  const pool = { yes: BigInt(yesPool), no: BigInt(noPool) };
  const yes = priceOf(pool, SIDE.yes);
  const no = priceOf(pool, SIDE.no);
  return {
    address,
    marketId,
    chainId,
    creator,
    question,
    outcomes: OUTCOMES,
    state: STATE_OF[status],
    paused,
    outcome: outcome === null ? null : SIDE_NAMES[outcome],
    feeBps,
    totalSeed: seed,
    backingWeth: backing,
    pool: { yes: yesPool, no: noPool },
    prices: yes === null || no === null ? null : { yes, no },
    feesAccrued,
    liquidityCollected,
    volumeWeth: volume,
    trades,
    createdBlock,
    createdAt,
    resolvedBlock,
    resolvedAt,
    updatedBlock,
  };
}

/**
 * The block a read reflects, from the head row; 503 while the scope has no
 * head that names one (never indexed, or just reset or rewound).
 */
export function blockOf(head: HeadColumns): PredictBlock {
  if (head.head_block === null || head.head_hash === null || head.head_time === null) {
    throw new UnavailableError("the prediction feed's projection has not reached a block yet", {
      retryAfterSeconds: 1,
    });
  }
  return { number: head.head_block, hash: head.head_hash, timestamp: head.head_time };
}

const marketNotFound = (address: string) =>
  notFound(`market ${address} is not in the prediction feed's projection`, "MARKET_NOT_FOUND");

/**
 * Reads `rows` (a JSON value over `predict_markets m`, whose SQL may use `$1`
 * chain id, `$2` scope and `$3…` for `params`) with the predict scope's head
 * in one statement (`withHead`); 503 when the deployment follows no
 * prediction chain. Shared with the legacy routes (predict/legacy).
 */
export function projectionReader({ db, predict }: PredictMarketsDeps) {
  const chainId = predict?.deployment.chainId ?? 0;
  const scope = predict?.scope;
  const read = async (rows: string, params: unknown[]): Promise<HeadColumns & { rows: unknown }> => {
    if (scope === undefined) throw new UnavailableError("this deployment follows no prediction chain");
    const result = await db.withConnection((connection) =>
      connection.query<HeadColumns & { rows: unknown }>(withHead(rows), [chainId, scope, ...params]),
    );
    return result.rows[0]!;
  };
  return { chainId, read };
}

export interface PredictMarkets {
  /**
   * A page of markets, newest first (`market_id` descending): the factory
   * numbers markets in creation order and a market's id never changes, so
   * `market_id < cursor` is a keyset over an immutable order and a walk
   * never repeats or skips a market, however many are created meanwhile.
   * `limit + 1` rows are read: `nextCursor` is set only when one more
   * market exists below the page.
   */
  page(options: MarketsPageRequest): Promise<PredictMarketsPage>;
  /** One market by (lowercase) address; 404 MARKET_NOT_FOUND when the projection does not have it. */
  get(address: string): Promise<PredictMarketResponse>;
  /**
   * What `buy(side, amount, 0)` returns at the head's block: the
   * contract's integer math on the market's state there (quoteBuyChecked),
   * with the contract's guards: a resolved or paused market is 409
   * MARKET_NOT_TRADING (resolution first, as `_requireTrading`), an amount
   * of zero or one that overflows an intermediate of the buy is 400
   * INVALID_AMOUNT, as is an amount that buys no share (unreachable while
   * fees stay below 100%). The average price is rounded up and the fee down
   * (as the contract takes it): both against the buyer.
   */
  quote(options: QuoteRequest): Promise<PredictQuote>;
}

/**
 * The prediction feed's markets and buy quotes, read from the predict
 * scope's projection (`predict_markets`) at its indexer head: every answer
 * names the block (number, hash, time) whose end state it reflects, read in
 * the same statement as its rows.
 */
export function createPredictMarkets({ db, predict }: PredictMarketsDeps): PredictMarkets {
  const { chainId, read } = projectionReader({ db, predict });

  /** One market row (or null) with the head, by address. */
  const one = async (address: string) => {
    const row = await read(
      `SELECT ${MARKET_TUPLE} FROM predict_markets m WHERE m.chain_id = $1 AND m.scope = $2 AND m.address = $3`,
      [address],
    );
    return { block: blockOf(row), market: (row.rows as MarketTuple | null) ?? undefined };
  };

  return {
    async page({ cursor, limit }: MarketsPageRequest): Promise<PredictMarketsPage> {
      const row = await read(
        `SELECT coalesce(json_agg(${MARKET_TUPLE} ORDER BY m.market_id DESC), '[]'::json)
         FROM (SELECT * FROM predict_markets
               WHERE chain_id = $1 AND scope = $2 AND ($3::numeric IS NULL OR market_id < $3::numeric)
               ORDER BY market_id DESC LIMIT $4) m`,
        [cursor ?? null, limit + 1],
      );
      const block = blockOf(row);
      const tuples = row.rows as MarketTuple[];
      const markets = tuples.slice(0, limit).map((tuple) => toMarket(chainId, tuple));
      const nextCursor = tuples.length > limit ? markets[markets.length - 1]!.marketId : null;
      return { markets, nextCursor, block };
    },

    async get(address: string): Promise<PredictMarketResponse> {
      const { block, market } = await one(address);
      if (market === undefined) throw marketNotFound(address);
      return { market: toMarket(chainId, market), block };
    },

    async quote({ market: address, side, amount }: QuoteRequest): Promise<PredictQuote> {
      const { block, market: tuple } = await one(address);
      if (tuple === undefined) throw marketNotFound(address);
      const market = toMarket(chainId, tuple);
      if (market.state !== "open") {
        throw new AppError(
          "conflict",
          market.state === "resolved"
            ? `market ${address} is resolved: trading is over`
            : `market ${address} is paused: buying is refused until it is unpaused`,
          { code: "MARKET_NOT_TRADING" },
        );
      }
      const sideIndex = SIDE[side];
      const pool = { yes: BigInt(market.pool.yes), no: BigInt(market.pool.no) };
      let quote: ReturnType<typeof quoteBuyChecked>;
      try {
        quote = quoteBuyChecked(
          {
            pool,
            feeBps: BigInt(market.feeBps),
            backing: BigInt(market.backingWeth),
            feesAccrued: BigInt(market.feesAccrued),
          },
          sideIndex,
          BigInt(amount),
        );
      } catch (error) {
        if (error instanceof BuyRefusedError) {
          throw badRequest(
            error.reason === "overflow"
              ? `amount is beyond the contract's bounds at this block (${error.message})`
              : `amount ${error.reason === "zero_amount" ? "must be above zero" : "buys no share at this block"}`,
            "INVALID_AMOUNT",
          );
        }
        throw error;
      }
      const amountIn = BigInt(amount);
      return {
        market: market.address,
        side,
        amountIn: amountIn.toString(),
        fee: quote.fee.toString(),
        sharesOut: quote.sharesOut.toString(),
        // sharesOut >= amountIn - fee, so this stays below 10000 / (1 - feeBps / 10000) + 1.
        averagePriceBps: Number((amountIn * 10_000n + quote.sharesOut - 1n) / quote.sharesOut),
        probabilityBeforeBps: Number(probabilityBps(pool, sideIndex)),
        probabilityAfterBps: Number(probabilityBps(quote.poolAfter, sideIndex)),
        block,
      };
    },
  };
}

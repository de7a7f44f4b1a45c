import type { PredictLegacyMarket, PredictLegacyTrade, PredictMarket } from "@mkt/protocol";
import { notFound } from "../../errors.ts";
import {
  blockOf,
  MARKET_TUPLE,
  type MarketTuple,
  type PredictMarketsDeps,
  projectionReader,
  toMarket,
} from "../markets/markets.ts";

export interface LegacyMarketsPageRequest {
  /** 1-based. */
  page: number;
  per_page: number;
}

export interface LegacyMarketsPage {
  data: PredictLegacyMarket[];
  page: number;
  per_page: number;
  has_more: boolean;
}

export interface LegacyTradesPage {
  data: PredictLegacyTrade[];
  page: number;
  per_page: number;
  has_more: boolean;
}

/** A trade as the page's JSON array holds it (amounts as text, so no digit is lost). */
type TradeTuple = [
  txHash: string,
  blockNumber: string,
  logIndex: number,
  timestamp: string,
  trader: string,
  kind: "buy" | "sell" | "redeem",
  side: 0 | 1 | null,
  weth: string,
  fee: string,
  shares: string,
];

const SIDE_NAMES = ["YES", "NO"] as const;
const WINNER = { yes: "YES", no: "NO" } as const;
const STATUS = { open: "active", paused: "paused", resolved: "resolved" } as const;

/** The earlier generation's flat market, from the V9 market of the same row. */
export function toLegacyMarket(market: PredictMarket): PredictLegacyMarket {
  return {
    id: Number(market.marketId),
    contract: market.address,
    title: market.question,
    status: STATUS[market.state],
    winner: market.outcome === null ? null : WINNER[market.outcome],
    yesPool: market.pool.yes,
    noPool: market.pool.no,
    liquidity: market.backingWeth,
    volume: market.volumeWeth,
    createdBlock: Number(market.createdBlock),
  };
}

export interface LegacyMarkets {
  /**
   * Pages of market ids, oldest first: page p holds the ids from
   * `first + (p - 1) × per_page` up to but excluding `first + p × per_page`,
   * `first` being the oldest market's id; `has_more` when the newest id is
   * past the page. The factory numbers its markets
   * consecutively and the projection holds every one from its start block,
   * so this is exactly offset paging (full pages, `has_more` exact), read
   * as a range of the id index at any depth instead of walking an offset.
   */
  page(options: LegacyMarketsPageRequest): Promise<LegacyMarketsPage>;
  /** One market by the factory's numeric id (a string of digits); 404 MARKET_NOT_FOUND. */
  get(id: string): Promise<PredictLegacyMarket>;
  /**
   * The trades of the market with this numeric id, oldest first (block,
   * then log index), paged by the trades' ordinals in their market
   * (`market_seq`, 1..n in chain order, kept by the projection): page p is
   * the ordinals `(p - 1) × per_page + 1` to `p × per_page`, read as a range
   * of the index however deep, which is exactly offset paging. Trades are
   * only appended at the head, so a walk by `page` neither repeats nor skips
   * one. The market and its trades are read in one statement with the head;
   * 404 MARKET_NOT_FOUND.
   */
  trades(id: string, options: LegacyMarketsPageRequest): Promise<LegacyTradesPage>;
}

/**
 * The earlier generation's market reads (kept for
 * first-party history and migration, not the supported surface), from the
 * same finalized projection and with the same reader as `/markets`: the head
 * and the rows in one statement, 503 while the head names no block.
 */
export function createLegacyMarkets(deps: PredictMarketsDeps): LegacyMarkets {
  const { chainId, read } = projectionReader(deps);

  return {
    async page({ page, per_page }: LegacyMarketsPageRequest): Promise<LegacyMarketsPage> {
      const row = await read(
        `SELECT json_build_array(
           (SELECT coalesce(json_agg(${MARKET_TUPLE} ORDER BY m.market_id), '[]'::json) FROM predict_markets m
            WHERE m.chain_id = $1 AND m.scope = $2 AND m.market_id >= f.low AND m.market_id < f.low + $4::int),
           coalesce(f.last >= f.low + $4::int, false))
         FROM (SELECT b.first + $3::numeric AS low, b.last FROM (SELECT
           (SELECT market_id FROM predict_markets WHERE chain_id = $1 AND scope = $2 ORDER BY market_id LIMIT 1) AS first,
           (SELECT market_id FROM predict_markets WHERE chain_id = $1 AND scope = $2 ORDER BY market_id DESC LIMIT 1) AS last
         ) b) f`,
        [(page - 1) * per_page, per_page],
      );
      blockOf(row);
      const [tuples, more] = row.rows as [MarketTuple[], boolean];
      return {
        data: tuples.map((tuple) => toLegacyMarket(toMarket(chainId, tuple))),
        page,
        per_page,
        has_more: more,
      };
    },

    async get(id: string): Promise<PredictLegacyMarket> {
      const row = await read(
        `SELECT ${MARKET_TUPLE} FROM predict_markets m
         WHERE m.chain_id = $1 AND m.scope = $2 AND m.market_id = $3::numeric`,
        [id],
      );
      blockOf(row);
      const tuple = row.rows as MarketTuple | null;
      if (tuple === null) {
        throw notFound(`market ${id} is not in the prediction feed's projection`, "MARKET_NOT_FOUND");
      }
      return toLegacyMarket(toMarket(chainId, tuple));
    },

    async trades(id: string, { page, per_page }: LegacyMarketsPageRequest): Promise<LegacyTradesPage> {
      const row = await read(
        `SELECT json_build_array(mk.address, (
           SELECT coalesce(json_agg(json_build_array(t.transaction_hash, t.block_number::text, t.log_index,
             floor(extract(epoch FROM t.block_time))::bigint::text, t.trader, t.kind, t.side, t.weth::text,
             t.fee::text, t.shares::text) ORDER BY t.market_seq), '[]'::json)
           FROM predict_trades t
           WHERE t.chain_id = $1 AND t.market = mk.address AND t.market_seq > $4::int AND t.market_seq <= $4::int + $5::int
             AND t.scope = $2), mk.trade_seq > $4::int + $5::int)
         FROM predict_markets mk WHERE mk.chain_id = $1 AND mk.scope = $2 AND mk.market_id = $3::numeric`,
        [id, (page - 1) * per_page, per_page],
      );
      blockOf(row);
      const found = row.rows as [string, TradeTuple[], boolean] | null;
      if (found === null) {
        throw notFound(`market ${id} is not in the prediction feed's projection`, "MARKET_NOT_FOUND");
      }
      return {
        data: found[1].map(toLegacyTrade),
        page,
        per_page,
        has_more: found[2],
      };
    },
  };
}

function toLegacyTrade([
  txHash,
  blockNumber,
  logIndex,
  timestamp,
  trader,
  kind,
  side,
  weth,
  fee,
  shares,
]: TradeTuple): PredictLegacyTrade {
  return {
    txHash,
    blockNumber: Number(blockNumber),
    logIndex,
    timestamp: Number(timestamp),
    trader,
    type: kind,
    outcome: side === null ? null : SIDE_NAMES[side],
    amount: weth,
    fee,
    shares,
  };
}

import type { PredictLegacyMarket, PredictMarket } from "@mkt/protocol";
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

/**
 * The earlier generation's market reads (predict-api.md: kept for
 * first-party history and migration, not the supported surface), from the
 * same finalized projection and with the same reader as `/markets`: the head
 * and the rows in one statement, 503 while the head names no block.
 */
export function createLegacyMarkets(deps: PredictMarketsDeps) {
  const { chainId, read } = projectionReader(deps);

  return {
    /**
     * Offset paging, oldest id first, as the earlier generation paged:
     * `per_page + 1` rows are read so `has_more` is exact.
     */
    async page({ page, per_page }: LegacyMarketsPageRequest): Promise<LegacyMarketsPage> {
      const row = await read(
        `SELECT coalesce(json_agg(${MARKET_TUPLE} ORDER BY m.market_id), '[]'::json)
         FROM (SELECT * FROM predict_markets WHERE chain_id = $1 AND scope = $2
               ORDER BY market_id LIMIT $3 OFFSET $4) m`,
        [per_page + 1, (page - 1) * per_page],
      );
      blockOf(row);
      const tuples = row.rows as MarketTuple[];
      return {
        data: tuples.slice(0, per_page).map((tuple) => toLegacyMarket(toMarket(chainId, tuple))),
        page,
        per_page,
        has_more: tuples.length > per_page,
      };
    },

    /** One market by the factory's numeric id (a string of digits); 404 MARKET_NOT_FOUND. */
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
  };
}

export type LegacyMarkets = ReturnType<typeof createLegacyMarkets>;

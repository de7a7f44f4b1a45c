import { PREDICT_POINTS_UNIT, type PredictLeaderboard, type PredictPoints } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { inFinalizedSnapshot } from "../finalized.ts";
import type { PredictFeedScope } from "../portfolio/portfolio.ts";

const integer = (value: string | null | undefined) => BigInt((value ?? "0").split(".")[0] ?? "0").toString();

/**
 * The points rule, the one definition every read applies:
 * `floor((buyWeth + sellWeth) / 10^15) + floor(redeemedWeth / 10^15)`.
 * `buyWeth` is the WETH paid into buys (fee included, the `Buy` event's
 * `wethIn`), `sellWeth` the WETH received from sells (`wethOut`),
 * `redeemedWeth` the payouts of `Redeemed`; sums over the trader's trades in
 * the finalized projection.
 */
export function pointsOf({
  buyWeth,
  sellWeth,
  redeemedWeth,
}: {
  buyWeth: bigint;
  sellWeth: bigint;
  redeemedWeth: bigint;
}) {
  return (buyWeth + sellWeth) / PREDICT_POINTS_UNIT + redeemedWeth / PREDICT_POINTS_UNIT;
}

const UNIT = PREDICT_POINTS_UNIT.toString();

/** Points of an address and the leaderboard, from `predict_trades`; one finalized snapshot each. */
export function createPointsService({ db, feed }: { db: Database; feed: PredictFeedScope }) {
  return {
    async points(trader: string): Promise<PredictPoints> {
      return inFinalizedSnapshot(db, feed.scope, async (tx, block) => {
        const { rows } = await sql<{
          buy: string | null;
          sell: string | null;
          redeem: string | null;
          n: string;
        }>`
          SELECT sum(weth) FILTER (WHERE kind = 'buy') AS buy, sum(weth) FILTER (WHERE kind = 'sell') AS sell,
            sum(weth) FILTER (WHERE kind = 'redeem') AS redeem, count(*) AS n
          FROM predict_trades WHERE chain_id = ${feed.chainId} AND trader = ${trader}`.execute(tx);
        const row = rows[0];
        const buyWeth = BigInt(integer(row?.buy));
        const sellWeth = BigInt(integer(row?.sell));
        const redeemedWeth = BigInt(integer(row?.redeem));
        return {
          address: trader,
          points: pointsOf({ buyWeth, sellWeth, redeemedWeth }).toString(),
          buyWeth: buyWeth.toString(),
          sellWeth: sellWeth.toString(),
          redeemedWeth: redeemedWeth.toString(),
          trades: Number(row?.n ?? 0),
          block,
        };
      });
    },

    /** The top `limit` traders by points (the same rule, in SQL), ties by address. */
    async leaderboard(limit: number): Promise<PredictLeaderboard> {
      return inFinalizedSnapshot(db, feed.scope, async (tx, block) => {
        const { rows } = await sql<{ trader: string; points: string }>`
          SELECT trader, points FROM (
            SELECT trader,
              div(coalesce(sum(weth) FILTER (WHERE kind IN ('buy', 'sell')), 0), ${UNIT}::numeric)
              + div(coalesce(sum(weth) FILTER (WHERE kind = 'redeem'), 0), ${UNIT}::numeric) AS points
            FROM predict_trades WHERE chain_id = ${feed.chainId} GROUP BY trader
          ) t
          ORDER BY points DESC, trader LIMIT ${limit}`.execute(tx);
        return {
          leaders: rows.map((row, index) => ({
            rank: index + 1,
            address: row.trader,
            points: integer(row.points),
          })),
          block,
        };
      });
    },
  };
}

export type PointsService = ReturnType<typeof createPointsService>;

import { type PredictLeaderboard, type PredictPoints, predictPointsOf } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { inFinalizedSnapshot } from "../finalized.ts";
import type { PredictFeedScope } from "../portfolio/portfolio.ts";

const integer = (value: string | null | undefined) => BigInt((value ?? "0").split(".")[0] ?? "0").toString();

/** The points rule (`predictPointsOf` in @mkt/protocol), under the name the feed's tests know it by. */
export const pointsOf = predictPointsOf;

export interface PointsService {
  /** An address's points at the finalized head; zero for an address that never traded. */
  points(trader: string): Promise<PredictPoints>;
  /** The top `limit` traders by points, ties by address. */
  leaderboard(limit: number): Promise<PredictLeaderboard>;
}

/**
 * Points of an address and the leaderboard, from the per-trader sums the
 * projection keeps with every trade (`predict_traders`): one finalized snapshot each.
 */
export function createPointsService({ db, feed }: { db: Database; feed: PredictFeedScope }): PointsService {
  return {
    async points(trader: string): Promise<PredictPoints> {
      return inFinalizedSnapshot(db, feed.scope, async (tx, block) => {
        // The projection keeps each trader's sums with its trades (predict_traders): one row, any history.
        const { rows } = await sql<{
          buy_weth: string;
          sell_weth: string;
          redeemed_weth: string;
          trades: number;
          points: string;
        }>`
          SELECT buy_weth, sell_weth, redeemed_weth, trades, points
          FROM predict_traders WHERE chain_id = ${feed.chainId} AND trader = ${trader}`.execute(tx);
        const row = rows[0];
        return {
          address: trader,
          points: integer(row?.points),
          buyWeth: integer(row?.buy_weth),
          sellWeth: integer(row?.sell_weth),
          redeemedWeth: integer(row?.redeemed_weth),
          trades: Number(row?.trades ?? 0),
          block,
        };
      });
    },

    async leaderboard(limit: number): Promise<PredictLeaderboard> {
      return inFinalizedSnapshot(db, feed.scope, async (tx, block) => {
        // The projection's per-trader summary, read in the order of its points index.
        const { rows } = await sql<{ trader: string; points: string }>`
          SELECT trader, points FROM predict_traders
          WHERE chain_id = ${feed.chainId}
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

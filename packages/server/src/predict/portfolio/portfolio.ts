import type { PredictPortfolio, PredictPosition } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { inFinalizedSnapshot } from "../finalized.ts";

export interface PredictFeedScope {
  chainId: number;
  /** The predict scope's id (`scopeIds.predict`). */
  scope: string;
}

/**
 * The value columns of a position, in SQL so page and totals use the same
 * integer rule. Resolved: the winning side's unredeemed shares (1 Wei each;
 * a redemption zeroes them in the projection). Otherwise each side's shares
 * times its marginal price (the other pool's share of both pools), each side
 * rounded down; 0 when both pools are empty (liquidity collected).
 *
 * Each position's market is read by its key (the lateral subquery, kept
 * apart from the join planner by `OFFSET 0`): the cost follows the owner's
 * positions, never the number of markets, which a hash join over every
 * market would read for an owner with many positions.
 */
const VALUED = sql`
  SELECT p.market, p.yes_shares, p.no_shares, p.redeemed, m.market_id, m.question, m.status, m.outcome,
    CASE WHEN m.status = 'resolved' THEN
      CASE m.outcome WHEN 0 THEN p.yes_shares WHEN 1 THEN p.no_shares ELSE 0 END
    ELSE 0 END AS redeemable,
    CASE WHEN m.status = 'resolved' THEN
      CASE m.outcome WHEN 0 THEN p.yes_shares WHEN 1 THEN p.no_shares ELSE 0 END
    WHEN m.yes_pool + m.no_pool = 0 THEN 0
    ELSE div(p.yes_shares * m.no_pool, m.yes_pool + m.no_pool) + div(p.no_shares * m.yes_pool, m.yes_pool + m.no_pool)
    END AS value
  FROM predict_positions p
  CROSS JOIN LATERAL (
    SELECT * FROM predict_markets pm WHERE pm.chain_id = p.chain_id AND pm.address = p.market OFFSET 0
  ) m`;

interface Row {
  market: string;
  yes_shares: string;
  no_shares: string;
  redeemed: string;
  market_id: string;
  question: string;
  status: "active" | "paused" | "resolved";
  outcome: number | null;
  redeemable: string;
  value: string;
}

/** Numeric text as an integer string ("12" stays, "12.000" from a numeric scale becomes "12"). */
const integer = (value: string | null | undefined) => BigInt((value ?? "0").split(".")[0] ?? "0").toString();

export interface PortfolioService {
  /** One page of an address's positions by market address, with the totals of all of them, at the finalized head. */
  portfolio(owner: string, page: { cursor?: string | undefined; limit: number }): Promise<PredictPortfolio>;
}

/** An address's positions: shares, value estimate, redeemable winnings, totals; one finalized snapshot. */
export function createPortfolioService({
  db,
  feed,
}: {
  db: Database;
  feed: PredictFeedScope;
}): PortfolioService {
  return {
    async portfolio(owner: string, { cursor, limit }: { cursor?: string | undefined; limit: number }) {
      return inFinalizedSnapshot(db, feed.scope, async (tx, block): Promise<PredictPortfolio> => {
        const held = sql`p.chain_id = ${feed.chainId} AND p.owner = ${owner}
          AND (p.yes_shares > 0 OR p.no_shares > 0 OR p.redeemed > 0)`;
        const page = await sql<Row>`
          SELECT * FROM (${VALUED} WHERE ${held} AND p.market > ${cursor ?? ""}) v
          ORDER BY market LIMIT ${limit + 1}`.execute(tx);
        const totals = await sql<{
          n: string;
          value: string | null;
          redeemable: string | null;
          redeemed: string | null;
        }>`
          SELECT count(*) AS n, sum(value) AS value, sum(redeemable) AS redeemable, sum(redeemed) AS redeemed
          FROM (${VALUED} WHERE ${held}) v`.execute(tx);
        const rows = page.rows.slice(0, limit);
        const total = totals.rows[0];
        return {
          address: owner,
          positions: rows.map(
            (row): PredictPosition => ({
              market: row.market,
              marketId: integer(row.market_id),
              question: row.question,
              state: row.status === "active" ? "open" : row.status,
              outcome: row.outcome === null ? null : Number(row.outcome) === 0 ? "yes" : "no",
              yesShares: integer(row.yes_shares),
              noShares: integer(row.no_shares),
              valueWeth: integer(row.value),
              redeemableWeth: integer(row.redeemable),
              redeemedWeth: integer(row.redeemed),
            }),
          ),
          nextCursor: page.rows.length > limit ? (rows.at(-1)?.market ?? null) : null,
          totals: {
            positions: Number(total?.n ?? 0),
            valueWeth: integer(total?.value),
            redeemableWeth: integer(total?.redeemable),
            redeemedWeth: integer(total?.redeemed),
          },
          block,
        };
      });
    },
  };
}

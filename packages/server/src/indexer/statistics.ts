import type { Database } from "../db/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import { quoteIdentifier } from "./store.ts";

/** Rows written to a table since its last ANALYZE that make its statistics worth refreshing. */
export const ANALYZE_AFTER_ROWS = 5_000;
/** The shortest time between two ANALYZE runs of one writer: their cost stays a small share of a backfill. */
export const ANALYZE_INTERVAL_MS = 60_000;

export interface StatisticsRefresher {
  /**
   * Counts rows a committed write put into each table and, on PGlite, runs
   * `ANALYZE` once a table passed `ANALYZE_AFTER_ROWS` since its last one (with
   * it, every table past a tenth of that), at most once per `ANALYZE_INTERVAL_MS`.
   */
  written(rows: ReadonlyMap<string, number>): Promise<void>;
}

/**
 * Keeps the planner statistics of the tables the indexer writes current on
 * PGlite. PGlite runs no autovacuum, so nothing else ever analyzes them: a
 * table filled by a backfill keeps the planner's empty-table guess, and a
 * query over it may be planned as a nested loop over what it thinks are a
 * few rows (one such plan took a second per call). Only the tables written
 * are analyzed (ANALYZE samples at most 300 × default_statistics_target rows
 * of each, whatever its size), and not more often than the interval.
 *
 * On PostgreSQL it does nothing: autovacuum analyzes a table once about a
 * tenth of it has changed, in its own worker, off the writer's path. An
 * ANALYZE from here would repeat that work on the indexer's connection,
 * between ranges, on every replica that takes the writer lock.
 */
export function createStatisticsRefresher({
  db,
  clock,
  afterRows = ANALYZE_AFTER_ROWS,
  intervalMs = ANALYZE_INTERVAL_MS,
}: {
  db: Database;
  clock: Clock;
  afterRows?: number;
  intervalMs?: number;
}): StatisticsRefresher {
  const pending = new Map<string, number>();
  let last: number | undefined;
  return {
    async written(rows) {
      if (db.kind !== "pglite") return;
      for (const [table, count] of rows) if (count > 0) pending.set(table, (pending.get(table) ?? 0) + count);
      const now = clock.now();
      if (last !== undefined && now - last < intervalMs) return;
      if (![...pending.values()].some((count) => count >= afterRows)) return;
      // A pass also takes the tables filled alongside the one that made it due (a tenth of the
      // threshold): a range that wrote 8,000 summary rows and 4,000 claims analyzes both, rather than
      // leaving the claims to the next pass an interval later.
      const due = [...pending].filter(([, count]) => count >= afterRows / 10).map(([table]) => table);
      last = now;
      for (const table of due) pending.delete(table);
      await db.withConnection((connection) =>
        connection.exec(`ANALYZE ${due.map(quoteIdentifier).join(", ")}`),
      );
    },
  };
}

import type { Logger } from "pino";

/**
 * How often a dependency that keeps failing gets a line: the first failure is
 * logged at once, then one summary line per interval with the count.
 */
export const DEPENDENCY_LOG_INTERVAL_MS = 10_000;

/**
 * The one place dependency failures (the database unavailable, a chain's RPC
 * unreachable, a price feed failing) are logged, throttled per dependency so
 * an outage under load is a handful of lines, not one per request:
 * - `warn` "dependency unavailable": the first failure, at once, with its reason;
 * - `warn` "dependency still unavailable": at most one per interval while it
 *   keeps failing, with the failures counted since the previous line;
 * - `info` "dependency recovered": when the dependency answers again, with the
 *   outage's duration and its failures in all.
 * A dependency whose recovery nobody reports (`recovered`: a 503 cause other
 * than the database) keeps its summary lines, one per interval at most, for as
 * long as it fails; once it has not failed for `QUIET_INTERVALS` intervals its
 * outage is over, and its next failure starts a new one (logged at once).
 */
export interface DependencyLog {
  /** One failure of `dependency` (a request refused, a retry scheduled). */
  failed(dependency: string, reason: string): void;
  /** `dependency` answers again: logs the outage's end when it was failing. */
  recovered(dependency: string): void;
  /** The dependencies failing now, with their failures so far (metrics, status). */
  failing(): Array<{ dependency: string; since: number; failures: number }>;
}

/** Intervals without a failure after which an outage nobody reported the end of is over. */
const QUIET_INTERVALS = 6;

interface Outage {
  since: number;
  lastFailureAt: number;
  failures: number;
  lastLineAt: number;
  /** Failures since the last line. */
  unlogged: number;
  reason: string;
}

export function createDependencyLog(options: {
  logger: Logger;
  now?: () => number;
  intervalMs?: number;
}): DependencyLog {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? DEPENDENCY_LOG_INTERVAL_MS;
  const outages = new Map<string, Outage>();

  return {
    failed(dependency, reason) {
      const at = now();
      const outage = outages.get(dependency);
      if (!outage || at - outage.lastFailureAt >= QUIET_INTERVALS * interval) {
        outages.set(dependency, {
          since: at,
          lastFailureAt: at,
          failures: 1,
          lastLineAt: at,
          unlogged: 0,
          reason,
        });
        logger.warn({ msg: "dependency unavailable", dependency, reason });
        return;
      }
      outage.failures += 1;
      outage.unlogged += 1;
      outage.lastFailureAt = at;
      outage.reason = reason;
      if (at - outage.lastLineAt < interval) return;
      logger.warn({
        msg: "dependency still unavailable",
        dependency,
        reason,
        failures: outage.unlogged,
        outageMs: at - outage.since,
      });
      outage.lastLineAt = at;
      outage.unlogged = 0;
    },
    recovered(dependency) {
      const outage = outages.get(dependency);
      if (!outage) return;
      outages.delete(dependency);
      logger.info({
        msg: "dependency recovered",
        dependency,
        outageMs: now() - outage.since,
        failures: outage.failures,
        lastReason: outage.reason,
      });
    },
    failing: () =>
      [...outages].map(([dependency, outage]) => ({
        dependency,
        since: outage.since,
        failures: outage.failures,
      })),
  };
}

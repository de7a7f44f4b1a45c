import type { Logger } from "pino";
import type { Database } from "../../db/index.ts";
import type { Clock } from "../../quotas/limiter.ts";

/**
 * The channel a filed report notifies, on every replica, with its expiry
 * (Unix milliseconds): a replica whose next sweep is later wakes earlier.
 */
export const REPORTS_CHANNEL = "mkt_reports";

/**
 * The longest a replica's expiry worker sleeps: with nothing due sooner, it
 * sweeps this often, which bounds how long a lost notification can keep an
 * expired report (every filed report expires after the ones before it, so
 * the worker is almost always already awake earlier).
 */
export const REPORT_EXPIRY_SAFETY_MS = 6 * 3_600_000;

export interface ReportExpiryDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Deletes the reports whose retention has passed; answers how many. */
  sweep(): Promise<number>;
  /** The earliest expiry of a stored report (Unix ms), if any. */
  nextExpiry(): Promise<number | undefined>;
  /** The longest sleep between sweeps (default REPORT_EXPIRY_SAFETY_MS). */
  safetyMs?: number;
}

export interface ReportExpiry {
  /** Tells every replica's worker of a report expiring at `expiresAt`; this replica's at once if the notification fails. */
  announce(expiresAt: number): Promise<void>;
  /** Sweeps, then sleeps until the earliest expiry left (at most the safety interval); listens for new reports. */
  start(): void;
  /** Stops listening and waits for a sweep in progress. */
  stop(): Promise<void>;
  /** When this replica's worker wakes next (Unix ms, on the clock), while started. */
  wakesAt(): number | undefined;
}

/**
 * Deletes expired reports at their expiry instead of on a poll. Each replica
 * keeps one timer, set for the earliest stored expiry (read after each
 * sweep) or the safety interval, whichever is sooner, and moves it earlier
 * when a notification names an earlier expiry. Sweeping is one `DELETE … WHERE
 * expires_at <= now`, safe on every replica at once.
 */
export function createReportExpiry(deps: ReportExpiryDeps): ReportExpiry {
  const { db, clock, logger } = deps;
  const safetyMs = deps.safetyMs ?? REPORT_EXPIRY_SAFETY_MS;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let due: number | undefined;
  let sweeping: Promise<void> | undefined;
  let sweepAgain = false;
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;

  /** Sets the timer for `at` unless it already rings sooner. */
  const wakeAt = (at: number) => {
    if (!running || sweeping) {
      // The sweep under way reads the next expiry when it ends; make sure it sees this one.
      if (sweeping) sweepAgain = true;
      return;
    }
    const soonest = Math.min(at, clock.now() + safetyMs);
    if (due !== undefined && due <= soonest) return;
    clearTimeout(timer);
    due = soonest;
    timer = setTimeout(sweep, Math.max(0, soonest - clock.now()));
    timer.unref();
    logger.debug({ msg: "report expiry sleeps", until: new Date(soonest).toISOString() });
  };

  const sweep = () => {
    if (!running) return;
    if (sweeping) {
      sweepAgain = true;
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    due = undefined;
    sweepAgain = false;
    sweeping = (async () => {
      let next: number | undefined;
      try {
        const deleted = await deps.sweep();
        if (deleted > 0) logger.info({ msg: "expired reports deleted", count: deleted });
        next = await deps.nextExpiry();
      } catch (error) {
        logger.warn({ msg: "report expiry sweep failed", err: error });
      }
      return next;
    })().then((next) => {
      sweeping = undefined;
      if (!running) return;
      if (sweepAgain) sweep();
      else wakeAt(next ?? clock.now() + safetyMs);
    });
  };

  return {
    async announce(expiresAt) {
      await db.notify(REPORTS_CHANNEL, String(expiresAt)).catch((error: unknown) => {
        logger.warn({ msg: "report expiry notification failed", err: error });
        wakeAt(expiresAt);
      });
    },
    start() {
      if (running) return;
      running = true;
      listening = db
        .listen(REPORTS_CHANNEL, {
          onNotify: (payload) => {
            const expiresAt = Number(payload);
            if (Number.isFinite(expiresAt)) wakeAt(expiresAt);
          },
          // Notifications may have been lost meanwhile: read the next expiry again.
          onReconnect: sweep,
        })
        .catch((error: unknown) => {
          logger.warn({
            msg: "report expiry cannot listen; it sweeps at the safety interval",
            err: error,
          });
          return undefined;
        });
      sweep();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      due = undefined;
      const unlisten = await listening;
      listening = undefined;
      await unlisten?.();
      while (sweeping) await sweeping;
    },
    wakesAt: () => due,
  };
}

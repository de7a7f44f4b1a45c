import type { Logger } from "pino";
import type { AdvisoryLock, Database } from "../db/index.ts";
import type { Clock } from "../quotas/limiter.ts";

/**
 * How long a replica that handed a scope's writer lock off stays away from it by default: long
 * enough for a standby, which retries every `WRITER_LOCK_RETRY_MS` (2 s), to take it; short enough
 * that a scope whose only other replicas do not index is not left unwritten for long (the replica
 * that handed it off takes it back once the interval ends and nobody else holds it).
 */
export const HANDOFF_HOLD_OFF_MS = 30_000;

/** The advisory lock key of a scope's writer: one writer per scope across every replica. */
export const writerLockKey = (scopeId: string) => `mkt-indexer:${scopeId}`;

/** What a hand-off request did on this replica. */
export interface HandOff {
  /** This replica held the lock and released it (after the batch in flight). */
  released: boolean;
  /** Until when (Unix ms) this replica leaves the scope to others; null when nothing was released. */
  holdOffUntil: number | null;
}

export interface WriterLock {
  /** Whether this replica holds the lock now; drops a lock whose session ended (logged once), so the next `acquire` tries again. */
  held(): boolean;
  /** Until when (Unix ms) this replica stays away from the scope after a hand-off; 0 when it does not. */
  holdOffUntil(): number;
  /**
   * Takes the lock unless this replica holds it already, handed it off less than its hold-off
   * ago, or another session holds it. Answers whether this replica holds it now.
   */
  acquire(): Promise<boolean>;
  /**
   * Asks for the lock to be handed off: released between two batches by the loop
   * (`releaseIfHandedOff`), then left alone for `holdOffMs`. Resolves once released, or at once
   * with `released: false` when this replica does not hold it.
   */
  requestHandOff(holdOffMs: number): Promise<HandOff>;
  /** Between batches: releases the lock when a hand-off was asked for. Answers whether it did. */
  releaseIfHandedOff(): Promise<boolean>;
  /** Releases the lock for good (the indexer stops). */
  close(): Promise<void>;
}

/**
 * One scope's writer lock as this replica sees it: takes it (unless it was handed off a moment
 * ago), notices its loss, releases it on a hand-off request once the batch in flight is written,
 * and logs each change at `info` with the scope (and the replica, the logger's base binding).
 * The indexer loop drives it: `acquire` before a batch, `releaseIfHandedOff` between batches.
 */
export function createWriterLock({
  db,
  clock,
  log,
  scopeId,
  replicaId,
  wake,
}: {
  db: Database;
  clock: Clock;
  log: Logger;
  scopeId: string;
  replicaId: string;
  /** Ends the indexer loop's current wait, so a hand-off does not wait out a poll or a retry. */
  wake: () => void;
}): WriterLock {
  const key = writerLockKey(scopeId);
  let lock: AdvisoryLock | null = null;
  let holdOffUntil = 0;
  let pending: { holdOffMs: number; resolve: (handOff: HandOff) => void } | undefined;

  /** Drops a lock whose session ended (logged once), so the next `acquire` tries again. */
  const held = (): boolean => {
    if (lock?.lost()) {
      lock = null;
      log.info({ msg: "lost the indexer's writer lock (its database session ended)", scope: scopeId });
      pending?.resolve({ released: false, holdOffUntil: null });
      pending = undefined;
    }
    return lock !== null;
  };

  const release = async (reason: string) => {
    const current = lock;
    lock = null;
    if (!current) return;
    await current.release();
    log.info({ msg: "released the indexer's writer lock", scope: scopeId, reason });
  };

  return {
    held,
    holdOffUntil: () => (holdOffUntil > clock.now() ? holdOffUntil : 0),
    async acquire(): Promise<boolean> {
      if (held()) return true;
      if (clock.now() < holdOffUntil) return false;
      lock = await db.tryAdvisoryLock(key, replicaId);
      if (lock) log.info({ msg: "took the indexer's writer lock", scope: scopeId });
      return lock !== null;
    },
    requestHandOff(holdOffMs: number): Promise<HandOff> {
      if (!held()) return Promise.resolve({ released: false, holdOffUntil: null });
      return new Promise<HandOff>((resolve) => {
        pending?.resolve({ released: false, holdOffUntil: null });
        pending = { holdOffMs, resolve };
        wake();
      });
    },
    async releaseIfHandedOff(): Promise<boolean> {
      if (!pending) return false;
      const { holdOffMs, resolve } = pending;
      pending = undefined;
      holdOffUntil = clock.now() + holdOffMs;
      await release(`handed off; staying away from the scope for ${Math.round(holdOffMs / 1000)} s`);
      resolve({ released: true, holdOffUntil });
      return true;
    },
    async close(): Promise<void> {
      await release("the indexer stopped");
      pending?.resolve({ released: false, holdOffUntil: null });
      pending = undefined;
    },
  };
}

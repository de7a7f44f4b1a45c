import { PREDICT_FRESHNESS_BOUNDS, type PredictFreshness, type PredictStaleReason } from "@mkt/protocol";
import type { Database } from "../db/index.ts";
import { UnavailableError } from "../errors.ts";
import type { Clock } from "../quotas/limiter.ts";

/** Read-cache source moved by every commit of the feed's indexer scope, on every replica. */
export const PREDICT_INDEXER_SOURCE = "indexer:predict";

/** How long a replica trusts its copy of the head row without re-reading it (indexer commits re-read it at once). */
export const HEAD_REFRESH_MS = 1_000;

export interface FreshnessBounds {
  maxObservationAgeMs: number;
  maxBlockAgeMs: number;
  /** Blocks behind the chain beyond the finality depth. */
  maxLagBlocks: number;
}

/** The documented bounds (`PREDICT_FRESHNESS_BOUNDS`), in milliseconds. */
export const DEFAULT_FRESHNESS_BOUNDS: FreshnessBounds = {
  maxObservationAgeMs: PREDICT_FRESHNESS_BOUNDS.maxObservationAgeSeconds * 1000,
  maxBlockAgeMs: PREDICT_FRESHNESS_BOUNDS.maxBlockAgeSeconds * 1000,
  maxLagBlocks: PREDICT_FRESHNESS_BOUNDS.maxLagBlocks,
};

/** What the head row of the feed's scope says, as freshness needs it. */
export interface FeedHead {
  nextBlock: bigint;
  blockHash: string | null;
  blockTime: Date | null;
  observedHead: bigint | null;
  observedAt: Date | null;
}

/**
 * What the staleness rule reads from a head row, as plain numbers: worked out
 * once per row, so the feed's gate judges every request with a few number
 * comparisons and builds no freshness document.
 */
export interface HeadTimes {
  /** The projection holds a finalized block (its number, hash and time). */
  indexed: boolean;
  /** The newest finalized block's time, in ms (NaN when not indexed). */
  blockTimeMs: number;
  /** When the indexer last observed the chain head, in ms; null when never. */
  observedAtMs: number | null;
  /** Blocks from the newest finalized block to the observed head; null when either is unknown. */
  lagBlocks: number | null;
}

export function headTimesOf(head: FeedHead | undefined): HeadTimes {
  const indexed =
    head !== undefined && head.nextBlock > 0n && head.blockHash !== null && head.blockTime !== null;
  return {
    indexed,
    blockTimeMs: indexed ? head.blockTime!.getTime() : Number.NaN,
    observedAtMs: head?.observedAt ? head.observedAt.getTime() : null,
    lagBlocks:
      indexed && head.observedHead != null ? Number(head.observedHead - (head.nextBlock - 1n)) : null,
  };
}

/**
 * Why the projection is stale at `now`, or null while every bound holds, in
 * the order the reasons are reported: nothing indexed, the chain not observed
 * recently, the newest finalized block too old, too far behind the chain.
 */
export function staleReasonOf(
  times: HeadTimes,
  now: number,
  finalityDepth: number,
  bounds: FreshnessBounds,
): PredictStaleReason | null {
  if (!times.indexed) return "NOT_INDEXED";
  if (times.observedAtMs === null || now - times.observedAtMs > bounds.maxObservationAgeMs)
    return "NOT_OBSERVED";
  if (now - times.blockTimeMs > bounds.maxBlockAgeMs) return "BLOCK_TOO_OLD";
  if (times.lagBlocks === null || times.lagBlocks > finalityDepth + bounds.maxLagBlocks)
    return "TOO_FAR_BEHIND";
  return null;
}

/**
 * The projection's freshness at `now`, from its head row: the newest
 * finalized block it holds (number, hash, time), the chain head the indexer
 * last saw and when, the lag, and whether a bound is passed (and which first).
 */
export function freshnessOf(
  head: FeedHead | undefined,
  now: number,
  finalityDepth: number,
  bounds: FreshnessBounds,
  times: HeadTimes = headTimesOf(head),
): PredictFreshness {
  const reason = staleReasonOf(times, now, finalityDepth, bounds);
  return {
    block:
      times.indexed && head
        ? {
            number: (head.nextBlock - 1n).toString(),
            hash: head.blockHash!,
            timestamp: head.blockTime!.toISOString(),
          }
        : null,
    observedHead: head?.observedHead != null ? head.observedHead.toString() : null,
    observedAt: head?.observedAt ? head.observedAt.toISOString() : null,
    lagBlocks: times.lagBlocks,
    blockAgeSeconds: times.indexed ? Math.floor((now - times.blockTimeMs) / 1000) : null,
    stale: reason !== null,
    reason,
    bounds: {
      maxObservationAgeSeconds: Math.round(bounds.maxObservationAgeMs / 1000),
      maxBlockAgeSeconds: Math.round(bounds.maxBlockAgeMs / 1000),
      maxLagBlocks: bounds.maxLagBlocks,
    },
  };
}

interface HeadRow {
  next_block: string;
  block_hash: string | null;
  block_time: Date | null;
  observed_head: string | null;
  observed_at: Date | null;
}

export interface PredictFreshnessService {
  /** The bounds past which the projection is stale, in milliseconds and blocks. */
  bounds: FreshnessBounds;
  /** The freshness now: synchronously while this replica's copy of the head row is current. */
  current(): PredictFreshness | Promise<PredictFreshness>;
  /**
   * Why the projection is stale now, or null while it is fresh: the verdict
   * of `current()` without its document, for the gate every feed request
   * passes. Synchronous while this replica's copy of the head row is current.
   */
  staleReason(): PredictStaleReason | null | Promise<PredictStaleReason | null>;
}

/**
 * The feed's freshness, from the head row of its indexer scope. Never asks
 * the chain. Each replica keeps the row in memory and re-reads it at most
 * every HEAD_REFRESH_MS, and at once after a commit of the scope
 * (PREDICT_INDEXER_SOURCE moved), so the gate costs no query per request;
 * staleness is computed against the clock on every call.
 */
export function createPredictFreshness({
  db,
  clock,
  scope,
  finalityDepth,
  bounds = DEFAULT_FRESHNESS_BOUNDS,
  revision,
}: {
  db: Database;
  clock: Clock;
  /** The feed's indexer scope; undefined without a prediction chain (never fresh). */
  scope: string | undefined;
  finalityDepth: number;
  bounds?: FreshnessBounds;
  /** The live counter of PREDICT_INDEXER_SOURCE. */
  revision: { readonly value: number };
}): PredictFreshnessService {
  let cached: { head: FeedHead | undefined; times: HeadTimes; at: number; revision: number } | undefined;
  let loading: Promise<FeedHead | undefined> | undefined;

  const read = async (id: string): Promise<FeedHead | undefined> => {
    const { rows } = await db.withConnection((connection) =>
      connection.query<HeadRow>(
        "SELECT next_block, block_hash, block_time, observed_head, observed_at FROM indexer_heads WHERE scope = $1",
        [id],
      ),
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      nextBlock: BigInt(row.next_block),
      blockHash: row.block_hash,
      blockTime: row.block_time === null ? null : new Date(row.block_time),
      observedHead: row.observed_head === null ? null : BigInt(row.observed_head),
      observedAt: row.observed_at === null ? null : new Date(row.observed_at),
    };
  };

  const load = (id: string): Promise<FeedHead | undefined> => {
    if (loading) return loading;
    const at = clock.now();
    const moved = revision.value;
    const pending = read(id)
      .then((head) => {
        cached = { head, times: headTimesOf(head), at, revision: moved };
        return head;
      })
      .catch((error: unknown) => {
        throw new UnavailableError("the prediction feed's projection is unavailable; try again shortly", {
          cause: error,
        });
      })
      .finally(() => {
        if (loading === pending) loading = undefined;
      });
    loading = pending;
    return pending;
  };

  /** This replica's copy of the head row while it is current, else undefined (read it again). */
  const currentCopy = () =>
    cached !== undefined && cached.revision === revision.value && clock.now() - cached.at < HEAD_REFRESH_MS
      ? cached
      : undefined;
  const loaded = () => load(scope!).then(() => cached!);

  return {
    bounds,
    current(): PredictFreshness | Promise<PredictFreshness> {
      if (scope === undefined) return freshnessOf(undefined, clock.now(), finalityDepth, bounds);
      const compute = (copy: NonNullable<typeof cached>) =>
        freshnessOf(copy.head, clock.now(), finalityDepth, bounds, copy.times);
      const copy = currentCopy();
      return copy !== undefined ? compute(copy) : loaded().then(compute);
    },
    staleReason(): PredictStaleReason | null | Promise<PredictStaleReason | null> {
      if (scope === undefined) return "NOT_INDEXED";
      const judge = (copy: NonNullable<typeof cached>) =>
        staleReasonOf(copy.times, clock.now(), finalityDepth, bounds);
      const copy = currentCopy();
      return copy !== undefined ? judge(copy) : loaded().then(judge);
    },
  };
}

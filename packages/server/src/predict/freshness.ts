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
 * The projection's freshness at `now`, from its head row: the newest
 * finalized block it holds (number, hash, time), the chain head the indexer
 * last saw and when, the lag, and whether a bound is passed (and which first).
 */
export function freshnessOf(
  head: FeedHead | undefined,
  now: number,
  finalityDepth: number,
  bounds: FreshnessBounds,
): PredictFreshness {
  const documented = {
    maxObservationAgeSeconds: Math.round(bounds.maxObservationAgeMs / 1000),
    maxBlockAgeSeconds: Math.round(bounds.maxBlockAgeMs / 1000),
    maxLagBlocks: bounds.maxLagBlocks,
  };
  const indexed =
    head && head.nextBlock > 0n && head.blockHash !== null && head.blockTime !== null
      ? { number: head.nextBlock - 1n, hash: head.blockHash, time: head.blockTime }
      : undefined;
  const lag = indexed && head?.observedHead != null ? Number(head.observedHead - indexed.number) : undefined;
  const blockAgeMs = indexed ? now - indexed.time.getTime() : undefined;
  let reason: PredictStaleReason | null = null;
  if (indexed === undefined || blockAgeMs === undefined) reason = "NOT_INDEXED";
  else if (!head?.observedAt || now - head.observedAt.getTime() > bounds.maxObservationAgeMs)
    reason = "NOT_OBSERVED";
  else if (blockAgeMs > bounds.maxBlockAgeMs) reason = "BLOCK_TOO_OLD";
  else if (lag === undefined || lag > finalityDepth + bounds.maxLagBlocks) reason = "TOO_FAR_BEHIND";
  return {
    block: indexed
      ? { number: indexed.number.toString(), hash: indexed.hash, timestamp: indexed.time.toISOString() }
      : null,
    observedHead: head?.observedHead != null ? head.observedHead.toString() : null,
    observedAt: head?.observedAt ? head.observedAt.toISOString() : null,
    lagBlocks: lag ?? null,
    blockAgeSeconds: blockAgeMs === undefined ? null : Math.floor(blockAgeMs / 1000),
    stale: reason !== null,
    reason,
    bounds: documented,
  };
}

interface HeadRow {
  next_block: string;
  block_hash: string | null;
  block_time: Date | null;
  observed_head: string | null;
  observed_at: Date | null;
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
}) {
  let cached: { head: FeedHead | undefined; at: number; revision: number } | undefined;
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
        cached = { head, at, revision: moved };
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

  const compute = (head: FeedHead | undefined) => freshnessOf(head, clock.now(), finalityDepth, bounds);

  return {
    bounds,
    /** The freshness now: synchronously while this replica's copy of the head row is current. */
    current(): PredictFreshness | Promise<PredictFreshness> {
      if (scope === undefined) return compute(undefined);
      if (
        cached !== undefined &&
        cached.revision === revision.value &&
        clock.now() - cached.at < HEAD_REFRESH_MS
      )
        return compute(cached.head);
      return load(scope).then(compute);
    },
  };
}

export type PredictFreshnessService = ReturnType<typeof createPredictFreshness>;

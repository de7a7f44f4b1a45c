import type { MarketBucket } from "@mkt/protocol";
import { createTtlCache } from "../cache/ttl-cache.ts";
import type { Clock } from "../quotas/limiter.ts";
import { counterIds } from "../quotas/policies.ts";

export interface CachedKey {
  id: string;
  /** The SHA-256 of the key the cache knows it by: an open stream re-checks its key with it. */
  hash: string;
  multiplier: number;
  /** Marked first-party by the operator: may use the prediction feed while it is not public. */
  firstParty: boolean;
  /** Limiter counter ids of the key, built once when it is cached rather than on every request. */
  counters: { market: Record<MarketBucket, string> };
}

/** A key as the cache holds it, with its counter ids. */
export const cachedKey = (hash: string, id: string, multiplier: number, firstParty = false): CachedKey => ({
  id,
  hash,
  multiplier,
  firstParty,
  counters: {
    market: {
      read: counterIds.marketKey("read", id),
      write: counterIds.marketKey("write", id),
      stream: counterIds.marketKey("stream", id),
    },
  },
});

export interface KeyCacheOptions {
  clock: Clock;
  /** How long a found key is trusted without asking the database. Bounds staleness if a notification is lost. */
  positiveTtlMs: number;
  /** How long "no such key" is remembered, so a flood of bad keys does not reach the database. */
  negativeTtlMs: number;
  maxEntries: number;
}

export interface KeyCache {
  /** The cached answer while fresh: a key, null for "no such key", undefined for "ask the database". */
  get(hash: string): CachedKey | null | undefined;
  /** Caches a key, or null for "no such key", for its TTL (positive or negative). */
  set(hash: string, value: CachedKey | null): void;
  /** Forgets one hash (a key changed on some replica). */
  delete(hash: string): void;
  /** Forgets every entry (the change notifications may have been missed). */
  clear(): void;
  /** How many entries are cached. */
  size(): number;
}

/**
 * Per-replica cache of key lookups by key hash. Entries expire on their own;
 * notifications delete them early; a lost LISTEN connection clears it all.
 */
export function createKeyCache({
  clock,
  positiveTtlMs,
  negativeTtlMs,
  maxEntries,
}: KeyCacheOptions): KeyCache {
  const entries = createTtlCache<string, CachedKey | null>({ clock, maxEntries });
  return {
    get: (hash: string): CachedKey | null | undefined => entries.get(hash),
    set(hash: string, value: CachedKey | null) {
      entries.set(hash, value, value ? positiveTtlMs : negativeTtlMs);
    },
    delete(hash: string) {
      entries.delete(hash);
    },
    clear() {
      entries.clear();
    },
    size: () => entries.size(),
  };
}

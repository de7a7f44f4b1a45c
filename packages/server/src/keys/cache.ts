import type { MarketBucket } from "@mkt/protocol";
import type { Clock } from "../quotas/limiter.ts";

export interface CachedKey {
  id: string;
  multiplier: number;
  /** Limiter counter ids of the key, built once when it is cached rather than on every request. */
  counters: { market: Record<MarketBucket, string> };
}

interface Entry {
  value: CachedKey | null;
  expiresAt: number;
}

export interface KeyCacheOptions {
  clock: Clock;
  /** How long a found key is trusted without asking the database. Bounds staleness if a notification is lost. */
  positiveTtlMs: number;
  /** How long "no such key" is remembered, so a flood of bad keys does not reach the database. */
  negativeTtlMs: number;
  maxEntries: number;
}

/**
 * Per-replica cache of key lookups by key hash. Entries expire on their own;
 * notifications delete them early; a lost LISTEN connection clears it all.
 */
export function createKeyCache({ clock, positiveTtlMs, negativeTtlMs, maxEntries }: KeyCacheOptions) {
  const entries = new Map<string, Entry>();
  return {
    /** The cached answer while fresh: a key, null for "no such key", undefined for "ask the database". */
    get(hash: string): CachedKey | null | undefined {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (entry.expiresAt <= clock.now()) {
        entries.delete(hash);
        return undefined;
      }
      return entry.value;
    },
    set(hash: string, value: CachedKey | null) {
      if (entries.size >= maxEntries && !entries.has(hash)) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(hash, { value, expiresAt: clock.now() + (value ? positiveTtlMs : negativeTtlMs) });
    },
    delete(hash: string) {
      entries.delete(hash);
    },
    clear() {
      entries.clear();
    },
    size: () => entries.size,
  };
}

export type KeyCache = ReturnType<typeof createKeyCache>;

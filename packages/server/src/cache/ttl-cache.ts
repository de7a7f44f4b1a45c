import type { Clock } from "../quotas/limiter.ts";

export interface TtlCacheOptions<K, V> {
  clock: Clock;
  /** At most this many entries; a new one beyond it evicts the oldest written. */
  maxEntries: number;
  /**
   * Told of every entry that leaves on its own: expired when read, or evicted
   * by the size bound. Not called for `delete`, `clear` or an overwrite, which
   * the caller does itself.
   */
  onEvict?: (key: K, value: V) => void;
}

export interface TtlCache<K, V> {
  /** The value while fresh, else undefined. */
  get(key: K): V | undefined;
  /** Writes the entry, fresh for `ttlMs`; beyond `maxEntries` the entry written longest ago leaves. */
  set(key: K, value: V, ttlMs: number): void;
  /** Drops the entry (without `onEvict`); whether there was one. */
  delete(key: K): boolean;
  /** Drops every entry (without `onEvict`). */
  clear(): void;
  /** Entries held now, expired ones not yet read included. */
  size(): number;
}

/**
 * A bounded, per-replica cache whose entries expire after their own TTL. It
 * holds no timers: an expired entry is dropped when it is next read, and the
 * size bound evicts the entry written longest ago (a Map iterates in insertion
 * order, and a write re-inserts).
 */
export function createTtlCache<K, V>({ clock, maxEntries, onEvict }: TtlCacheOptions<K, V>): TtlCache<K, V> {
  const entries = new Map<K, { value: V; expiresAt: number }>();
  return {
    get(key: K): V | undefined {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= clock.now()) {
        entries.delete(key);
        onEvict?.(key, entry.value);
        return undefined;
      }
      return entry.value;
    },
    set(key: K, value: V, ttlMs: number) {
      if (!entries.delete(key) && entries.size >= maxEntries) {
        const oldest = entries.entries().next();
        if (!oldest.done) {
          entries.delete(oldest.value[0]);
          onEvict?.(oldest.value[0], oldest.value[1].value);
        }
      }
      entries.set(key, { value, expiresAt: clock.now() + ttlMs });
    },
    delete(key: K): boolean {
      return entries.delete(key);
    },
    clear() {
      entries.clear();
    },
    size: () => entries.size,
  };
}

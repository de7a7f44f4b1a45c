import { createHash } from "node:crypto";
import type { Clock } from "../quotas/limiter.ts";

/** Revision announcements of the read cache's sources, across replicas. */
export const REVISIONS_CHANNEL = "mkt_revisions";

export interface Revisions {
  /** The live counters of some sources, to read on every request without a lookup. */
  counters(sources: readonly string[]): { value: number }[];
  /** Another replica (or the indexer) changed the source's data. */
  moved(source: string): void;
  /** This replica changed the source's data: moved here at once, announced to every other replica. */
  bump(source: string): Promise<void>;
  /** Every source moved: a lost notification connection may have hidden changes. */
  movedAll(): void;
}

/**
 * The revisions of the data cached answers are built from, per replica.
 *
 * A source is a name (`market-runtime`, `predict-runtime`, `indexer:<scope>`)
 * whose counter moves whenever its data changes: `bump` on the replica that
 * made the change (which also announces it to every other replica through the
 * database's notifications), `moved` when another replica's announcement
 * arrives. A cached body remembers the counters of its sources when the
 * request that built it started, and is served only while they are
 * unchanged; the counters are never compared across replicas.
 */
export function createRevisions({
  announce,
}: {
  announce?: (source: string) => Promise<void>;
} = {}): Revisions {
  const counters = new Map<string, { value: number }>();
  const counterOf = (source: string) => {
    let counter = counters.get(source);
    if (counter === undefined) {
      counter = { value: 0 };
      counters.set(source, counter);
    }
    return counter;
  };
  return {
    counters: (sources: readonly string[]) => sources.map(counterOf),
    moved(source: string) {
      counterOf(source).value += 1;
    },
    async bump(source: string) {
      counterOf(source).value += 1;
      // A lost announcement is bounded by the routes' max-age on the other replicas.
      await announce?.(source).catch(() => {});
    },
    movedAll() {
      for (const counter of counters.values()) counter.value += 1;
    },
  };
}

interface Entry {
  key: string;
  /** UTF-8 bytes, encoded once: a hit writes them without measuring or encoding a string again. */
  body: Buffer;
  contentType: string;
  etag: string;
  /** The source counters' values when the request that built the body started. */
  built: readonly number[];
  counters: readonly { value: number }[];
  expiresAt: number;
  bytes: number;
}

export interface ReadCacheOptions {
  clock: Clock;
  /** Bytes of bodies (and their keys) kept at most; the least recently used go first. */
  maxBytes?: number;
}

/** A strong validator of a body: equal bodies, equal tags. */
export const strongEtag = (body: string) =>
  `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;

export interface ReadCache {
  /** The fresh answer stored for a key (a hit, moved to most recently used), else undefined (a miss; a stale entry is dropped). */
  get(key: string): Entry | undefined;
  /** Stores an answer built against `counters` (their values `built`) for `maxAgeMs`, evicting the least recently used beyond the byte budget; an answer over a quarter of it is not kept. */
  set(
    key: string,
    value: {
      body: string;
      contentType: string;
      etag: string;
      counters: readonly { value: number }[];
      built: readonly number[];
      maxAgeMs: number;
    },
  ): void;
  /** Drops every entry. */
  clear(): void;
  /** Entries and bytes held, and hits, misses and stores counted since start. */
  stats(): { entries: number; bytes: number; hits: number; misses: number; stores: number };
}

/**
 * The per-replica cache of serialised response bodies of routes that declare
 * a shared cache policy. Bounded by a byte budget, least recently used out
 * first; an entry is dropped when one of its sources has moved since it was
 * built or when its route's max-age has passed.
 */
export function createReadCache({ clock, maxBytes = 32 * 1024 * 1024 }: ReadCacheOptions): ReadCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  /** The most recently used key: a run of hits on one entry moves nothing. */
  let mostRecent: string | undefined;
  let hits = 0;
  let misses = 0;
  /** Bodies stored: one per build that produced a cacheable answer. */
  let stores = 0;
  const drop = (entry: Entry) => {
    entries.delete(entry.key);
    bytes -= entry.bytes;
  };
  const fresh = (entry: Entry) => {
    if (entry.expiresAt <= clock.now()) return false;
    for (let i = 0; i < entry.counters.length; i++) {
      if (entry.counters[i]!.value !== entry.built[i]) return false;
    }
    return true;
  };
  return {
    get(key: string): Entry | undefined {
      const entry = entries.get(key);
      if (entry === undefined) {
        misses += 1;
        return undefined;
      }
      if (!fresh(entry)) {
        drop(entry);
        misses += 1;
        return undefined;
      }
      // Most recently used last: Maps iterate in insertion order.
      if (key !== mostRecent) {
        entries.delete(key);
        entries.set(key, entry);
        mostRecent = key;
      }
      hits += 1;
      return entry;
    },
    set(key, value) {
      stores += 1;
      const size = (key.length + value.body.length) * 2;
      if (size > maxBytes / 4) return;
      const previous = entries.get(key);
      if (previous) drop(previous);
      const entry: Entry = {
        key,
        body: Buffer.from(value.body),
        contentType: value.contentType,
        etag: value.etag,
        counters: value.counters,
        built: value.built,
        expiresAt: clock.now() + value.maxAgeMs,
        bytes: size,
      };
      entries.set(key, entry);
      mostRecent = key;
      bytes += size;
      for (const oldest of entries.values()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    clear() {
      entries.clear();
      mostRecent = undefined;
      bytes = 0;
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses, stores }),
  };
}

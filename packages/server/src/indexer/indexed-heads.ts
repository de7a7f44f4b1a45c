import type { Database } from "../db/index.ts";
import { INDEXED_HEADERS, INDEXER_SOURCE_PREFIX, type IndexedHeads } from "../http/indexed-head.ts";
import type { Revisions } from "../http/read-cache.ts";
import type { Clock } from "../quotas/limiter.ts";

/** How long a replica trusts its copy of a head row before it reads it again (an indexer commit re-reads it at once). */
export const INDEXED_HEAD_REFRESH_MS = 1_000;

interface HeadCopy {
  nextBlock: bigint;
  observedHead: bigint | null;
  observedAt: number | null;
}

interface Entry {
  scope: string;
  counter: { readonly value: number };
  copy: HeadCopy | undefined;
  /** When the copy was last read, or a read last failed, and the source's revision then. */
  at: number;
  revision: number;
  /** The last read failed (the database did not answer). */
  failed: boolean;
  loading: Promise<void> | undefined;
}

/**
 * Each replica's copy of the indexer heads its indexed answers are built
 * from, for their `Indexed-*` headers. A copy is read again when its source
 * moves (every indexer commit, on every replica) and at most every
 * INDEXED_HEAD_REFRESH_MS otherwise; the age is computed against the clock
 * on every answer, so it keeps growing while the indexer cannot see the chain
 * or the database cannot be read. Sources: `indexer:<scope>` for every scope
 * of `scopes`, and each surface's own name for its scope (`indexer:market`).
 */
export function createIndexedHeads({
  db,
  clock,
  revisions,
  scopes,
  sources,
}: {
  db: Database;
  clock: Clock;
  revisions: Revisions;
  /** Every scope the indexer follows. */
  scopes: readonly string[];
  /** The surfaces' names of scopes (`indexer:market` → the market registry's scope). */
  sources: readonly { scope: string; source: string }[];
}): IndexedHeads {
  const entries = new Map<string, Entry>();
  const add = (source: string, scope: string) => {
    const [counter] = revisions.counters([source]);
    entries.set(source, {
      scope,
      counter: counter!,
      copy: undefined,
      at: 0,
      revision: -1,
      failed: false,
      loading: undefined,
    });
  };
  for (const scope of scopes) add(`${INDEXER_SOURCE_PREFIX}${scope}`, scope);
  for (const { scope, source } of sources) add(source, scope);

  const load = (entry: Entry): Promise<void> => {
    if (entry.loading) return entry.loading;
    const revision = entry.counter.value;
    const loading = db
      .withConnection((connection) =>
        connection.query<{ next_block: string; observed_head: string | null; observed_at: Date | null }>(
          "SELECT next_block, observed_head, observed_at FROM indexer_heads WHERE scope = $1",
          [entry.scope],
        ),
      )
      .then(
        ({ rows }) => {
          const row = rows[0];
          entry.copy = row && {
            nextBlock: BigInt(row.next_block),
            observedHead: row.observed_head === null ? null : BigInt(row.observed_head),
            observedAt: row.observed_at === null ? null : new Date(row.observed_at).getTime(),
          };
          entry.revision = revision;
          entry.failed = false;
        },
        // The database cannot answer: keep the last copy, and try again after the refresh interval.
        () => {
          entry.failed = true;
        },
      )
      .finally(() => {
        entry.at = clock.now();
        entry.loading = undefined;
      });
    entry.loading = loading;
    return loading;
  };

  return {
    refresh(source) {
      const entry = entries.get(source);
      if (!entry) return;
      const due = clock.now() - entry.at >= INDEXED_HEAD_REFRESH_MS;
      const moved = entry.revision !== entry.counter.value;
      if (!due && (!moved || entry.failed)) return;
      const pending = load(entry);
      // Wait when the copy is missing, or when the projection moved (the body about to be built
      // comes from the new one), unless the database just failed to answer: an answer the read
      // cache holds is never held up by a database that is down.
      if ((entry.copy === undefined || moved) && !entry.failed) return pending;
    },
    headers(source) {
      const copy = entries.get(source)?.copy;
      if (!copy || copy.nextBlock === 0n) return undefined;
      const block = copy.nextBlock - 1n;
      const headers: Record<string, string> = { [INDEXED_HEADERS.block]: block.toString() };
      if (copy.observedHead !== null && copy.observedAt !== null) {
        const lag = copy.observedHead > block ? copy.observedHead - block : 0n;
        headers[INDEXED_HEADERS.lag] = lag.toString();
        headers[INDEXED_HEADERS.age] = String(
          Math.max(0, Math.floor((clock.now() - copy.observedAt) / 1000)),
        );
      }
      return headers;
    },
  };
}

import { createTtlCache } from "../cache/ttl-cache.ts";
import type { Clock } from "../quotas/limiter.ts";
import type { Session } from "./session-types.ts";

export interface SessionCache {
  /** The session cached for this token hash while the cache may trust it, else undefined. */
  get(hash: string): Session | undefined;
  /** The session cached under this id, as `get` would answer it. */
  byId(id: string): Session | undefined;
  /** Caches a live session under its token hash for the TTL. */
  remember(hash: string, session: Session): void;
  /** Drops revoked sessions by id. */
  forget(ids: readonly string[]): void;
  /** Drops every session (when revocations may have been missed). */
  clear(): void;
  /** How many sessions are cached. */
  size(): number;
}

/**
 * Live sessions by token hash, per replica, as for API keys: a session route
 * does not ask the database for a session it saw within the TTL. Revocations
 * name sessions by id, so an index from id to hash lets `forget` drop them;
 * the index holds exactly the sessions the cache holds.
 */
export function createSessionCache({
  clock,
  ttlMs,
  maxEntries,
}: {
  clock: Clock;
  ttlMs: number;
  maxEntries: number;
}): SessionCache {
  const hashOfSession = new Map<string, string>();
  const entries = createTtlCache<string, Session>({
    clock,
    maxEntries,
    onEvict: (_hash, session) => hashOfSession.delete(session.id),
  });
  return {
    get: (hash: string): Session | undefined => entries.get(hash),
    byId(id: string): Session | undefined {
      const hash = hashOfSession.get(id);
      return hash === undefined ? undefined : entries.get(hash);
    },
    remember(hash: string, session: Session) {
      entries.set(hash, session, ttlMs);
      hashOfSession.set(session.id, hash);
    },
    forget(ids: readonly string[]) {
      for (const id of ids) {
        const hash = hashOfSession.get(id);
        if (hash !== undefined) entries.delete(hash);
        hashOfSession.delete(id);
      }
    },
    clear() {
      entries.clear();
      hashOfSession.clear();
    },
    size: () => entries.size(),
  };
}

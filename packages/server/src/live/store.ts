import { sql } from "kysely";
import type { Database } from "../db/index.ts";

/** NOTIFYed with the new event's id by every insert into the event log (migration 0017). */
export const LIVE_CHANNEL = "mkt_live";

/** One row of the event log, as the triggers of migration 0017 write it. */
export type LiveRow =
  | {
      id: number;
      kind: "head";
      accountId: null;
      public: true;
      payload: { scope: string; nextBlock: number; fromBlock: number; revision: number };
    }
  | {
      id: number;
      kind: "release";
      accountId: string;
      public: boolean;
      payload: { releaseId: string; revision: number; status: string };
    }
  | {
      id: number;
      kind: "dm";
      accountId: string;
      public: false;
      payload: { messageId: string; threadId: string; from: string; createdAt: number };
    }
  | {
      id: number;
      kind: "dm-seen";
      accountId: string;
      public: false;
      payload: { threadId: string; seenUpTo: string };
    }
  | {
      id: number;
      /** A classic game chat message posted or deleted (migration 0024): only that game's chat streams. */
      kind: "chat";
      accountId: null;
      public: true;
      payload: { chainId: number; contractAddress: string; messageId: string; action: "message" | "deleted" };
    }
  | {
      id: number;
      /** A prediction-feed wakeup (migration 0027): only the predict streams of its chain. */
      kind: "predict";
      accountId: null;
      public: true;
      payload:
        | {
            event: "market";
            chainId: number;
            market: string;
            marketId: string;
            change: string;
            state: string;
          }
        | { event: "resolution"; chainId: number; market: string; marketId: string; outcome: number | null }
        | { event: "trade"; chainId: number; market: string; kind: string; block: string };
    };

interface RawRow {
  id: string;
  kind: string;
  account_id: string | null;
  public: boolean;
  payload: Record<string, unknown>;
}

const toRow = (row: RawRow): LiveRow =>
  ({
    id: Number(row.id),
    kind: row.kind,
    accountId: row.account_id,
    public: row.public,
    payload: row.payload,
  }) as LiveRow;

export type Resume =
  | { kind: "resync"; reason: "expired" | "unknown" }
  | { kind: "rows"; rows: LiveRow[]; complete: boolean };

export interface LiveStore {
  /** The newest id any reader may start after: every event up to it is committed. */
  newest(): Promise<number>;
  /** Events after `after`, oldest first. */
  after(after: number, limit: number): Promise<LiveRow[]>;
  /**
   * The events after a client's `Last-Event-ID` up to `upTo`, read in one
   * snapshot with the prune mark: `resync` when some were pruned
   * (`expired`) or the id is newer than any event (`unknown`, another
   * database or a made-up id). `complete` is false when more than `limit`
   * remain: the caller reads on from the last row.
   */
  resume(lastEventId: number, upTo: number, limit: number): Promise<Resume>;
  /**
   * Keeps the events of the last `maxAgeMs` (database time) and at most
   * `maxEvents`: deletes a prefix of ids and raises `pruned_through` to the
   * highest id deleted, in one transaction. Safe on every replica at once.
   */
  prune(window: { maxAgeMs: number; maxEvents: number }): Promise<number>;
  /**
   * Claims per owner of `owners` and runtime that one indexer commit of
   * `scope` recorded in blocks `[from, to)`, runtimes in id order.
   */
  claimsIn(
    scope: string,
    from: number,
    to: number,
    owners: readonly string[],
  ): Promise<Map<string, { version: string; claims: number }[]>>;
}

/**
 * The SQL of the live event log. The log is written only by the triggers of
 * migration 0017; this reads it and keeps it bounded.
 */
export function createLiveStore(db: Database): LiveStore {
  const k = db.kysely;
  return {
    async newest(): Promise<number> {
      const { rows } = await sql<{ newest: string }>`
        SELECT greatest((SELECT coalesce(max(id), 0) FROM live_events), pruned_through) AS newest
        FROM live_log`.execute(k);
      return Number(rows[0]?.newest ?? 0);
    },

    async after(after: number, limit: number): Promise<LiveRow[]> {
      const { rows } = await sql<RawRow>`
        SELECT id, kind, account_id, public, payload FROM live_events
        WHERE id > ${after} ORDER BY id LIMIT ${limit}`.execute(k);
      return rows.map(toRow);
    },

    async resume(lastEventId: number, upTo: number, limit: number): Promise<Resume> {
      return k
        .transaction()
        .setIsolationLevel("repeatable read")
        .execute(async (tx) => {
          const state = await sql<{ pruned_through: string; newest: string }>`
            SELECT pruned_through, greatest((SELECT coalesce(max(id), 0) FROM live_events), pruned_through) AS newest
            FROM live_log`.execute(tx);
          const prunedThrough = Number(state.rows[0]?.pruned_through ?? 0);
          const newest = Number(state.rows[0]?.newest ?? 0);
          if (lastEventId > newest) return { kind: "resync", reason: "unknown" } as const;
          if (lastEventId < prunedThrough) return { kind: "resync", reason: "expired" } as const;
          const { rows } = await sql<RawRow>`
            SELECT id, kind, account_id, public, payload FROM live_events
            WHERE id > ${lastEventId} AND id <= ${upTo} ORDER BY id LIMIT ${limit + 1}`.execute(tx);
          return {
            kind: "rows",
            rows: rows.slice(0, limit).map(toRow),
            complete: rows.length <= limit,
          } as const;
        });
    },

    async prune({ maxAgeMs, maxEvents }: { maxAgeMs: number; maxEvents: number }): Promise<number> {
      return k.transaction().execute(async (tx) => {
        const bound = await sql<{ through: string | null }>`
          SELECT greatest(
            (SELECT max(id) FROM live_events WHERE created_at < now() - make_interval(secs => ${maxAgeMs / 1000})),
            (SELECT max(id) - ${maxEvents} FROM live_events)
          ) AS through`.execute(tx);
        const through = bound.rows[0]?.through;
        if (through === null || through === undefined) return 0;
        const deleted = await sql`DELETE FROM live_events WHERE id <= ${through}`.execute(tx);
        await sql`UPDATE live_log SET pruned_through = greatest(pruned_through, ${through}::bigint)`.execute(
          tx,
        );
        return Number(deleted.numAffectedRows ?? 0);
      });
    },

    async claimsIn(
      scope: string,
      from: number,
      to: number,
      owners: readonly string[],
    ): Promise<Map<string, { version: string; claims: number }[]>> {
      const { rows } = await sql<{ owner: string; runtime_id: string; claims: number }>`
        SELECT owner, runtime_id, count(*)::int AS claims FROM market_claims
        WHERE scope = ${scope} AND owner = ANY(${owners as string[]}::text[])
          AND block_number >= ${from} AND block_number < ${to}
        GROUP BY owner, runtime_id
        ORDER BY owner, runtime_id`.execute(k);
      const byOwner = new Map<string, { version: string; claims: number }[]>();
      for (const row of rows) {
        const list = byOwner.get(row.owner) ?? [];
        list.push({ version: row.runtime_id, claims: Number(row.claims) });
        byOwner.set(row.owner, list);
      }
      return byOwner;
    },
  };
}

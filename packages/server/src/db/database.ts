import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import {
  type AvailabilityTracker,
  createAvailabilityTracker,
  type DatabaseAvailability,
} from "./availability.ts";
import { DatabaseUnavailableError, translateDatabaseError } from "./errors.ts";
import type { DB } from "./schema.ts";

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** One dedicated connection: session state (advisory locks, BEGIN) stays on it. */
export interface SqlConnection {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters. */
  exec(script: string): Promise<void>;
}

export interface NotificationHandlers {
  onNotify(payload: string): void;
  /** Called after the listening connection was lost and re-established: notifications may have been missed. */
  onReconnect?(): void;
}

export interface AdvisoryLock {
  lost(): boolean;
  release(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly kysely: Kysely<DB>;
  withConnection<T>(fn: (connection: SqlConnection) => Promise<T>): Promise<T>;
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  ping(): Promise<void>;
  poolStats(): PoolStats;
  /** Whether the database answers now, and the moment it answers again after an outage. */
  readonly availability: DatabaseAvailability;
  close(): Promise<void>;
  /**
   * Tries to take a session-level advisory lock on its own connection, held
   * until released or until that connection is lost (`lost()` turns true).
   * PGlite is one process's database: the lock is always granted.
   * `holder` names the taker to every process of the database (`advisoryLockHolders`): on
   * PostgreSQL it is the lock session's `application_name` (printable ASCII, at most 63 bytes).
   */
  tryAdvisoryLock(key: string, holder?: string): Promise<AdvisoryLock | null>;
  /**
   * Which of these session advisory locks are held now, and the `holder` each was taken with ("" when
   * none was given). Read from the locks themselves (PostgreSQL's `pg_locks` joined to the holding
   * session), never from a record that could outlive its holder: a lock whose session ended is absent.
   */
  advisoryLockHolders(keys: readonly string[]): Promise<Map<string, string>>;
  /** PGlite only: the data directory as a tarball, to open copies of it (test templates). */
  dumpDataDir?(): Promise<Blob>;
}

export type DatabaseTarget =
  | { kind: "pglite"; dataDir?: string | undefined; loadDataDir?: Blob | undefined }
  | { kind: "postgres"; url: string; poolSize?: number | undefined };

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Opens the database named by the target. Both drivers return int8 and numeric as strings. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === "pglite" ? openPglite(target) : openPostgres(target);
}

function commandOf(sql: string): string {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(\w+)/i.exec(sql);
  return (match?.[1] ?? "").toUpperCase();
}

async function openPglite(target: {
  dataDir?: string | undefined;
  loadDataDir?: Blob | undefined;
}): Promise<Database> {
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  const identity = (value: string) => value;
  const pglite = await PGlite.create({
    dataDir: target.dataDir,
    loadDataDir: target.loadDataDir,
    parsers: { [INT8_OID]: identity, [NUMERIC_OID]: identity },
  });
  let closed = false;
  /** The advisory locks this process took, by key, with their holder names (PGlite grants every one). */
  const heldLocks = new Map<string, string>();
  // PGlite is one connection; a queue hands it to one user at a time so a
  // transaction never interleaves with another caller's statements.
  let tail: Promise<void> = Promise.resolve();
  let waiting = 0;
  let busy = false;
  const acquire = async (): Promise<() => void> => {
    if (closed) throw new DatabaseUnavailableError("database is closed", true, undefined);
    waiting += 1;
    let release!: () => void;
    const previous = tail;
    tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    waiting -= 1;
    busy = true;
    return () => {
      busy = false;
      release();
    };
  };
  const run = async <R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> => {
    try {
      const result = await pglite.query<R>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    } catch (error) {
      throw translateDatabaseError(error);
    }
  };
  const connection: SqlConnection = {
    query: run,
    async exec(script) {
      try {
        await pglite.exec(script);
      } catch (error) {
        throw translateDatabaseError(error);
      }
    },
  };
  const pool = {
    async connect() {
      const release = await acquire();
      return {
        async query(sql: string, parameters: readonly unknown[]) {
          const result = await run<unknown>(sql, parameters);
          return { command: commandOf(sql), rowCount: result.rowCount, rows: result.rows };
        },
        release,
      };
    },
    async end() {},
  };
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool: pool as never }) });
  return {
    kind: "pglite",
    kysely,
    // In-process: it answers as long as it is open.
    availability: {
      available: () => !closed,
      whenAvailable: () => Promise.resolve(),
      onChange: () => () => {},
    },
    async withConnection(fn) {
      const release = await acquire();
      try {
        return await fn(connection);
      } finally {
        release();
      }
    },
    async listen(channel, handlers) {
      const unlisten = await pglite.listen(channel, (payload) => handlers.onNotify(payload));
      return async () => {
        if (!closed) await unlisten();
      };
    },
    async notify(channel, payload) {
      await run("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async ping() {
      if (closed) throw new DatabaseUnavailableError("database is closed", true, undefined);
      await run("SELECT 1");
    },
    async tryAdvisoryLock(key, holder = "") {
      heldLocks.set(key, holder);
      return {
        lost: () => closed,
        release: async () => {
          if (heldLocks.get(key) === holder) heldLocks.delete(key);
        },
      };
    },
    async advisoryLockHolders(keys) {
      return new Map(keys.flatMap((key) => (heldLocks.has(key) ? [[key, heldLocks.get(key)!]] : [])));
    },
    poolStats: () => ({ total: 1, idle: busy ? 0 : 1, waiting }),
    async dumpDataDir() {
      const release = await acquire();
      try {
        return await pglite.dumpDataDir("none");
      } finally {
        release();
      }
    },
    async close() {
      if (closed) return;
      await tail;
      closed = true;
      await kysely.destroy();
      await pglite.close();
    },
  };
}

async function openPostgres(target: { url: string; poolSize?: number | undefined }): Promise<Database> {
  const types = {
    getTypeParser: (oid: number, format?: "text" | "binary") =>
      oid === INT8_OID || oid === NUMERIC_OID
        ? (value: string) => value
        : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types,
  });
  // An idle client losing its server must not crash the process; the next
  // checkout reconnects or reports the database as unavailable.
  pool.on("error", () => {});
  const availability = createAvailabilityTracker({
    async probe() {
      const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 1_000 });
      client.on("error", () => {});
      try {
        await client.connect();
        await client.query("SELECT 1");
      } finally {
        await client.end().catch(() => {});
      }
    },
  });
  /** Translates a driver error, and marks the database down when it says the database is unavailable. */
  const translate = (error: unknown) => {
    const translated = translateDatabaseError(error);
    if (translated instanceof DatabaseUnavailableError) availability.failed(translated.message);
    return translated;
  };
  /**
   * A client of the pool, its queries (driver errors translated) and its release. While checked
   * out a client has no `error` listener of the pool's: a connection lost between two of its
   * queries (the server restarted) would be an uncaught exception and end the process. Here it
   * only marks the client unusable; its next query fails as unavailable, and a client any query of
   * which failed as unavailable is discarded on release, even when the caller handled that error.
   */
  const checkout = async () => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      // No free connection in time while the pool holds connections: the database answers and the
      // pool is saturated; a 503 (retryable), but no outage to probe for or to announce the end of.
      const saturated = pool.totalCount > 0 && /timeout exceeded when trying to connect/i.test(String(error));
      throw saturated ? translateDatabaseError(error) : translate(error);
    }
    const ignore = () => {};
    client.on("error", ignore);
    let broken = false;
    return {
      async query<R>(sql: string, params?: readonly unknown[]) {
        const ticket = availability.ticket();
        try {
          const result = await client.query(sql, params as unknown[] | undefined);
          availability.succeeded(ticket);
          return { command: result.command, rowCount: result.rowCount ?? 0, rows: result.rows as R[] };
        } catch (error) {
          const translatedError = translate(error);
          if (translatedError instanceof DatabaseUnavailableError) broken = true;
          throw translatedError;
        }
      },
      release() {
        client.removeListener("error", ignore);
        client.release(broken);
      },
    };
  };
  const kyselyPool = {
    async connect() {
      const { query, release } = await checkout();
      return { query: (sql: string, parameters: readonly unknown[]) => query(sql, parameters), release };
    },
    // The pool outlives Kysely's use of it; close() ends it.
    async end() {},
  };
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool: kyselyPool as never }) });
  const listener = createPgListener(target.url, types, availability);
  let closed = false;
  return {
    kind: "postgres",
    kysely,
    availability,
    async withConnection(fn) {
      const { query, release } = await checkout();
      try {
        return await fn({
          query: (sql, params) => query(sql, params),
          async exec(script) {
            await query(script);
          },
        });
      } finally {
        release();
      }
    },
    listen: (channel, handlers) => listener.listen(channel, handlers),
    async notify(channel, payload) {
      await kyselyPool.connect().then(async (client) => {
        try {
          await client.query("SELECT pg_notify($1, $2)", [channel, payload]);
        } finally {
          client.release();
        }
      });
    },
    async ping() {
      const { query, release } = await checkout();
      try {
        await query("SELECT 1");
      } finally {
        release();
      }
    },
    async tryAdvisoryLock(key, holder) {
      const client = new pg.Client({
        connectionString: target.url,
        types,
        connectionTimeoutMillis: 5_000,
        ...(holder === undefined ? {} : { application_name: holder }),
      });
      let lost = false;
      client.on("error", () => {
        lost = true;
      });
      client.on("end", () => {
        lost = true;
      });
      const ticket = availability.ticket();
      try {
        await client.connect();
        const { rows } = await client.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked",
          [key],
        );
        availability.succeeded(ticket);
        if (rows[0]?.locked) {
          return {
            lost: () => lost,
            async release() {
              await client.end().catch(() => {});
            },
          };
        }
      } catch (error) {
        await client.end().catch(() => {});
        throw translate(error);
      }
      await client.end().catch(() => {});
      return null;
    },
    async advisoryLockHolders(keys) {
      const { query, release } = await checkout();
      try {
        // A bigint advisory lock shows in pg_locks as its high half (classid) and low half (objid), objsubid 1.
        const { rows } = await query<{ key: string; holder: string | null }>(
          `SELECT k.key, a.application_name AS holder
             FROM unnest($1::text[]) AS k(key)
             JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND l.classid::text::bigint = (hashtextextended(k.key, 0) >> 32) & 4294967295
              AND l.objid::text::bigint = hashtextextended(k.key, 0) & 4294967295
             JOIN pg_stat_activity a ON a.pid = l.pid`,
          [keys],
        );
        return new Map(rows.map((row) => [row.key, row.holder ?? ""]));
      } finally {
        release();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      if (closed) return;
      closed = true;
      availability.close();
      await listener.close();
      await kysely.destroy();
      await pool.end();
    },
  };
}

/**
 * One dedicated connection carries every LISTEN of the process. When it
 * drops it reconnects with backoff, listens again and tells every handler,
 * since notifications sent meanwhile are lost. A reconnect waiting for its
 * timer is tried at once when the pool sees the database answer again: the
 * handlers (caches, queues, sweeps) resume with it, not seconds later.
 */
function createPgListener(url: string, types: pg.CustomTypesConfig, availability: AvailabilityTracker) {
  const channels = new Map<string, Set<NotificationHandlers>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let attempt = 0;

  const quote = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client({ connectionString: url, types, connectionTimeoutMillis: 5_000 });
    const ticket = availability.ticket();
    next.on("notification", (message) => {
      for (const handlers of channels.get(message.channel) ?? []) handlers.onNotify(message.payload ?? "");
    });
    next.on("error", () => dropped(next));
    next.on("end", () => dropped(next));
    try {
      await next.connect();
      for (const channel of channels.keys()) await next.query(`LISTEN ${quote(channel)}`);
      availability.succeeded(ticket);
    } catch (error) {
      next.removeAllListeners("end");
      await next.end().catch(() => {});
      throw translateDatabaseError(error);
    }
    return next;
  };

  const ensure = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= connect().then(
      (next) => {
        client = next;
        connecting = undefined;
        attempt = 0;
        return next;
      },
      (error) => {
        connecting = undefined;
        throw error;
      },
    );
    return connecting;
  };

  const dropped = (which: pg.Client) => {
    if (client !== which || closed) return;
    client = undefined;
    scheduleReconnect();
  };

  const reconnect = () => {
    retryTimer = undefined;
    ensure().then(
      () => {
        for (const set of channels.values()) for (const handlers of set) handlers.onReconnect?.();
      },
      () => scheduleReconnect(),
    );
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    const delay = Math.min(5_000, 100 * 2 ** attempt);
    attempt += 1;
    retryTimer = setTimeout(reconnect, delay);
    retryTimer.unref();
  };

  const stopWatching = availability.onChange((change) => {
    if (!change.available || closed || !retryTimer) return;
    clearTimeout(retryTimer);
    reconnect();
  });

  return {
    async listen(channel: string, handlers: NotificationHandlers) {
      let set = channels.get(channel);
      const fresh = !set;
      if (!set) {
        set = new Set();
        channels.set(channel, set);
      }
      set.add(handlers);
      const active = await ensure();
      if (fresh)
        await active.query(`LISTEN ${quote(channel)}`).catch((error) => {
          throw translateDatabaseError(error);
        });
      return async () => {
        set.delete(handlers);
        if (set.size === 0) {
          channels.delete(channel);
          await client?.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
        }
      };
    },
    async close() {
      closed = true;
      stopWatching();
      if (retryTimer) clearTimeout(retryTimer);
      const current = client ?? (await connecting?.catch(() => undefined));
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}

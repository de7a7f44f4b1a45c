import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp } from "../_test/app.ts";
import {
  onPostgres,
  postgresOnly,
  postgresUrl,
  setupDatabase,
  type TestDatabase,
} from "../_test/database.ts";
import { adminUrlOf, withDatabase } from "../_test/postgres.ts";
import {
  ConstraintViolationError,
  DatabaseUnavailableError,
  MigrationError,
  migrate,
  openDatabase,
  readMigrations,
  translateDatabaseError,
} from "./index.ts";

const run = promisify(execFile);

describe(`database (${onPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await setupDatabase();
  });
  afterAll(() => database.close());

  it("returns int8 and numeric as exact decimal strings on both drivers", async () => {
    const { rows } = await database.db.withConnection((c) =>
      c.query<{ big: unknown; exact: unknown; small: unknown }>(
        "SELECT 9007199254740993::int8 AS big, 115792089237316195423570985008687907853269984665640564039457584007913129639935::numeric AS exact, 7::int4 AS small",
      ),
    );
    expect(rows[0]).toEqual({
      big: "9007199254740993",
      exact: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
      small: 7,
    });
  });

  it("translates a unique violation into a non-retryable ConstraintViolationError", async () => {
    const row = {
      id: "k_dup",
      hash: "h_dup",
      prefix: "p",
      description: "d",
      email: "e@example.com",
      multiplier: 1,
    };
    await database.db.kysely.insertInto("api_keys").values(row).execute();
    const error = await database.db.kysely
      .insertInto("api_keys")
      .values(row)
      .execute()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConstraintViolationError);
    expect(error).toMatchObject({ code: "23505", retryable: false, constraint: "api_keys_pkey" });
  });

  it("rolls back a failed transaction", async () => {
    await expect(
      database.db.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto("api_keys")
          .values({ id: "k_tx", hash: "h_tx", prefix: "p", description: "d", email: "e", multiplier: 1 })
          .execute();
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const found = await database.db.kysely
      .selectFrom("api_keys")
      .select("id")
      .where("id", "=", "k_tx")
      .execute();
    expect(found).toEqual([]);
  });

  it("delivers notifications to listeners", async () => {
    const received: string[] = [];
    const unlisten = await database.db.listen("mkt_test_channel", {
      onNotify: (payload) => received.push(payload),
    });
    await database.db.notify("mkt_test_channel", "hello");
    await vi.waitFor(() => expect(received).toEqual(["hello"]), { timeout: 2_000, interval: 10 });
    await unlisten();
  });

  it("applies nothing twice, and refuses a changed or unknown migration", async () => {
    expect(await migrate(database.db)).toEqual([]);
    const changed = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: "different" } : m));
    await expect(migrate(database.db, changed)).rejects.toBeInstanceOf(MigrationError);
    await expect(migrate(database.db, [])).rejects.toThrow(/does not know/);
  });

  it("reports pool state", () => {
    const stats = database.db.poolStats();
    expect(stats.total).toBeGreaterThanOrEqual(stats.idle);
    expect(stats.waiting).toBeGreaterThanOrEqual(0);
  });
});

describe("driver error translation", () => {
  it("marks connection failures retryable", async () => {
    const refused = translateDatabaseError(
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    );
    expect(refused).toBeInstanceOf(DatabaseUnavailableError);
    expect(refused.retryable).toBe(true);
    expect(translateDatabaseError({ code: "40001", message: "could not serialize" }).retryable).toBe(true);
    expect(translateDatabaseError({ code: "57P01", message: "terminating connection" })).toBeInstanceOf(
      DatabaseUnavailableError,
    );
    expect(translateDatabaseError({ code: "42P01", message: "relation does not exist" }).retryable).toBe(
      false,
    );
  });

  postgresOnly.it(
    "reports an unreachable PostgreSQL as unavailable",
    async () => {
      const db = await openDatabase({ kind: "postgres", url: "postgres://nobody@127.0.0.1:1/none" });
      const error = await db.ping().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as DatabaseUnavailableError).retryable).toBe(true);
      // The pool now probes for the database's return.
      expect(db.availability.available()).toBe(false);
      await db.close();
    },
    { reason: "tests the PostgreSQL driver's error translation; set DATABASE_URL" },
  );

  postgresOnly.it(
    "reports a pool that finds no free connection in time as unavailable, not as an internal error",
    async () => {
      const database = await setupDatabase({ poolSize: 1 });
      try {
        // The pool's one connection is held; another checkout waits for it, then gives up.
        const error = await database.db.withConnection(() => database.db.ping().catch((e: unknown) => e));
        expect(error).toBeInstanceOf(DatabaseUnavailableError);
        expect((error as DatabaseUnavailableError).retryable).toBe(true);
        // A saturated pool is no outage: the database answers on the connection it holds.
        expect(database.db.availability.available()).toBe(true);
      } finally {
        await database.close();
      }
    },
    { reason: "tests the PostgreSQL driver's pool; set DATABASE_URL" },
  );

  postgresOnly.it(
    "a checked-out connection losing its server between two queries fails its next query as unavailable, not the process",
    async () => {
      const database = await setupDatabase({ poolSize: 1 });
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      try {
        const next = await database.db.withConnection(async (connection) => {
          const { rows } = await connection.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
          // The server ends this backend while it is checked out and idle (a restart, a crash).
          const pid = rows[0]!.pid;
          await admin.query("SELECT pg_terminate_backend($1)", [pid]);
          await vi.waitFor(
            async () => {
              const gone = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
              expect(gone.rowCount).toBe(0);
            },
            { timeout: 10_000, interval: 20 },
          );
          return connection.query("SELECT 1").catch((error: unknown) => error);
        });
        expect(next).toBeInstanceOf(DatabaseUnavailableError);
        expect(database.db.availability.available()).toBe(false);
        // The broken connection left the pool: the next checkout gets a new one, and its answer
        // (a query started after the failure) is the database's recovery.
        const { rows } = await database.db.withConnection((c) => c.query<{ one: number }>("SELECT 1 AS one"));
        expect(rows).toEqual([{ one: 1 }]);
        expect(database.db.availability.available()).toBe(true);
      } finally {
        await admin.end();
        await database.close();
      }
    },
    { reason: "tests the PostgreSQL driver's connection handling; set DATABASE_URL" },
  );
});

postgresOnly.describe("several processes", () => {
  it("two processes racing to migrate one empty database migrate it exactly once", async () => {
    const url = postgresUrl!;
    const name = `mkt_race_${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrlOf(url) });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const target = withDatabase(url, name);
      const script = new URL("../_test/migrate-process.ts", import.meta.url).pathname;
      const results = await Promise.all(
        [0, 1, 2].map(() => run(process.execPath, ["--import", "tsx", script, target], { timeout: 60_000 })),
      );
      const applied = results.map((r) => JSON.parse(r.stdout.trim()) as string[]);
      const all = readMigrations().map((m) => m.id);
      // Exactly one process applied everything; the others found nothing to do.
      expect(applied.filter((a) => a.length > 0)).toEqual([all]);
      expect(applied.filter((a) => a.length === 0)).toHaveLength(2);
      const check = new pg.Client({ connectionString: target });
      await check.connect();
      const { rows } = await check.query(
        "SELECT id, count(*)::int AS n FROM mkt_migrations GROUP BY id ORDER BY id",
      );
      await check.end();
      expect(rows).toEqual(all.map((id) => ({ id, n: 1 })));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it("flushes the key cache when the LISTEN connection is lost, and keeps receiving changes after", async () => {
    const database = await setupDatabase();
    const t = await setupApp({ database });
    const other = await setupApp({ database });
    try {
      const key = await t.createKey();
      const check = () =>
        t.app.server.inject({ url: "/market/api-key?bucket=read", headers: { "api-key": key.key } });
      expect((await check()).statusCode).toBe(204);
      const flushes = async () =>
        (await t.app.services.metrics.keyCacheFlushes.get()).values.reduce((sum, v) => sum + v.value, 0);
      const before = await flushes();
      // Kill every LISTEN connection of this database (both replicas').
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()",
      );
      await admin.end();
      await vi.waitFor(async () => expect(await flushes()).toBeGreaterThan(before), {
        timeout: 10_000,
        interval: 50,
      });
      // Changes made on the other replica arrive over the new connection.
      await other.admin("PATCH", `/admin/keys/${key.id}`, { revoked: true });
      await vi.waitFor(async () => expect((await check()).statusCode).toBe(401), {
        timeout: 2_000,
        interval: 20,
      });
    } finally {
      await t.close();
      await other.close();
      await database.close();
    }
  });
});

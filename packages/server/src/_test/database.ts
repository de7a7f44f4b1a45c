import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { describe, inject, it, type TestFunction } from "vitest";
import { type Database, openDatabase } from "../db/index.ts";
import { adminUrlOf, withDatabase } from "./postgres.ts";

export const postgresUrl = process.env["DATABASE_URL"]?.startsWith("postgres")
  ? process.env["DATABASE_URL"]
  : undefined;
export const onPostgres = postgresUrl !== undefined;
/** Reason shown for tests that need several processes and so run on PostgreSQL only (CONTRACT.md). */
export const POSTGRES_ONLY =
  "needs several processes: PostgreSQL only (PGlite is one process's database); set DATABASE_URL";

/** A PostgreSQL-only test's name: on PGlite it says why it is skipped, so every report shows the reason. */
const postgresOnlyName = (name: string, reason: string) =>
  onPostgres ? `${name} (PostgreSQL)` : `${name} (skipped: ${reason})`;

/**
 * Tests that run on PostgreSQL only and are skipped on PGlite, with the
 * reason in their name (the run's report lists skipped tests by name): by
 * default those that need several processes (two replicas, a killed indexer,
 * racing migrations); `reason` says another.
 */
export const postgresOnly = {
  describe: (name: string, body: () => void, reason = POSTGRES_ONLY) =>
    describe.skipIf(!onPostgres)(postgresOnlyName(name, reason), body),
  it: (name: string, body: TestFunction, options: { timeout?: number; reason?: string } = {}) =>
    it.skipIf(!onPostgres)(postgresOnlyName(name, options.reason ?? POSTGRES_ONLY), body, options.timeout),
};

export interface TestDatabase {
  db: Database;
  /** PostgreSQL only: URL of this test's own database, for other processes. */
  url: string | undefined;
  close(): Promise<void>;
}

/**
 * A migrated database of this test's own, cloned from the run's template:
 * a PGlite loaded from the dumped template, or a PostgreSQL database created
 * from the template database.
 */
export async function setupDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  if (postgresUrl) {
    const name = `mkt_test_${randomBytes(6).toString("hex")}`;
    await withAdmin(postgresUrl, async (client) => {
      // CREATE DATABASE refuses to copy a template another session is copying; retry briefly.
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query(`CREATE DATABASE ${name} TEMPLATE ${inject("postgresTemplate")}`);
          return;
        } catch (error) {
          if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50 + attempt * 10));
        }
      }
    });
    const url = withDatabase(postgresUrl, name);
    const db = await openDatabase({ kind: "postgres", url, poolSize: options.poolSize });
    return {
      db,
      url,
      async close() {
        await db.close();
        await withAdmin(postgresUrl, (client) =>
          client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
        );
      },
    };
  }
  const template = readFileSync(inject("pgliteTemplate"));
  const db = await openDatabase({ kind: "pglite", loadDataDir: new Blob([template]) });
  return { db, url: undefined, close: () => db.close() };
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrlOf(url) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Database } from "./database.ts";

export const migrationsDir = fileURLToPath(new URL("../../migrations/", import.meta.url));

/** Any fixed 64-bit number; every replica takes this lock before migrating. */
const MIGRATION_LOCK = 7_114_824_801_201_001n;

export interface Migration {
  id: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir: string = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => {
      const sql = readFileSync(`${dir}/${name}`, "utf8");
      return {
        id: name.replace(/\.sql$/, ""),
        sql,
        checksum: createHash("sha256").update(sql).digest("hex"),
      };
    });
}

export class MigrationError extends Error {
  override readonly name = "MigrationError";
}

/**
 * Applies pending migrations in order, each in its own transaction, under a
 * session advisory lock so replicas starting together migrate once: the
 * others wait on the lock, then find nothing left to do.
 * Returns the ids it applied.
 */
export async function migrate(
  database: Database,
  migrations: Migration[] = readMigrations(),
): Promise<string[]> {
  return database.withConnection(async (connection) => {
    await connection.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK.toString()]);
    try {
      await connection.exec(
        `CREATE TABLE IF NOT EXISTS mkt_migrations (
           id text PRIMARY KEY,
           checksum text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const { rows } = await connection.query<{ id: string; checksum: string }>(
        "SELECT id, checksum FROM mkt_migrations",
      );
      const applied = new Map(rows.map((row) => [row.id, row.checksum]));
      const known = new Set(migrations.map((migration) => migration.id));
      const unknown = [...applied.keys()].filter((id) => !known.has(id));
      if (unknown.length > 0) {
        throw new MigrationError(
          `the database has migrations this build does not know (${unknown.join(", ")}); run a newer build`,
        );
      }
      const done: string[] = [];
      for (const migration of migrations) {
        const checksum = applied.get(migration.id);
        if (checksum !== undefined) {
          if (checksum !== migration.checksum) {
            throw new MigrationError(`migration ${migration.id} was changed after it was applied`);
          }
          continue;
        }
        await connection.exec("BEGIN");
        try {
          await connection.exec(migration.sql);
          await connection.query("INSERT INTO mkt_migrations (id, checksum) VALUES ($1, $2)", [
            migration.id,
            migration.checksum,
          ]);
          await connection.exec("COMMIT");
        } catch (error) {
          await connection.exec("ROLLBACK").catch(() => {});
          throw error;
        }
        done.push(migration.id);
      }
      // PGlite runs no autovacuum: without this its planner never has statistics (on PostgreSQL
      // autovacuum analyzes the tables). Sampled, so bounded whatever the tables hold.
      if (database.kind === "pglite") await connection.exec("ANALYZE");
      return done;
    } finally {
      await connection.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK.toString()]).catch(() => {});
    }
  });
}

/** True when every migration of this build is applied. */
export async function isMigrated(
  database: Database,
  migrations: Migration[] = readMigrations(),
): Promise<boolean> {
  const { rows } = await database.withConnection((connection) =>
    connection.query<{ id: string }>("SELECT id FROM mkt_migrations WHERE id = ANY($1::text[])", [
      migrations.map((migration) => migration.id),
    ]),
  );
  return rows.length === migrations.length;
}

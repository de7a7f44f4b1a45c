import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { migrate, openDatabase } from "../db/index.ts";
import { adminUrlOf, TEMPLATE_PREFIX, withDatabase } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** PGlite: path of a dumped, migrated data directory each test file loads. */
    pgliteTemplate: string;
    /** PostgreSQL: name of a migrated template database each test file clones. */
    postgresTemplate: string;
  }
}

/**
 * Migrates one database per test run and hands it to every test file as a
 * template: PGlite's cold start and the migrations are paid once.
 */
export default async function setup(project: TestProject) {
  const url = process.env["DATABASE_URL"];
  if (url?.startsWith("postgres")) {
    const pg = (await import("pg")).default;
    const template = `${TEMPLATE_PREFIX}${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrlOf(url) });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const db = await openDatabase({ kind: "postgres", url: withDatabase(url, template), poolSize: 1 });
    await migrate(db);
    await db.close();
    project.provide("postgresTemplate", template);
    project.provide("pgliteTemplate", "");
    return async () => {
      const client = new pg.Client({ connectionString: adminUrlOf(url) });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${template}`);
      await client.end();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "mkt-test-"));
  const db = await openDatabase({ kind: "pglite" });
  await migrate(db);
  const dump = Buffer.from(await (await db.dumpDataDir!()).arrayBuffer());
  await db.close();
  const path = join(dir, "template.tar");
  writeFileSync(path, dump);
  project.provide("pgliteTemplate", path);
  project.provide("postgresTemplate", "");
  return () => rmSync(dir, { recursive: true, force: true });
}

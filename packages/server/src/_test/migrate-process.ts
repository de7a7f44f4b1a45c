// Run as a child process by the migration race test: migrates DATABASE_URL and prints what it applied.
import { migrate, openDatabase } from "../db/index.ts";

const url = process.argv[2];
if (!url) throw new Error("usage: migrate-process.ts <postgres url>");
const db = await openDatabase({ kind: "postgres", url, poolSize: 2 });
try {
  const applied = await migrate(db);
  process.stdout.write(`${JSON.stringify(applied)}\n`);
} finally {
  await db.close();
}

import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { postgresOnly, setupDatabase, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { expectProjectionEqualsFreshIndex, expectProjectionMatchesChain } from "../_test/projection-check.ts";
import type { Database } from "../db/index.ts";
import { scopesOf } from "../indexer/projections.ts";

/**
 * Two replicas (separate processes) index one database; the one holding the
 * writer locks is killed with SIGKILL mid-indexing. The other takes every
 * scope's lock within the documented bound and carries on; the projection is
 * then exactly what a fresh index of the chain writes.
 */

/**
 * The takeover bound operators are promised (docs/operations.md): a standby retries the lock every
 * `WRITER_LOCK_RETRY_MS` (indexer/engine.ts), and PostgreSQL frees a killed process's locks as soon as its connections close.
 */
const WRITER_TAKEOVER_BOUND_MS = 10_000;

const script = new URL("../_test/replica-process.ts", import.meta.url).pathname;

/** The backends of this database that hold a session advisory lock (the indexer's writer locks). */
async function lockHolders(db: Database): Promise<number[]> {
  const { rows } = await db.withConnection((c) =>
    c.query<{ pid: number }>(
      `SELECT l.pid FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY l.pid`,
    ),
  );
  return rows.map((row) => row.pid);
}

postgresOnly.describe("faults: the replica that indexes is killed with SIGKILL", () => {
  let chain: TestChain;
  let database: TestDatabase;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    chain = await setupDevChain(8453);
    database = await setupDatabase();
  }, 120_000);

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await once(child, "exit");
      }
    }
    await database?.close();
    await chain?.close();
  }, 60_000);

  /** Starts a replica process; resolves once its indexer runs. */
  async function startReplica(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      env: {
        ...process.env,
        DATABASE_URL: database.url!,
        MKT_TEST_DEPLOYMENT: JSON.stringify(chain.deployment),
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk) => {
        output += String(chunk);
        if (output.includes("started\n")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`replica exited with ${code} before it started`)));
    });
    return child;
  }

  const scopes = () => scopesOf([chain.deployment]);

  async function caughtUp(): Promise<void> {
    const latest = await chain.clients.publicClient.getBlockNumber();
    await vi.waitFor(
      async () => {
        const { rows } = await database.db.withConnection((c) =>
          c.query<{ scope: string; next_block: string }>("SELECT scope, next_block FROM indexer_heads"),
        );
        expect(rows.map((row) => [row.scope, BigInt(row.next_block)]).sort()).toEqual(
          scopes()
            .map((scope) => [scope.id, latest + 1n])
            .sort(),
        );
      },
      { timeout: 90_000, interval: 100 },
    );
  }

  it(`another replica takes over indexing within ${WRITER_TAKEOVER_BOUND_MS / 1000} s, and the projection equals a fresh index`, async () => {
    await chain.simulate(20);
    const first = await startReplica();
    await caughtUp();
    const killed = await lockHolders(database.db);
    expect(killed).toHaveLength(scopes().length);

    const standby = await startReplica();
    // The standby holds no lock while the first replica lives.
    expect(await lockHolders(database.db)).toEqual(killed);
    // The chain moves on: the first replica dies with blocks left to index.
    await chain.simulate(15, 2n);

    const killedAt = Date.now();
    first.kill("SIGKILL");
    await once(first, "exit");
    // Every scope's writer lock is held again, by the standby's sessions.
    let tookOverAt = 0;
    await vi.waitFor(
      async () => {
        const holders = await lockHolders(database.db);
        expect(holders).toHaveLength(scopes().length);
        expect(holders.filter((pid) => killed.includes(pid))).toEqual([]);
        tookOverAt = Date.now();
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(tookOverAt - killedAt).toBeLessThanOrEqual(WRITER_TAKEOVER_BOUND_MS);

    await chain.simulate(10, 3n);
    await caughtUp();
    expect(standby.exitCode).toBe(null);

    // A fresh index of the same chain, in a database of its own.
    await expectProjectionEqualsFreshIndex(database.db, [chain.deployment]);
    await expectProjectionMatchesChain(database.db, chain);
  }, 240_000);
});

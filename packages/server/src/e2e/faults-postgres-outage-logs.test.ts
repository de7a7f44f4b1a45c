import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { onPostgres, postgresOnly, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { type PrivateCluster, privateClusterSkipReason, startPrivateCluster } from "../_test/pg-cluster.ts";
import { expectProjectionMatchesChain } from "../_test/projection-check.ts";
import { type Database, migrate, openDatabase } from "../db/index.ts";

/**
 * PostgreSQL stops under load for a few seconds and starts again, on a
 * private cluster of this test's own: what the operator reads meanwhile
 * (a bounded number of log lines: the database's outage a handful of lines,
 * each refused request one request line at its level) and how soon the
 * indexer resumes once PostgreSQL accepts connections again (within a
 * second: it waits on the pool's recovery, not on its retry timer).
 *
 * The figures (lines per second during the outage, the resume delay) are
 * printed, for docs/benchmarks.md.
 */

const clusterSkip = onPostgres ? privateClusterSkipReason() : undefined;

/** How long PostgreSQL stays down: the operator's 20 s outage, long enough for the indexer's retry wait to grow to 16 s. */
const OUTAGE_MS = 20_000;
/** Concurrent clients of the load. */
const CLIENTS = 8;

interface LogLine {
  level: number;
  time: number;
  msg?: string;
  dependency?: string;
  status?: number;
  failures?: number;
  outageMs?: number;
}

/** Counts items by a key. */
function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

const addressOf = (n: number) => `0x${(n + 1).toString(16).padStart(40, "0")}`;

postgresOnly.describe(
  "faults: PostgreSQL down under load, as the operator sees it",
  () => {
    let cluster: PrivateCluster;
    let chain: TestChain;
    let database: TestDatabase & { db: Database };
    let url: string;
    let t: TestApp;

    beforeAll(async () => {
      if (clusterSkip) return;
      cluster = await startPrivateCluster();
      url = await cluster.createDatabase("mkt_outage");
      const db = await openDatabase({ kind: "postgres", url });
      await migrate(db);
      database = { db, url, close: () => db.close() };
      chain = await setupDevChain(8453);
      await chain.simulate(5);
      t = await setupApp({
        database,
        deployments: [chain.deployment],
        devChainIds: [8453],
        indexing: true,
      });
      await t.app.listen();
    }, 180_000);

    afterAll(async () => {
      await t?.close();
      await database?.close();
      await chain?.close();
      await cluster?.dispose();
    }, 60_000);

    /** The lowest next block of the chain's scopes, read on a connection of its own (never the app's pool). */
    const indexedNext = async (): Promise<bigint> => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        const { rows } = await client.query<{ next: string }>(
          "SELECT min(next_block)::text AS next FROM indexer_heads WHERE chain_id = 8453",
        );
        return BigInt(rows[0]?.next ?? "0");
      } finally {
        await client.end().catch(() => {});
      }
    };

    it("logs a bounded number of lines while PostgreSQL is down, and indexes again within a second of it answering", {
      timeout: 240_000,
    }, async (ctx) => {
      if (clusterSkip) return ctx.skip(clusterSkip);
      const { key } = await t.createKey({ multiplier: 1000 });
      const head = await chain.clients.publicClient.getBlockNumber();
      await vi.waitFor(async () => expect(await indexedNext()).toBeGreaterThan(head), {
        timeout: 60_000,
        interval: 50,
      });

      // The load: reads of addresses never asked before (not in the read cache: each needs the database).
      const statuses = new Map<number, number>();
      let stopping = false;
      let sequence = 0;
      const client = async () => {
        while (!stopping) {
          const n = sequence++;
          const response = await t.app.server.inject({
            method: "GET",
            url: n % 2 === 0 ? `/market/creators/${addressOf(n)}` : `/classic/owner/${addressOf(n)}`,
            headers: { "api-key": key },
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        }
      };
      const clients = Array.from({ length: CLIENTS }, client);
      let down = 0;
      let up = 0;
      let resumedAt = 0;
      let mined = 0n;
      try {
        await vi.waitFor(() => expect(sequence).toBeGreaterThan(200), { timeout: 30_000, interval: 20 });
        down = Date.now();
        await cluster.stop("fast");
        // Blocks mined while the database is down: the indexer has work the moment it can write.
        await chain.simulate(3, 7n);
        mined = await chain.clients.publicClient.getBlockNumber();
        // The outage lasts OUTAGE_MS: its length is the scenario, not a synchronisation.
        await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - down)));
        // PostgreSQL answers again from the first connection a client of its own gets.
        const starting = cluster.start();
        for (;;) {
          const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
          const accepted = await probe.connect().then(
            () => true,
            () => false,
          );
          await probe.end().catch(() => {});
          if (accepted) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        up = Date.now();
        await starting;
        await vi.waitFor(async () => expect(await indexedNext()).toBeGreaterThan(mined), {
          timeout: 60_000,
          interval: 10,
        });
        resumedAt = Date.now();
        await vi.waitFor(() => expect(statuses.get(200) ?? 0).toBeGreaterThan(0), { timeout: 30_000 });
      } finally {
        stopping = true;
        await Promise.all(clients);
      }

      const lines = t.logs.lines.map((line) => JSON.parse(line) as LogLine);
      const during = lines.filter((line) => line.time >= down && line.time < up && line.level >= 30);
      const seconds = (up - down) / 1000;
      const requestLines = during.filter((line) => line.msg === "request");
      const dependencyLines = during.filter((line) => line.msg?.startsWith("dependency"));
      const others = during.filter((line) => line.msg !== "request" && !line.msg?.startsWith("dependency"));
      const refused = requestLines.filter((line) => line.status === 503).length;
      const figures = {
        outageSeconds: seconds,
        requests503: refused,
        linesAtInfoOrAbove: during.length,
        linesPerSecond: Math.round(during.length / seconds),
        warnLinesOrAbove: during.filter((line) => line.level >= 40).length,
        dependencyLines: dependencyLines.length,
        requestLines: requestLines.length,
        otherLines: others.length,
        resumeMs: resumedAt - up,
      };
      if (process.env["OUTAGE_DEBUG"])
        console.log(
          lines
            .filter((line) => line.msg !== "request" && line.time >= down - 2_000)
            .map((line) => JSON.stringify({ ...line, t: line.time - up }))
            .join("\n"),
        );
      console.log(`outage figures: ${JSON.stringify(figures)}`);
      console.log(
        `outage lines by message: ${JSON.stringify(countBy(during, (line) => `${line.level} ${line.msg}`))}`,
      );

      expect(refused).toBeGreaterThan(100);
      // Each 503 is one request line at info, as every refused request's (never a warning of its own).
      expect(requestLines.every((line) => line.level === 30)).toBe(true);
      // The database's outage: its first failure, then a summary per 10 s per dependency at most.
      const bound = 1 + Math.ceil(seconds / 10);
      const byDependency = countBy(dependencyLines, (line) => line.dependency ?? "");
      for (const [dependency, count] of Object.entries(byDependency)) {
        expect({ dependency, bounded: count <= bound }).toEqual({ dependency, bounded: true });
      }
      expect(Object.keys(byDependency)).toContain("database");
      // Nothing else repeats per request or per retry.
      expect(others.length).toBeLessThanOrEqual(10);
      expect(during.filter((line) => line.level >= 40).length).toBeLessThanOrEqual(
        bound * Object.keys(byDependency).length,
      );
      // The recovery line: the outage's duration and the failures it counted.
      const recovered = lines.find(
        (line) => line.msg === "dependency recovered" && line.dependency === "database" && line.time >= down,
      );
      expect(recovered?.failures).toBeGreaterThanOrEqual(refused);
      expect(recovered?.outageMs).toBeGreaterThan(OUTAGE_MS - 1_000);

      // The indexer resumed within a second of PostgreSQL accepting connections.
      expect(figures.resumeMs).toBeLessThan(1_000);
      // So did the LISTEN connection (its own backoff reaches 5 s): the key cache was flushed on its return.
      const flushed = lines.find((line) => line.msg?.startsWith("key cache flushed") && line.time >= down);
      expect(flushed!.time - up).toBeLessThan(1_000);
      await expectProjectionMatchesChain(database.db, chain);
    });
  },
  "stops and starts a PostgreSQL cluster of its own: PostgreSQL only; set DATABASE_URL",
);

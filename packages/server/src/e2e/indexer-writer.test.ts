import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeChainConfig } from "@mkt/chain";
import type { AdminIndexer, AdminIndexerHandOffs } from "@mkt/protocol";
import { Registry } from "prom-client";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { postgresOnly, setupDatabase, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { expectProjectionMatchesChain, snapshotProjection } from "../_test/projection-check.ts";
import { scopesOf } from "../indexer/projections.ts";
import { createIndexerService } from "../indexer/service.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";

/**
 * The indexer's writer as docs/operations.md ("The indexer's writer") describes it: three replicas of
 * `npm start`'s process on one PostgreSQL, following a chain that runs on its own (described with
 * MKT_CONFIG), two indexing and one started with MKT_INDEXER=0. Every replica names the same writer
 * per scope; the operator hands the writer off and the other indexing replica takes it; the
 * projection then equals the chain, with nothing missed or written twice across the hand-off.
 */

const ADMIN_TOKEN = "writer-admin-token-0123456789abcdef";

interface Replica {
  id: string;
  child: ChildProcess;
  adminUrl: string;
  output: string[];
}

async function startReplica(id: string, env: Record<string, string>): Promise<Replica> {
  const main = new URL("../main.ts", import.meta.url).pathname;
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: { ...process.env, ...env, MKT_REPLICA_ID: id },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const banner = await new Promise<RegExpExecArray>((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      output.push(chunk.toString());
      const found = /replica\s+(\S+)[\s\S]*operator\s+(\S+)/.exec(text);
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`replica exited with ${code}:\n${output.join("")}`)));
  });
  expect(banner[1]).toBe(id);
  return { id, child, adminUrl: banner[2]!, output };
}

async function admin<T>(replica: Replica, method: string, path: string, body?: unknown) {
  const response = await fetch(`${replica.adminUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as T };
}

const indexerOf = async (replica: Replica) => {
  const answer = await admin<AdminIndexer>(replica, "GET", "/admin/indexer");
  expect(answer.status, answer.text).toBe(200);
  return answer.json();
};

/** Each scope's writer as one replica names it: scope -> [replica, thisReplica]. */
const writersSeenBy = async (replica: Replica) =>
  Object.fromEntries(
    (await indexerOf(replica)).scopes.map((scope) => [
      scope.scope,
      [scope.writer.replica, scope.writer.thisReplica],
    ]),
  );

/** The JSON log lines of a replica with this message. */
const logLines = (replica: Replica, msg: string) =>
  replica.output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line["msg"] === msg);

let database: TestDatabase;
let chains: TestChain[] = [];
let dataDir: string;
const replicas: Replica[] = [];

postgresOnly.describe("the indexer's writer across replicas", () => {
  const scopeIds = () => scopesOf(chains.map((chain) => chain.deployment)).map((scope) => scope.id);
  /** The market chain: its activity is what moves during the hand-off. */
  const chain = () => chains[0]!;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await setupDatabase();
    chains = [await setupDevChain(8453), await setupDevChain(4663)];
    dataDir = mkdtempSync(join(tmpdir(), "mkt-writer-"));
    const configPath = join(dataDir, "chains.json");
    await writeChainConfig(
      configPath,
      chains.map((chain) => chain.deployment),
    );
    env = {
      DATABASE_URL: database.url!,
      MKT_CONFIG: configPath,
      PORT: "0",
      ADMIN_PORT: "0",
      ADMIN_TOKEN,
      ETH_USD_PRICE: "3000",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
    };
    for (const chain of chains) await chain.simulate(20);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(
      replicas.map(async (replica) => {
        if (replica.child.exitCode !== null || replica.child.signalCode !== null) return;
        replica.child.kill("SIGTERM");
        await once(replica.child, "exit");
      }),
    );
    for (const chain of chains) await chain.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** Every scope's head at the chain's newest block (or past its last final one). */
  async function caughtUp(replica: Replica): Promise<void> {
    const latest = new Map(
      await Promise.all(
        chains.map(
          async (chain) =>
            [chain.deployment.chainId, Number(await chain.clients.publicClient.getBlockNumber())] as const,
        ),
      ),
    );
    await vi.waitFor(
      async () => {
        const { scopes } = await indexerOf(replica);
        expect(scopes.map((scope) => scope.scope).sort()).toEqual(scopeIds().sort());
        for (const scope of scopes) expect(scope.observedHead).toBe(latest.get(scope.chainId));
        for (const scope of scopes) expect(scope.nextBlock - 1).toBe(scope.targetBlock);
      },
      { timeout: 90_000, interval: 200 },
    );
  }

  it("names one writer on every replica, never the one with MKT_INDEXER=0, and hands it off on request", async () => {
    const first = await startReplica("writer-a", { ...env, MKT_DATA_DIR: join(dataDir, "a") });
    replicas.push(first);
    await caughtUp(first);
    const [second, reader] = await Promise.all([
      startReplica("writer-b", { ...env, MKT_DATA_DIR: join(dataDir, "b") }),
      startReplica("reader-c", { ...env, MKT_DATA_DIR: join(dataDir, "c"), MKT_INDEXER: "0" }),
    ]);
    replicas.push(second, reader);

    // Every replica names writer-a; only writer-a says it is itself.
    const held = (writer: string, self: boolean) =>
      Object.fromEntries(scopeIds().map((id) => [id, [writer, self]]));
    expect(await writersSeenBy(first)).toEqual(held("writer-a", true));
    expect(await writersSeenBy(second)).toEqual(held("writer-a", false));
    expect(await writersSeenBy(reader)).toEqual(held("writer-a", false));
    expect(await indexerOf(reader)).toMatchObject({ replica: "reader-c", indexing: false });
    expect(await indexerOf(second)).toMatchObject({ replica: "writer-b", indexing: true });

    // The writer gauge and the replica's info metric.
    const metrics = async (replica: Replica) => (await admin(replica, "GET", "/metrics")).text;
    const gauge = (text: string, scope: string) =>
      new RegExp(
        `^mkt_indexer_writer\\{scope="${scope.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\} (\\d)$`,
        "m",
      ).exec(text)?.[1];
    const [firstMetrics, secondMetrics, readerMetrics] = await Promise.all(
      [first, second, reader].map(metrics),
    );
    for (const scope of scopeIds()) {
      expect(gauge(firstMetrics!, scope)).toBe("1");
      expect(gauge(secondMetrics!, scope)).toBe("0");
      expect(gauge(readerMetrics!, scope)).toBe("0");
    }
    expect(firstMetrics).toMatch(/^mkt_replica_info\{replica="writer-a"\} 1$/m);
    expect(readerMetrics).toMatch(/^mkt_replica_info\{replica="reader-c"\} 1$/m);

    // Refusals: a replica that does not write the scope, an unknown scope, a bad body.
    const scope = scopeIds()[0]!;
    const path = `/admin/indexer/${encodeURIComponent(scope)}/handoff`;
    const notHeld = await admin<{ error: string }>(reader, "POST", path, {});
    expect(notHeld.status, notHeld.text).toBe(409);
    expect(notHeld.text).toContain("replica reader-c does not hold the writer lock");
    expect(notHeld.text).toContain("replica writer-a does");
    expect((await admin(first, "POST", "/admin/indexer/8453%3Anope/handoff", {})).status).toBe(404);
    expect((await admin(first, "POST", path, { holdOffSeconds: 0 })).status).toBe(400);
    expect((await admin(first, "POST", path, { holdOff: 30 })).status).toBe(400);
    // The all-scopes form on a replica that writes nothing: 200, nothing released.
    const none = await admin<AdminIndexerHandOffs>(reader, "POST", "/admin/indexer/handoff");
    expect(none.status, none.text).toBe(200);
    expect(none.json().handOffs.map((handOff) => handOff.released)).toEqual(scopeIds().map(() => false));

    // The chain moves while the writer is handed off.
    const moving = chain().simulate(15, 2n);
    const handOff = await admin<AdminIndexerHandOffs>(first, "POST", "/admin/indexer/handoff", {
      holdOffSeconds: 120,
    });
    await moving;
    expect(handOff.status, handOff.text).toBe(200);
    const answer = handOff.json();
    expect(answer.replica).toBe("writer-a");
    expect(
      answer.handOffs.map(({ scope, released, writer, takenBy }) => ({ scope, released, writer, takenBy })),
    ).toEqual(
      scopeIds().map((id) => ({ scope: id, released: true, writer: "writer-a", takenBy: "writer-b" })),
    );
    for (const { holdOffUntil } of answer.handOffs)
      expect(holdOffUntil).toBeGreaterThan(Date.now() + 100_000);

    expect(await writersSeenBy(first)).toEqual(held("writer-b", false));
    expect(await writersSeenBy(second)).toEqual(held("writer-b", true));
    expect(await writersSeenBy(reader)).toEqual(held("writer-b", false));
    for (const scope of (await indexerOf(first)).scopes)
      expect(scope.writer.holdOffUntil).toBeGreaterThan(Date.now());

    await chain().simulate(10, 3n);
    await chains[1]!.simulate(5, 3n);
    await caughtUp(reader);

    // The take and release lines, at info, with the scope and the replica.
    const lines = (replica: Replica, msg: string) =>
      logLines(replica, msg)
        .map((line) => ({ level: line["level"], replica: line["replica"], scope: line["scope"] }))
        .sort((a, b) => String(a.scope).localeCompare(String(b.scope)));
    const each = (replica: string) => [...scopeIds()].sort().map((id) => ({ level: 30, replica, scope: id }));
    expect(lines(first, "took the indexer's writer lock")).toEqual(each("writer-a"));
    expect(lines(first, "released the indexer's writer lock")).toEqual(each("writer-a"));
    expect(lines(second, "took the indexer's writer lock")).toEqual(each("writer-b"));
    expect(lines(reader, "took the indexer's writer lock")).toEqual([]);

    // Nothing missed or written twice across the hand-off: the projection is the chain's, and what a
    // fresh index of the chain writes.
    for (const chain of chains) await expectProjectionMatchesChain(database.db, chain);
    const reference = await setupDatabase();
    try {
      const fresh = createIndexerService({
        db: reference.db,
        logger: createLogger({ level: "silent" }),
        clock: systemClock,
        deployments: chains.map((chain) => chain.deployment),
        registry: new Registry(),
      });
      for (const indexer of fresh.indexers) await indexer.syncOnce();
      await fresh.stop();
      expect(await snapshotProjection(database.db)).toEqual(await snapshotProjection(reference.db));
    } finally {
      await reference.close();
    }
  }, 300_000);
});

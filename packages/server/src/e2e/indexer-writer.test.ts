import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createChainClients, readChainConfig } from "@mkt/chain";
import { type AdminIndexer, type AdminIndexerHandOffs, adminIndexerHandOffsSchema } from "@mkt/protocol";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { postgresOnly, setupDatabase, type TestDatabase } from "../_test/database.ts";
import { type NpmScript, REPO, runNpmScript } from "../_test/npm-script.ts";
import {
  expectProjectionEqualsFreshIndex,
  expectProjectionMatchesChain,
  type IndexedChain,
} from "../_test/projection-check.ts";
import { scopesOf } from "../indexer/projections.ts";

/**
 * "Several replicas" of docs/operations.md, done as written: one standalone dev chain
 * (`npm run chain`, its demo activity on), and replicas started with the command its banner prints
 * (`MKT_CONFIG=… ETH_USD_PRICE=3000 npm start`) plus what every replica shares (DATABASE_URL,
 * ADMIN_TOKEN) and what differs (MKT_REPLICA_ID, MKT_INDEXER, ports): two indexing and one with
 * MKT_INDEXER=0. Every replica names the same writer per scope; the operator hands the writer off
 * with `mkt indexer handoff` while the demo moves the chain, and the other indexing replica takes
 * it. The chain is then stopped where it is (no more blocks) and the projection must equal it, with
 * nothing missed or written twice across the hand-off.
 */

const ADMIN_TOKEN = "writer-admin-token-0123456789abcdef";
const run = promisify(execFile);

interface Replica {
  id: string;
  script: NpmScript;
  adminUrl: string;
}

/** A JSON-RPC call to a dev chain (the hardhat methods viem has no action for). */
async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/**
 * Stops the chain where it is, or lets it go again: no automine, no interval mining, so the demo's
 * transactions wait in the pool and the head stays put.
 */
async function freeze(chain: IndexedChain, frozen: boolean) {
  await rpc(chain.deployment.rpcUrl, "evm_setAutomine", [!frozen]);
  await rpc(chain.deployment.rpcUrl, "evm_setIntervalMining", [frozen ? 0 : 1_000]);
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
  replica.script
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line["msg"] === msg);

let database: TestDatabase;
let chain: NpmScript | undefined;
let chains: IndexedChain[] = [];
let dataDir: string;
const replicas: Replica[] = [];

postgresOnly.describe("the indexer's writer across replicas", () => {
  const scopeIds = () => scopesOf(chains.map((chain) => chain.deployment)).map((scope) => scope.id);
  /** The banner's replica command, as environment variables (`MKT_CONFIG=… ETH_USD_PRICE=… npm start`). */
  let printed: Record<string, string>;

  beforeAll(async () => {
    database = await setupDatabase();
    dataDir = mkdtempSync(join(tmpdir(), "mkt-writer-"));
    chain = runNpmScript("chain", {
      MKT_DATA_DIR: join(dataDir, "chain"),
      DEVNET_PORT_8453: "0",
      DEVNET_PORT_4663: "0",
      MKT_CONFIG: undefined,
      RPC_URL_8453: undefined,
      RPC_URL_4663: undefined,
      LOG_LEVEL: "warn",
    });
    const [, command] = await chain.waitFor(/replicas\s+(.*npm start)\n/);
    printed = Object.fromEntries(
      [...command!.matchAll(/(\w+)=(\S+)/g)].map(([, name, value]) => [name!, value!] as const),
    );
    expect(Object.keys(printed).sort()).toEqual(["ETH_USD_PRICE", "MKT_CONFIG"]);
    chains = (await readChainConfig(printed["MKT_CONFIG"]!)).chains.map((deployment) => ({
      deployment,
      clients: createChainClients({ rpcUrl: deployment.rpcUrl, chainId: deployment.chainId }),
    }));
    expect(chains.map((chain) => chain.deployment.chainId).sort()).toEqual([4663, 8453]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.script.stop()));
    // Let the demo's waiting transactions through, so the chain process stops as it usually does.
    await Promise.all(chains.map((chain) => freeze(chain, false).catch(() => undefined)));
    await chain?.stop();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** A replica as the docs start one: the banner's command, the shared and the per-replica settings. */
  async function startReplica(id: string, env: Record<string, string> = {}): Promise<Replica> {
    const script = runNpmScript("start", {
      ...printed,
      DATABASE_URL: database.url!,
      ADMIN_TOKEN,
      MKT_REPLICA_ID: id,
      MKT_DATA_DIR: join(dataDir, id),
      PORT: "0",
      ADMIN_PORT: "0",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      ...env,
    });
    const started: Replica = { id, script, adminUrl: "" };
    replicas.push(started);
    const [, replica, adminUrl] = await script.waitFor(/replica\s+(\S+)[\s\S]*operator\s+(\S+)/);
    expect(replica).toBe(id);
    started.adminUrl = adminUrl!;
    return started;
  }

  /** The next block each scope will index, as a replica reports it. */
  const nextBlocks = async (replica: Replica) =>
    Object.fromEntries((await indexerOf(replica)).scopes.map((scope) => [scope.scope, scope.nextBlock]));

  /** Every scope's head at the chain's newest block (or past its last final one): for a frozen chain. */
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

  it("names one writer on every replica, never the one with MKT_INDEXER=0, and hands it off with mkt indexer handoff", async () => {
    const first = await startReplica("writer-a");
    const held = (writer: string, self: boolean) =>
      Object.fromEntries(scopeIds().map((id) => [id, [writer, self]]));
    await vi.waitFor(async () => expect(await writersSeenBy(first)).toEqual(held("writer-a", true)), {
      timeout: 60_000,
      interval: 200,
    });
    const [second, reader] = await Promise.all([
      startReplica("writer-b"),
      startReplica("reader-c", { MKT_INDEXER: "0" }),
    ]);

    // Every replica names writer-a; only writer-a says it is itself.
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

    // The operator's command (from its sources), while the demo moves the chain: `mkt indexer handoff`
    // against writer-a.
    const before = await nextBlocks(second);
    const { stdout } = await run(
      process.execPath,
      [
        "--import",
        "tsx",
        join(REPO, "packages/cli/src/main.ts"),
        "indexer",
        "handoff",
        "--hold-off",
        "120",
        "--json",
      ],
      {
        env: { PATH: process.env["PATH"] ?? "", MKT_ADMIN_URL: first.adminUrl, MKT_ADMIN_TOKEN: ADMIN_TOKEN },
      },
    );
    const answer = adminIndexerHandOffsSchema.parse(JSON.parse(stdout));
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

    // writer-b indexes what the demo mines after the hand-off: every scope moves on.
    await vi.waitFor(
      async () => {
        const after = await nextBlocks(second);
        for (const id of scopeIds()) expect(after[id]!).toBeGreaterThan(before[id]! + 3);
      },
      { timeout: 60_000, interval: 500 },
    );
    // Then the chain stops where it is, and every replica sees the projection reach its head.
    await Promise.all(chains.map((chain) => freeze(chain, true)));
    await caughtUp(reader);

    // The take and release lines, at info, with the scope and the replica.
    const lines = (replica: Replica, msg: string) =>
      logLines(replica, msg)
        .map((line) => ({ level: line["level"], replica: line["replica"], scope: line["scope"] }))
        .sort((a, b) => String(a.scope).localeCompare(String(b.scope)));
    const each = (replica: string) => [...scopeIds()].sort().map((id) => ({ level: 30, replica, scope: id }));
    // JSON lines are written in batches, flushed at least every second.
    await vi.waitFor(
      () => {
        expect(lines(first, "took the indexer's writer lock")).toEqual(each("writer-a"));
        expect(lines(first, "released the indexer's writer lock")).toEqual(each("writer-a"));
        expect(lines(second, "took the indexer's writer lock")).toEqual(each("writer-b"));
        expect(lines(reader, "took the indexer's writer lock")).toEqual([]);
      },
      { timeout: 5_000, interval: 100 },
    );

    // Nothing missed or written twice across the hand-off: the projection is the chain's, and what a
    // fresh index of the chain writes.
    for (const chain of chains) await expectProjectionMatchesChain(database.db, chain);
    await expectProjectionEqualsFreshIndex(
      database.db,
      chains.map((chain) => chain.deployment),
    );
  }, 300_000);
});

import type { AdminHealth } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDatabase, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { type RpcProxy, startRpcProxy } from "../_test/rpc-proxy.ts";

/**
 * The operator health route, its metrics and the readiness option, with the
 * chain's RPC cut behind a proxy: two replicas on one database and one dev
 * chain, one with the default readiness, one with READYZ_REQUIRE_CHAIN=1.
 */
describe("health beyond the database: the chain's RPC down and back", () => {
  let chain: TestChain;
  let proxy: RpcProxy;
  let database: TestDatabase;
  let plain: TestApp;
  let strict: TestApp;

  beforeAll(async () => {
    database = await setupDatabase();
    chain = await setupDevChain(8453);
    proxy = await startRpcProxy(chain.chain.rpcUrl);
    const deployments = [{ ...chain.deployment, rpcUrl: proxy.url }];
    plain = await setupApp({ database, deployments, indexing: true, chainProbeIntervalMs: 100 });
    strict = await setupApp({
      database,
      deployments,
      chainProbeIntervalMs: 100,
      env: { READYZ_REQUIRE_CHAIN: "1" },
    });
    await plain.app.listen();
    await strict.app.listen();
  }, 120_000);

  afterAll(async () => {
    await strict?.close();
    await plain?.close();
    await database?.close();
    await proxy?.close();
    await chain?.close();
  }, 60_000);

  const health = async (t: TestApp) => {
    const response = await t.admin("GET", "/admin/health");
    expect(response.statusCode).toBe(200);
    return response.json() as AdminHealth;
  };
  const metric = async (t: TestApp, name: string) => {
    const text = (
      await t.app.admin.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${(await import("../_test/app.ts")).TEST_ADMIN_TOKEN}` },
      })
    ).body;
    return text.split("\n").find((line) => line.startsWith(name));
  };
  const ready = async (t: TestApp) => {
    const response = await t.app.server.inject({ method: "GET", url: "/readyz" });
    return {
      status: response.statusCode,
      body: response.json() as unknown,
      ...(response.statusCode === 503 ? { retryAfter: response.headers["retry-after"] } : {}),
    };
  };

  it("reports the chain up with the indexer's lag, then down with the failure's class, and /readyz follows only with the option", {
    timeout: 120_000,
  }, async () => {
    await chain.simulate(3, 1n);
    const head = Number(await chain.clients.publicClient.getBlockNumber());
    // Up: the probe has seen the chain's head and the indexer has caught up to it.
    await vi.waitFor(
      async () => {
        const report = await health(plain);
        expect(report.chains).toEqual([
          expect.objectContaining({ chainId: 8453, up: true, lastError: null, head: expect.any(Number) }),
        ]);
        expect(report.chains[0]!.head).toBeGreaterThanOrEqual(head);
        expect(report.scopes.length).toBeGreaterThan(0);
        for (const scope of report.scopes) {
          expect(scope).toMatchObject({ chainId: 8453, failure: "", lagBlocks: 0 });
          expect(scope.indexedBlock).toBeGreaterThanOrEqual(head);
        }
      },
      { timeout: 60_000, interval: 100 },
    );
    const up = await health(plain);
    expect(up).toMatchObject({
      status: "ok",
      price: { source: "fixed", available: true, usdPerEth: "3000" },
      readiness: { requireChain: false, ready: true },
    });
    expect(await metric(plain, "mkt_rpc_up{")).toBe('mkt_rpc_up{chain="8453"} 1');
    expect(await metric(plain, "mkt_eth_price_available{")).toBe('mkt_eth_price_available{source="fixed"} 1');
    await vi.waitFor(
      async () => expect(await ready(strict)).toEqual({ status: 200, body: { status: "ready" } }),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
    expect(await ready(plain)).toEqual({ status: 200, body: { status: "ready" } });

    // Down: every call refused while the chain goes on.
    await proxy.setFault("refuse");
    await chain.mine(2);
    await vi.waitFor(
      async () => {
        const report = await health(plain);
        expect(report.status).toBe("degraded");
        expect(report.chains[0]).toMatchObject({ up: false, lastError: "connection refused" });
        expect(report.chains[0]!.lastErrorAt).toBeGreaterThan(report.chains[0]!.lastSuccessAt!);
      },
      { timeout: 10_000, interval: 100 },
    );
    const down = await health(plain);
    // No URL, port or provider text in what the route says.
    expect(JSON.stringify(down)).not.toContain("127.0.0.1");
    expect(await metric(plain, "mkt_rpc_up{")).toBe('mkt_rpc_up{chain="8453"} 0');
    // By default /readyz keeps its contract: the database answers, so it is ready.
    expect(await ready(plain)).toEqual({ status: 200, body: { status: "ready" } });
    await vi.waitFor(
      async () => {
        const refused = await ready(strict);
        expect(refused.status).toBe(503);
        expect(refused.retryAfter).toBe("5");
        expect(JSON.stringify(refused.body)).toContain("chain 8453");
      },
      { timeout: 10_000, interval: 100 },
    );
    expect((await health(strict)).readiness).toEqual({ requireChain: true, ready: false });
    // The indexer's observation stops moving while it cannot reach the chain.
    const stale = await health(plain);
    await vi.waitFor(
      async () => {
        const later = await health(plain);
        for (const scope of later.scopes) {
          const before = stale.scopes.find((candidate) => candidate.scope === scope.scope)!;
          expect(scope.observedAt).toBe(before.observedAt);
          expect(scope.observedAgeMs!).toBeGreaterThan(before.observedAgeMs! + 500);
        }
      },
      { timeout: 10_000, interval: 200 },
    );

    // Back: the chain answers again, the lag it built up is indexed.
    await proxy.setFault("none");
    const newest = Number(await chain.clients.publicClient.getBlockNumber());
    await vi.waitFor(
      async () => {
        const report = await health(plain);
        expect(report.chains[0]).toMatchObject({ up: true });
        expect(report.chains[0]!.head).toBeGreaterThanOrEqual(newest);
        for (const scope of report.scopes) expect(scope.indexedBlock).toBeGreaterThanOrEqual(newest);
      },
      { timeout: 60_000, interval: 100 },
    );
    await vi.waitFor(async () => expect((await ready(strict)).status).toBe(200), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await metric(plain, "mkt_rpc_up{")).toBe('mkt_rpc_up{chain="8453"} 1');
  });
});

describe("a replica without an ETH/USD price says so", () => {
  let t: TestApp;
  beforeAll(async () => {
    // MKT_CONFIG without ETH_USD_PRICE[_URL]: a real chain's replica, whose default is no price.
    t = await setupApp({ env: { MKT_CONFIG: "/nonexistent/chains.json" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("in the health route and the price metric", async () => {
    const response = await t.admin("GET", "/admin/health");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: "degraded",
      chains: [],
      scopes: [],
      price: { source: "none", available: false, usdPerEth: null, obtainedAt: null },
    });
    const metrics = await t.admin("GET", "/metrics");
    expect((metrics as unknown as { body: string }).body).toContain(
      'mkt_eth_price_available{source="none"} 0',
    );
  });
});

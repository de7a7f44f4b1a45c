import type { PredictRuntime } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createManualClock, setupApp, setupReplicas, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { HEAD_REFRESH_MS } from "./freshness.ts";
import { PREDICT_ROUTES } from "./routes.ts";

type Inject = TestApp["app"]["server"]["inject"];
const get = (inject: Inject, url: string, key: string | undefined) =>
  inject({ url: `/predict/v9${url}`, headers: key ? { "api-key": key } : {} });

/** Every gated route of the table, with a placeholder for each path parameter. */
const gatedPaths = Object.keys(PREDICT_ROUTES)
  .filter((route) => route !== "GET /runtime")
  .map((route) =>
    route.slice("GET ".length).replace(/:[A-Za-z]+/g, "0x0000000000000000000000000000000000000001"),
  );
/** The gated routes that answer and end (a stream that is let in stays open: its refusals are checked above). */
const answeringPaths = Object.entries(PREDICT_ROUTES)
  .filter(([route, declaration]) => route !== "GET /runtime" && !("stream" in declaration))
  .map(([route]) =>
    route.slice("GET ".length).replace(/:[A-Za-z]+/g, "0x0000000000000000000000000000000000000001"),
  );

const expectRefused = (response: Awaited<ReturnType<Inject>>, error: string) => {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.json()).toMatchObject({ error });
  expect(typeof (response.json() as { message: unknown }).message).toBe("string");
  expect(response.headers["cache-control"]).toBe("no-store");
  expect(response.headers.etag).toBeUndefined();
};

describe("prediction feed without a prediction chain", () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await setupApp();
    key = (await t.createKey()).key;
  });
  afterAll(() => t.close());

  it("is off: the runtime record says so and every other route answers 503 FEED_DISABLED", async () => {
    const runtime = await get(t.app.server.inject.bind(t.app.server), "/runtime", key);
    expect(runtime.statusCode).toBe(200);
    expect(runtime.json()).toMatchObject({ enabled: false, publicEnabled: false, finalityDepth: 0 });
    expect((runtime.json() as PredictRuntime).freshness).toMatchObject({
      stale: true,
      reason: "NOT_INDEXED",
    });
    expect(gatedPaths.length).toBeGreaterThan(0);
    for (const path of gatedPaths)
      expectRefused(await get(t.app.server.inject.bind(t.app.server), path, key), "FEED_DISABLED");
    const change = await t.admin("PUT", "/admin/predict/runtime", { enabled: true });
    expect(change.statusCode).toBe(409);
  });
});

describe("prediction feed on the dev chain: switches, first-party keys and freshness", () => {
  let chain: TestChain;
  let t: TestApp;
  let inject: Inject;
  const clock = createManualClock(Date.now());
  let thirdParty: string;
  let firstParty: string;
  const depth = () => BigInt(chain.deployment.finalityDepth);
  const sync = async () => {
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
    // This replica re-reads the head row at the latest after HEAD_REFRESH_MS (at once on the commit's notification).
    clock.advance(HEAD_REFRESH_MS);
  };
  const runtime = async () => {
    const response = await get(inject, "/runtime", thirdParty);
    expect(response.statusCode).toBe(200);
    return response.json() as PredictRuntime;
  };
  beforeAll(async () => {
    chain = await setupDevChain(4663);
    t = await setupApp({ deployments: [chain.deployment], clock });
    inject = t.app.server.inject.bind(t.app.server);
    thirdParty = (await t.createKey()).key;
    const created = await t.createKey();
    firstParty = created.key;
    const marked = await t.admin("PATCH", `/admin/keys/${created.id}`, { firstParty: true });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ firstParty: true });
    await chain.simulate(6);
    await sync();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it("serves the runtime record with the finalized block, its hash and time, and the lag", async () => {
    const { publicClient } = chain.clients;
    const latest = await publicClient.getBlockNumber();
    const final = await publicClient.getBlock({ blockNumber: latest - depth() });
    const record = await runtime();
    expect(record).toMatchObject({
      enabled: true,
      publicEnabled: true,
      chainId: 4663,
      finalityDepth: chain.deployment.finalityDepth,
    });
    expect(record.freshness).toMatchObject({
      block: {
        number: final.number.toString(),
        hash: final.hash,
        timestamp: new Date(Number(final.timestamp) * 1000).toISOString(),
      },
      observedHead: latest.toString(),
      observedAt: new Date(clock.now() - HEAD_REFRESH_MS).toISOString(),
      lagBlocks: chain.deployment.finalityDepth,
      stale: false,
      reason: null,
      bounds: { maxObservationAgeSeconds: 30, maxBlockAgeSeconds: 120, maxLagBlocks: 60 },
    });
    const health = await get(inject, "/health", thirdParty);
    expect(health.statusCode).toBe(200);
    expect(health.headers["cache-control"]).toBe("no-store");
    expect(health.json()).toMatchObject({ status: "ok", freshness: { block: { hash: final.hash } } });
  });

  it("publicEnabled off: a third-party key gets 503 FEED_NOT_PUBLIC, a first-party key 200", async () => {
    const off = await t.admin("PUT", "/admin/predict/runtime", { publicEnabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: true, publicEnabled: false });
    try {
      expect(await runtime()).toMatchObject({ enabled: true, publicEnabled: false });
      for (const path of gatedPaths) expectRefused(await get(inject, path, thirdParty), "FEED_NOT_PUBLIC");
      // The gate lets a first-party key through: the route's own answer (200, or its 400/404 for a placeholder).
      for (const path of answeringPaths) {
        const served = await get(inject, path, firstParty);
        expect(served.statusCode, `${path}: ${served.body}`).not.toBe(503);
      }
      expect((await get(inject, "/health", firstParty)).statusCode).toBe(200);
      // The flag goes with the key: the operator takes it back and the key is third-party again at once.
      const keys = (await t.admin("GET", "/admin/keys")).json() as {
        keys: Array<{ id: string; firstParty: boolean }>;
      };
      const marked = keys.keys.find((entry) => entry.firstParty)!;
      await t.admin("PATCH", `/admin/keys/${marked.id}`, { firstParty: false });
      expectRefused(await get(inject, "/health", firstParty), "FEED_NOT_PUBLIC");
      await t.admin("PATCH", `/admin/keys/${marked.id}`, { firstParty: true });
    } finally {
      await t.admin("PUT", "/admin/predict/runtime", { publicEnabled: true });
    }
    expect((await get(inject, "/health", thirdParty)).statusCode).toBe(200);
  });

  it("enabled off: every route but /runtime answers 503 FEED_DISABLED, first-party keys too", async () => {
    await t.admin("PUT", "/admin/predict/runtime", { enabled: false });
    try {
      expect(await runtime()).toMatchObject({ enabled: false, publicEnabled: true });
      for (const path of gatedPaths) {
        expectRefused(await get(inject, path, thirdParty), "FEED_DISABLED");
        expectRefused(await get(inject, path, firstParty), "FEED_DISABLED");
      }
      expect((await t.admin("GET", "/admin/predict/runtime")).json()).toEqual({
        enabled: false,
        publicEnabled: true,
      });
    } finally {
      await t.admin("PUT", "/admin/predict/runtime", { enabled: true });
    }
    expect((await get(inject, "/health", thirdParty)).statusCode).toBe(200);
  });

  it("stale once the chain's blocks stop: 503 PROJECTION_STALE, no-store; 200 again once blocks resume", async () => {
    expect((await get(inject, "/health", firstParty)).statusCode).toBe(200);
    // No block for longer than the bound: the indexer still observes the chain, whose newest final block ages.
    const finalTime = Date.parse((await runtime()).freshness.block!.timestamp);
    clock.advance(Math.max(0, finalTime + 121_000 - clock.now()));
    await sync();
    for (const key of [thirdParty, firstParty]) {
      for (const path of gatedPaths) expectRefused(await get(inject, path, key), "PROJECTION_STALE");
    }
    const stale = await runtime();
    expect(stale.freshness).toMatchObject({ stale: true, reason: "BLOCK_TOO_OLD" });
    expect(stale.freshness.blockAgeSeconds).toBeGreaterThan(120);

    // And without the indexer observing the chain for longer than 30 s.
    clock.advance(31_000);
    expect((await runtime()).freshness).toMatchObject({ stale: true, reason: "NOT_OBSERVED" });

    // Blocks resume (stamped at the clock's time) and become final.
    const chainNow = Number((await chain.clients.publicClient.getBlock()).timestamp);
    await chain.chain.provider.request({
      method: "evm_setNextBlockTimestamp",
      params: [Math.max(chainNow + 1, Math.ceil(clock.now() / 1000))],
    });
    await chain.mine(chain.deployment.finalityDepth + 1);
    await sync();
    const resumed = await get(inject, "/health", thirdParty);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect((await runtime()).freshness).toMatchObject({ stale: false, reason: null });
  });
});

describe("prediction feed switches on two replicas", () => {
  let chain: TestChain;
  let replicas: Awaited<ReturnType<typeof setupReplicas>>;
  let key: string;
  beforeAll(async () => {
    chain = await setupDevChain(4663);
    replicas = await setupReplicas({ deployments: [chain.deployment] });
    key = (await replicas.a.createKey()).key;
    for (const indexer of replicas.a.app.services.indexer!.indexers) await indexer.syncOnce();
  }, 120_000);
  afterAll(async () => {
    await replicas?.close();
    await chain?.close();
  });

  it("a change on one replica reaches the other within a second, its cached runtime record included", async () => {
    const b = replicas.b.app.server.inject.bind(replicas.b.app.server);
    await vi.waitFor(async () => expect((await get(b, "/health", key)).statusCode).toBe(200), {
      timeout: 2_000,
      interval: 20,
    });
    // Cached on b (max-age 1 s, but the switch's revision drops it before).
    expect((await get(b, "/runtime", key)).json()).toMatchObject({ enabled: true, publicEnabled: true });

    expect(
      (await replicas.a.admin("PUT", "/admin/predict/runtime", { publicEnabled: false })).statusCode,
    ).toBe(200);
    await vi.waitFor(
      async () => {
        expect((await get(b, "/runtime", key)).json()).toMatchObject({ publicEnabled: false });
        expectRefused(await get(b, "/health", key), "FEED_NOT_PUBLIC");
      },
      { timeout: 1_000, interval: 20 },
    );

    await replicas.b.admin("PUT", "/admin/predict/runtime", { publicEnabled: true, enabled: false });
    const a = replicas.a.app.server.inject.bind(replicas.a.app.server);
    await vi.waitFor(async () => expectRefused(await get(a, "/health", key), "FEED_DISABLED"), {
      timeout: 1_000,
      interval: 20,
    });
    expect((await get(a, "/runtime", key)).json()).toMatchObject({ enabled: false, publicEnabled: true });
  });
});

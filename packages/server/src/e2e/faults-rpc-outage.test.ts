import type { ChainDeployment } from "@mkt/chain";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { postgresOnly, setupDatabase, type TestDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { expectProjectionEqualsFreshIndex, expectProjectionMatchesChain } from "../_test/projection-check.ts";
import { type RpcProxy, startRpcProxy } from "../_test/rpc-proxy.ts";
import { scopesOf } from "../indexer/projections.ts";
import { finalizedBlock } from "../indexer/ranges.ts";

/**
 * The chains' RPC goes down, hangs, then turns slow, while the chains keep
 * producing blocks, behind a fault-injecting proxy between the app and its
 * dev chains. Market and classic reads keep serving the projection as it
 * stands and say how old it is (`Indexed-*`); the prediction feed refuses
 * with 503 once its projection is stale; after recovery the projection is
 * exactly a fresh index of both chains.
 *
 * "A minute" is shortened: the feed's observation bound is 8 s here (30 s in
 * production, PREDICT_FRESHNESS_BOUNDS); the behaviour is the same.
 */

const FEED_BOUNDS = { maxObservationAgeMs: 8_000, maxBlockAgeMs: 600_000, maxLagBlocks: 60 };

postgresOnly.describe(
  "faults: the chains' RPC down or slow",
  () => {
    let base: TestChain;
    let feed: TestChain;
    let proxies: RpcProxy[] = [];
    let database: TestDatabase;
    let t: TestApp;
    let key: string;

    beforeAll(async () => {
      [base, feed] = await Promise.all([setupDevChain(8453), setupDevChain(4663)]);
      proxies = await Promise.all([startRpcProxy(base.chain.rpcUrl), startRpcProxy(feed.chain.rpcUrl)]);
      const through = (chain: TestChain, proxy: RpcProxy): ChainDeployment => ({
        ...chain.deployment,
        rpcUrl: proxy.url,
      });
      database = await setupDatabase();
      t = await setupApp({
        database,
        deployments: [through(base, proxies[0]!), through(feed, proxies[1]!)],
        devChainIds: [8453, 4663],
        indexing: true,
        predictFreshness: FEED_BOUNDS,
      });
      await t.app.listen();
      key = (await t.createKey({ multiplier: 1000 })).key;
    }, 180_000);

    afterAll(async () => {
      await t?.close();
      await database?.close();
      for (const proxy of proxies) await proxy.close();
      await base?.close();
      await feed?.close();
    }, 60_000);

    const setFault = (fault: Parameters<RpcProxy["setFault"]>[0]) =>
      Promise.all(proxies.map((proxy) => proxy.setFault(fault)));

    const get = (url: string) => t.app.server.inject({ method: "GET", url, headers: { "api-key": key } });

    /** Every scope of both chains has indexed up to the newest block it reads. */
    async function caughtUp(timeout = 120_000): Promise<void> {
      const targets = new Map<string, bigint>();
      for (const chain of [base, feed]) {
        const latest = await chain.clients.publicClient.getBlockNumber();
        for (const scope of scopesOf([chain.deployment]))
          targets.set(
            scope.id,
            scope.reads === "finalized" ? finalizedBlock(latest, scope.finalityDepth) : latest,
          );
      }
      await vi.waitFor(
        async () => {
          const { rows } = await database.db.withConnection((c) =>
            c.query<{ scope: string; next_block: string }>("SELECT scope, next_block FROM indexer_heads"),
          );
          const heads = new Map(rows.map((row) => [row.scope, BigInt(row.next_block) - 1n]));
          expect(Object.fromEntries([...targets.keys()].map((scope) => [scope, heads.get(scope)]))).toEqual(
            Object.fromEntries(targets),
          );
        },
        { timeout, interval: 100 },
      );
    }

    /** The feed's gated read answers 200 (its projection is fresh). */
    const feedServes = () =>
      vi.waitFor(async () => expect((await get("/predict/v9/markets")).statusCode).toBe(200), {
        timeout: 60_000,
        interval: 100,
      });

    /** Activity on both chains, straight to the chains (never through the proxies); the feed's final. */
    async function activity(seed: bigint) {
      await base.simulate(6, seed);
      await feed.simulate(6, seed);
      await feed.mine(feed.deployment.finalityDepth + 1);
    }

    const indexed = (response: { headers: Record<string, unknown> }) => ({
      block: Number(response.headers["indexed-block"]),
      age: Number(response.headers["indexed-age"]),
    });

    it("reads keep serving with their head's age, the feed answers 503 once stale, and the projection recovers exactly", {
      timeout: 480_000,
    }, async () => {
      await activity(1n);
      await caughtUp();
      await feedServes();
      const latest = Number(await base.clients.publicClient.getBlockNumber());
      const marketBefore = await get("/market/runtime");
      expect(marketBefore.statusCode).toBe(200);
      expect(indexed(marketBefore).block).toBe(latest);

      // Down: every call refused, while both chains move on.
      await setFault("refuse");
      await activity(2n);
      await vi.waitFor(
        async () => {
          const refused = await get("/predict/v9/markets");
          expect({ status: refused.statusCode, body: refused.json() }).toMatchObject({
            status: 503,
            body: { error: "PROJECTION_STALE" },
          });
          expect(refused.headers["retry-after"]).toBe("5");
          expect(refused.headers["cache-control"]).toBe("no-store");
        },
        { timeout: 60_000, interval: 200 },
      );
      const runtime = (await get("/predict/v9/runtime")).json() as {
        freshness: { stale: boolean; reason: string };
      };
      expect(runtime.freshness).toMatchObject({ stale: true, reason: "NOT_OBSERVED" });
      // Market and classic reads answer from the projection as it stands, and say how old it is.
      let age = 0;
      await vi.waitFor(
        async () => {
          for (const url of ["/market/runtime", "/classic/games"]) {
            const response = await get(url);
            expect(response.statusCode, url).toBe(200);
            expect(indexed(response).age, url).toBeGreaterThan(FEED_BOUNDS.maxObservationAgeMs / 1000);
          }
          age = indexed(await get("/market/runtime")).age;
        },
        { timeout: 60_000, interval: 200 },
      );
      expect(indexed(await get("/market/runtime")).block).toBe(latest);
      // Operators see why.
      await vi.waitFor(async () => {
        const status = (await t.admin("GET", "/admin/indexer")).json() as { scopes: { failure: string }[] };
        expect(status.scopes.filter((scope) => scope.failure === "")).toEqual([]);
      });

      // Hung: calls accepted and never answered.
      await setFault("hang");
      await vi.waitFor(() => expect(proxies[0]!.hanging + proxies[1]!.hanging).toBeGreaterThan(0), {
        timeout: 60_000,
        interval: 100,
      });
      const hung = await get("/market/runtime");
      expect(hung.statusCode).toBe(200);
      expect(indexed(hung)).toEqual({ block: latest, age: expect.any(Number) });
      expect(indexed(hung).age).toBeGreaterThanOrEqual(age);
      expect((await get("/classic/games")).statusCode).toBe(200);
      expect((await get("/predict/v9/markets")).statusCode).toBe(503);

      // Slow: every call answered a second late. Indexing goes on, and the feed is fresh again.
      await setFault({ delayMs: 1_000 });
      await caughtUp();
      await feedServes();

      // Recovered.
      await setFault("none");
      await activity(3n);
      await caughtUp();
      await feedServes();
      const after = await get("/market/runtime");
      expect(indexed(after).block).toBe(Number(await base.clients.publicClient.getBlockNumber()));

      // No gap and no duplicate: every log once, every state row the contracts', and row for
      // row what a fresh index of both chains writes.
      await expectProjectionMatchesChain(database.db, base);
      await expectProjectionMatchesChain(database.db, feed);
      await expectProjectionEqualsFreshIndex(database.db, [base.deployment, feed.deployment]);
    });
  },
  "a fault test of the production setup: PostgreSQL only; set DATABASE_URL",
);

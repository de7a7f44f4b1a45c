import { DEV_ACCOUNT_ROLES, marketFactoryAbi, waitForSuccess, wethAbi } from "@mkt/chain";
import {
  PredictDisabledError,
  type PredictMarketsReads,
  type PredictSnapshot,
  predictApi,
  predictMarketsApi,
} from "@mkt/client";
import { type Address, maxUint256, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTransport, type Transport } from "../../../client/src/http.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { INDEXER_CHANNEL } from "../indexer/head-store.ts";

const FINALITY_DEPTH = 3;

/** The SDK's markets reads (`predictMarketsApi`), counting the full reads and the single-market reads. */
function countedMarkets(transport: Transport) {
  const calls = { page: 0, get: 0 };
  const markets = predictMarketsApi(transport);
  const reads: PredictMarketsReads = {
    ...markets,
    page(query) {
      calls.page++;
      return markets.page(query);
    },
    get(address) {
      calls.get++;
      return markets.get(address);
    },
  };
  return { reads, calls };
}

/** Snapshots as they come, and a wait for one that matches. */
function snapshots() {
  const seen: PredictSnapshot[] = [];
  let wake: () => void = () => {};
  return {
    seen,
    onSnapshot(snapshot: PredictSnapshot) {
      seen.push(snapshot);
      wake();
    },
    async until(match: (snapshot: PredictSnapshot) => boolean, from = 0) {
      for (;;) {
        const found = seen.slice(from).find(match);
        if (found) return found;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

describe("SDK client.predict", () => {
  it("start() refuses when the deployment follows no prediction chain (enabled false)", async () => {
    const t = await setupApp();
    try {
      const { publicUrl: baseUrl } = await t.app.listen();
      const apiKey = (await t.createKey()).key;
      const predict = predictApi(createTransport({ baseUrl, apiKey }), {
        stream: { baseUrl, apiKey },
        markets: predictMarketsApi(createTransport({ baseUrl, apiKey })),
      });
      const refusal = await predict.start().catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(PredictDisabledError);
      expect((refusal as PredictDisabledError).runtime).toMatchObject({
        enabled: false,
        publicEnabled: false,
      });
    } finally {
      await t.close();
    }
  });

  describe("on the dev chain", () => {
    let chain: TestChain;
    let t: TestApp;
    let baseUrl: string;
    let apiKey: string;
    let scope: string;
    beforeAll(async () => {
      chain = await setupDevChain(4663, { finalityDepth: FINALITY_DEPTH });
      t = await setupApp({ deployments: [chain.deployment] });
      ({ publicUrl: baseUrl } = await t.app.listen());
      apiKey = (await t.createKey({ multiplier: 100 })).key;
      const factory = chain.deployment.contracts["MarketFactory"]!.address as Address;
      const weth = chain.deployment.contracts["WETH"]!.address as Address;
      const wallet = chain.clients.wallet(DEV_ACCOUNT_ROLES.deployer);
      const send = async (hash: Promise<`0x${string}`>) =>
        waitForSuccess(chain.clients.publicClient, await hash);
      await send(
        wallet.writeContract({
          address: weth,
          abi: wethAbi,
          functionName: "deposit",
          value: parseEther("3"),
        }),
      );
      await send(
        wallet.writeContract({
          address: weth,
          abi: wethAbi,
          functionName: "approve",
          args: [factory, maxUint256],
        }),
      );
      for (const question of ["First?", "Second?"])
        await send(
          wallet.writeContract({
            address: factory,
            abi: marketFactoryAbi,
            functionName: "createMarket",
            args: [question, parseEther("1"), 100n],
          }),
        );
      await chain.mine(FINALITY_DEPTH + 1);
      for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
      scope = (
        await t.app.server.inject({ url: "/predict/v9/runtime", headers: { "api-key": apiKey } })
      ).json().scope as string;
    }, 120_000);
    afterAll(async () => {
      t.app.server.server.closeAllConnections();
      await t.close();
      await chain.close();
    });

    it("start() passes, subscribe re-reads /markets on resync, and keeps a stale snapshot on 503", async () => {
      const predict = predictApi(createTransport({ baseUrl, apiKey, retry: { attempts: 1 } }), {
        stream: { baseUrl, apiKey },
        markets: predictMarketsApi(createTransport({ baseUrl, apiKey })),
      });
      const { reads, calls } = countedMarkets(createTransport({ baseUrl, apiKey, retry: { attempts: 1 } }));
      const client = predictApi(createTransport({ baseUrl, apiKey, retry: { attempts: 1 } }), {
        stream: { baseUrl, apiKey, sleep: () => Promise.resolve(), random: () => 0 },
        markets: reads,
      });
      expect(await predict.start()).toMatchObject({ enabled: true, publicEnabled: true, chainId: 4663 });

      const recorded = snapshots();
      const errors: unknown[] = [];
      const subscription = client.subscribe({
        onSnapshot: recorded.onSnapshot,
        onError: (error) => errors.push(error),
      });
      try {
        const ids = (
          await t.db.withConnection((c) =>
            c.query<{ id: string }>(
              "SELECT market_id::text AS id FROM predict_markets ORDER BY market_id DESC",
            ),
          )
        ).rows.map((row) => row.id);
        expect(ids.length).toBeGreaterThanOrEqual(2);
        const first = await recorded.until((s) => s.markets.length > 0 && !s.stale);
        expect(first.markets.map((m) => m.marketId)).toEqual(ids);
        expect(calls.page).toBe(1);

        // The indexer's head moves as a rewind would move it, with the indexer's own notification.
        const moveHead = (by: string) =>
          t.db.withConnection(async (c) => {
            await c.query("BEGIN");
            await c.query(
              `UPDATE indexer_heads SET next_block = next_block ${by}, revision = revision + 1 WHERE scope = $1`,
              [scope],
            );
            await c.query("SELECT pg_notify($1, $2)", [INDEXER_CHANNEL, scope]);
            await c.query("COMMIT");
          });
        // A reorg below the finalized head: `resync`, and a full re-read.
        const before = recorded.seen.length;
        await moveHead(`- 2`);
        // The snapshot of the rewound head (another event may deliver a snapshot first).
        const rewound = BigInt(first.block!.number) - 2n;
        const reread = await recorded.until(
          (s) => !s.stale && s.block !== null && BigInt(s.block.number) === rewound,
          before,
        );
        expect(calls.page).toBe(2);
        expect(BigInt(reread.block!.number)).toBe(BigInt(first.block!.number) - 2n);
        await moveHead(`+ 2`);

        // Realtime stops: the stream ends, every reconnect is a 503; the last good markets stay, marked stale.
        await t.app.services.live.close();
        const stale = await recorded.until((s) => s.stale);
        expect(stale.markets.map((m) => m.marketId)).toEqual(ids);
        expect(subscription.snapshot().stale).toBe(true);
        expect(errors.some((e) => (e as { status?: number }).status === 503)).toBe(true);
      } finally {
        subscription.close();
        await subscription.done.catch(() => {});
      }
    });
  });
});

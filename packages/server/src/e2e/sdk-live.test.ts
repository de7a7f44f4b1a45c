import { claimDropsAbi, waitForSuccess } from "@mkt/chain";
import { createMktClient, type LiveEvent, type LiveSubscription } from "@mkt/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";

/** Every event a subscription delivered, and a wait for the next one that matches. */
function recorder() {
  const events: LiveEvent[] = [];
  const resyncs: number[] = [];
  let taken = 0;
  let wake: () => void = () => {};
  return {
    events,
    resyncs,
    onEvent(event: LiveEvent) {
      events.push(event);
      wake();
    },
    onResync() {
      resyncs.push(events.length);
    },
    async next<E extends LiveEvent["event"]>(
      name: E,
      match: (event: Extract<LiveEvent, { event: E }>) => boolean = () => true,
    ) {
      for (;;) {
        for (let i = taken; i < events.length; i++) {
          const event = events[i]!;
          if (event.event === name && match(event as Extract<LiveEvent, { event: E }>)) {
            taken = i + 1;
            return event as Extract<LiveEvent, { event: E }>;
          }
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

describe("SDK live updates against the dev chain and the indexer", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  const subscriptions: LiveSubscription[] = [];
  beforeAll(async () => {
    chain = await setupDevChain(8453);
    t = await setupApp({ deployments: [chain.deployment] });
    ({ publicUrl: baseUrl } = await t.app.listen());
    apiKey = (await t.createKey({ multiplier: 100 })).key;
    await syncAll();
  }, 120_000);
  afterAll(async () => {
    for (const subscription of subscriptions) subscription.close();
    await Promise.allSettled(subscriptions.map((subscription) => subscription.done));
    // Node's fetch, once a stream is aborted, keeps an unused connection open that the server's
    // graceful close would wait for until its header timeout.
    t.app.server.server.closeAllConnections();
    await t.close();
    await chain.close();
  });

  const syncAll = async () => {
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
  };
  const runtime = () => chain.deployment.runtimes.at(-1)!;
  const user = () => chain.clients.wallet(2);
  const owner = () => user().account.address.toLowerCase();
  const dropId = 4242n;

  const claim = async () => {
    const hash = await user().writeContract({
      address: runtime().contracts["ClaimDrops"]!,
      abi: claimDropsAbi,
      functionName: "claim",
      args: [dropId, 1n],
    });
    const receipt = await waitForSuccess(chain.clients.publicClient, hash);
    return Number(receipt.blockNumber);
  };

  const subscribe = (events: ReturnType<typeof recorder>, lastEventId?: string) => {
    const client = createMktClient({ baseUrl, apiKey });
    const subscription = client.market.live.subscribe({
      owner: owner(),
      ...(lastEventId ? { lastEventId } : {}),
      onEvent: (event) => events.onEvent(event),
      onResync: () => events.onResync(),
      backoff: { baseDelayMs: 50, maxDelayMs: 200 },
    });
    subscriptions.push(subscription);
    return subscription;
  };

  it("gets a claims event once the block is indexed, and resumes with Last-Event-ID without missing one", async () => {
    const created = await user().writeContract({
      address: runtime().contracts["ClaimDrops"]!,
      abi: claimDropsAbi,
      functionName: "createDrop",
      args: [dropId, 0n, 1000n],
    });
    await waitForSuccess(chain.clients.publicClient, created);

    const first = recorder();
    const live = subscribe(first);
    expect((await first.next("ready")).data.resumed).toBe(false);

    const block = await claim();
    await syncAll();
    const claims = await first.next("claims");
    expect(claims.data).toMatchObject({ owner: owner(), claims: 1, version: runtime().id });
    expect(claims.data.fromBlock).toBeLessThanOrEqual(block);
    expect(claims.data.toBlock).toBeGreaterThanOrEqual(block);
    // The head event of the same commit follows, carrying the id to resume after.
    const head = await first.next("head", (event) => event.data.scope === claims.data.scope);
    expect(head.data.nextBlock).toBe(claims.data.toBlock + 1);
    expect(head.id).toBeDefined();
    expect(live.lastEventId()).toBe(head.id);

    // Disconnected while two more claims are indexed.
    live.close();
    await live.done;
    const missed = [await claim(), await claim()];
    await syncAll();

    const second = recorder();
    subscribe(second, live.lastEventId());
    expect((await second.next("ready")).data.resumed).toBe(true);
    let counted = 0;
    while (counted < 2) {
      const event = await second.next("claims");
      expect(event.data.toBlock).toBeGreaterThanOrEqual(missed[counted]!);
      counted += event.data.claims;
    }
    expect(counted).toBe(2);
    expect(second.resyncs).toEqual([]);
  }, 120_000);
});

import { type ClassicChatEvent, createMktClient, type LiveSubscription, MktApiError } from "@mkt/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { insertClassicGame } from "../_test/classic.ts";

const GAME = "0x00000000000000000000000000000000000c4a73";

/** The events a subscription delivered, and a wait for the next one that matches. */
function recorder() {
  const events: ClassicChatEvent[] = [];
  const resyncs: number[] = [];
  let taken = 0;
  let wake: () => void = () => {};
  return {
    events,
    resyncs,
    onEvent(event: ClassicChatEvent) {
      events.push(event);
      wake();
    },
    onResync() {
      resyncs.push(events.length);
    },
    async next(match: (event: ClassicChatEvent) => boolean) {
      for (;;) {
        for (let i = taken; i < events.length; i++) {
          if (match(events[i]!)) {
            taken = i + 1;
            return events[i]!;
          }
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

describe("SDK classic game chat", () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  const subscriptions: LiveSubscription[] = [];
  beforeAll(async () => {
    t = await setupApp({ live: { heartbeatMs: 200 } });
    ({ publicUrl: baseUrl } = await t.app.listen());
    apiKey = (await t.createKey({ multiplier: 100 })).key;
    await insertClassicGame(t.db, { address: GAME, gameId: 9n, nftName: "Sdk Owls" });
  });
  afterAll(async () => {
    for (const subscription of subscriptions) subscription.close();
    await Promise.allSettled(subscriptions.map((subscription) => subscription.done));
    t.app.server.server.closeAllConnections();
    await t.close();
  });

  it("posts, lists page by page, deletes, and follows the stream with resume and resync", async () => {
    const client = createMktClient({ baseUrl, apiKey });
    await client.classic.auth.signIn(testWallet(36));
    const reader = createMktClient({ baseUrl, apiKey });

    const live = recorder();
    const subscription = reader.classic.chat.subscribe("sdk-owls-9", live);
    subscriptions.push(subscription);
    await live.next((event) => event.event === "ready");

    const first = await client.classic.chat.post(GAME, "  from the sdk ");
    expect(first).toMatchObject({
      replayed: false,
      message: { text: "from the sdk", contractAddress: GAME },
    });
    const retried = await client.classic.chat.post(GAME, "again", { clientMessageId: "retry-1" });
    const again = await client.classic.chat.post(GAME, "again", { clientMessageId: "retry-1" });
    expect(again.replayed).toBe(true);
    expect(again.message.id).toBe(retried.message.id);
    const woken = await live.next((event) => event.event === "message");
    expect(woken.data).toEqual({ id: first.message.id, chainId: 8453, contractAddress: GAME });
    const next = await live.next((event) => event.event === "message");
    expect(next.data).toMatchObject({ id: retried.message.id });

    // Pages through the iterator, newest first.
    const texts: string[] = [];
    for await (const message of reader.classic.chat.iterate(GAME, { limit: 1 })) texts.push(message.text);
    expect(texts).toEqual(["again", "from the sdk"]);

    // Posting needs a sign-in: the reader has none.
    const refused = await reader.classic.chat.post(GAME, "anonymous").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MktApiError);
    expect((refused as MktApiError).status).toBe(401);

    // Closed, then resumed after the last event seen: the deletion made meanwhile is replayed.
    const resumeFrom = subscription.lastEventId();
    expect(resumeFrom).toMatch(/^[0-9]+$/);
    subscription.close();
    await subscription.done;
    await client.classic.chat.delete(GAME, first.message.id);
    const resumed = recorder();
    const second = reader.classic.chat.subscribe(GAME, { ...resumed, lastEventId: resumeFrom! });
    subscriptions.push(second);
    const deleted = await resumed.next((event) => event.event === "deleted");
    expect(deleted.data).toEqual({ id: first.message.id, chainId: 8453, contractAddress: GAME });
    expect(resumed.resyncs).toEqual([]);
    expect((await reader.classic.chat.list(GAME, { limit: 5 })).messages[1]).toMatchObject({
      id: first.message.id,
      deleted: true,
      text: "",
    });

    // An id this server never issued: onResync runs before the resync event is delivered.
    const lost = recorder();
    const third = reader.classic.chat.subscribe(GAME, { ...lost, lastEventId: "999999999999" });
    subscriptions.push(third);
    const resync = await lost.next((event) => event.event === "resync");
    expect(resync.data).toEqual({ reason: "unknown" });
    expect(lost.resyncs).toEqual([lost.events.indexOf(resync)]);

    // An unknown game is a final refusal: the subscription ends with the error.
    const missing = reader.classic.chat.subscribe("no-such-game", { ...recorder() });
    await expect(missing.done).rejects.toMatchObject({ status: 404 });
  });
});

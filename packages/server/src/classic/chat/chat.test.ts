import { randomUUID } from "node:crypto";
import { CLASSIC_CHAT, type ClassicChatMessage } from "@mkt/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testWallet } from "../../_test/accounts.ts";
import { createManualClock, setupApp, setupReplicas, type TestApp } from "../../_test/app.ts";
import { insertClassicGame, signInClassic } from "../../_test/classic.ts";
import { postgresOnly } from "../../_test/database.ts";
import { openStream, type TestStream } from "../../_test/sse.ts";

const GAME = "0x00000000000000000000000000000000000c4a71";
const OTHER = "0x00000000000000000000000000000000000c4a72";
const CREATOR = 31;

interface SignedIn {
  token: string;
  address: string;
  accountId: string;
}

async function classicSignIn(test: TestApp, apiKey: string, now: number, index: number): Promise<SignedIn> {
  const signedIn = await signInClassic(test.app.server, { apiKey, walletIndex: index, now });
  return { token: signedIn.accessToken, address: signedIn.address, accountId: signedIn.accountId };
}

const dataOf = (event: { data: string }) => JSON.parse(event.data) as Record<string, unknown>;

describe("classic game chat", () => {
  const clock = createManualClock(Date.now());
  let test: TestApp;
  let apiKey: string;
  let baseUrl: string;
  let alice: SignedIn;
  let bob: SignedIn;
  let creator: SignedIn;
  const open: TestStream[] = [];

  const post = (who: SignedIn | undefined, body: unknown, game = GAME, key: string | null = apiKey) =>
    test.app.server.inject({
      method: "POST",
      url: `/classic/chat/${game}`,
      headers: {
        ...(key ? { "api-key": key } : {}),
        ...(who ? { authorization: `Bearer ${who.token}` } : {}),
      },
      payload: body as object,
    });
  const list = (game: string, query = "") =>
    test.app.server.inject({
      method: "GET",
      url: `/classic/chat/${game}${query}`,
      headers: { "api-key": apiKey },
    });
  const remove = (who: SignedIn, id: string, game = GAME) =>
    test.app.server.inject({
      method: "DELETE",
      url: `/classic/chat/${game}/${id}`,
      headers: { "api-key": apiKey, authorization: `Bearer ${who.token}` },
    });
  const posted = async (who: SignedIn, text: string, game = GAME) => {
    const response = await post(who, { text }, game);
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { message: ClassicChatMessage }).message;
  };
  const stream = async (game: string, headers: Record<string, string> = {}) => {
    const opened = await openStream(`${baseUrl}/classic/chat/${game}/stream`, {
      "api-key": apiKey,
      ...headers,
    });
    open.push(opened);
    return opened;
  };

  beforeAll(async () => {
    test = await setupApp({ clock, live: { heartbeatMs: 200 } });
    ({ publicUrl: baseUrl } = await test.app.listen());
    apiKey = (await test.createKey({ multiplier: 1000 })).key;
    await insertClassicGame(test.db, {
      address: GAME,
      gameId: 7n,
      nftName: "Chat Owls",
      creator: testWallet(CREATOR).address,
    });
    await insertClassicGame(test.db, { address: OTHER, gameId: 8n, nftName: "Quiet Game" });
    alice = await classicSignIn(test, apiKey, clock.now(), 32);
    bob = await classicSignIn(test, apiKey, clock.now(), 33);
    creator = await classicSignIn(test, apiKey, clock.now(), CREATOR);
  });
  afterEach(async () => {
    for (const opened of open.splice(0)) {
      opened.close();
      await opened.ended;
    }
    await expect.poll(() => test.app.services.live.size()).toBe(0);
  });
  afterAll(() => test.close());

  it("posts as the signed-in wallet and lists newest first by address or slug, paged with an opaque cursor", async () => {
    const response = await post(alice, { text: "  hoot hoot \n" });
    expect(response.statusCode, response.body).toBe(201);
    const first = response.json() as { success: boolean; replayed: boolean; message: ClassicChatMessage };
    expect(first).toMatchObject({ success: true, replayed: false });
    expect(first.message).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      contractAddress: GAME,
      chainId: 8453,
      author: {
        address: alice.address,
        userData: {
          id: alice.accountId,
          username: "",
          displayName: "",
          profileImage: null,
          address: alice.address,
        },
      },
      text: "hoot hoot",
      clientMessageId: null,
      createdAt: new Date(clock.now()).toISOString(),
      deleted: false,
    });
    const second = await posted(bob, "second");
    const third = await posted(alice, "third");
    expect(BigInt(third.id)).toBeGreaterThan(BigInt(second.id));

    const page = await list("chat-owls-7", "?limit=2");
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    const body = page.json() as { messages: ClassicChatMessage[]; nextCursor: string | null };
    expect(body.messages.map((message) => message.text)).toEqual(["third", "second"]);
    expect(body.messages[1]?.author.address).toBe(bob.address);
    expect(body.nextCursor).toEqual(expect.any(String));
    const older = (await list(GAME, `?limit=2&cursor=${body.nextCursor}`)).json() as typeof body;
    expect(older.messages.map((message) => message.id)).toEqual([first.message.id]);
    expect(older.nextCursor).toBeNull();
    // Another game's chat holds none of these.
    expect((await list(OTHER)).json()).toEqual({ success: true, messages: [], nextCursor: null });
    // Cursors are signed for their game's list: not another game's, not the unsigned form of old.
    for (const cursor of [
      body.nextCursor,
      Buffer.from(`m${second.id}`).toString("base64url"),
      `${body.nextCursor?.slice(0, -1)}${body.nextCursor?.endsWith("A") ? "B" : "A"}`,
    ]) {
      const refused = await list(cursor === body.nextCursor ? OTHER : GAME, `?cursor=${cursor}`);
      expect(refused.statusCode, cursor ?? "").toBe(400);
      expect(refused.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
    }
  });

  it("refuses bad input, missing credentials and unknown games in the classic body", async () => {
    for (const text of ["   ", "x".repeat(CLASSIC_CHAT.maxTextLength + 1), "bell\u0007"]) {
      const response = await post(alice, { text });
      expect(response.statusCode, text).toBe(400);
      expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
    }
    // 500 characters outside the BMP are 500 characters, not 1000.
    expect((await post(alice, { text: "🦉".repeat(CLASSIC_CHAT.maxTextLength) })).statusCode).toBe(201);
    expect((await post(alice, { text: "hi", clientMessageId: "bad id!" })).statusCode).toBe(400);
    expect((await list(GAME, "?limit=101")).statusCode).toBe(400);
    const badCursor = await list(GAME, "?cursor=bm90LWEtY3Vyc29y");
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });

    const noBearer = await post(undefined, { text: "hi" });
    expect(noBearer.statusCode).toBe(401);
    expect(noBearer.json()).toMatchObject({ success: false, error: "UNAUTHORIZED" });
    const noKey = await post(alice, { text: "hi" }, GAME, null);
    expect(noKey.statusCode).toBe(429);
    expect(noKey.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });

    const unknown = "0x00000000000000000000000000000000000dead0";
    for (const response of [
      await post(alice, { text: "hi" }, unknown),
      await list(unknown),
      await list("no-such-game"),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: "GAME_NOT_FOUND" });
    }
  });

  it("answers a retry with the same clientMessageId with the first message, posting nothing", async () => {
    const clientMessageId = randomUUID();
    const first = await post(bob, { text: "once", clientMessageId });
    expect(first.statusCode).toBe(201);
    const retry = await post(bob, { text: "once (retried)", clientMessageId });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({
      replayed: true,
      message: { id: first.json().message.id, text: "once" },
    });
    const newest = (await list(GAME, "?limit=5")).json() as { messages: ClassicChatMessage[] };
    expect(newest.messages.filter((message) => message.clientMessageId === clientMessageId)).toHaveLength(1);
    // Another account's same id is its own message.
    const other = await post(alice, { text: "mine", clientMessageId });
    expect(other.statusCode).toBe(201);
    expect(other.json().message.id).not.toBe(first.json().message.id);
  });

  it("limits posts per account across games, with Retry-After, and frees the window as time passes", async () => {
    const carol = await classicSignIn(test, apiKey, clock.now(), 34);
    for (let i = 0; i < CLASSIC_CHAT.postsPerWindow; i++) await posted(carol, `n${i}`, i % 2 ? GAME : OTHER);
    const refused = await post(carol, { text: "one too many" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, error: "CHAT_RATE_LIMITED" });
    expect(refused.headers["retry-after"]).toBe("60");
    expect(refused.headers["ratelimit-limit"]).toBe(String(CLASSIC_CHAT.postsPerWindow));
    // Others are not limited by carol's posts.
    expect((await post(bob, { text: "still fine" })).statusCode).toBe(201);
    clock.advance(CLASSIC_CHAT.windowSeconds * 1000 + 1);
    expect((await post(carol, { text: "later" })).statusCode).toBe(201);
  });

  it("deletes by the author or the game's creator only; a tombstone stays listed", async () => {
    const mine = await posted(alice, "delete me");
    const refused = await remove(bob, mine.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, error: "FORBIDDEN" });
    const deleted = await remove(alice, mine.id);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ success: true, id: mine.id, deleted: true });
    expect((await remove(alice, mine.id)).statusCode).toBe(200);
    const page = (await list(GAME, "?limit=1")).json() as { messages: ClassicChatMessage[] };
    expect(page.messages[0]).toMatchObject({ id: mine.id, deleted: true, text: "" });

    // The creator moderates its game, not another one.
    const bobs = await posted(bob, "rude");
    expect((await remove(creator, bobs.id)).statusCode).toBe(200);
    const elsewhere = await posted(bob, "elsewhere", OTHER);
    expect((await remove(creator, elsewhere.id, OTHER)).statusCode).toBe(403);
    // Unknown message, or a message of another game.
    const missing = await remove(alice, "999999999");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, error: "MESSAGE_NOT_FOUND" });
    expect((await remove(bob, elsewhere.id, GAME)).statusCode).toBe(404);
  });

  it("streams wakeups of its game only, in id order; resumes with Last-Event-ID; resyncs an unknown id", async () => {
    const live = await stream("chat-owls-7");
    expect(live.status, live.body).toBe(200);
    expect(live.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const market = await openStream(`${baseUrl}/market/live`, { "api-key": apiKey });
    open.push(market);
    const ready = await live.next();
    expect(ready.event).toBe("ready");
    expect(dataOf(ready)).toMatchObject({ resumed: false });
    await market.next();

    await posted(bob, "other game", OTHER);
    const one = await posted(alice, "wake one");
    const two = await posted(bob, "wake two");
    const first = await live.next((event) => event.event === "message");
    const second = await live.next((event) => event.event === "message");
    expect(dataOf(first)).toEqual({ id: one.id, chainId: 8453, contractAddress: GAME });
    expect(dataOf(second)).toEqual({ id: two.id, chainId: 8453, contractAddress: GAME });
    expect(Number(first.id)).toBeGreaterThan(Number(ready.id));
    expect(Number(second.id)).toBeGreaterThan(Number(first.id));
    expect(
      live.events.some((event) => event.event === "message" && dataOf(event)["contractAddress"] === OTHER),
    ).toBe(false);
    expect((await remove(bob, two.id)).statusCode).toBe(200);
    const gone = await live.next((event) => event.event !== "position");
    expect(gone.event).toBe("deleted");
    expect(dataOf(gone)).toEqual({ id: two.id, chainId: 8453, contractAddress: GAME });
    live.close();
    await live.ended;

    // While disconnected: two posts; a resume after the first wakeup replays every later one, in order, then goes live.
    const three = await posted(alice, "missed three");
    const four = await posted(alice, "missed four");
    const resumed = await stream(GAME, { "last-event-id": first.id! });
    expect(dataOf(await resumed.next())).toMatchObject({ resumed: true });
    const replayed = [];
    for (let i = 0; i < 4; i++) replayed.push(await resumed.next((event) => event.event !== "position"));
    expect(replayed.map((event) => [event.event, dataOf(event)["id"]])).toEqual([
      ["message", two.id],
      ["deleted", two.id],
      ["message", three.id],
      ["message", four.id],
    ]);
    const five = await posted(bob, "live five");
    expect(dataOf(await resumed.next((event) => event.event === "message"))["id"]).toBe(five.id);

    const unknown = await stream(GAME, { "last-event-id": "999999999999" });
    await unknown.next((event) => event.event === "ready");
    const resync = await unknown.next();
    expect(resync.event).toBe("resync");
    expect(dataOf(resync)).toEqual({ reason: "unknown" });

    // The market's stream never carried a chat event.
    expect(market.events.some((event) => event.event === "message" || event.event === "deleted")).toBe(false);
  });

  it("refuses a stream of an unknown game, without a key, and beyond the per-key cap", async () => {
    const unknown = await stream("no-such-game");
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ success: false, error: "GAME_NOT_FOUND" });
    const keyless = await openStream(`${baseUrl}/classic/chat/${GAME}/stream`, {});
    expect(keyless.status).toBe(429);
    const key = (await test.createKey()).key;
    for (let i = 0; i < 5; i++) {
      const opened = await openStream(`${baseUrl}/classic/chat/${GAME}/stream`, { "api-key": key });
      open.push(opened);
      expect(opened.status).toBe(200);
      expect(opened.headers.get("ratelimit-limit")).toBe("10");
      await opened.next();
    }
    const refused = await openStream(`${baseUrl}/classic/chat/${GAME}/stream`, { "api-key": key });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ success: false, error: "RATE_LIMITED" });
    expect(refused.headers.get("retry-after")).toBe("5");
  });
});

postgresOnly.describe("classic chat on two replicas", () => {
  it("a message posted on one replica wakes the streams of both, with the same increasing ids", async () => {
    const clock = createManualClock(Date.now());
    const replicas = await setupReplicas({ clock });
    try {
      const urls = [(await replicas.a.app.listen()).publicUrl, (await replicas.b.app.listen()).publicUrl];
      const key = (await replicas.a.createKey({ multiplier: 100 })).key;
      await insertClassicGame(replicas.a.db, { address: GAME, gameId: 7n, nftName: "Chat Owls" });
      const streams = await Promise.all(
        urls.map((url) => openStream(`${url}/classic/chat/${GAME}/stream`, { "api-key": key })),
      );
      for (const live of streams) await live.next();
      const poster = await classicSignIn(replicas.b, key, clock.now(), 35);
      const ids: string[] = [];
      for (const text of ["from b", "again"]) {
        const response = await replicas.b.app.server.inject({
          method: "POST",
          url: `/classic/chat/${GAME}`,
          headers: { "api-key": key, authorization: `Bearer ${poster.token}` },
          payload: { text },
        });
        expect(response.statusCode, response.body).toBe(201);
        ids.push(response.json().message.id);
      }
      for (const id of ids) {
        const [onA, onB] = await Promise.all(
          streams.map((live) => live.next((event) => event.event === "message")),
        );
        expect(dataOf(onA!)["id"]).toBe(id);
        expect(onA!.data).toBe(onB!.data);
        expect(onA!.id).toBe(onB!.id);
      }
      const eventIds = streams[0]!.events
        .filter((event) => event.event === "message")
        .map((event) => Number(event.id));
      expect(eventIds[1]).toBeGreaterThan(eventIds[0]!);
      for (const live of streams) live.close();
      await Promise.all(streams.map((live) => live.ended));
    } finally {
      await replicas.close();
    }
  });
});

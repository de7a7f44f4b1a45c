import {
  type DmMessageList,
  type DmThreadList,
  dmMessageListSchema,
  dmThreadListSchema,
  dmUnreadSchema,
  socialActionResultSchemas,
} from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { accountOfWallet } from "../../identity/index.ts";
import { idCursor } from "../../paging/index.ts";
import { get, openChatSession, walkPages } from "./test-helpers.ts";

let test: TestApp;
let apiKey: string;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
let dave: SignedIn;
let erin: SignedIn;

beforeAll(async () => {
  test = await setupApp();
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  const as = (index: number) => signIn(test, index, { apiKey });
  [alice, bob, carol, dave, erin] = await Promise.all([as(21), as(22), as(23), as(24), as(25)]);
});
afterAll(() => test.close());

const dm = async (from: SignedIn, to: SignedIn | string, body: string) =>
  accountAction(test, from, { kind: "dm", to: typeof to === "string" ? to : to.address, body });

const send = async (from: SignedIn, to: SignedIn, body: string) => {
  const response = await dm(from, to, body);
  expect(response.statusCode, response.body).toBe(200);
  return socialActionResultSchemas.dm.parse(response.json().result);
};

const seen = async (who: SignedIn, other: SignedIn, upTo?: string) =>
  accountAction(test, who, { kind: "dm-seen", with: other.address, ...(upTo ? { upTo } : {}) });

const unread = async (who: SignedIn) => {
  const response = await get(test, "/market/dm/unread", who.headers);
  expect(response.statusCode, response.body).toBe(200);
  return dmUnreadSchema.parse(response.json());
};

describe("direct messages: happy paths", () => {
  it("sends a message into one thread per pair that both sides read, newest first", async () => {
    const first = await send(alice, bob, "hello bob");
    const reply = await send(bob, alice, "hello alice");
    expect(reply.threadId).toBe(first.threadId);
    expect(first.to).toBe(bob.address);
    expect(Number(reply.id)).toBeGreaterThan(Number(first.id));

    const threads = await get(test, "/market/dm/threads", alice.headers);
    expect(threads.statusCode).toBe(200);
    expect(threads.headers["cache-control"]).toBe("private, no-store");
    const list = dmThreadListSchema.parse(threads.json());
    expect(list.next).toBeNull();
    expect(list.threads).toEqual([
      {
        id: first.threadId,
        with: { address: bob.address, username: null },
        lastMessage: {
          id: reply.id,
          from: bob.address,
          fromMe: false,
          body: "hello alice",
          createdAt: reply.createdAt,
        },
        unread: 1,
      },
    ]);

    const messages = await get(test, `/market/dm/messages?with=${alice.address}`, bob.headers);
    expect(messages.statusCode).toBe(200);
    const conversation = dmMessageListSchema.parse(messages.json());
    expect(conversation.threadId).toBe(first.threadId);
    expect(conversation.with).toEqual({ address: alice.address, username: null });
    expect(conversation.messages.map((message) => [message.body, message.fromMe])).toEqual([
      ["hello alice", true],
      ["hello bob", false],
    ]);
  });

  it("answers an empty page past the oldest message, and 404 for the caller's own wallet", async () => {
    const [frank, gina] = await Promise.all([signIn(test, 40, { apiKey }), signIn(test, 41, { apiKey })]);
    const only = await send(frank, gina, "the only message");
    const frankId = await accountOfWallet(test.db.kysely, frank.address);
    const pastOldest = idCursor
      .for(test.app.services.cursors, "dm-messages", String(frankId), only.threadId)
      .encode(only.id);
    const past = await get(
      test,
      `/market/dm/messages?with=${gina.address}&cursor=${pastOldest}`,
      frank.headers,
    );
    expect(past.statusCode, past.body).toBe(200);
    expect(dmMessageListSchema.parse(past.json())).toEqual({
      threadId: only.threadId,
      with: { address: gina.address, username: null },
      messages: [],
      next: null,
    });
    const own = await get(test, `/market/dm/messages?with=${frank.address}`, frank.headers);
    expect(own.statusCode).toBe(404);
    expect(own.json()).toEqual({ error: `no conversation with ${frank.address}` });
  });

  it("addresses the recipient by any case of its wallet", async () => {
    const upper = `0x${bob.address.slice(2).toUpperCase()}`;
    const response = await dm(alice, upper, "case does not matter");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result.to).toBe(bob.address);
  });

  it("counts unread messages and lowers the counts with dm-seen, never moving the mark back", async () => {
    // carol -> dave: three messages; dave has nothing else.
    const sent = [];
    for (const body of ["one", "two", "three"]) sent.push(await send(carol, dave, body));
    expect(await unread(dave)).toEqual({ messages: 3, threads: 1 });
    expect(await unread(carol)).toEqual({ messages: 0, threads: 0 });
    // dave's own reply is never unread for dave.
    await send(dave, carol, "reading");
    expect(await unread(dave)).toEqual({ messages: 3, threads: 1 });
    expect(await unread(carol)).toEqual({ messages: 1, threads: 1 });

    const partial = await seen(dave, carol, sent[1]!.id);
    expect(partial.statusCode, partial.body).toBe(200);
    expect(socialActionResultSchemas["dm-seen"].parse(partial.json().result)).toEqual({
      threadId: sent[0]!.threadId,
      with: carol.address,
      seenUpTo: sent[1]!.id,
      unread: 1,
    });
    expect(await unread(dave)).toEqual({ messages: 1, threads: 1 });

    const all = await seen(dave, carol);
    expect(all.json().result.unread).toBe(0);
    expect(await unread(dave)).toEqual({ messages: 0, threads: 0 });

    const back = await seen(dave, carol, sent[0]!.id);
    expect(back.statusCode).toBe(200);
    expect(back.json().result.seenUpTo).not.toBe(sent[0]!.id);
    expect(await unread(dave)).toEqual({ messages: 0, threads: 0 });

    const threads = dmThreadListSchema.parse((await get(test, "/market/dm/threads", dave.headers)).json());
    expect(threads.threads[0]?.unread).toBe(0);
  });

  it("keeps each side's unread count equal to a recount while messages and dm-seen race", async () => {
    // A pair of its own: frank -> grace, with grace marking the conversation seen while messages arrive.
    const [frank, grace] = await Promise.all([signIn(test, 50, { apiKey }), signIn(test, 51, { apiKey })]);
    await send(frank, grace, "first");
    const marks = Array.from({ length: 4 }, () => seen(grace, frank));
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => send(frank, grace, `racing ${i}`)),
      ...marks,
      send(grace, frank, "a reply"),
    ]);
    // Marks only move forward: grace's mark is the highest any of her dm-seen answered.
    const answers = await Promise.all(marks);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const mark = answers
      .map((answer) => BigInt(socialActionResultSchemas["dm-seen"].parse(answer.json().result).seenUpTo))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .at(-1)!;
    const messages = dmMessageListSchema.parse(
      (await get(test, `/market/dm/messages?with=${frank.address}&limit=100`, grace.headers)).json(),
    ).messages;
    expect(messages.length).toBe(14);
    const recount = messages.filter((message) => !message.fromMe && BigInt(message.id) > mark).length;
    // The kept counts, read without another dm-seen, equal the recount.
    expect(await unread(grace)).toEqual({ messages: recount, threads: recount > 0 ? 1 : 0 });
    const thread = dmThreadListSchema
      .parse((await get(test, "/market/dm/threads", grace.headers)).json())
      .threads.find((candidate) => candidate.with.address === frank.address);
    expect(thread?.unread).toBe(recount);
    // frank never counts his own messages: only grace's reply is unread for him.
    expect(await unread(frank)).toEqual({ messages: 1, threads: 1 });
  });

  it("pages threads and messages, every item exactly once", async () => {
    // erin talks to four accounts, then sends seven more to alice.
    const partners = [alice, bob, carol, dave];
    for (const partner of partners) await send(erin, partner, `hi ${partner.address}`);
    const toAlice = [];
    for (let index = 0; index < 7; index++) toAlice.push((await send(erin, alice, `message ${index}`)).id);

    const threads = await walkPages(
      test,
      (cursor) => `/market/dm/threads?limit=3${cursor ? `&cursor=${cursor}` : ""}`,
      erin.headers,
      (body: DmThreadList) => body.threads,
    );
    expect(threads.pages).toBe(2);
    // Most recent activity first: alice (the last seven), then dave, carol, bob.
    expect(threads.items.map((thread) => thread.with.address)).toEqual([
      alice.address,
      dave.address,
      carol.address,
      bob.address,
    ]);

    const messages = await walkPages(
      test,
      (cursor) => `/market/dm/messages?with=${alice.address}&limit=3${cursor ? `&cursor=${cursor}` : ""}`,
      erin.headers,
      (body: DmMessageList) => body.messages,
    );
    expect(messages.pages).toBe(3);
    const ids = messages.items.map((message) => message.id);
    expect(ids).toEqual([...toAlice].reverse().concat(ids.slice(7)));
    expect(new Set(ids).size).toBe(8);

    const exact = await walkPages(
      test,
      (cursor) => `/market/dm/messages?with=${alice.address}&limit=4${cursor ? `&cursor=${cursor}` : ""}`,
      erin.headers,
      (body: DmMessageList) => body.messages,
    );
    expect(exact.pages).toBe(2);
    expect(exact.items.map((message) => message.id)).toEqual(ids);
  });
});

describe("direct messages: refused", () => {
  it("refuses a message to oneself, to an unknown wallet and bodies out of bounds", async () => {
    expect((await dm(alice, alice, "me")).statusCode).toBe(400);
    const unknown = await dm(alice, "0x000000000000000000000000000000000000dead", "anyone?");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatch(/no account/);
    expect((await dm(alice, bob, "x".repeat(2001))).statusCode).toBe(400);
    expect((await dm(alice, bob, "   ")).statusCode).toBe(400);
    expect((await dm(alice, "0x1234", "short address")).statusCode).toBe(400);
    expect((await dm(alice, bob, "x".repeat(2000))).statusCode).toBe(200);
  });

  it("refuses messages in both directions of a block, until unblocked", async () => {
    const block = await accountAction(test, bob, { kind: "block", address: carol.address });
    expect(block.statusCode, block.body).toBe(200);
    const blocked = await dm(carol, bob, "let me in");
    expect(blocked.statusCode).toBe(403);
    expect((await dm(bob, carol, "the blocker cannot write either")).statusCode).toBe(403);
    await accountAction(test, bob, { kind: "unblock", address: carol.address });
    expect((await dm(carol, bob, "thanks")).statusCode).toBe(200);
  });

  it("follows the recipient's dmPolicy: nobody, then only accounts it follows", async () => {
    const nobody = await accountAction(test, dave, { kind: "safety-update", dmPolicy: "nobody" });
    expect(nobody.json().result).toEqual({ dmPolicy: "nobody" });
    expect((await dm(alice, dave, "hello?")).statusCode).toBe(403);

    await accountAction(test, dave, { kind: "safety-update", dmPolicy: "following" });
    const notFollowed = await dm(alice, dave, "hello?");
    expect(notFollowed.statusCode).toBe(403);
    expect(notFollowed.json().error).toMatch(/follows/);
    // alice following dave is not enough: dave must follow alice.
    await accountAction(test, alice, { kind: "follow", address: dave.address });
    expect((await dm(alice, dave, "hello?")).statusCode).toBe(403);
    await accountAction(test, dave, { kind: "follow", address: alice.address });
    expect((await dm(alice, dave, "hello!")).statusCode).toBe(200);
    // dave may still write to anyone whose policy allows it.
    expect((await dm(dave, bob, "hi")).statusCode).toBe(200);

    await accountAction(test, dave, { kind: "safety-update", dmPolicy: "everyone" });
    expect((await dm(bob, dave, "open again")).statusCode).toBe(200);
    expect((await accountAction(test, dave, { kind: "safety-update", dmPolicy: "friends" })).statusCode).toBe(
      400,
    );
  });

  it("marks seen only conversations and messages that exist", async () => {
    const stranger = await signIn(test, 26, { apiKey });
    expect((await seen(alice, stranger)).statusCode).toBe(404);
    expect((await seen(alice, alice)).statusCode).toBe(400);
    const other = await send(carol, dave, "in carol and dave's thread");
    const foreign = await seen(alice, bob, other.id);
    expect(foreign.statusCode).toBe(404);
    expect((await seen(alice, bob, "not-an-id")).statusCode).toBe(400);
  });

  it("validates paging and the conversation partner", async () => {
    const paths = ["/market/dm/threads", `/market/dm/messages?with=${bob.address}&`];
    for (const base of paths) {
      const sep = base.endsWith("&") ? "" : "?";
      for (const query of [
        "cursor=!!!",
        `cursor=${Buffer.from("not json").toString("base64url")}`,
        `cursor=${Buffer.from(JSON.stringify(["x"])).toString("base64url")}`,
        `cursor=${"a".repeat(501)}`,
        "limit=0",
        "limit=101",
        "limit=ten",
      ]) {
        const response = await get(test, `${base}${sep}${query}`, alice.headers);
        expect(response.statusCode, `${base}${sep}${query}`).toBe(400);
      }
    }
    expect((await get(test, "/market/dm/messages", alice.headers)).statusCode).toBe(400);
    expect((await get(test, "/market/dm/messages?with=bob", alice.headers)).statusCode).toBe(400);
    const unknown = await get(
      test,
      "/market/dm/messages?with=0x000000000000000000000000000000000000dead",
      alice.headers,
    );
    expect(unknown.statusCode).toBe(404);
    const stranger = await signIn(test, 27, { apiKey });
    expect((await get(test, `/market/dm/messages?with=${stranger.address}`, alice.headers)).statusCode).toBe(
      404,
    );
    expect((await get(test, "/market/dm/threads?limit=100", alice.headers)).statusCode).toBe(200);
  });

  it("takes only cursors it signed for this very list and caller", async () => {
    const [hana, ivan, jack] = await Promise.all([
      signIn(test, 42, { apiKey }),
      signIn(test, 43, { apiKey }),
      signIn(test, 44, { apiKey }),
    ]);
    const sent = [];
    for (const body of ["one", "two", "three"]) sent.push(await send(hana, ivan, body));
    await send(hana, jack, "to jack");
    await send(ivan, jack, "ivan to jack");
    const messages = `/market/dm/messages?limit=1&with=`;
    const page = dmMessageListSchema.parse(
      (await get(test, `${messages}${ivan.address}`, hana.headers)).json(),
    );
    const cursor = page.next;
    expect(cursor).toEqual(expect.any(String));
    const followed = await get(test, `${messages}${ivan.address}&cursor=${cursor}`, hana.headers);
    expect(followed.statusCode, followed.body).toBe(200);
    expect(dmMessageListSchema.parse(followed.json()).messages.map((message) => message.body)).toEqual([
      "two",
    ]);
    const threads = dmThreadListSchema.parse(
      (await get(test, "/market/dm/threads?limit=1", hana.headers)).json(),
    );
    expect(threads.next).toEqual(expect.any(String));

    const handMade = Buffer.from(JSON.stringify(sent[2]?.id)).toString("base64url");
    const refused: Array<[string, Record<string, string>]> = [
      // The unsigned form these lists used to issue: base64url of the JSON sort key.
      [`${messages}${ivan.address}&cursor=${handMade}`, hana.headers],
      [`/market/dm/threads?cursor=${handMade}`, hana.headers],
      // The same conversation read by its other side: a cursor is the caller's own.
      [`${messages}${hana.address}&cursor=${cursor}`, ivan.headers],
      // Another conversation of the same caller.
      [`${messages}${jack.address}&cursor=${cursor}`, hana.headers],
      // A thread list cursor on a message list, and another caller's thread list.
      [`${messages}${ivan.address}&cursor=${threads.next}`, hana.headers],
      [`/market/dm/threads?cursor=${threads.next}`, ivan.headers],
    ];
    for (const [url, headers] of refused) {
      const response = await get(test, url, headers);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: expect.stringMatching(/cursor/) });
    }
  });
});

describe("direct messages: sessions", () => {
  it("refuses the DM reads to a chat session, to no session and to another wallet's header", async () => {
    const chat = await openChatSession(test, alice);
    for (const url of [
      "/market/dm/threads",
      `/market/dm/messages?with=${bob.address}`,
      "/market/dm/unread",
    ]) {
      const withChat = await get(test, url, chat);
      expect(withChat.statusCode, url).toBe(403);
      expect(withChat.json().error).toMatch(/chat session/);
      const { authorization: _, ...noSession } = alice.headers;
      expect((await get(test, url, noSession)).statusCode, url).toBe(401);
      expect((await get(test, url, { ...alice.headers, "x-mkt-wallet": bob.address })).statusCode, url).toBe(
        401,
      );
    }
    const sendWithChat = await test.app.server.inject({
      method: "POST",
      url: "/market/account",
      headers: chat,
      payload: { kind: "dm", to: bob.address, body: "from a chat session" },
    });
    expect(sendWithChat.statusCode).toBe(403);
  });

  it("shows each account only its own conversations", async () => {
    const carolDave = dmMessageListSchema.parse(
      (await get(test, `/market/dm/messages?with=${dave.address}`, carol.headers)).json(),
    );
    const threads = dmThreadListSchema.parse((await get(test, "/market/dm/threads", bob.headers)).json());
    expect(threads.threads.length).toBeGreaterThan(0);
    expect(threads.threads.map((thread) => thread.id)).not.toContain(carolDave.threadId);
    for (const thread of threads.threads) expect(thread.with.address).not.toBe(bob.address);
    const stranger = await signIn(test, 28, { apiKey });
    const empty = dmThreadListSchema.parse((await get(test, "/market/dm/threads", stranger.headers)).json());
    expect(empty).toEqual({ threads: [], next: null });
    expect(await unread(stranger)).toEqual({ messages: 0, threads: 0 });
    expect((await get(test, `/market/dm/messages?with=${carol.address}`, stranger.headers)).statusCode).toBe(
      404,
    );
  });

  it("needs an API key for the public room reads by default (PUBLIC_READS=key)", async () => {
    expect((await get(test, "/market/rooms")).statusCode).toBe(401);
    expect((await get(test, "/market/rooms", { "api-key": apiKey })).statusCode).toBe(200);
  });
});

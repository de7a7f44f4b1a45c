import {
  type Room,
  type RoomList,
  type RoomMessageList,
  roomListSchema,
  roomMessageListSchema,
  roomMessageSchema,
  roomSchema,
} from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signDeletion, signIn, testWallet } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { get, openChatSession, walkPages } from "./test-helpers.ts";

let test: TestApp;
let apiKey: string;
let alice: SignedIn;
let bob: SignedIn;
let aliceChat: Record<string, string>;
let bobChat: Record<string, string>;
let lobby: Room;

beforeAll(async () => {
  test = await setupApp({ env: { PUBLIC_READS: "open" } });
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  [alice, bob] = await Promise.all([signIn(test, 31, { apiKey }), signIn(test, 32, { apiKey })]);
  [aliceChat, bobChat] = await Promise.all([openChatSession(test, alice), openChatSession(test, bob)]);
  lobby = await createRoom(alice, "lobby", "The lobby");
});
afterAll(() => test.close());

async function createRoom(who: SignedIn, slug: string, title: string, description?: string) {
  const response = await accountAction(test, who, { kind: "room-create", slug, title, description });
  expect(response.statusCode, response.body).toBe(200);
  return roomSchema.parse(response.json().result);
}

const post = (roomId: string, headers: Record<string, string>, payload: Record<string, unknown>) =>
  test.app.server.inject({ method: "POST", url: `/market/rooms/${roomId}/messages`, headers, payload });

const chatSend = (who: SignedIn, roomId: string, body: string, replyTo?: string) =>
  accountAction(test, who, { kind: "chat-send", roomId, body, ...(replyTo ? { replyTo } : {}) });

describe("rooms: happy paths", () => {
  it("creates a room and refuses its slug again", async () => {
    expect(lobby).toMatchObject({
      slug: "lobby",
      title: "The lobby",
      description: "",
      createdBy: alice.address,
    });
    expect(lobby.id).toMatch(/^room_[a-z0-9]+$/);
    const taken = await accountAction(test, bob, { kind: "room-create", slug: "lobby", title: "Mine" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatch(/taken/);
    for (const body of [
      { kind: "room-create", slug: "Lobby2", title: "upper case" },
      { kind: "room-create", slug: "x", title: "too short a slug" },
      { kind: "room-create", slug: "long-title", title: "t".repeat(81) },
      { kind: "room-create", slug: "long-description", title: "ok", description: "d".repeat(501) },
      { kind: "room-create", slug: "no-title", title: "  " },
    ]) {
      expect((await accountAction(test, bob, body)).statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });

  it("writes with the chat-send action and with a chat session, and reads without a key", async () => {
    const viaAction = await chatSend(alice, lobby.id, "first");
    expect(viaAction.statusCode, viaAction.body).toBe(200);
    const first = roomMessageSchema.parse(viaAction.json().result);
    expect(first).toMatchObject({ roomId: lobby.id, from: alice.address, body: "first", replyTo: null });

    const viaRoute = await post(lobby.id, bobChat, { body: "second", replyTo: first.id });
    expect(viaRoute.statusCode, viaRoute.body).toBe(201);
    const second = roomMessageSchema.parse(viaRoute.json());
    expect(second).toMatchObject({ from: bob.address, body: "second", replyTo: first.id });

    const read = await get(test, `/market/rooms/${lobby.id}/messages`);
    expect(read.statusCode, read.body).toBe(200);
    const list = roomMessageListSchema.parse(read.json());
    expect(list.messages.map((message) => message.id)).toEqual([second.id, first.id]);
    expect(list.next).toBeNull();

    const rooms = roomListSchema.parse((await get(test, "/market/rooms")).json());
    expect(rooms.rooms.map((room) => room.slug)).toContain("lobby");
  });

  it("replays an idempotent room post instead of writing twice", async () => {
    const headers = { ...aliceChat, "idempotency-key": "room-post-1" };
    const once = await post(lobby.id, headers, { body: "only once" });
    const again = await post(lobby.id, headers, { body: "only once" });
    expect(once.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(once.json().id);
    const list = roomMessageListSchema.parse((await get(test, `/market/rooms/${lobby.id}/messages`)).json());
    expect(list.messages.filter((message) => message.body === "only once")).toHaveLength(1);
  });

  it("pages rooms and messages, every item exactly once", async () => {
    const paging = await createRoom(bob, "paging", "Paging");
    for (const slug of ["a-room", "b-room", "c-room", "d-room"]) await createRoom(bob, slug, slug);
    const sent: string[] = [];
    for (let index = 0; index < 9; index++) {
      const response = await chatSend(bob, paging.id, `m${index}`);
      sent.push(response.json().result.id);
    }
    const messages = await walkPages(
      test,
      (cursor) => `/market/rooms/${paging.id}/messages?limit=4${cursor ? `&cursor=${cursor}` : ""}`,
      {},
      (body: RoomMessageList) => body.messages,
    );
    expect(messages.pages).toBe(3);
    expect(messages.items.map((message) => message.id)).toEqual([...sent].reverse());

    const all = roomListSchema.parse((await get(test, "/market/rooms?limit=100")).json()).rooms;
    const rooms = await walkPages(
      test,
      (cursor) => `/market/rooms?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      {},
      (body: RoomList) => body.rooms,
    );
    expect(rooms.items.map((room) => room.slug)).toEqual([
      "a-room",
      "b-room",
      "c-room",
      "d-room",
      "lobby",
      "paging",
    ]);
    expect(rooms.items).toEqual(all);
  });
});

describe("rooms: cursors are signed and bound to their list", () => {
  it("refuses hand-made cursors and another list's cursor with 400, and follows its own", async () => {
    const first = await createRoom(bob, "signed-one", "Signed one");
    const second = await createRoom(bob, "signed-two", "Signed two");
    for (const body of ["s1", "s2", "s3"]) {
      expect((await chatSend(bob, first.id, body)).statusCode).toBe(200);
      expect((await chatSend(bob, second.id, body)).statusCode).toBe(200);
    }
    const page = roomMessageListSchema.parse(
      (await get(test, `/market/rooms/${first.id}/messages?limit=1`)).json(),
    );
    const cursor = page.next;
    expect(cursor).toEqual(expect.any(String));
    const own = await get(test, `/market/rooms/${first.id}/messages?limit=1&cursor=${cursor}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(roomMessageListSchema.parse(own.json()).messages.map((message) => message.body)).toEqual(["s2"]);

    const rooms = roomListSchema.parse((await get(test, "/market/rooms?limit=1")).json());
    const refused = [
      // The unsigned form these lists used to issue: base64url of the JSON sort key.
      `/market/rooms/${first.id}/messages?cursor=${Buffer.from(JSON.stringify(page.messages[0]?.id)).toString("base64url")}`,
      `/market/rooms?cursor=${Buffer.from(JSON.stringify("a-room")).toString("base64url")}`,
      // A real cursor of the first room's messages, on the second room.
      `/market/rooms/${second.id}/messages?cursor=${cursor}`,
      // A room list cursor on a message list, and the other way round.
      `/market/rooms/${first.id}/messages?cursor=${rooms.next}`,
      `/market/rooms?cursor=${cursor}`,
      // Altered: one character of the signature changed.
      `/market/rooms/${first.id}/messages?cursor=${cursor?.slice(0, -1)}${cursor?.endsWith("A") ? "B" : "A"}`,
    ];
    for (const url of refused) {
      const response = await get(test, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: expect.stringMatching(/cursor/) });
    }
  });
});

describe("rooms: refused", () => {
  it("refuses bodies out of bounds, unknown rooms and replies to another room", async () => {
    const other = await createRoom(bob, "other", "Other");
    const elsewhere = roomMessageSchema.parse((await post(other.id, bobChat, { body: "there" })).json());
    expect((await post(lobby.id, aliceChat, { body: "x".repeat(1001) })).statusCode).toBe(400);
    expect((await post(lobby.id, aliceChat, { body: "" })).statusCode).toBe(400);
    expect((await post(lobby.id, aliceChat, { body: "hi", extra: true })).statusCode).toBe(400);
    expect((await post(lobby.id, aliceChat, { body: "x".repeat(1000) })).statusCode).toBe(201);
    expect((await chatSend(alice, lobby.id, "x".repeat(1001))).statusCode).toBe(400);
    expect((await post("room_doesnotexist", aliceChat, { body: "hi" })).statusCode).toBe(404);
    expect((await chatSend(alice, "room_doesnotexist", "hi")).statusCode).toBe(404);
    expect((await post("lobby", aliceChat, { body: "hi" })).statusCode).toBe(400);
    const crossReply = await post(lobby.id, aliceChat, { body: "re", replyTo: elsewhere.id });
    expect(crossReply.statusCode).toBe(404);
    expect(crossReply.json().error).toMatch(/replyTo/);
    expect((await get(test, "/market/rooms/room_doesnotexist/messages")).statusCode).toBe(404);
    expect((await get(test, "/market/rooms?cursor=%%%")).statusCode).toBe(400);
    expect((await get(test, `/market/rooms/${lobby.id}/messages?cursor=${"A".repeat(501)}`)).statusCode).toBe(
      400,
    );
    expect((await get(test, `/market/rooms/${lobby.id}/messages?limit=101`)).statusCode).toBe(400);
  });

  it("refuses room writes to the account session, to no session and to no key", async () => {
    const withAccount = await post(lobby.id, alice.headers, { body: "account session" });
    expect(withAccount.statusCode).toBe(403);
    expect(withAccount.json().error).toMatch(/chat session/);
    const { authorization: _, ...noSession } = aliceChat;
    expect((await post(lobby.id, noSession, { body: "nobody" })).statusCode).toBe(401);
    const { "api-key": __, ...noKey } = aliceChat;
    expect((await post(lobby.id, noKey, { body: "no key" })).statusCode).toBe(401);
    // The chat session cannot do account actions either.
    const action = await test.app.server.inject({
      method: "POST",
      url: "/market/account",
      headers: aliceChat,
      payload: { kind: "chat-send", roomId: lobby.id, body: "sneaky" },
    });
    expect(action.statusCode).toBe(403);
    // A key that is sent is still checked on public reads.
    expect((await get(test, "/market/rooms", { "api-key": "mkt_nope" })).statusCode).toBe(401);
  });

  it("lets only the author or the room's creator delete a message", async () => {
    const byBob = roomMessageSchema.parse((await post(lobby.id, bobChat, { body: "bob's" })).json());
    const bobRoom = await createRoom(bob, "bobs-room", "Bob's");
    const aliceInBobs = roomMessageSchema.parse(
      (await post(bobRoom.id, aliceChat, { body: "alice's" })).json(),
    );
    const byAliceInBobs = roomMessageSchema.parse(
      (await post(bobRoom.id, aliceChat, { body: "kept" })).json(),
    );

    const del = (who: SignedIn, messageId: string) =>
      accountAction(test, who, { kind: "chat-delete", messageId });
    // alice created the lobby: she may delete bob's message there.
    expect((await del(alice, byBob.id)).json().result).toEqual({ id: byBob.id, deleted: true });
    // In bob's room alice may delete her own messages only; bob (creator) may delete hers.
    const mine = roomMessageSchema.parse(
      (await post(bobRoom.id, bobChat, { body: "bob in his room" })).json(),
    );
    expect((await del(alice, mine.id)).statusCode).toBe(403);
    expect((await del(alice, aliceInBobs.id)).statusCode).toBe(200);
    expect((await del(bob, byAliceInBobs.id)).statusCode).toBe(200);
    expect((await del(bob, byAliceInBobs.id)).statusCode).toBe(404);
    expect((await del(bob, "0")).statusCode).toBe(400);

    const left = roomMessageListSchema.parse(
      (await get(test, `/market/rooms/${bobRoom.id}/messages`)).json(),
    );
    expect(left.messages.map((message) => message.id)).toEqual([mine.id]);
  });

  it("drops the messages of a deleted account and keeps its rooms", async () => {
    const index = 33;
    const leaving = await signIn(test, index, { apiKey });
    const leavingChat = await openChatSession(test, leaving);
    const room = await createRoom(leaving, "leavers", "Leavers");
    await post(room.id, leavingChat, { body: "goodbye" });
    await post(lobby.id, leavingChat, { body: "goodbye lobby" });
    await post(room.id, bobChat, { body: "stays" });

    const envelope = await signDeletion(testWallet(index), { now: Date.now() });
    const deleted = await test.app.server.inject({
      method: "POST",
      url: "/market/account/delete",
      headers: leaving.headers,
      payload: envelope,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const inRoom = roomMessageListSchema.parse((await get(test, `/market/rooms/${room.id}/messages`)).json());
    expect(inRoom.messages.map((message) => message.body)).toEqual(["stays"]);
    const inLobby = roomMessageListSchema.parse(
      (await get(test, `/market/rooms/${lobby.id}/messages?limit=100`)).json(),
    );
    expect(inLobby.messages.map((message) => message.from)).not.toContain(leaving.address);
    const rooms = roomListSchema.parse((await get(test, "/market/rooms?limit=100")).json()).rooms;
    expect(rooms.find((candidate) => candidate.id === room.id)?.createdBy).toBeNull();
    expect((await post(room.id, leavingChat, { body: "still here?" })).statusCode).toBe(401);
  });
});

describe("rooms: one room's read", () => {
  it("answers the room with its message count and newest message time, without a key when PUBLIC_READS=open", async () => {
    const quiet = await createRoom(bob, "quiet-corner", "Quiet corner", "shh");
    const empty = await test.app.server.inject({ method: "GET", url: `/market/rooms/${quiet.id}` });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ room: quiet, messages: 0, lastMessageAt: null });
    await chatSend(alice, quiet.id, "first");
    const second = await chatSend(bob, quiet.id, "second");
    expect(second.statusCode).toBe(200);
    const read = await test.app.server.inject({ method: "GET", url: `/market/rooms/${quiet.id}` });
    expect(read.json()).toEqual({
      room: quiet,
      messages: 2,
      lastMessageAt: roomMessageSchema.parse(second.json().result).createdAt,
    });
    const proxied = await test.app.server.inject({
      method: "GET",
      url: `/app/api/rooms/${quiet.id}`,
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(proxied.json().messages).toBe(2);
  });

  it("refuses a malformed id with 400 and an unknown room with 404, in {error}", async () => {
    const malformed = await get(test, "/market/rooms/not%20a%20room", { "api-key": apiKey });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: expect.any(String) });
    const unknown = await get(test, "/market/rooms/room_doesnotexist", { "api-key": apiKey });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: expect.any(String) });
  });
});

import { type FollowList, followListSchema, followStateSchema } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { get, openChatSession, walkPages } from "./test-helpers.ts";

// A clock that stands still: every follow gets the same time, so paging relies on its tie-breaker.
const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;
let alice: SignedIn;
let bob: SignedIn;
let aliceChat: Record<string, string>;

beforeAll(async () => {
  test = await setupApp({ clock, env: { PUBLIC_READS: "open" } });
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  const as = (index: number) => signIn(test, index, { apiKey, now: clock.now() });
  [alice, bob] = await Promise.all([as(41), as(42)]);
  aliceChat = await openChatSession(test, alice);
});
afterAll(() => test.close());

const put = (address: string, headers: Record<string, string>) =>
  test.app.server.inject({ method: "PUT", url: `/market/follows/${address}`, headers });
const del = (address: string, headers: Record<string, string>) =>
  test.app.server.inject({ method: "DELETE", url: `/market/follows/${address}`, headers });
const followers = async (who: SignedIn) =>
  followListSchema.parse((await get(test, `/market/accounts/${who.address}/followers`)).json());
const following = async (who: SignedIn) =>
  followListSchema.parse((await get(test, `/market/accounts/${who.address}/following`)).json());

describe("follows: happy paths", () => {
  it("follows with a chat session, lists it publicly and unfollows, idempotently", async () => {
    const followed = await put(bob.address, aliceChat);
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followStateSchema.parse(followed.json())).toEqual({ address: bob.address, following: true });
    expect((await put(bob.address.toUpperCase().replace("0X", "0x"), aliceChat)).statusCode).toBe(200);

    const list = await followers(bob);
    expect(list).toEqual({
      address: bob.address,
      accounts: [{ address: alice.address, username: null, followedAt: clock.now() }],
      next: null,
    });
    expect((await following(alice)).accounts.map((entry) => entry.address)).toEqual([bob.address]);
    expect((await following(bob)).accounts).toEqual([]);

    const unfollowed = await del(bob.address, aliceChat);
    expect(unfollowed.json()).toEqual({ address: bob.address, following: false });
    expect((await del(bob.address, aliceChat)).statusCode).toBe(200);
    expect((await followers(bob)).accounts).toEqual([]);
  });

  it("follows and unfollows with the account actions too", async () => {
    const follow = await accountAction(test, bob, { kind: "follow", address: alice.address });
    expect(follow.json()).toMatchObject({
      ok: true,
      family: "follows",
      result: { address: alice.address, following: true },
    });
    expect((await followers(alice)).accounts.map((entry) => entry.address)).toEqual([bob.address]);
    const unfollow = await accountAction(test, bob, { kind: "unfollow", address: alice.address });
    expect(unfollow.json().result).toEqual({ address: alice.address, following: false });
    expect((await followers(alice)).accounts).toEqual([]);
  });

  it("pages followers and following, every account exactly once, newest first", async () => {
    const fans = await Promise.all(
      [43, 44, 45, 46, 47].map((index) => signIn(test, index, { apiKey, now: clock.now() })),
    );
    for (const [position, fan] of fans.entries()) {
      // The last two follow at the same instant: the cursor must still tell them apart.
      if (position < 3) clock.advance(1_000);
      await accountAction(test, fan, { kind: "follow", address: alice.address });
      await accountAction(test, alice, { kind: "follow", address: fan.address });
    }
    for (const side of ["followers", "following"]) {
      const pages = await walkPages(
        test,
        (cursor) => `/market/accounts/${alice.address}/${side}?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        {},
        (body: FollowList) => body.accounts,
      );
      expect(pages.pages, side).toBe(3);
      const addresses = pages.items.map((entry) => entry.address);
      expect(new Set(addresses).size, side).toBe(5);
      expect(addresses.sort(), side).toEqual(fans.map((fan) => fan.address).sort());
      const times = pages.items.map((entry) => entry.followedAt);
      expect(times, side).toEqual([...times].sort((a, b) => b - a));
    }
  });
});

describe("follows: refused", () => {
  it("refuses following oneself and unknown or malformed wallets", async () => {
    expect((await put(alice.address, aliceChat)).statusCode).toBe(400);
    expect((await accountAction(test, alice, { kind: "follow", address: alice.address })).statusCode).toBe(
      400,
    );
    const unknown = "0x000000000000000000000000000000000000beef";
    expect((await put(unknown, aliceChat)).statusCode).toBe(404);
    expect((await accountAction(test, alice, { kind: "follow", address: unknown })).statusCode).toBe(404);
    expect((await put("bob", aliceChat)).statusCode).toBe(400);
    expect((await get(test, `/market/accounts/${unknown}/followers`)).statusCode).toBe(404);
    expect((await get(test, "/market/accounts/0x12/following")).statusCode).toBe(400);
    expect(
      (await get(test, `/market/accounts/${alice.address}/followers?cursor=bm90IGpzb24`)).statusCode,
    ).toBe(400);
    const idCursor = Buffer.from(JSON.stringify("12")).toString("base64url");
    expect(
      (await get(test, `/market/accounts/${alice.address}/followers?cursor=${idCursor}`)).statusCode,
    ).toBe(400);
  });

  it("refuses the follow routes to the account session and to no session", async () => {
    const withAccount = await put(bob.address, alice.headers);
    expect(withAccount.statusCode).toBe(403);
    expect((await del(bob.address, alice.headers)).statusCode).toBe(403);
    const { authorization: _, ...noSession } = aliceChat;
    expect((await put(bob.address, noSession)).statusCode).toBe(401);
  });

  it("keeps a blocked account from following the blocker, and a block ends follows both ways", async () => {
    await put(bob.address, aliceChat);
    await accountAction(test, bob, { kind: "follow", address: alice.address });
    const block = await accountAction(test, bob, { kind: "block", address: alice.address });
    expect(block.json().result).toEqual({ address: alice.address, blocked: true });
    expect((await followers(bob)).accounts.map((entry) => entry.address)).not.toContain(alice.address);
    expect((await followers(alice)).accounts.map((entry) => entry.address)).not.toContain(bob.address);

    const refused = await put(bob.address, aliceChat);
    expect(refused.statusCode).toBe(403);
    expect((await accountAction(test, alice, { kind: "follow", address: bob.address })).statusCode).toBe(403);
    // The blocker cannot follow the account it blocked either, until it unblocks.
    expect((await accountAction(test, bob, { kind: "follow", address: alice.address })).statusCode).toBe(403);

    await accountAction(test, bob, { kind: "unblock", address: alice.address });
    expect((await put(bob.address, aliceChat)).statusCode).toBe(200);
  });
});

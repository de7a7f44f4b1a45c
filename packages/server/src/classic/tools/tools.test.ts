import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testWallet } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { signInClassic } from "../../_test/classic.ts";
import { addressOf, insertGame, insertPack } from "../../_test/classic-packs.ts";

const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;
const DROP = addressOf(0xd1);
const OTHER_DROP = addressOf(0xd2);
const UNKNOWN = addressOf(0xee);

beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
  await insertGame(test.db, {
    drop: DROP,
    token: addressOf(0x71),
    creator: testWallet(81).address.toLowerCase(),
  });
  await insertGame(test.db, { drop: OTHER_DROP, token: addressOf(0x72), gameId: "2" });
  await insertPack(test.db, { drop: DROP, tokenId: 1n, owner: testWallet(81).address.toLowerCase() });
  await insertPack(test.db, {
    drop: DROP,
    tokenId: 2n,
    owner: testWallet(81).address.toLowerCase(),
    status: "opened",
    rarity: 2,
  });
});
afterAll(() => test.close());

/** Signs a dev wallet in; answers the headers of an "API-KEY and bearer" request and the account id. */
const signedIn = async (walletIndex: number) => {
  const { accountId, headers } = await signInClassic(test.app.server, {
    apiKey,
    walletIndex,
    now: clock.now(),
  });
  return { id: accountId, headers };
};

const inject = (
  method: "GET" | "PUT" | "POST",
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => test.app.server.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe("classic tools: access", () => {
  const routes: Array<["GET" | "PUT" | "POST", string, object?]> = [
    ["PUT", "/classic/reactions", { contractAddress: DROP, kind: "like", active: true }],
    ["GET", `/classic/reactions/mine?contractAddress=${DROP}`],
    ["POST", "/classic/reports", { contractAddress: DROP, reason: "spam" }],
    ["POST", "/classic/refresh", { contractAddress: DROP }],
    ["GET", "/classic/stats/me"],
  ];

  it("answers 401 without a bearer and the classic 429 without a key, on every bearer route", async () => {
    const { headers } = await signedIn(80);
    for (const [method, url, payload] of routes) {
      const anonymous = await inject(method, url, { "api-key": apiKey }, payload);
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json()).toMatchObject({ success: false, error: "UNAUTHORIZED" });
      const keyless = await inject(method, url, { authorization: headers.authorization }, payload);
      expect(keyless.statusCode, url).toBe(429);
      expect(keyless.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
    }
    // The counts are a key-only read.
    expect((await inject("GET", `/classic/reactions?contractAddress=${DROP}`, {})).statusCode).toBe(429);
    expect(
      (await inject("GET", `/classic/reactions?contractAddress=${DROP}`, { "api-key": apiKey })).statusCode,
    ).toBe(200);
  });

  it("answers 400 for bad input and 404 for an unknown game or pack", async () => {
    const { headers } = await signedIn(80);
    const bad: Array<["GET" | "PUT" | "POST", string, object?]> = [
      ["PUT", "/classic/reactions", { contractAddress: DROP, kind: "hate", active: true }],
      ["PUT", "/classic/reactions", { contractAddress: "0x12", kind: "like", active: true }],
      ["PUT", "/classic/reactions", { contractAddress: DROP, kind: "like" }],
      ["POST", "/classic/reports", { contractAddress: DROP, reason: "boring" }],
      ["POST", "/classic/reports", { contractAddress: DROP, reason: "other", details: "x".repeat(1001) }],
      ["POST", "/classic/refresh", { contractAddress: DROP, tokenId: "-1" }],
      ["GET", `/classic/reactions/mine?contractAddress=${DROP}&tokenId=abc`],
    ];
    for (const [method, url, payload] of bad) {
      const response = await inject(method, url, headers, payload);
      expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
    }
    const missing: Array<["GET" | "PUT" | "POST", string, object | undefined, string]> = [
      [
        "PUT",
        "/classic/reactions",
        { contractAddress: UNKNOWN, kind: "like", active: true },
        "GAME_NOT_FOUND",
      ],
      [
        "POST",
        "/classic/reports",
        { contractAddress: DROP, tokenId: "99", reason: "spam" },
        "PACK_NOT_FOUND",
      ],
      ["POST", "/classic/refresh", { contractAddress: UNKNOWN }, "GAME_NOT_FOUND"],
      ["GET", `/classic/reactions?contractAddress=${UNKNOWN}`, undefined, "GAME_NOT_FOUND"],
    ];
    for (const [method, url, payload, code] of missing) {
      const response = await inject(method, url, headers, payload);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: code });
    }
  });
});

describe("classic reactions", () => {
  it("sets and clears one kind per account per target, idempotently; counts move at once", async () => {
    const alice = await signedIn(82);
    const bob = await signedIn(83);
    const countsUrl = `/classic/reactions?contractAddress=${DROP}&tokenId=2`;
    const before = await inject("GET", countsUrl, { "api-key": apiKey });
    expect(before.json()).toMatchObject({ total: 0, counts: { like: 0, fire: 0 } });

    const pack = { contractAddress: DROP, tokenId: "2" };
    for (let i = 0; i < 2; i++) {
      const set = await inject("PUT", "/classic/reactions", alice.headers, {
        ...pack,
        kind: "fire",
        active: true,
      });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({
        target: { chainId: 8453, contractAddress: DROP, tokenId: "2" },
        counts: { fire: 1, like: 0 },
        total: 1,
        mine: ["fire"],
      });
    }
    await inject("PUT", "/classic/reactions", alice.headers, { ...pack, kind: "like", active: true });
    await inject("PUT", "/classic/reactions", bob.headers, { ...pack, kind: "fire", active: true });
    // The shared-cached counts were rebuilt after each change.
    const after = await inject("GET", countsUrl, { "api-key": apiKey });
    expect(after.json()).toMatchObject({ counts: { fire: 2, like: 1, love: 0 }, total: 3 });
    expect(after.json().mine).toBeUndefined();
    const mine = await inject(
      "GET",
      `/classic/reactions/mine?contractAddress=${DROP}&tokenId=2`,
      bob.headers,
    );
    expect(mine.json()).toMatchObject({ counts: { fire: 2, like: 1 }, mine: ["fire"] });
    // The game's own reactions are another target.
    const game = await inject("GET", `/classic/reactions?contractAddress=${DROP}`, { "api-key": apiKey });
    expect(game.json()).toMatchObject({ total: 0, target: { tokenId: null } });

    for (let i = 0; i < 2; i++) {
      const cleared = await inject("PUT", "/classic/reactions", alice.headers, {
        ...pack,
        kind: "fire",
        active: false,
      });
      expect(cleared.json()).toMatchObject({ counts: { fire: 1, like: 1 }, mine: ["like"] });
    }
    expect((await inject("GET", countsUrl, { "api-key": apiKey })).json()).toMatchObject({ total: 2 });
  });
});

describe("classic reports", () => {
  it("files reports up to 10 an hour per account, then 429 REPORT_LIMIT; a duplicate is 429 DUPLICATE_REPORT", async () => {
    const carol = await signedIn(84);
    const first = await inject("POST", "/classic/reports", carol.headers, {
      contractAddress: DROP,
      reason: "copyright",
      details: "  the art is someone else's  ",
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      remaining: 9,
      report: { reason: "copyright", details: "the art is someone else's", status: "open" },
    });
    expect(first.json().report.id).toMatch(/^rpt_/);

    const duplicate = await inject("POST", "/classic/reports", carol.headers, {
      contractAddress: DROP,
      reason: "spam",
    });
    expect(duplicate.statusCode).toBe(429);
    expect(duplicate.json()).toMatchObject({ success: false, error: "DUPLICATE_REPORT" });
    expect(typeof duplicate.json().message).toBe("string");

    // Nine more targets: the game's packs and the other game, token ids that exist.
    for (let tokenId = 3; tokenId <= 10; tokenId++) {
      await insertPack(test.db, { drop: OTHER_DROP, tokenId: BigInt(tokenId), owner: addressOf(0xa1) });
    }
    const targets = [
      { contractAddress: DROP, tokenId: "1" },
      { contractAddress: OTHER_DROP },
      ...Array.from({ length: 8 }, (_, i) => ({ contractAddress: OTHER_DROP, tokenId: String(i + 3) })),
    ];
    for (const [i, target] of targets.slice(0, 9).entries()) {
      clock.advance(60_000);
      const filed = await inject("POST", "/classic/reports", carol.headers, { ...target, reason: "spam" });
      expect(filed.statusCode, JSON.stringify(target)).toBe(200);
      expect(filed.json().remaining).toBe(8 - i);
    }
    const limited = await inject("POST", "/classic/reports", carol.headers, {
      ...targets[9]!,
      reason: "spam",
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, error: "REPORT_LIMIT" });
    // The first report leaves the hour 60 minutes after it was filed: 9 minutes were spent since.
    expect(Number(limited.headers["retry-after"])).toBe(51 * 60);
    // Another account is not limited by this one's count.
    const dave = await signedIn(85);
    expect(
      (await inject("POST", "/classic/reports", dave.headers, { ...targets[9]!, reason: "nsfw" })).statusCode,
    ).toBe(200);

    // Once the first leaves the rolling hour, one more is allowed.
    clock.advance(51 * 60_000);
    expect(
      (await inject("POST", "/classic/reports", carol.headers, { ...targets[9]!, reason: "spam" }))
        .statusCode,
    ).toBe(200);

    // Operators list them, paged; closing one lets the account report that target again.
    const listed = await test.admin("GET", "/admin/classic/reports?status=open&limit=5&page=1");
    expect(listed.statusCode).toBe(200);
    const page = listed.json() as {
      reports: Array<{
        id: string;
        accountId: string;
        target: { contractAddress: string; tokenId: string | null };
      }>;
      pagination: { total: number; totalPages: number };
    };
    expect(page.pagination).toMatchObject({ total: 12, totalPages: 3 });
    expect(page.reports).toHaveLength(5);
    const firstId = first.json().report.id as string;
    expect(
      (await test.admin("PATCH", `/admin/classic/reports/${firstId}`, { status: "resolved" })).statusCode,
    ).toBe(200);
    expect((await test.admin("GET", "/admin/classic/reports?status=resolved")).json()).toMatchObject({
      reports: [{ id: firstId, accountId: carol.id, status: "resolved" }],
    });
    clock.advance(3_600_000);
    expect(
      (await inject("POST", "/classic/reports", carol.headers, { contractAddress: DROP, reason: "spam" }))
        .statusCode,
    ).toBe(200);
  });
});

describe("classic refreshes", () => {
  it("refreshes once per cooldown per target (200 with the cooldown state inside it), then 429 REFRESH_LIMIT per account", async () => {
    const erin = await signedIn(86);
    const [counter] = test.app.services.revisions.counters(["indexer:classic"]);
    const before = counter!.value;
    const first = await inject("POST", "/classic/refresh", erin.headers, { contractAddress: DROP });
    expect(first.statusCode).toBe(200);
    const now = clock.now();
    expect(first.json()).toEqual({
      success: true,
      target: { chainId: 8453, contractAddress: DROP, tokenId: null },
      refreshed: true,
      refreshedAt: new Date(now).toISOString(),
      cooldownUntil: new Date(now + 60_000).toISOString(),
      indexedThroughBlock: null,
    });
    // The classic read-cache sources moved: here at once, then once more when the announcement comes back.
    expect(counter!.value).toBeGreaterThan(before);
    await vi.waitFor(() => expect(counter!.value).toBe(before + 2), { interval: 5, timeout: 5_000 });

    clock.advance(30_000);
    const cooling = await inject("POST", "/classic/refresh", (await signedIn(87)).headers, {
      contractAddress: DROP,
    });
    expect(cooling.statusCode).toBe(200);
    expect(cooling.json()).toMatchObject({
      refreshed: false,
      refreshedAt: new Date(now).toISOString(),
      cooldownUntil: new Date(now + 60_000).toISOString(),
    });
    // Nothing was done: the sources did not move.
    expect(counter!.value).toBe(before + 2);
    // A pack is its own target.
    expect(
      (
        await inject("POST", "/classic/refresh", erin.headers, { contractAddress: DROP, tokenId: "1" })
      ).json(),
    ).toMatchObject({ refreshed: true, target: { tokenId: "1" } });
    clock.advance(30_000);
    expect(
      (await inject("POST", "/classic/refresh", erin.headers, { contractAddress: DROP })).json(),
    ).toMatchObject({
      refreshed: true,
    });

    // 30 refreshes an hour per account: 3 done; 27 more, one minute apart, then the limit.
    for (let i = 0; i < 27; i++) {
      clock.advance(61_000);
      const response = await inject("POST", "/classic/refresh", erin.headers, {
        contractAddress: OTHER_DROP,
      });
      expect(response.json().refreshed, `refresh ${i}`).toBe(true);
    }
    clock.advance(61_000);
    const limited = await inject("POST", "/classic/refresh", erin.headers, { contractAddress: OTHER_DROP });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, error: "REFRESH_LIMIT" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("classic account statistics", () => {
  it("answers the account's own figures across its wallets beside the platform's", async () => {
    const owner = await signedIn(81);
    await inject("PUT", "/classic/reactions", owner.headers, {
      contractAddress: DROP,
      kind: "wow",
      active: true,
    });
    const response = await inject("GET", "/classic/stats/me", owner.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      account: { id: owner.id, wallets: [testWallet(81).address.toLowerCase()] },
      mine: {
        chainId: 8453,
        packsHeld: 2,
        packsOpened: 1,
        packsBurned: 0,
        spentWei: "2000",
        gamesCreated: 1,
        reactionsMade: 1,
        reportsMade: 0,
      },
      platform: { chainId: 8453, games: 2, packsMinted: 0 },
    });
    const stranger = await signedIn(88);
    expect((await inject("GET", "/classic/stats/me", stranger.headers)).json()).toMatchObject({
      mine: { packsHeld: 0, gamesCreated: 0, spentWei: "0" },
    });
  });
});

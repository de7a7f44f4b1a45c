import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signDeletion, signIn, signInViaProxy, testWallet } from "../_test/accounts.ts";
import type { TestApp } from "../_test/app.ts";
import { insertClassicGame } from "../_test/classic.ts";
import { onPostgres, setupDatabase } from "../_test/database.ts";
import { PREDICT_HEAD_TIME, setPredictHead, setupPredictApp } from "../_test/predict.ts";
import { openStream, type TestStream } from "../_test/sse.ts";

/**
 * What admitted an open stream is checked again while it is open, on every
 * stream of every surface (one mechanism: the live hub's re-check rounds):
 * a revoked key, an ended session and a feed switched off end the stream
 * with an `end` event. Also: `ready` tells the truth about resuming, and
 * open streams are capped per client network.
 */

const GAME = "0x00000000000000000000000000000000000c4a91";
/** The test apps' manual clock (one second after the prediction head's block). */
const NOW = Date.parse(PREDICT_HEAD_TIME) + 1_000;
const dataOf = (event: { data: string }) => JSON.parse(event.data) as Record<string, unknown>;

/** Every stream an API key opens, by the path below the server. */
const KEY_STREAMS = {
  "market live": "/market/live",
  "classic chat": `/classic/chat/${GAME}/stream`,
  "prediction feed": "/predict/v9/stream",
} as const;

/** An app with a fresh prediction projection and a classic game (`seed`: written by this app), listening. */
async function setupStreamsApp(options: Parameters<typeof setupPredictApp>[0] = {}, seed = true) {
  const { t } = await setupPredictApp({ live: { heartbeatMs: 60_000 }, ...options });
  if (seed) {
    await setPredictHead(t.db);
    await insertClassicGame(t.db, { address: GAME, gameId: 9n, nftName: "Stream Owls" });
  }
  const { publicUrl } = await t.app.listen();
  return { t, baseUrl: publicUrl };
}

/** Waits for the server to end the stream; answers the events it sent, the last one its `end`. */
async function endedBy(stream: TestStream) {
  await stream.ended;
  const last = stream.events.at(-1);
  expect(last?.event, JSON.stringify(stream.events)).toBe("end");
  return dataOf(last!);
}

describe("open streams end once what admitted them no longer stands", () => {
  let t: TestApp;
  let baseUrl: string;
  const open: TestStream[] = [];
  const stream = async (path: string, headers: Record<string, string>) => {
    const opened = await openStream(`${baseUrl}${path}`, headers);
    open.push(opened);
    expect(opened.status, opened.body).toBe(200);
    expect((await opened.next()).event).toBe("ready");
    return opened;
  };
  const revokeSelf = (key: string) =>
    t.app.server.inject({ method: "DELETE", url: "/keys/current", headers: { "api-key": key } });

  beforeAll(async () => {
    ({ t, baseUrl } = await setupStreamsApp());
  });
  afterEach(async () => {
    for (const opened of open.splice(0)) {
      opened.close();
      await opened.ended;
    }
    await expect.poll(() => t.app.services.live.size()).toBe(0);
    await t.admin("PUT", "/admin/predict/runtime", { enabled: true, publicEnabled: true });
  });
  afterAll(() => t.close());

  it.each(Object.entries(KEY_STREAMS))(
    "%s: ends when its key is revoked by the operator or by its holder, and the key opens no new one",
    async (_name, path) => {
      const byOperator = await t.createKey();
      const byHolder = await t.createKey();
      const untouched = await t.createKey();
      const first = await stream(path, { "api-key": byOperator.key });
      const second = await stream(path, { "api-key": byHolder.key });
      const other = await stream(path, { "api-key": untouched.key });

      expect((await t.admin("PATCH", `/admin/keys/${byOperator.id}`, { revoked: true })).statusCode).toBe(
        200,
      );
      expect((await revokeSelf(byHolder.key)).statusCode).toBe(204);
      expect(await endedBy(first)).toEqual({ reason: "key-revoked" });
      expect(await endedBy(second)).toEqual({ reason: "key-revoked" });

      // The stream of another key stays: a round now ends nothing.
      expect(await t.app.services.live.recheck()).toBe(0);
      expect(other.events.map((event) => event.event)).toEqual(["ready"]);
      // Refused as any revoked key is on its surface: market 401, classic and predict the opaque 429.
      const again = await openStream(`${baseUrl}${path}`, { "api-key": byOperator.key });
      expect(again.status).toBe(path === KEY_STREAMS["market live"] ? 401 : 429);
    },
  );

  it("the account stream ends when its session is signed out, and when its account is deleted", async () => {
    const key = (await t.createKey({ multiplier: 10 })).key;
    const alice = await signIn(t, 41, { apiKey: key, now: NOW });
    const bob = await signIn(t, 42, { apiKey: key, now: NOW });
    const bobElsewhere = await signIn(t, 42, { apiKey: key, now: NOW });
    const carol = await signIn(t, 43, { apiKey: key, now: NOW });
    const aliceLive = await stream("/market/account/live", alice.headers);
    const bobLive = await stream("/market/account/live", bob.headers);
    const carolLive = await stream("/market/account/live", carol.headers);

    const signOut = await t.app.server.inject({
      method: "DELETE",
      url: "/market/account/session",
      headers: alice.headers,
    });
    expect(signOut.statusCode, signOut.body).toBe(204);
    expect(await endedBy(aliceLive)).toEqual({ reason: "session-ended" });

    // Deleted from another device: every session of the account ends, and so does its stream.
    const deleted = await t.app.server.inject({
      method: "POST",
      url: "/market/account/delete",
      headers: bobElsewhere.headers,
      payload: await signDeletion(testWallet(42), { now: NOW }),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await endedBy(bobLive)).toEqual({ reason: "session-ended" });

    expect(await t.app.services.live.recheck()).toBe(0);
    expect(carolLive.events.map((event) => event.event)).toEqual(["ready"]);
    expect((await openStream(`${baseUrl}/market/account/live`, bob.headers)).status).toBe(401);
  });

  it("the website proxy's account stream (session cookie, no key) ends when the session is signed out", async () => {
    const session = await signInViaProxy(t, 44, { now: NOW });
    const live = await stream("/app/api/account/live", session);
    const signOut = await t.app.server.inject({
      method: "DELETE",
      url: "/app/api/account/session",
      headers: session,
    });
    expect(signOut.statusCode, signOut.body).toBe(204);
    expect(await endedBy(live)).toEqual({ reason: "session-ended" });
  });

  it("the feed's stream ends when the operator disables the feed", async () => {
    const key = (await t.createKey()).key;
    const live = await stream(KEY_STREAMS["prediction feed"], { "api-key": key });
    const market = await stream(KEY_STREAMS["market live"], { "api-key": key });
    expect((await t.admin("PUT", "/admin/predict/runtime", { enabled: false })).statusCode).toBe(200);
    expect(await endedBy(live)).toEqual({ reason: "feed-disabled" });
    // The feed's switch gates the feed's stream only.
    expect(await t.app.services.live.recheck()).toBe(0);
    expect(market.events.map((event) => event.event)).toEqual(["ready"]);
  });

  it("the feed's stream ends on publicEnabled=false unless its key is first-party", async () => {
    const thirdParty = await t.createKey();
    const firstParty = await t.createKey();
    expect((await t.admin("PATCH", `/admin/keys/${firstParty.id}`, { firstParty: true })).statusCode).toBe(
      200,
    );
    const theirs = await stream(KEY_STREAMS["prediction feed"], { "api-key": thirdParty.key });
    const ours = await stream(KEY_STREAMS["prediction feed"], { "api-key": firstParty.key });
    expect((await t.admin("PUT", "/admin/predict/runtime", { publicEnabled: false })).statusCode).toBe(200);
    expect(await endedBy(theirs)).toEqual({ reason: "feed-not-public" });
    expect(await t.app.services.live.recheck()).toBe(0);
    expect(ours.events.map((event) => event.event)).toEqual(["ready"]);
    // The operator takes the first-party mark back: that key's stream ends too.
    expect((await t.admin("PATCH", `/admin/keys/${firstParty.id}`, { firstParty: false })).statusCode).toBe(
      200,
    );
    expect(await endedBy(ours)).toEqual({ reason: "feed-not-public" });
  });

  it("ready says resumed: false before resync for a garbage or unknown Last-Event-ID, on every stream", async () => {
    const key = (await t.createKey({ multiplier: 10 })).key;
    const account = await signIn(t, 45, { apiKey: key, now: NOW });
    const streams: [string, Record<string, string>][] = [
      ...Object.values(KEY_STREAMS).map((path): [string, Record<string, string>] => [
        path,
        { "api-key": key },
      ]),
      ["/market/account/live", account.headers],
    ];
    for (const [path, headers] of streams) {
      for (const lastEventId of ["garbage", "999999999999"]) {
        const opened = await openStream(`${baseUrl}${path}`, { ...headers, "last-event-id": lastEventId });
        open.push(opened);
        const ready = await opened.next();
        expect([path, ready.event, dataOf(ready)["resumed"]]).toEqual([path, "ready", false]);
        const resync = await opened.next();
        expect([path, resync.event, dataOf(resync)]).toEqual([path, "resync", { reason: "unknown" }]);
        opened.close();
        await opened.ended;
      }
      // An id this server issued resumes: `resumed: true`.
      const fresh = await openStream(`${baseUrl}${path}`, headers);
      open.push(fresh);
      const issued = (await fresh.next()).id!;
      const resumed = await openStream(`${baseUrl}${path}`, { ...headers, "last-event-id": issued });
      open.push(resumed);
      expect(dataOf(await resumed.next())["resumed"]).toBe(true);
      fresh.close();
      resumed.close();
      await Promise.all([fresh.ended, resumed.ended]);
    }
  });
});

describe("open streams per client network", () => {
  const CAP = 3;
  let t: TestApp;
  let baseUrl: string;
  const open: TestStream[] = [];
  /** Opens a stream as a client at `ip` (behind the trusted proxy). */
  const from = async (ip: string, path: string, headers: Record<string, string>) => {
    const opened = await openStream(`${baseUrl}${path}`, { ...headers, "x-forwarded-for": ip });
    open.push(opened);
    return opened;
  };
  /** Fills the client's cap with market streams of two keys (each below its own cap). */
  const fill = async (ips: readonly string[]) => {
    const keys = [(await t.createKey()).key, (await t.createKey()).key];
    for (let i = 0; i < CAP; i++) {
      const opened = await from(ips[i % ips.length]!, "/market/live", { "api-key": keys[i % 2]! });
      expect(opened.status, opened.body).toBe(200);
    }
  };

  beforeAll(async () => {
    ({ t, baseUrl } = await setupStreamsApp({
      env: { TRUST_PROXY: "1" },
      live: { heartbeatMs: 60_000, maxStreamsPerKey: 2, maxStreamsPerClient: CAP },
    }));
  });
  afterEach(async () => {
    for (const opened of open.splice(0)) {
      opened.close();
      await opened.ended;
    }
    await expect.poll(() => t.app.services.live.size()).toBe(0);
  });
  afterAll(() => t.close());

  const refusals: [string, string, (key: string) => Record<string, string>, unknown][] = [
    [
      "market live",
      "/market/live",
      (key) => ({ "api-key": key }),
      {
        error: `at most ${CAP} open streams per client network (an IPv4 address or an IPv6 /64), whichever keys or accounts opened them; close one first`,
      },
    ],
    [
      "website proxy",
      "/app/api/live",
      () => ({ "sec-fetch-site": "same-origin" }),
      {
        error: `at most ${CAP} open streams per client network (an IPv4 address or an IPv6 /64), whichever keys or accounts opened them; close one first`,
      },
    ],
    [
      "classic chat",
      KEY_STREAMS["classic chat"],
      (key) => ({ "api-key": key }),
      {
        success: false,
        message: "API key missing or invalid, or rate limit exceeded",
        error: "RATE_LIMITED",
      },
    ],
    [
      "prediction feed",
      KEY_STREAMS["prediction feed"],
      (key) => ({ "api-key": key }),
      { error: "API_KEY_REQUIRED_OR_RATE_LIMITED", docs: "https://api.mkt.test/docs/predict" },
    ],
  ];

  it.each(refusals.map((row, index) => [...row, index] as const))(
    "%s: a fresh key of a client at its cap is refused (429 in the surface's body); another client is not",
    async (_name, path, headers, body, index) => {
      const client = `198.51.100.${index + 1}`;
      await fill([client]);
      const fresh = (await t.createKey()).key;
      const refused = await from(client, path, headers(fresh));
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toEqual(body);
      expect(refused.headers.get("retry-after")).toBe("5");
      const elsewhere = await from(`203.0.113.${index + 1}`, path, headers(fresh));
      expect(elsewhere.status, elsewhere.body).toBe(200);
    },
  );

  it("counts the addresses of one IPv6 /64 as one client", async () => {
    await fill(["2001:db8:7:1::1", "2001:db8:7:1::2", "2001:db8:7:1:ffff:ffff:ffff:fffe"]);
    const fresh = (await t.createKey()).key;
    const sameNetwork = await from("2001:db8:7:1:abcd::9", "/market/live", { "api-key": fresh });
    expect(sameNetwork.status).toBe(429);
    const nextNetwork = await from("2001:db8:7:2::1", "/market/live", { "api-key": fresh });
    expect(nextNetwork.status, nextNetwork.body).toBe(200);
    // Closing one of the network's streams frees a place for it.
    open[0]!.close();
    await open[0]!.ended;
    await expect.poll(() => t.app.services.live.size()).toBe(CAP);
    const freed = await from("2001:db8:7:1::77", "/market/live", { "api-key": fresh });
    expect(freed.status, freed.body).toBe(200);
  });

  it("a stream open is a request of the feed's budget: with the key's 100 spent it is 429", async () => {
    const key = (await t.createKey()).key;
    const client = "198.51.100.77";
    for (let i = 0; i < 100; i++) {
      const response = await t.app.server.inject({
        url: "/predict/v9/runtime",
        headers: { "api-key": key, "x-forwarded-for": client },
      });
      expect(response.statusCode).toBe(200);
    }
    const refused = await from(client, KEY_STREAMS["prediction feed"], { "api-key": key });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      error: "API_KEY_REQUIRED_OR_RATE_LIMITED",
      docs: "https://api.mkt.test/docs/predict",
    });
  });
});

/**
 * Two app instances on one database, as two replicas behind a load balancer:
 * the change is made through A, the streams are open on B, whose caches hear
 * of it only through the database's notifications. On PostgreSQL each has
 * its own pool and listener; on PGlite both share the one in-process
 * database, whose notifications reach each instance's listener the same way.
 */
describe(`open streams on two replicas (${onPostgres ? "PostgreSQL" : "PGlite, one shared instance"})`, () => {
  it("a key revoked, a session signed out and the feed switched off through one replica end the streams on the other", async () => {
    const database = await setupDatabase();
    const a = await setupStreamsApp({ database });
    const b = await setupStreamsApp({ database }, false);
    const opened: TestStream[] = [];
    const onB = async (path: string, headers: Record<string, string>) => {
      const stream = await openStream(`${b.baseUrl}${path}`, headers);
      opened.push(stream);
      expect(stream.status, stream.body).toBe(200);
      expect((await stream.next()).event).toBe("ready");
      return stream;
    };
    try {
      const revoked = await a.t.createKey();
      const kept = (await a.t.createKey({ multiplier: 10 })).key;
      const alice = await signIn(a.t, 47, { apiKey: kept, now: NOW });
      const keyStreams = await Promise.all(
        Object.values(KEY_STREAMS).map((path) => onB(path, { "api-key": revoked.key })),
      );
      const account = await onB("/market/account/live", alice.headers);
      const feed = await onB(KEY_STREAMS["prediction feed"], { "api-key": kept });

      expect((await a.t.admin("PATCH", `/admin/keys/${revoked.id}`, { revoked: true })).statusCode).toBe(200);
      for (const stream of keyStreams) expect(await endedBy(stream)).toEqual({ reason: "key-revoked" });
      const signOut = await a.t.app.server.inject({
        method: "DELETE",
        url: "/market/account/session",
        headers: alice.headers,
      });
      expect(signOut.statusCode, signOut.body).toBe(204);
      expect(await endedBy(account)).toEqual({ reason: "session-ended" });
      expect((await a.t.admin("PUT", "/admin/predict/runtime", { enabled: false })).statusCode).toBe(200);
      expect(await endedBy(feed)).toEqual({ reason: "feed-disabled" });
    } finally {
      for (const stream of opened) stream.close();
      await a.t.close();
      await b.t.close();
      await database.close();
    }
  });
});

import { randomUUID } from "node:crypto";
import { type ReleaseActionInput, releaseActionMessage } from "@mkt/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn, signInViaProxy, testWallet } from "../../_test/accounts.ts";
import { createManualClock, setupApp, setupReplicas, type TestApp } from "../../_test/app.ts";
import { postgresOnly } from "../../_test/database.ts";
import { openStream, type TestStream } from "../../_test/sse.ts";
import { defaultPolicies } from "../../quotas/policies.ts";

const DAY = 86_400_000;

/** Signed release actions of dev wallet `index` against one app. */
function releaseActor(test: () => TestApp, apiKey: () => string, clock: { now(): number }) {
  const act = async (index: number, action: ReleaseActionInput) => {
    const fields = {
      address: testWallet(index).address.toLowerCase(),
      nonce: randomUUID(),
      expires: clock.now() + 60_000,
    };
    const signature = await testWallet(index).signMessage({
      message: releaseActionMessage({ ...fields, action }),
    });
    const response = await test().app.server.inject({
      method: "POST",
      url: "/market/releases",
      headers: { "api-key": apiKey() },
      payload: { ...fields, action, signature },
    });
    if (response.statusCode >= 300)
      throw new Error(`${action.kind}: ${response.statusCode} ${response.body}`);
    return response.json() as { id: string; revision: number };
  };
  return {
    /** A new draft (a private event: only its owner's account streams get it). */
    draft: (index: number) =>
      act(index, {
        kind: "create",
        draft: { name: "Live owls", symbol: "OWL", image: "https://img.mkt.test/owl.png", design: {} },
      }),
    announce: (index: number, releaseId: string, revision: number) =>
      act(index, { kind: "announce", releaseId, revision, launchAt: clock.now() + DAY }),
    reschedule: (index: number, releaseId: string, revision: number) =>
      act(index, { kind: "reschedule", releaseId, revision, launchAt: clock.now() + 2 * DAY + revision }),
  };
}

const isRelease = (event: { event?: string | undefined }) => event.event === "release";
const dataOf = (event: { data: string }) => JSON.parse(event.data) as Record<string, unknown>;

describe("GET /market/live on one replica", () => {
  const clock = createManualClock(Date.now());
  let test: TestApp;
  let baseUrl: string;
  let apiKey: string;
  const open: TestStream[] = [];
  const stream = async (path = "/market/live", headers: Record<string, string> = {}) => {
    const opened = await openStream(`${baseUrl}${path}`, { "api-key": apiKey, ...headers });
    open.push(opened);
    return opened;
  };
  const releases = releaseActor(
    () => test,
    () => apiKey,
    clock,
  );

  beforeAll(async () => {
    test = await setupApp({ clock, live: { heartbeatMs: 200, windowEvents: 5 } });
    ({ publicUrl: baseUrl } = await test.app.listen());
    apiKey = (await test.createKey({ multiplier: 1000 })).key;
  });
  afterEach(async () => {
    for (const opened of open.splice(0)) {
      opened.close();
      await opened.ended;
    }
    await expect.poll(() => test.app.services.live.size()).toBe(0);
  });
  afterAll(() => test.close());

  it("sends ready, then a release event after an accepted action; drafts stay private", async () => {
    const live = await stream();
    expect(live.status).toBe(200);
    expect(live.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(live.headers.get("cache-control")).toBe("no-store");
    const ready = await live.next();
    expect(ready.event).toBe("ready");
    expect(dataOf(ready)).toEqual({
      resumed: false,
      heartbeatSeconds: 0,
      windowSeconds: 600,
      windowEvents: 5,
    });
    const created = await releases.draft(1);
    const announced = await releases.announce(1, created.id, 1);
    const event = await live.next(isRelease);
    // The draft's own event (revision 1) never reached this public stream.
    expect(dataOf(event)).toEqual({ releaseId: created.id, revision: 2, status: "announced" });
    expect(announced.revision).toBe(2);
    expect(Number(event.id)).toBeGreaterThan(Number(ready.id));
  });

  it("resumes with Last-Event-ID without missing an event, in order", async () => {
    const first = await stream();
    await first.next((event) => event.event === "ready");
    const { id } = await releases.draft(2);
    await releases.announce(2, id, 1);
    const seen = await first.next(isRelease);
    first.close();
    await first.ended;
    // While disconnected: three more changes.
    await releases.reschedule(2, id, 2);
    await releases.reschedule(2, id, 3);
    await releases.reschedule(2, id, 4);
    const resumed = await stream("/market/live", { "last-event-id": seen.id! });
    expect(dataOf(await resumed.next())).toMatchObject({ resumed: true });
    const replayed = [
      await resumed.next(isRelease),
      await resumed.next(isRelease),
      await resumed.next(isRelease),
    ];
    expect(replayed.map((event) => dataOf(event)["revision"])).toEqual([3, 4, 5]);
    const ids = replayed.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(Number(seen.id));
    // And live after the replay.
    await releases.reschedule(2, id, 5);
    expect(dataOf(await resumed.next(isRelease))).toMatchObject({ releaseId: id, revision: 6 });
  });

  it("sends resync when the id is older than the log's window, or not an id it issued", async () => {
    const watcher = await stream();
    await watcher.next((event) => event.event === "ready");
    const { id } = await releases.draft(3);
    await releases.announce(3, id, 1);
    const old = await watcher.next(isRelease);
    // More events than the window (5) holds, then the periodic prune.
    for (let revision = 2; revision <= 7; revision++) await releases.reschedule(3, id, revision);
    for (let revision = 3; revision <= 8; revision++)
      expect(dataOf(await watcher.next(isRelease))["revision"]).toBe(revision);
    await test.app.services.runJobs();
    const late = await stream("/market/live", { "last-event-id": old.id! });
    await late.next((event) => event.event === "ready");
    const resync = await late.next();
    expect(resync.event).toBe("resync");
    expect(dataOf(resync)).toEqual({ reason: "expired" });
    // The stream carries on live from the resync's id.
    await releases.reschedule(3, id, 8);
    const after = await late.next(isRelease);
    expect(dataOf(after)["revision"]).toBe(9);
    expect(Number(after.id)).toBeGreaterThan(Number(resync.id));

    const unknown = await stream("/market/live", { "last-event-id": "999999999" });
    await unknown.next((event) => event.event === "ready");
    expect(dataOf(await unknown.next())).toEqual({ reason: "unknown" });
  });

  it("writes heartbeat comment lines", async () => {
    const live = await stream();
    expect(await live.nextComment()).toBe("heartbeat");
  });

  it("sends DM events only to the recipient's account stream", async () => {
    const alice = await signIn(test, 11, { apiKey, now: clock.now() });
    const bob = await signIn(test, 12, { apiKey, now: clock.now() });
    const carol = await signIn(test, 13, { apiKey, now: clock.now() });
    const accountStream = (who: SignedIn) => stream("/market/account/live", who.headers);
    const aliceLive = await accountStream(alice);
    const carolLive = await accountStream(carol);
    const publicLive = await stream();
    for (const live of [aliceLive, carolLive, publicLive])
      await live.next((event) => event.event === "ready");

    const sent = await accountAction(test, bob, { kind: "dm", to: alice.address, body: "hello alice" });
    expect(sent.statusCode, sent.body).toBe(200);
    const dm = await aliceLive.next((event) => event.event === "dm");
    expect(dataOf(dm)).toMatchObject({ from: bob.address, messageId: sent.json().result.id });
    const unread = await aliceLive.next();
    expect(unread.event).toBe("unread");
    expect(dataOf(unread)).toEqual({ messages: 1, threads: 1 });
    expect(unread.id).toBeDefined();

    // A public event after the DM: the others get it, and nothing of the DM before it.
    const { id } = await releases.draft(4);
    await releases.announce(4, id, 1);
    for (const live of [carolLive, publicLive]) {
      const next = await live.next((event) => event.event !== "position");
      expect(next.event).toBe("release");
      expect(dataOf(next)["releaseId"]).toBe(id);
    }
    expect(carolLive.events.some((event) => event.event === "dm" || event.event === "unread")).toBe(false);

    const seen = await accountAction(test, alice, { kind: "dm-seen", with: bob.address });
    expect(seen.statusCode, seen.body).toBe(200);
    await aliceLive.next((event) => event.event === "dm-seen");
    expect(dataOf(await aliceLive.next())).toEqual({ messages: 0, threads: 0 });
  });

  it("serves both streams through the first-party proxy: the cookie session's events, budgets per account or client", async () => {
    const viaProxy = async (path: string, headers: Record<string, string>) => {
      const opened = await openStream(`${baseUrl}/app/api${path}`, headers);
      open.push(opened);
      return opened;
    };
    const session = await signInViaProxy(test, 21, { now: clock.now() });

    // The website's account stream: no key, the cookie; the account's stream budget.
    const mine = await viaProxy("/account/live", session);
    expect(mine.status, mine.body).toBe(200);
    expect(mine.headers.get("ratelimit-limit")).toBe(String(defaultPolicies.market.stream.limit));
    await mine.next((event) => event.event === "ready");
    // A same-origin EventSource without a session: the proxy's anonymous stream budget.
    const anonymous = await viaProxy("/live", { "sec-fetch-site": "same-origin" });
    expect(anonymous.status, anonymous.body).toBe(200);
    expect(anonymous.headers.get("ratelimit-limit")).toBe(
      String(defaultPolicies.proxyAnonymous.stream.limit),
    );
    await anonymous.next((event) => event.event === "ready");

    const bob = await signIn(test, 22, { apiKey, now: clock.now() });
    const sent = await accountAction(test, bob, {
      kind: "dm",
      to: session["x-mkt-wallet"],
      body: "hi website",
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(dataOf(await mine.next((event) => event.event === "dm"))).toMatchObject({
      from: bob.address,
      messageId: sent.json().result.id,
    });
    expect(anonymous.events.some((event) => event.event === "dm")).toBe(false);

    // Another website's page, and a forged cookie, are refused.
    const foreign = await viaProxy("/live", { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const forged = await viaProxy("/account/live", { ...session, cookie: "mkt-session=mkts_forged" });
    expect(forged.status).toBe(401);
  });

  it("charges the stream bucket and caps open streams per key (429 in the market error body)", async () => {
    const key = (await test.createKey()).key;
    const opened: TestStream[] = [];
    for (let i = 0; i < 5; i++) {
      const live = await openStream(`${baseUrl}/market/live`, { "api-key": key });
      open.push(live);
      opened.push(live);
      expect(live.status).toBe(200);
      expect(live.headers.get("ratelimit-limit")).toBe("10");
      expect(live.headers.get("ratelimit-remaining")).toBe(String(9 - i));
      await live.next();
    }
    const refused = await openStream(`${baseUrl}/market/live`, { "api-key": key });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      error:
        "at most 5 open streams per API key (through the website proxy: per account, or per client network); close one first",
    });
    expect(refused.headers.get("retry-after")).toBe("5");
    // Closing one frees a place.
    opened[0]!.close();
    await opened[0]!.ended;
    await expect.poll(() => test.app.services.live.size()).toBe(4);
    const again = await openStream(`${baseUrl}/market/live`, { "api-key": key });
    open.push(again);
    expect(again.status).toBe(200);
  });

  it("does not hold an in-flight admission slot while open", async () => {
    for (let i = 0; i < 3; i++) await (await stream()).next();
    expect(test.app.services.live.size()).toBe(3);
    const metrics = await test.app.services.metrics.registry.getSingleMetricAsString(
      "mkt_http_in_flight_requests",
    );
    expect(metrics).toMatch(/mkt_http_in_flight_requests 0$/m);
  });

  it("refuses a malformed owner and an account stream without a session", async () => {
    const bad = await openStream(`${baseUrl}/market/live?owner=0x12`, { "api-key": apiKey });
    expect(bad.status).toBe(400);
    const anonymous = await openStream(`${baseUrl}/market/account/live`, { "api-key": apiKey });
    expect(anonymous.status).toBe(401);
  });
});

describe("shutdown", () => {
  it("ends every stream and closes without hanging", async () => {
    const test = await setupApp();
    const { publicUrl } = await test.app.listen();
    const key = (await test.createKey()).key;
    const live = await openStream(`${publicUrl}/market/live`, { "api-key": key });
    await live.next();
    await test.close();
    await live.ended;
    expect(live.events.map((event) => event.event)).toEqual(["ready"]);
  });
});

postgresOnly.describe("two replicas", () => {
  it("deliver the same event, with the same id, to clients of both", async () => {
    const clock = createManualClock(Date.now());
    const replicas = await setupReplicas({ clock });
    try {
      const urls = [(await replicas.a.app.listen()).publicUrl, (await replicas.b.app.listen()).publicUrl];
      const key = (await replicas.a.createKey({ multiplier: 100 })).key;
      const streams = await Promise.all(
        urls.map((url) => openStream(`${url}/market/live`, { "api-key": key })),
      );
      for (const live of streams) await live.next();
      const releases = releaseActor(
        () => replicas.b,
        () => key,
        clock,
      );
      const { id } = await releases.draft(5);
      await releases.announce(5, id, 1);
      const [onA, onB] = await Promise.all(streams.map((live) => live.next(isRelease)));
      expect(dataOf(onA!)).toEqual({ releaseId: id, revision: 2, status: "announced" });
      expect(onA!.data).toBe(onB!.data);
      expect(onA!.id).toBe(onB!.id);
      for (const live of streams) live.close();
    } finally {
      await replicas.close();
    }
  });
});

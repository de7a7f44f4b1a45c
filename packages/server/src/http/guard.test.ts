import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../_test/app.ts";
import { setupDatabase, type TestDatabase } from "../_test/database.ts";
import { createIdempotency } from "../idempotency/index.ts";
import { createKeyService, type KeyService } from "../keys/service.ts";
import { createDependencyLog, createLogger } from "../logging/index.ts";
import { createMetrics } from "../metrics/index.ts";
import { createCursorSigner } from "../paging/index.ts";
import { createSlidingWindowLimiter } from "../quotas/limiter.ts";
import { defaultPolicies } from "../quotas/policies.ts";
import { createCorsPolicy } from "./cors.ts";
import { createGuard } from "./guard.ts";
import { createPipeline } from "./pipeline.ts";
import { createReadCache, createRevisions } from "./read-cache.ts";
import { type Access, cache, defineRoute, type RouteDefinition } from "./route.ts";
import { classicSurface, marketSurface, predictSurface } from "./surfaces.ts";

const check = (t: TestApp, key: string | undefined, bucket = "read", ip = "10.2.0.1") =>
  t.app.server.inject({
    url: `/market/api-key?bucket=${bucket}`,
    headers: key ? { "api-key": key } : {},
    remoteAddress: ip,
  });

describe("market quotas through GET /market/api-key", () => {
  let t: TestApp;
  const clock = createManualClock();
  beforeAll(async () => {
    t = await setupApp({ clock });
  });
  afterAll(() => t.close());

  it.each([
    ["read", 100],
    ["write", 25],
    ["stream", 10],
  ])("the %s bucket admits %i per minute, then 429 with the budget headers", async (bucket, limit) => {
    const key = await t.createKey();
    for (let i = 1; i <= limit; i++) {
      const response = await check(t, key.key, bucket);
      expect(response.statusCode).toBe(204);
      expect(response.headers["ratelimit-limit"]).toBe(String(limit));
      expect(response.headers["ratelimit-remaining"]).toBe(String(limit - i));
    }
    const refused = await check(t, key.key, bucket);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: "API key budget exhausted for this bucket" });
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refused.headers["ratelimit-remaining"]).toBe("0");
    // The buckets are separate: spending one leaves the others whole.
    const other = bucket === "read" ? "write" : "read";
    expect((await check(t, key.key, other)).statusCode).toBe(204);
  });

  it("multiplies every budget by the key's multiplier", async () => {
    const key = await t.createKey({ multiplier: 3 });
    let admitted = 0;
    for (let i = 0; i < 80; i++) if ((await check(t, key.key, "write")).statusCode === 204) admitted += 1;
    expect(admitted).toBe(75);
  });

  it("frees the budget as the window slides", async () => {
    const key = await t.createKey();
    for (let i = 0; i < 10; i++) await check(t, key.key, "stream");
    const refused = await check(t, key.key, "stream");
    expect(refused.statusCode).toBe(429);
    clock.advance(Number(refused.headers["retry-after"]) * 1000);
    expect((await check(t, key.key, "stream")).statusCode).toBe(204);
  });

  it("never overspends under a burst of concurrent requests", async () => {
    const key = await t.createKey({ multiplier: 2 });
    const responses = await Promise.all(Array.from({ length: 300 }, () => check(t, key.key, "read")));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(200);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
  });

  it("answers 401 {error} for a missing, malformed or unknown key", async () => {
    const missing = await check(t, undefined, "read", "10.2.1.1");
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ error: "API key missing: send it in the API-KEY header" });
    for (const bad of ["nope", "mkt_short", `mkt_${"B".repeat(43)}`]) {
      const response = await check(t, bad, "read", "10.2.1.1");
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: "API key malformed or invalid" });
    }
  });

  it("answers 400 {error} for a missing or unknown bucket", async () => {
    const key = await t.createKey();
    for (const url of ["/market/api-key", "/market/api-key?bucket=admin", "/market/api-key?bucket="]) {
      const response = await t.app.server.inject({ url, headers: { "api-key": key.key } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: "bucket is required and must be one of read, write, stream" });
    }
  });

  it("refuses every key from a client that used up its failed attempts, with 429 and Retry-After", async () => {
    const good = await t.createKey();
    const ip = "10.2.9.9";
    for (let i = 0; i < 20; i++) {
      expect((await check(t, `mkt_${String(i).padStart(43, "x")}`, "read", ip)).statusCode).toBe(401);
    }
    const locked = await check(t, good.key, "read", ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: "too many failed API key attempts from this client" });
    expect(Number(locked.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // Other clients keep working with the same key.
    expect((await check(t, good.key, "read", "10.2.9.10")).statusCode).toBe(204);
    clock.advance(61_000);
    expect((await check(t, good.key, "read", ip)).statusCode).toBe(204);
  });

  it("answers 429 when the replica is at its in-flight cap", async () => {
    const capped = await setupApp({ env: { MKT_MAX_IN_FLIGHT: "1" } });
    try {
      const key = await capped.createKey();
      // The first request waits on the uncached key lookup while the second arrives.
      const [first, second] = await Promise.all([check(capped, key.key), check(capped, key.key)]);
      expect(first.statusCode).toBe(204);
      expect(second.statusCode).toBe(429);
      expect(second.json()).toEqual({ error: "the service is at capacity; retry shortly" });
      expect(second.headers["retry-after"]).toBe("1");
      // Refused before the route's own Cache-Control is set, and still never cacheable.
      expect(second.headers["cache-control"]).toBe("no-store");
      expect(second.headers["x-content-type-options"]).toBe("nosniff");
      expect((await check(capped, key.key)).statusCode).toBe(204);
    } finally {
      await capped.close();
    }
  });
});

describe("prediction feed quota through GET /predict/v9/runtime (never gated)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());
  const health = (key: string | undefined, ip = "10.3.0.1") =>
    t.app.server.inject({
      url: "/predict/v9/runtime",
      headers: key ? { "api-key": key } : {},
      remoteAddress: ip,
    });

  it("needs the key even for the runtime record, and a missing key, an invalid key and a spent budget give one identical 429", async () => {
    const key = await t.createKey();
    const ok = await health(key.key);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ enabled: false, publicEnabled: false });
    for (let i = 0; i < 99; i++) await health(key.key);
    const exhausted = await health(key.key);
    const missing = await health(undefined);
    const invalid = await health(`mkt_${"Z".repeat(43)}`);
    const malformed = await health("whatever");
    const strip = (r: typeof exhausted) => {
      const { date: _d, "x-request-id": _id, ...headers } = r.headers;
      return { status: r.statusCode, body: r.body, headers };
    };
    expect(strip(exhausted)).toEqual(strip(missing));
    expect(strip(exhausted)).toEqual(strip(invalid));
    expect(strip(exhausted)).toEqual(strip(malformed));
    expect(exhausted.statusCode).toBe(429);
    expect(exhausted.json()).toEqual({
      error: "API_KEY_REQUIRED_OR_RATE_LIMITED",
      docs: "https://api.mkt.test/docs/predict",
    });
    expect(exhausted.headers["retry-after"]).toBe("60");
    expect(exhausted.headers["ratelimit-limit"]).toBe("100");
  });

  it("counts 100 per minute per client IP, times the multiplier", async () => {
    const key = await t.createKey({ multiplier: 2 });
    let admitted = 0;
    for (let i = 0; i < 205; i++) if ((await health(key.key, "10.3.1.1")).statusCode === 200) admitted += 1;
    expect(admitted).toBe(200);
    expect((await health(key.key, "10.3.1.2")).statusCode).toBe(200);
  });

  it("takes the docs link from PUBLIC_URL, never from Host", async () => {
    const response = await t.app.server.inject({
      url: "/predict/v9/health",
      headers: { host: "evil.example" },
    });
    expect(response.json()).toEqual({
      error: "API_KEY_REQUIRED_OR_RATE_LIMITED",
      docs: "https://api.mkt.test/docs/predict",
    });
  });
});

describe("guard rules for routes that come with later issues", () => {
  let database: TestDatabase;
  let keys: KeyService;
  const clock = createManualClock();
  const build = async (publicReads: "key" | "open"): Promise<FastifyInstance> => {
    const app = Fastify();
    app.decorateRequest("apiKey", undefined);
    app.decorateRequest("idempotency", undefined);
    app.decorateRequest("admitted", false);
    app.decorateRequest("readCacheSlot", undefined);
    const logger = createLogger({ level: "silent" });
    const pipeline = createPipeline({
      logger,
      dependencies: createDependencyLog({ logger }),
      metrics: createMetrics({
        poolStats: () => database.db.poolStats(),
        keyCacheSize: () => 0,
        inFlight: () => 0,
      }),
      cors: createCorsPolicy([]),
      guard: createGuard({
        keys,
        limiter: createSlidingWindowLimiter({ clock }),
        policies: defaultPolicies,
        publicReads,
      }),
      idempotency: createIdempotency({ db: database.db, clock }),
      readCache: createReadCache({ clock }),
      revisions: createRevisions(),
      maxInFlight: 100,
      publicReads,
    });
    const fixture = (path: string, access: Access): RouteDefinition => ({
      ...defineRoute({
        method: "GET",
        path,
        operationId: path,
        summary: path,
        tags: [],
        responses: { 200: { description: "ok" } },
        handler: (request) => ({ key: request.apiKey?.id ?? null }),
      }),
      access,
      cache: cache.noStore,
    });
    pipeline.mount(app, classicSurface(), [
      fixture("/read", { kind: "classic", class: "read", key: true }),
      fixture("/search", { kind: "classic", class: "search", key: true }),
      fixture("/metadata", { kind: "classic", class: "metadata", key: false }),
      fixture("/report", { kind: "classic", class: "report", key: true }),
    ]);
    pipeline.mount(app, marketSurface(), [
      fixture("/runtime", { kind: "market", bucket: "read", publicRead: true }),
    ]);
    pipeline.mount(app, predictSurface("https://x"), [
      fixture("/markets", { kind: "predict" }),
      fixture("/stream", { kind: "predict", class: "stream" }),
    ]);
    await app.ready();
    return app;
  };
  let app: FastifyInstance;
  let open: FastifyInstance;
  let key: string;
  let keyId: string;
  beforeAll(async () => {
    database = await setupDatabase();
    keys = createKeyService({ db: database.db, clock, cursors: createCursorSigner(Buffer.alloc(32, 3)) });
    const created = await keys.create({ description: "fixture", email: "a@example.com" });
    key = created.key;
    keyId = created.id;
    app = await build("key");
    open = await build("open");
  });
  afterAll(async () => {
    await app.close();
    await open.close();
    await database.close();
  });

  const get = (server: FastifyInstance, url: string, apiKey?: string, ip = "10.4.0.1") =>
    server.inject({ url, headers: apiKey ? { "api-key": apiKey } : {}, remoteAddress: ip });

  it.each([
    ["/classic/read", 100],
    ["/classic/search", 25],
    ["/classic/report", 10],
  ])(
    "classic %s admits %i per client IP, then the same 429 as a missing or invalid key",
    async (url, limit) => {
      const ip = `10.4.${limit}.1`;
      for (let i = 0; i < limit; i++) expect((await get(app, url, key, ip)).statusCode).toBe(200);
      const exhausted = await get(app, url, key, ip);
      const missing = await get(app, url, undefined, ip);
      const invalid = await get(app, url, `mkt_${"Q".repeat(43)}`, ip);
      const strip = (r: typeof exhausted) => {
        // Request ids differ by design; everything else is the same.
        const { date: _d, "x-request-id": _id, ...headers } = r.headers;
        return { status: r.statusCode, body: r.body, headers };
      };
      expect(exhausted.statusCode).toBe(429);
      expect(exhausted.json()).toEqual({
        success: false,
        message: "API key missing or invalid, or rate limit exceeded",
        error: "RATE_LIMITED",
      });
      expect(strip(missing)).toEqual(strip(exhausted));
      expect(strip(invalid)).toEqual(strip(exhausted));
      // Another client IP has its own budget.
      expect((await get(app, url, key, "10.4.200.1")).statusCode).toBe(200);
    },
  );

  it("a prediction-feed stream open is a request of the feed's budget and of the stream budget", async () => {
    const strip = (r: Awaited<ReturnType<typeof get>>) => {
      const { date: _d, "x-request-id": _id, ...headers } = r.headers;
      return { status: r.statusCode, body: r.body, headers };
    };
    // The key's 100 spent on reads: the stream open is the same 429 as without a key.
    const spender = "10.4.90.1";
    for (let i = 0; i < 100; i++)
      expect((await get(app, "/predict/v9/markets", key, spender)).statusCode).toBe(200);
    const spent = await get(app, "/predict/v9/stream", key, spender);
    expect(spent.statusCode).toBe(429);
    expect(spent.json()).toEqual({
      error: "API_KEY_REQUIRED_OR_RATE_LIMITED",
      docs: "https://x/docs/predict",
    });
    expect(strip(spent)).toEqual(strip(await get(app, "/predict/v9/stream", undefined, spender)));

    // Another client: 10 opens spend the stream budget; all 11 attempts count in the feed's 100.
    const streamer = "10.4.90.2";
    for (let i = 0; i < 10; i++)
      expect((await get(app, "/predict/v9/stream", key, streamer)).statusCode).toBe(200);
    expect((await get(app, "/predict/v9/stream", key, streamer)).statusCode).toBe(429);
    let reads = 0;
    for (let i = 0; i < 100; i++)
      if ((await get(app, "/predict/v9/markets", key, streamer)).statusCode === 200) reads += 1;
    expect(reads).toBe(89);
  });

  it("classic public metadata needs no key and admits 2,000 per minute per IP", async () => {
    let admitted = 0;
    for (let i = 0; i < 2_001; i++)
      if ((await get(app, "/classic/metadata", undefined, "10.4.7.7")).statusCode === 200) admitted += 1;
    expect(admitted).toBe(2_000);
  });

  it("PUBLIC_READS=key requires the key on public reads; open serves them keylessly, budgeted per IP", async () => {
    const keyed = await get(app, "/market/runtime");
    expect(keyed.statusCode).toBe(401);
    const keyless = await get(open, "/market/runtime", undefined, "10.4.8.8");
    expect(keyless.statusCode).toBe(200);
    expect(keyless.json()).toEqual({ key: null });
    expect(keyless.headers["ratelimit-limit"]).toBe("100");
    // A key, when sent, is still checked and charged to the key.
    const withKey = await get(open, "/market/runtime", key);
    expect(withKey.json()).toEqual({ key: keyId });
    expect((await get(open, "/market/runtime", `mkt_${"W".repeat(43)}`)).statusCode).toBe(401);
  });
});

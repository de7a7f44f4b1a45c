import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, setupReplicas, type TestApp } from "../_test/app.ts";
import { MARKET_INDEXER_SOURCE } from "../market/routes.ts";

// The pipeline over real HTTP, on one keep-alive connection: what a
// connection memoises (the presented key's hash) must never leak between
// keys, clients or revocations.
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The local port of the connection it came over: equal ports, same connection. */
  localPort: number | undefined;
}

function client(baseUrl: () => string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${baseUrl()}${path}`, { agent, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            localPort: response.socket?.localPort,
          }),
        );
      });
      req.on("error", reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

describe.each([
  ["without TRUST_PROXY", {}],
  ["with TRUST_PROXY", { TRUST_PROXY: "127.0.0.1/8,::1" }],
])("the request pipeline over one keep-alive connection, %s", (_name, env: Record<string, string>) => {
  let t: TestApp;
  let baseUrl = "";
  const http = client(() => baseUrl);
  const proxied = "TRUST_PROXY" in env;
  /** Each test speaks for its own client address, forwarded by the trusted proxy when there is one. */
  const as = (ip: string, headers: Record<string, string> = {}) =>
    proxied ? { ...headers, "x-forwarded-for": ip } : headers;

  beforeAll(async () => {
    t = await setupApp({ env: { ALLOWED_ORIGINS: "https://app.mkt.test", ...env } });
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(async () => {
    http.close();
    await t.close();
  });

  it("charges two keys alternating on one connection to their own budgets", async () => {
    const a = await t.createKey();
    const b = await t.createKey();
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) {
      const key = i % 2 === 0 ? a : b;
      answers.push(
        await http.get("/market/api-key?bucket=stream", as("198.51.100.1", { "api-key": key.key })),
      );
    }
    expect(new Set(answers.map((answer) => answer.localPort)).size).toBe(1);
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204, 204, 204]);
    // Each key's own remaining budget goes 9, 8, 7: a shared memo would have charged one key six times.
    expect(answers.map((answer) => answer.headers["ratelimit-remaining"])).toEqual([
      "9",
      "9",
      "8",
      "8",
      "7",
      "7",
    ]);
  });

  it("refuses a key revoked by its holder on the very next request of the same connection", async () => {
    const key = await t.createKey();
    const headers = as("198.51.100.2", { "api-key": key.key });
    expect((await http.get("/market/api-key?bucket=read", headers)).status).toBe(204);
    const revoked = await t.app.server.inject({
      method: "DELETE",
      url: "/keys/current",
      headers: { "api-key": key.key },
    });
    expect(revoked.statusCode).toBe(204);
    const after = await http.get("/market/api-key?bucket=read", headers);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body)).toEqual({ error: "API key malformed or invalid" });
  });

  it("budgets per-IP surfaces by the client address the pipeline resolved", async () => {
    const key = await t.createKey();
    const first = await http.get("/predict/v9/runtime", as("198.51.100.5", { "api-key": key.key }));
    expect(first.status).toBe(200);
    expect(first.headers["ratelimit-remaining"]).toBe("99");
    const second = await http.get("/predict/v9/runtime", as("198.51.100.6", { "api-key": key.key }));
    // Through the trusted proxy the two are different clients; without it both are the socket's address.
    expect(second.headers["ratelimit-remaining"]).toBe(proxied ? "99" : "98");
    // Taking turns on the one connection, each stays its own client (what a connection remembers
    // of the forwarded address it last carried never answers for another address).
    const third = await http.get("/predict/v9/runtime", as("198.51.100.5", { "api-key": key.key }));
    const fourth = await http.get("/predict/v9/runtime", as("198.51.100.6", { "api-key": key.key }));
    expect([third, fourth].map((answer) => answer.headers["ratelimit-remaining"])).toEqual(
      proxied ? ["98", "98"] : ["97", "96"],
    );
    // Another key from the same client, on the same connection: its own budget.
    const other = await t.createKey();
    const otherFirst = await http.get("/predict/v9/runtime", as("198.51.100.5", { "api-key": other.key }));
    const fifth = await http.get("/predict/v9/runtime", as("198.51.100.5", { "api-key": key.key }));
    expect([otherFirst, fifth].map((answer) => answer.headers["ratelimit-remaining"])).toEqual(
      proxied ? ["99", "97"] : ["99", "95"],
    );
    expect(
      new Set([first, second, third, fourth, otherFirst, fifth].map((answer) => answer.localPort)).size,
    ).toBe(1);
  });

  it("sends the same headers on every route: request id, CORS, budget and Cache-Control from the route table", async () => {
    const key = await t.createKey();
    const origin = "https://app.mkt.test";
    const check = await http.get(
      "/market/api-key?bucket=read",
      as("198.51.100.7", { "api-key": key.key, origin }),
    );
    const runtime = await http.get("/market/runtime", as("198.51.100.7", { "api-key": key.key, origin }));
    for (const answer of [check, runtime]) {
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
      expect(answer.headers["access-control-allow-origin"]).toBe(origin);
      expect(answer.headers["access-control-allow-credentials"]).toBe("true");
      expect(answer.headers["ratelimit-limit"]).toBe("100");
    }
    expect(check.headers["cache-control"]).toBe("no-store");
    expect(runtime.headers["cache-control"]).toBe("private, max-age=60");
    expect(runtime.headers["etag"]).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
  });

  it("counts every answer in the request metrics by route and status", async () => {
    const key = await t.createKey();
    const before = await t.app.services.metrics.registry.getSingleMetricAsString("mkt_http_requests_total");
    const count = (text: string) =>
      Number(
        /mkt_http_requests_total\{surface="market",route="\/market\/api-key",method="GET",status="204"\} (\d+)/.exec(
          text,
        )?.[1] ?? 0,
      );
    for (let i = 0; i < 3; i++)
      await http.get("/market/api-key?bucket=read", as("198.51.100.8", { "api-key": key.key }));
    const after = await t.app.services.metrics.registry.getSingleMetricAsString("mkt_http_requests_total");
    expect(count(after) - count(before)).toBe(3);
  });

  // Last: without a proxy every request here comes from 127.0.0.1, which this locks out.
  it("answers an unknown key of the right form 401, and counts it as a failed attempt of the client", async () => {
    const unknown = `mkt_${"A".repeat(43)}`;
    const answer = await http.get("/market/api-key?bucket=read", as("198.51.100.3", { "api-key": unknown }));
    expect(answer.status).toBe(401);
    // 20 failed attempts per minute from one client, then every keyed request from it is refused.
    for (let i = 0; i < 19; i++)
      await http.get("/market/api-key?bucket=read", as("198.51.100.3", { "api-key": unknown }));
    const key = await t.createKey();
    const locked = await http.get("/market/api-key?bucket=read", as("198.51.100.3", { "api-key": key.key }));
    expect(locked.status).toBe(429);
    expect(JSON.parse(locked.body)).toEqual({ error: "too many failed API key attempts from this client" });
    // Another client on the same connection (through the proxy) or another connection is not locked out.
    const other = proxied
      ? await http.get("/market/api-key?bucket=read", as("198.51.100.4", { "api-key": key.key }))
      : await t.app.server
          .inject({
            url: "/market/api-key?bucket=read",
            headers: { "api-key": key.key },
            remoteAddress: "198.51.100.4",
          })
          .then((r) => ({ status: r.statusCode }));
    expect(other.status).toBe(204);
  });
});

describe("the read cache", () => {
  let replicas: Awaited<ReturnType<typeof setupReplicas>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    replicas = await setupReplicas();
    ({ a, b } = replicas);
  });
  afterAll(() => replicas.close());

  const runtime = (t: TestApp, key: string, headers: Record<string, string> = {}) =>
    t.app.server.inject({ url: "/market/runtime", headers: { "api-key": key, ...headers } });

  it("answers a hit with the same body and ETag, 304 on If-None-Match, and charges the caller every time", async () => {
    const key = await a.createKey();
    const first = await runtime(a, key.key);
    const second = await runtime(a, key.key);
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers["etag"]).toBe(first.headers["etag"]);
    const notModified = await runtime(a, key.key, { "if-none-match": String(first.headers["etag"]) });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe("");
    expect(notModified.headers["etag"]).toBe(first.headers["etag"]);
    expect(notModified.headers["cache-control"]).toBe("private, max-age=60");
    expect([first, second, notModified].map((r) => r.headers["ratelimit-remaining"])).toEqual([
      "99",
      "98",
      "97",
    ]);
    // A stale validator gets the body.
    const changed = await runtime(a, key.key, { "if-none-match": '"not-the-tag"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toBe(first.body);
  });

  it("serves a hit without building the body again, and rebuilds once its source moves on another replica", async () => {
    const key = await a.createKey();
    await runtime(b, key.key);
    const hits = b.app.services.readCache.stats().hits;
    const misses = b.app.services.readCache.stats().misses;
    await runtime(b, key.key);
    expect(b.app.services.readCache.stats()).toMatchObject({ hits: hits + 1, misses });
    // Replica a announces a new revision of the runtime catalog (the market indexer scope); replica b drops its copy.
    await a.app.services.revisions.bump(MARKET_INDEXER_SOURCE);
    await vi.waitFor(async () => {
      await runtime(b, key.key);
      expect(b.app.services.readCache.stats().misses).toBeGreaterThan(misses);
    });
  });

  it("builds a body once when many requests miss it together; the others answer from the cache", async () => {
    const key = await a.createKey({ multiplier: 10 });
    a.app.services.readCache.clear();
    const before = a.app.services.readCache.stats().stores;
    const answers = await Promise.all(Array.from({ length: 20 }, () => runtime(a, key.key)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.headers["etag"])).size).toBe(1);
    expect(a.app.services.readCache.stats().stores).toBe(before + 1);
  });

  it("keeps a refusal out of the cache: a missing key is 401 even after a hit", async () => {
    const key = await a.createKey();
    await runtime(a, key.key);
    const refused = await a.app.server.inject({ url: "/market/runtime" });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["etag"]).toBeUndefined();
  });
});

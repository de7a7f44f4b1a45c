import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { CREDENTIAL_HEADERS, EXPOSED_HEADERS } from "./cors.ts";

/** CORS-safelisted response headers: a page reads them without `Access-Control-Expose-Headers`. */
const SAFELISTED = new Set([
  "cache-control",
  "content-language",
  "content-length",
  "content-type",
  "expires",
  "last-modified",
  "pragma",
]);

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string } | { $ref: string }>;
  responses: Record<string, { headers?: Record<string, unknown> }>;
}

describe("surface error bodies", () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await setupApp();
    key = (await t.createKey()).key;
  });
  afterAll(() => t.close());

  it("market answers {error} for 404 and 400", async () => {
    const missing = await t.app.server.inject({ url: "/market/nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "no route GET /market/nope" });
    const bad = await t.app.server.inject({ url: "/market/api-key?bucket=x", headers: { "api-key": key } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json() as object)).toEqual(["error"]);
  });

  it("classic answers {success:false, message, error} for 404", async () => {
    const missing = await t.app.server.inject({ url: "/classic/games/nope?x=1" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      success: false,
      message: "no route GET /classic/games/nope",
      error: "NOT_FOUND",
    });
  });

  it("predict answers {error, message} for 404 and {error, docs} for 429", async () => {
    const missing = await t.app.server.inject({ url: "/predict/v9/nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "NOT_FOUND", message: "no route GET /predict/v9/nope" });
    // An unknown path under another generation is not the V9 surface.
    const other = await t.app.server.inject({ url: "/predict/v8/markets" });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: "no route GET /predict/v8/markets" });
  });

  it("platform routes answer {error}", async () => {
    const missing = await t.app.server.inject({ url: "/nothing-here" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "no route GET /nothing-here" });
    const tooLarge = await t.app.server.inject({
      method: "POST",
      url: "/keys",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ description: "x".repeat(1_100_000), email: "a@example.com" }),
      remoteAddress: "10.5.0.1",
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ error: "the request body is too large" });
  });
});

describe("request ids, CORS and client addresses", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp({ env: { ALLOWED_ORIGINS: "https://mkt.example,https://www.mkt.example" } });
  });
  afterAll(() => t.close());

  it("echoes a valid X-Request-Id and generates one otherwise", async () => {
    const given = await t.app.server.inject({ url: "/healthz", headers: { "x-request-id": "trace-123" } });
    expect(given.headers["x-request-id"]).toBe("trace-123");
    const invalid = await t.app.server.inject({
      url: "/healthz",
      headers: { "x-request-id": "bad id <script>" },
    });
    expect(invalid.headers["x-request-id"]).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    const another = await t.app.server.inject({ url: "/healthz" });
    expect(another.headers["x-request-id"]).not.toBe(invalid.headers["x-request-id"]);
    const errors = await t.app.server.inject({ url: "/market/nope" });
    expect(errors.headers["x-request-id"]).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
  });

  it("answers preflight without a key, with credentials only for first-party origins", async () => {
    const firstParty = await t.app.server.inject({
      method: "OPTIONS",
      url: "/predict/v9/health",
      headers: {
        origin: "https://mkt.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "api-key",
      },
    });
    expect(firstParty.statusCode).toBe(204);
    expect(firstParty.headers["access-control-allow-origin"]).toBe("https://mkt.example");
    expect(firstParty.headers["access-control-allow-credentials"]).toBe("true");
    expect(String(firstParty.headers["access-control-allow-headers"])).toContain("API-KEY");
    const thirdParty = await t.app.server.inject({
      method: "OPTIONS",
      url: "/market/api-key",
      headers: { origin: "https://docs.example", "access-control-request-method": "GET" },
    });
    expect(thirdParty.statusCode).toBe(204);
    expect(thirdParty.headers["access-control-allow-origin"]).toBe("*");
    expect(thirdParty.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("preflight allows every request header a route reads, and responses expose every header a client needs", async () => {
    // Headers only the browser sets (a page cannot, so a preflight never asks for them).
    const BROWSER_SET = /^(origin|sec-.*)$/i;
    // Every header a route of the three documents declares or documents, besides the credentials.
    const requestHeaders = new Set<string>(CREDENTIAL_HEADERS.map((name) => name.toLowerCase()));
    const responseHeaders = new Set<string>(EXPOSED_HEADERS.map((name) => name.toLowerCase()));
    for (const name of ["market", "classic", "predict"]) {
      const doc = (await t.app.server.inject({ url: `/openapi/${name}.json` })).json() as {
        paths: Record<string, Record<string, OpenApiOperation>>;
        components: { parameters: Record<string, { name: string; in: string }> };
      };
      for (const parameter of Object.values(doc.components.parameters))
        if (parameter.in === "header") requestHeaders.add(parameter.name.toLowerCase());
      for (const operation of Object.values(doc.paths).flatMap((methods) => Object.values(methods))) {
        for (const parameter of operation.parameters ?? [])
          if ("in" in parameter && parameter.in === "header" && !BROWSER_SET.test(parameter.name))
            requestHeaders.add(parameter.name.toLowerCase());
        for (const response of Object.values(operation.responses))
          for (const header of Object.keys(response.headers ?? {})) responseHeaders.add(header.toLowerCase());
      }
    }
    // The headers the issue names, so the derived lists can never drop one.
    for (const name of ["last-event-id", "if-none-match", "idempotency-key", "x-bypass-image-proxy"])
      expect(requestHeaders).toContain(name);
    for (const name of ["etag", "retry-after", "ratelimit-reset", "x-request-id", "idempotent-replayed"])
      expect(responseHeaders).toContain(name);

    for (const origin of ["https://mkt.example", "https://docs.example"]) {
      const preflight = await t.app.server.inject({
        method: "OPTIONS",
        url: "/market/live",
        headers: {
          origin,
          "access-control-request-method": "GET",
          "access-control-request-headers": "api-key,last-event-id",
        },
      });
      expect(preflight.statusCode).toBe(204);
      const allowed = String(preflight.headers["access-control-allow-headers"])
        .split(",")
        .map((name) => name.trim().toLowerCase());
      expect([...requestHeaders].filter((name) => !allowed.includes(name))).toEqual([]);

      const answer = await t.app.server.inject({ url: "/healthz", headers: { origin } });
      const exposed = String(answer.headers["access-control-expose-headers"])
        .split(",")
        .map((name) => name.trim().toLowerCase());
      expect([...responseHeaders].filter((name) => !exposed.includes(name) && !SAFELISTED.has(name))).toEqual(
        [],
      );
    }
  });

  it("lets only first-party origins use the website proxy", async () => {
    const thirdParty = await t.app.server.inject({
      method: "OPTIONS",
      url: "/app/api/account/session",
      headers: { origin: "https://docs.example", "access-control-request-method": "POST" },
    });
    expect(thirdParty.headers["access-control-allow-origin"]).toBeUndefined();
    const firstParty = await t.app.server.inject({
      method: "OPTIONS",
      url: "/app/api/account/session",
      headers: { origin: "https://www.mkt.example", "access-control-request-method": "POST" },
    });
    expect(firstParty.headers["access-control-allow-origin"]).toBe("https://www.mkt.example");
    expect(firstParty.headers["access-control-allow-credentials"]).toBe("true");
  });

  it("takes the client IP from the socket and ignores X-Forwarded-For unless TRUST_PROXY says so", async () => {
    // Key creation is budgeted per client IP: a spoofed header must not buy a fresh budget.
    const create = (app: TestApp, forwarded: string) =>
      app.app.server.inject({
        method: "POST",
        url: "/keys",
        remoteAddress: "10.6.0.1",
        headers: { "x-forwarded-for": forwarded },
        payload: { description: "proxy test", email: "a@example.com" },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await create(t, `192.0.2.${i}`)).statusCode);
    expect(statuses.at(-1)).toBe(429);

    const proxied = await setupApp({ env: { TRUST_PROXY: "1" } });
    try {
      const behindProxy: number[] = [];
      for (let i = 0; i < 11; i++) behindProxy.push((await create(proxied, `192.0.2.${i}`)).statusCode);
      expect(behindProxy.every((s) => s === 201)).toBe(true);
    } finally {
      await proxied.close();
    }
  });
});

describe("health, readiness and documentation", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());

  it("reports liveness and readiness", async () => {
    expect((await t.app.server.inject({ url: "/healthz" })).json()).toEqual({ status: "ok" });
    const ready = await t.app.server.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });
  });

  it.each([
    ["market", "2026-09-10", "/market/api-key"],
    ["classic", "classic-1", "/keys"],
    ["predict", "v9", "/predict/v9/health"],
  ])("serves the %s OpenAPI 3.1 document with paths as served", async (name, version, path) => {
    const response = await t.app.server.inject({ url: `/openapi/${name}.json` });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as {
      openapi: string;
      info: { version: string; description: string };
      paths: Record<string, unknown>;
      servers: Array<{ url: string }>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(version);
    expect(doc.paths).toHaveProperty(path);
    expect(doc.paths).toHaveProperty("/keys");
    expect(doc.servers[0]?.url).toBe("https://api.mkt.test");
    expect(doc.info.description).toContain("sliding windows");
  });

  it("documents the market key check with its bucket parameter, headers and errors", async () => {
    const doc = (await t.app.server.inject({ url: "/openapi/market.json" })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: Array<{ name: string; in: string; required: boolean; schema: { enum?: string[] } }>;
            responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
          }
        >
      >;
    };
    const op = doc.paths["/market/api-key"]?.["get"];
    expect(op?.parameters).toContainEqual(
      expect.objectContaining({
        name: "bucket",
        in: "query",
        required: true,
        schema: expect.objectContaining({ enum: ["read", "write", "stream"] }),
      }),
    );
    expect(Object.keys(op?.responses ?? {})).toEqual([
      "204",
      "400",
      "401",
      "408",
      "414",
      "429",
      "431",
      "503",
    ]);
    expect(op?.responses["204"]?.headers).toHaveProperty("RateLimit-Limit");
    expect(op?.responses["429"]?.headers).toHaveProperty("Retry-After");
    expect(op?.responses["401"]?.content).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/MarketError" } },
    });
  });

  it("renders the docs pages and the index without a key", async () => {
    const index = await t.app.server.inject({ url: "/docs" });
    expect(index.statusCode).toBe(200);
    expect(index.headers["content-type"]).toContain("text/html");
    for (const name of ["market", "classic", "predict"]) expect(index.body).toContain(`/docs/${name}`);
    const page = await t.app.server.inject({ url: "/docs/predict" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-url="/openapi/predict.json"');
  });
});

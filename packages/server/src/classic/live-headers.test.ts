import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../_test/app.ts";
import { signInClassic } from "../_test/classic.ts";
import { defaultPolicies, type QuotaPolicies } from "../quotas/policies.ts";

/**
 * The live Classic service's budget headers (`x-ratelimit-limit`, `-remaining`,
 * `-reset` in Unix seconds) on every classic answer the guard charges, beside
 * `RateLimit-*`, and the CORS rules live browser clients need.
 */

// A start that is not a whole second, so the reset's rounding is exercised.
const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0) + 400);
const policies: QuotaPolicies = {
  ...defaultPolicies,
  classic: { ...defaultPolicies.classic, read: { limit: 3, windowMs: 60_000 } },
};
let test: TestApp;
let apiKey: string;

beforeAll(async () => {
  test = await setupApp({ clock, policies });
  apiKey = (await test.createKey()).key;
});
afterAll(() => test.close());

type Headers = Record<string, string | string[] | number | undefined>;

/** The live headers state exactly the budget `RateLimit-*` states, the reset as a time. */
const expectLiveHeaders = (headers: Headers, where: string) => {
  expect(headers["ratelimit-limit"], where).toBeDefined();
  expect(
    {
      limit: headers["x-ratelimit-limit"],
      remaining: headers["x-ratelimit-remaining"],
      reset: headers["x-ratelimit-reset"],
    },
    where,
  ).toEqual({
    limit: String(headers["ratelimit-limit"]),
    remaining: String(headers["ratelimit-remaining"]),
    reset: String(Math.ceil(clock.now() / 1000) + Number(headers["ratelimit-reset"])),
  });
};

const DROP = `0x${"ab".repeat(20)}`;

describe("x-ratelimit-* on classic answers", () => {
  it("every charged classic route sends them beside RateLimit-*, successes and errors alike", async () => {
    const signedIn = await signInClassic(test.app.server, { apiKey, walletIndex: 70, now: clock.now() });
    const requests: Array<{
      method: "GET" | "POST";
      url: string;
      headers?: Record<string, string>;
      status: number;
    }> = [
      // key, read class
      { method: "GET", url: "/classic/unboxing-disallowed", headers: { "api-key": apiKey }, status: 200 },
      // key, search class
      { method: "GET", url: "/classic/search?q=robots", headers: { "api-key": apiKey }, status: 200 },
      // no key, the public metadata class (a 404 is charged too)
      { method: "GET", url: `/classic/metadata/${DROP}`, status: 404 },
      { method: "GET", url: `/classic/art/8453/${DROP}/pack.svg`, status: 200 },
      // key and bearer, the write class; a refusal after the charge keeps its headers
      { method: "POST", url: "/classic/image/upload", headers: signedIn.headers, status: 415 },
      // bearer only
      {
        method: "POST",
        url: "/classic/metadata/confirm",
        headers: { authorization: signedIn.headers.authorization },
        status: 400,
      },
    ];
    for (const request of requests) {
      const response = await test.app.server.inject(request);
      const where = `${request.method} ${request.url}`;
      expect(response.statusCode, `${where}: ${response.body}`).toBe(request.status);
      expectLiveHeaders(response.headers, where);
    }
    // The remaining count moves with the budget.
    const before = await test.app.server.inject({
      url: "/classic/search?q=x",
      headers: { "api-key": apiKey },
    });
    const after = await test.app.server.inject({
      url: "/classic/search?q=x",
      headers: { "api-key": apiKey },
    });
    expect(Number(after.headers["x-ratelimit-remaining"])).toBe(
      Number(before.headers["x-ratelimit-remaining"]) - 1,
    );
  });

  it("the classic 429s carry them: a spent budget, and a missing key (the budget stated as spent)", async () => {
    const key = (await test.createKey()).key;
    const read = () =>
      test.app.server.inject({ url: "/classic/unboxing-disallowed", headers: { "api-key": key } });
    for (let i = 0; i < 3; i++) expect((await read()).statusCode).toBe(200);
    const spent = await read();
    expect(spent.statusCode).toBe(429);
    expect(spent.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
    expect(spent.headers["x-ratelimit-limit"]).toBe("3");
    expect(spent.headers["x-ratelimit-remaining"]).toBe("0");
    expectLiveHeaders(spent.headers, "spent");
    // Refused until a minute from now at most.
    expect(Number(spent.headers["x-ratelimit-reset"])).toBe(Math.ceil(clock.now() / 1000) + 60);

    const keyless = await test.app.server.inject({ url: "/classic/unboxing-disallowed" });
    expect(keyless.statusCode).toBe(429);
    expect(keyless.headers["x-ratelimit-limit"]).toBe("3");
    expect(keyless.headers["x-ratelimit-remaining"]).toBe("0");
    expectLiveHeaders(keyless.headers, "keyless");
  });

  it("other surfaces keep only RateLimit-*", async () => {
    const market = await test.app.server.inject({
      url: "/market/api-key?bucket=read",
      headers: { "api-key": apiKey },
    });
    expect(market.headers["ratelimit-limit"]).toBeDefined();
    expect(market.headers["x-ratelimit-limit"]).toBeUndefined();
  });
});

describe("CORS for live browser clients", () => {
  it("preflights of classic routes allow the headers live clients send, and answers expose both budget header families", async () => {
    for (const [method, url] of [
      ["POST", "/classic/image/upload"],
      ["GET", "/classic/games"],
    ]) {
      const preflight = await test.app.server.inject({
        method: "OPTIONS",
        url,
        headers: {
          origin: "https://integrator.example",
          "access-control-request-method": method!,
          "access-control-request-headers": "api-key,authorization,x-bypass-image-proxy,content-type",
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers["access-control-allow-origin"]).toBe("*");
      expect(String(preflight.headers["access-control-allow-methods"])).toContain(method);
      const allowed = String(preflight.headers["access-control-allow-headers"])
        .split(",")
        .map((name) => name.trim().toLowerCase());
      expect(allowed).toEqual(
        expect.arrayContaining(["api-key", "authorization", "x-bypass-image-proxy", "content-type"]),
      );
    }
    const answer = await test.app.server.inject({
      url: "/classic/search?q=x",
      headers: { origin: "https://integrator.example", "api-key": apiKey },
    });
    const exposed = String(answer.headers["access-control-expose-headers"])
      .split(",")
      .map((name) => name.trim().toLowerCase());
    expect(exposed).toEqual(
      expect.arrayContaining([
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
        "retry-after",
      ]),
    );
  });
});

describe("OpenAPI", () => {
  interface Operation {
    tags: string[];
    requestBody?: { content: Record<string, unknown> };
    responses: Record<string, { headers?: Record<string, { $ref?: string }> }>;
  }
  const documentOf = async (name: string) =>
    (await test.app.server.inject({ url: `/openapi/${name}.json` })).json() as {
      paths: Record<string, Record<string, Operation>>;
      components: { headers: Record<string, { description: string }> };
    };

  it("documents x-ratelimit-* on classic answers only, and the upload route as a live-compatible multipart form", async () => {
    const classic = await documentOf("classic");
    expect(classic.components.headers["XRateLimitReset"]?.description).toMatch(/Unix time/);
    for (const [path, method] of [
      ["/classic/games", "get"],
      ["/classic/image/upload", "post"],
      ["/classic/uploads/{id}", "get"],
    ] as const) {
      const operation = classic.paths[path]?.[method];
      for (const status of ["200", "429"])
        expect(operation?.responses[status]?.headers?.["x-ratelimit-reset"], `${path} ${status}`).toEqual({
          $ref: "#/components/headers/XRateLimitReset",
        });
    }
    const upload = classic.paths["/classic/image/upload"]?.post;
    expect(upload?.tags).toEqual(["Images", "Live-compatible"]);
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(["multipart/form-data"]);
    const market = await documentOf("market");
    const marketOperation = Object.values(market.paths)
      .flatMap((methods) => Object.values(methods))
      .find((operation) => operation.responses["200"]?.headers?.["RateLimit-Limit"]);
    expect(marketOperation).toBeDefined();
    expect(marketOperation?.responses["200"]?.headers?.["x-ratelimit-limit"]).toBeUndefined();
  });
});

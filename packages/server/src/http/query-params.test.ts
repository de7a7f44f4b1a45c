import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, TEST_ORIGIN } from "../_test/accounts.ts";
import type { TestApp } from "../_test/app.ts";
import { signInClassic } from "../_test/classic.ts";
import {
  announcePredictCommit,
  PREDICT_HEAD_TIME,
  setPredictHead,
  setupPredictApp,
} from "../_test/predict.ts";
import { CLASSIC_ROUTES } from "../classic/routes.ts";
import { hashSecret } from "../keys/secrets.ts";
import { MARKET_ROUTES } from "../market/routes.ts";
import { PLATFORM_ROUTES } from "../platform/routes.ts";
import { PREDICT_ROUTES } from "../predict/routes.ts";
import { type Budget, defaultPolicies, type QuotaPolicies } from "../quotas/policies.ts";
import type { RouteDeclaration } from "./route.ts";

// The query rule of every route of every surface, walked from the route
// tables (the complete list of routes) and the published OpenAPI documents:
// a parameter a route does not declare, or one given twice, is a 400 naming
// it; an integer parameter is decimal digits only.

type SurfaceName = "market" | "app" | "classic" | "predict" | "platform";
type JsonObject = Record<string, unknown>;

const SURFACES: ReadonlyArray<{
  name: SurfaceName;
  prefix: string;
  table: Record<string, RouteDeclaration>;
}> = [
  { name: "market", prefix: "/market", table: MARKET_ROUTES },
  {
    name: "app",
    prefix: "/app/api",
    table: Object.fromEntries(
      Object.entries(MARKET_ROUTES as Record<string, RouteDeclaration>).filter(
        ([, line]) => line.proxy === true,
      ),
    ),
  },
  { name: "classic", prefix: "/classic", table: CLASSIC_ROUTES },
  { name: "predict", prefix: "/predict/v9", table: PREDICT_ROUTES },
  { name: "platform", prefix: "", table: PLATFORM_ROUTES },
];

/** The surface's documented error body for a 400 with `message`. */
const badRequestBody = (surface: SurfaceName, message: unknown) =>
  surface === "classic"
    ? { success: false, message, error: "VALIDATION_ERROR" }
    : surface === "predict"
      ? { error: "INVALID_INPUT", message }
      : { error: message };

/** No budget runs out while the whole surface is walked. */
const unlimited = (budget: Budget): Budget => ({ ...budget, limit: 1_000_000_000 });
const policies: QuotaPolicies = {
  market: {
    read: unlimited(defaultPolicies.market.read),
    write: unlimited(defaultPolicies.market.write),
    stream: unlimited(defaultPolicies.market.stream),
  },
  classic: {
    read: unlimited(defaultPolicies.classic.read),
    search: unlimited(defaultPolicies.classic.search),
    metadata: unlimited(defaultPolicies.classic.metadata),
    report: unlimited(defaultPolicies.classic.report),
    stream: unlimited(defaultPolicies.classic.stream),
  },
  predict: { all: unlimited(defaultPolicies.predict.all), stream: unlimited(defaultPolicies.predict.stream) },
  proxyAnonymous: {
    read: unlimited(defaultPolicies.proxyAnonymous.read),
    write: unlimited(defaultPolicies.proxyAnonymous.write),
    stream: unlimited(defaultPolicies.proxyAnonymous.stream),
  },
  keyCreation: unlimited(defaultPolicies.keyCreation),
  keyRevocation: unlimited(defaultPolicies.keyRevocation),
  failedKeyAttempts: unlimited(defaultPolicies.failedKeyAttempts),
};

/** A value of the right form for each path parameter name (each route's schema checks it before the query). */
const PATH_SAMPLES: Record<string, string> = {
  address: `0x${"1".repeat(40)}`,
  ownerAddress: `0x${"1".repeat(40)}`,
  contractAddress: `0x${"1".repeat(40)}`,
  contractAddressOrSlug: `0x${"1".repeat(40)}`,
  addressOrSlug: `0x${"1".repeat(40)}`,
  version: "r1",
  roomId: "room_abc",
  id: "1",
  chainId: "8453",
  what: "pack",
  tokenId: "1",
  draftId: "a".repeat(24),
  messageId: "1",
  releaseId: "rel1",
  signature: "x",
  txHash: `0x${"1".repeat(64)}`,
  username: "alice",
};

/**
 * A valid body for each route that takes one and an integer query parameter: Fastify validates the
 * body before the query, so the query's refusal shows only when the body passes.
 */
const BODIES: Record<string, unknown> = { "classic POST /chat/:contractAddress": { text: "hello" } };

/** The integer forms no parameter takes; each is sent as written (already percent-encoded). */
const NOT_DIGITS = ["1e3", "0x10", "%205", "%2B5", "5.0", "05", "-1", "1_0"];

describe("query parameters on every route of every surface", () => {
  let t: TestApp;
  let key: string;
  /** Request headers carrying each session kind, directly and through the first-party proxy. */
  let direct: Record<"account" | "chat" | "access" | "classic", Record<string, string>>;
  let proxied: Record<string, string>;
  const documents: Partial<Record<"market" | "classic" | "predict", JsonObject>> = {};

  beforeAll(async () => {
    ({ t, key } = await setupPredictApp({ policies }));
    // The feed is fresh, so its gate lets every request through to the query check.
    await setPredictHead(t.db);
    await announcePredictCommit(t);
    const now = Date.parse(PREDICT_HEAD_TIME) + 1_000;
    const alice = await signIn(t, 41, { apiKey: key, now });
    const chat = await t.app.server.inject({
      method: "POST",
      url: "/market/chat/session",
      headers: alice.headers,
    });
    const code = "query-params-invite-0001";
    await t.db.kysely
      .insertInto("invites")
      .values({ id: "inv_queryparams", code_hash: hashSecret(code), created_by: null, max_uses: 2 })
      .execute();
    const access = await t.app.server.inject({
      method: "POST",
      url: "/market/access/session",
      headers: { "api-key": key },
      payload: { code },
    });
    const classic = await signInClassic(t.app.server, { apiKey: key, walletIndex: 41, now });
    const chatToken = (chat.json() as { token: string }).token;
    const accessToken = (access.json() as { token: string }).token;
    direct = {
      account: alice.headers,
      chat: { ...alice.headers, authorization: `Bearer ${chatToken}` },
      access: { "api-key": key, "x-mkt-session": accessToken },
      classic: classic.headers,
    };
    proxied = {
      origin: TEST_ORIGIN,
      "x-mkt-wallet": alice.address,
      cookie: `mkt-session=${alice.token}; mkt-chat=${chatToken}; mkt-access=${accessToken}`,
    };
    for (const name of ["market", "classic", "predict"] as const) {
      const response = await t.app.server.inject({ url: `/openapi/${name}.json` });
      documents[name] = response.json() as JsonObject;
    }
  });
  afterAll(() => t?.close());

  /** Every route as a request: its URL (path parameters of the right form), method and credentials. */
  const routes = () =>
    SURFACES.flatMap(({ name: surface, prefix, table }) =>
      Object.entries(table).map(([line, declaration]) => {
        const [method, path] = line.split(" ") as [string, string];
        const session = declaration.session as keyof typeof direct | undefined;
        const headers: Record<string, string> =
          surface === "app"
            ? proxied
            : session === undefined
              ? { "api-key": key, origin: TEST_ORIGIN }
              : direct[session];
        return {
          surface,
          method,
          line,
          url: `${prefix}${path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => PATH_SAMPLES[name] ?? "x")}`,
          /** The operation of the published document that describes the route (the proxy's: the market's). */
          operation: operationOf(surface === "app" ? "/market" : prefix, path, method),
          headers,
          /** What the access rule itself reads from the query (the key check's bucket), given first. */
          before:
            "bucket" in declaration.access && declaration.access.bucket === "query" ? "bucket=read&" : "",
        };
      }),
    );

  function operationOf(prefix: string, path: string, method: string) {
    const documented = `${prefix}${path}`.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    for (const document of Object.values(documents)) {
      const paths = document["paths"] as Record<string, Record<string, JsonObject>>;
      const operation = paths[documented]?.[method.toLowerCase()];
      if (operation) return operation;
    }
    return undefined;
  }

  const parametersOf = (operation: JsonObject | undefined, where: "query" | "path") =>
    ((operation?.["parameters"] ?? []) as Array<{ in: string; name: string; schema?: JsonObject }>).filter(
      (parameter) => parameter.in === where,
    );

  const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.server.inject({
      method: method as "GET",
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it("walks every route: no table is empty and every documented route is found", () => {
    const all = routes();
    for (const { name } of SURFACES)
      expect(all.filter((route) => route.surface === name).length).toBeGreaterThan(0);
    const documented = all.filter((route) => route.surface !== "platform" || route.line.includes("/keys"));
    expect(documented.filter((route) => route.operation === undefined).map((route) => route.line)).toEqual(
      [],
    );
  });

  it("refuses a parameter a route does not declare with a 400 in the surface's error body naming it", async () => {
    for (const route of routes()) {
      const response = await inject(route.method, `${route.url}?${route.before}bogus=1`, route.headers);
      const where = `${route.surface} ${route.line}`;
      expect(response.statusCode, `${where}: ${response.body}`).toBe(400);
      const declared = parametersOf(route.operation, "query").map((parameter) => parameter.name);
      const takes = declared.length === 0 ? "no query parameters" : declared.join(", ");
      expect(response.json(), where).toEqual(
        badRequestBody(route.surface, `query: unknown parameter "bogus"; this route takes ${takes}`),
      );
    }
  }, 120_000);

  it("checks the key first: a keyless request with an unknown parameter gets the surface's key refusal", async () => {
    const market = await inject("GET", "/market/runtime/r1?bogus=1", {});
    expect(market.statusCode).toBe(401);
    const classic = await inject("GET", "/classic/games?bogus=1", {});
    expect(classic.statusCode).toBe(429);
    expect(classic.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
    const predict = await inject("GET", "/predict/v9/markets?bogus=1", {});
    expect(predict.statusCode).toBe(429);
    expect(predict.json()).toMatchObject({ error: "API_KEY_REQUIRED_OR_RATE_LIMITED" });
  });

  it("refuses an unknown parameter even when the route's answer is in the read cache", async () => {
    // A route without query parameters answers one body, cached under one key: the rule runs first.
    const headers = { "api-key": key };
    for (let i = 0; i < 2; i++)
      expect((await inject("GET", "/market/runtime", headers)).statusCode).toBe(200);
    const bogus = await inject("GET", "/market/runtime?bogus=1", headers);
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json()).toEqual({
      error: 'query: unknown parameter "bogus"; this route takes no query parameters',
    });
  });

  it("refuses a declared parameter given twice with a 400 naming it", async () => {
    let checked = 0;
    for (const route of routes()) {
      const [first] = parametersOf(route.operation, "query");
      if (first === undefined) continue;
      const response = await inject(
        route.method,
        `${route.url}?${route.before}${first.name}=1&${first.name}=2`,
        route.headers,
      );
      const where = `${route.surface} ${route.line}`;
      expect(response.statusCode, `${where}: ${response.body}`).toBe(400);
      expect(response.json(), where).toEqual(
        badRequestBody(
          route.surface,
          `query: parameter "${first.name}" is given more than once; give it once`,
        ),
      );
      checked += 1;
    }
    expect(checked).toBeGreaterThan(40);
  }, 120_000);

  it("refuses an integer query or path parameter written other than in decimal digits", async () => {
    let checked = 0;
    for (const route of routes()) {
      const integers = (["query", "path"] as const).flatMap((where) =>
        parametersOf(route.operation, where)
          .filter((parameter) => parameter.schema?.["type"] === "integer")
          .map((parameter) => ({ where, name: parameter.name })),
      );
      const payload =
        route.operation?.["requestBody"] === undefined ? undefined : BODIES[`${route.surface} ${route.line}`];
      if (integers.length > 0 && route.operation?.["requestBody"] !== undefined)
        expect(payload, `a valid body for ${route.surface} ${route.line}`).toBeDefined();
      for (const { where, name } of integers) {
        for (const bad of NOT_DIGITS) {
          const url =
            where === "query"
              ? `${route.url}?${name}=${bad}`
              : route.url.replace(`/${PATH_SAMPLES[name]}/`, `/${bad}/`);
          const response = await inject(route.method, url, route.headers, payload);
          const label = `${route.surface} ${route.line} ${name}=${bad}: ${response.body}`;
          expect(response.statusCode, label).toBe(400);
          const body = response.json() as { message?: string; error: string };
          const message =
            route.surface === "classic" || route.surface === "predict" ? body.message : body.error;
          expect(message, label).toContain(
            `${where === "query" ? "query" : "params"}.${name}: ${name} must be an integer in decimal digits`,
          );
        }
        checked += 1;
      }
    }
    // Every paged read of the three surfaces and the proxy, and the classic art's chain id.
    expect(checked).toBeGreaterThan(45);
  }, 180_000);
});

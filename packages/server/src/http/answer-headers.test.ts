import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, TEST_ADMIN_TOKEN, type TestApp } from "../_test/app.ts";
import { setPredictHead, setupPredictApp } from "../_test/predict.ts";
import { CLASSIC_ROUTES } from "../classic/routes.ts";
import { MARKET_ROUTES } from "../market/routes.ts";
import { PLATFORM_ROUTES } from "../platform/routes.ts";
import { PREDICT_ROUTES } from "../predict/routes.ts";
import { MAX_PATH_PARAMETER_LENGTH } from "./framework-errors.ts";
import { answersWithoutCredential, type RouteDeclaration } from "./route.ts";
import { HTML_PAGE_POLICY, RESOURCE_POLICY, referencePagePolicy } from "./security-headers.ts";

// The headers every answer carries, over every route of every surface (the route tables are the
// complete lists): an error answer is never cacheable, a successful answer that needed a
// credential is never `public`, and every answer says `X-Content-Type-Options: nosniff`.

const FIRST_PARTY = "https://app.mkt.test";

interface Route {
  surface: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route's path with every parameter filled with a value no route accepts as existing. */
  url: string;
  key: string;
  declaration: RouteDeclaration;
}

const tables: Array<{ surface: string; prefix: string; table: Record<string, RouteDeclaration> }> = [
  { surface: "platform", prefix: "", table: PLATFORM_ROUTES },
  { surface: "market", prefix: "/market", table: MARKET_ROUTES },
  {
    surface: "app",
    prefix: "/app/api",
    table: Object.fromEntries(
      Object.entries(MARKET_ROUTES as Record<string, RouteDeclaration>).filter(([, route]) => route.proxy),
    ),
  },
  { surface: "classic", prefix: "/classic", table: CLASSIC_ROUTES },
  { surface: "predict", prefix: "/predict/v9", table: PREDICT_ROUTES },
];

const ROUTES: Route[] = tables.flatMap(({ surface, prefix, table }) =>
  Object.entries(table).map(([key, declaration]) => {
    const [method, path] = key.split(" ") as [Route["method"], string];
    return { surface, method, url: `${prefix}${path.replace(/:[A-Za-z0-9_]+/g, "zz")}`, key, declaration };
  }),
);

interface Seen {
  route: string;
  status: number;
  cacheControl: string | undefined;
  nosniff: string | undefined;
}

const seen = (route: Route, response: LightMyRequestResponse): Seen => ({
  route: `${route.method} ${route.url}`,
  status: response.statusCode,
  cacheControl: response.headers["cache-control"] as string | undefined,
  nosniff: response.headers["x-content-type-options"] as string | undefined,
});

/** Every answer that breaks the rule, with what it sent: the test expects none. */
function violations(answers: Array<Seen & { needsCredential: boolean }>) {
  return answers.filter(
    (answer) =>
      answer.nosniff !== "nosniff" ||
      (answer.status >= 400 && answer.cacheControl !== "no-store") ||
      (answer.status < 300 &&
        answer.needsCredential &&
        !/^(private|no-store)\b/.test(answer.cacheControl ?? "")),
  );
}

describe.each([["key" as const], ["open" as const]])(
  "answer headers of every route, PUBLIC_READS=%s",
  (publicReads) => {
    let t: TestApp;
    let key: string;
    let client = 0;
    /** Each request from its own client address: no per-IP budget of one route spills into the next. */
    const send = (route: Route, headers: Record<string, string>, extra: Record<string, string> = {}) => {
      client += 1;
      return t.app.server.inject({
        method: route.method,
        url: route.url,
        remoteAddress: `10.77.${Math.floor(client / 250)}.${client % 250}`,
        headers: {
          ...headers,
          ...extra,
          // The first-party proxy answers its own origin only.
          ...(route.surface === "app" ? { origin: FIRST_PARTY } : {}),
        },
        ...(route.method === "GET" ? {} : { payload: {} }),
      });
    };
    const needsCredential = (route: Route) => !answersWithoutCredential(route.declaration, publicReads);

    beforeAll(async () => {
      t = await setupApp({ env: { PUBLIC_READS: publicReads, ALLOWED_ORIGINS: FIRST_PARTY } });
      key = (await t.createKey({ multiplier: 1000 })).key;
    });
    afterAll(() => t.close());

    it("without any credential: every route that needs one refuses with no-store, the rest are cacheable only as declared", async () => {
      const answers = [];
      for (const route of ROUTES) {
        // The proxy opens a stream without a session, and an open stream never ends.
        if (route.surface === "app" && route.declaration.stream) continue;
        answers.push({
          ...seen(route, await send(route, {})),
          needsCredential: needsCredential(route),
          surface: route.surface,
        });
      }
      expect(violations(answers)).toEqual([]);
      // Every route that needs a credential refused. The proxy needs no key, only its session
      // routes refuse; its keyless answers follow the market's rule, so they are private unless
      // PUBLIC_READS=open (the violations above).
      const credentialed = answers.filter((answer) => answer.needsCredential && answer.surface !== "app");
      expect(credentialed.filter((answer) => answer.status < 400)).toEqual([]);
      // The defect this guards against: a keyless 401 on a shared route was `public, max-age=60`.
      const runtime = answers.find((answer) => answer.route === "GET /market/runtime");
      if (publicReads === "key") expect(runtime).toMatchObject({ status: 401, cacheControl: "no-store" });
      else expect(runtime).toMatchObject({ status: 200, cacheControl: "public, max-age=60" });
    });

    it("with a key: bad parameters and missing sessions answer no-store, successful keyed answers are private, and a 304 repeats the 200's headers", async () => {
      const answers = [];
      const revalidated = [];
      for (const route of ROUTES) {
        if (route.declaration.stream) continue;
        // Self-revocation acts on the key it is sent: a key of its own.
        const apiKey = route.declaration.access.kind === "key-holder" ? (await t.createKey()).key : key;
        const response = await send(route, { "api-key": apiKey });
        answers.push({ ...seen(route, response), needsCredential: needsCredential(route) });
        const etag = response.headers["etag"];
        if (response.statusCode === 200 && typeof etag === "string") {
          const again = await send(route, { "api-key": apiKey }, { "if-none-match": etag });
          revalidated.push({
            route: `${route.method} ${route.url}`,
            status: again.statusCode,
            headers: [again.headers["cache-control"], again.headers["vary"], again.headers["etag"]],
            expected: [response.headers["cache-control"], response.headers["vary"], etag],
          });
        }
      }
      expect(violations(answers)).toEqual([]);
      const byRoute = new Map(answers.map((answer) => [answer.route, answer]));
      // Key-gated shared reads of each surface: private for the key's holder.
      expect(byRoute.get("GET /classic/games")).toMatchObject({
        status: 200,
        cacheControl: "private, max-age=5",
      });
      expect(byRoute.get("GET /classic/stats")).toMatchObject({
        status: 200,
        cacheControl: "private, max-age=300",
      });
      expect(byRoute.get("GET /predict/v9/runtime")).toMatchObject({
        status: 200,
        cacheControl: "private, max-age=1",
      });
      expect(byRoute.get("GET /market/board/creators")).toMatchObject({
        status: 200,
        cacheControl: publicReads === "open" ? "public, max-age=30" : "private, max-age=30",
      });
      // Keyless documentation stays public; a bad parameter is a 400 that no cache keeps.
      expect(byRoute.get("GET /docs")).toMatchObject({ status: 200, cacheControl: "public, max-age=300" });
      expect(byRoute.get("GET /market/creators/zz")).toMatchObject({ status: 400, cacheControl: "no-store" });
      expect(byRoute.get("GET /classic/owner/zz")).toMatchObject({ status: 400, cacheControl: "no-store" });
      expect(byRoute.get("GET /market/runtime/zz")).toMatchObject({ status: 404, cacheControl: "no-store" });
      expect(byRoute.get("GET /market/dm/threads")).toMatchObject({ status: 401, cacheControl: "no-store" });
      // Every 200 with an ETag (the read cache's routes) revalidates to a 304 with the same headers.
      expect(revalidated.map(({ route }) => route)).toContain("GET /market/runtime");
      expect(revalidated.map(({ route, status, headers }) => ({ route, status, headers }))).toEqual(
        revalidated.map(({ route, expected }) => ({ route, status: 304, headers: expected })),
      );
    });

    it("answers unknown paths and paths the router refuses in each surface's body, no-store and nosniff", async () => {
      const cases = [
        { url: "/nope", status: 404, body: { error: "no route GET /nope" } },
        { url: "/market/nope", status: 404, body: { error: "no route GET /market/nope" } },
        { url: "/app/api/nope", status: 404, body: { error: "no route GET /app/api/nope" } },
        {
          url: "/classic/nope",
          status: 404,
          body: { success: false, message: "no route GET /classic/nope", error: "NOT_FOUND" },
        },
        {
          url: "/predict/v9/nope",
          status: 404,
          body: { error: "NOT_FOUND", message: "no route GET /predict/v9/nope" },
        },
        {
          url: "/market/runtime/%E0%A4%A",
          status: 400,
          body: { error: "the path is not a valid URL: a percent escape in it does not decode" },
        },
        {
          url: "/classic/contractAddress/%E0%A4%A",
          status: 400,
          body: {
            success: false,
            message: "the path is not a valid URL: a percent escape in it does not decode",
            error: "VALIDATION_ERROR",
          },
        },
        {
          url: `/predict/v9/markets/${"a".repeat(MAX_PATH_PARAMETER_LENGTH + 1)}`,
          status: 414,
          body: {
            error: "URI_TOO_LONG",
            message: `a path segment is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`,
          },
        },
      ];
      for (const { url, status, body } of cases) {
        const response = await t.app.server.inject({ url });
        expect({ url, status: response.statusCode, body: response.json() }).toEqual({ url, status, body });
        expect(response.headers).toMatchObject({
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        });
        expect(response.headers["x-request-id"]).toBeTypeOf("string");
      }
      const preflight = await t.app.server.inject({
        method: "OPTIONS",
        url: "/market/runtime",
        headers: { origin: "https://elsewhere.test", "access-control-request-method": "GET" },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers["x-content-type-options"]).toBe("nosniff");
    });
  },
);

describe("answer headers of the prediction feed's routes while it serves", () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    ({ t, key } = await setupPredictApp());
    await setPredictHead(t.db);
  });
  afterAll(() => t.close());

  it("bad parameters answer no-store, successful answers are private", async () => {
    const answers = [];
    for (const route of ROUTES.filter((route) => route.surface === "predict" && !route.declaration.stream)) {
      const response = await t.app.server.inject({ url: route.url, headers: { "api-key": key } });
      answers.push({ ...seen(route, response), needsCredential: true });
    }
    expect(violations(answers)).toEqual([]);
    const byRoute = new Map(answers.map((answer) => [answer.route, answer]));
    expect(byRoute.get("GET /predict/v9/markets")).toMatchObject({
      status: 200,
      cacheControl: "private, max-age=2",
    });
    expect(byRoute.get("GET /predict/v9/markets/zz")).toMatchObject({
      status: 400,
      cacheControl: "no-store",
    });
    expect(byRoute.get("GET /predict/v9/quote")).toMatchObject({ status: 400, cacheControl: "no-store" });
  });
});

describe("document headers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());

  it("every HTML page forbids framing, scripts and the referrer", async () => {
    for (const url of ["/", "/docs", "/docs/"]) {
      const response = await t.app.server.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers).toMatchObject({
        "content-security-policy": HTML_PAGE_POLICY,
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
      });
      expect(HTML_PAGE_POLICY).toContain("frame-ancestors 'none'");
      expect(HTML_PAGE_POLICY).not.toMatch(/script-src/);
    }
  });

  it("the reference pages run scripts from this server only, never inline or eval, and call only it", async () => {
    for (const url of ["/docs/market", "/docs/classic", "/docs/predict"]) {
      const response = await t.app.server.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject({
        "content-type": "text/html; charset=utf-8",
        "content-security-policy":
          "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self' https://api.mkt.test; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
      });
    }
    // PUBLIC_URL's origin, whatever its path, beside the page's own (another host name may serve it).
    expect(referencePagePolicy("http://127.0.0.1:8080/base/")).toContain(
      "connect-src 'self' http://127.0.0.1:8080;",
    );
  });

  it("SVG art keeps its own locked-down policy; JSON answers carry no document headers", async () => {
    const art = await t.app.server.inject({
      url: "/classic/art/8453/0x00000000000000000000000000000000000000aa/pack.svg",
    });
    expect(art.statusCode).toBe(200);
    expect(art.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(art.headers).toMatchObject({
      "content-security-policy": "default-src 'none'",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
    });
    const json = await t.app.server.inject({ url: "/openapi/market.json" });
    expect(json.statusCode).toBe(200);
    expect(json.headers["x-content-type-options"]).toBe("nosniff");
    expect(json.headers["content-security-policy"]).toBeUndefined();
    expect(json.headers["referrer-policy"]).toBeUndefined();
    // Any other type without a policy of its own gets the resource policy (the operator's metrics text).
    const metrics = await t.app.admin.inject({
      url: "/metrics",
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers["content-type"]).toMatch(/^text\/plain/);
    expect(metrics.headers["content-security-policy"]).toBe(RESOURCE_POLICY);
    expect(RESOURCE_POLICY).toContain("frame-ancestors 'none'");
  });

  it("the operator listener: nosniff and no-store on every answer, refusals included", async () => {
    const refused = await t.app.admin.inject({ url: "/admin/keys" });
    expect(refused.statusCode).toBe(401);
    const listed = await t.admin("GET", "/admin/keys");
    expect(listed.statusCode).toBe(200);
    const metrics = await t.app.admin.inject({
      url: "/metrics",
      headers: { authorization: "Bearer wrong" },
    });
    for (const response of [refused, listed as LightMyRequestResponse, metrics]) {
      expect(response.headers).toMatchObject({
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      });
    }
  });
});

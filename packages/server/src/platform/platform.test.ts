import { landingSchema } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { prefersJson } from "./operations-routes.ts";

describe("landing page and documentation index", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupApp();
  });
  afterAll(() => t.close());

  const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

  it("GET / answers HTML to browsers, without a key, linking every API, its docs and its document", async () => {
    const response = await t.app.server.inject({ url: "/", headers: { accept: BROWSER } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["vary"]).toBe("Origin, Accept");
    for (const href of [
      "/docs/market",
      "/openapi/market.json",
      "/docs/classic",
      "/openapi/classic.json",
      "/docs/predict",
      "/openapi/predict.json",
      "/docs",
      "/healthz",
      "/readyz",
    ])
      expect(response.body).toContain(`href="${href}"`);
    for (const mount of ["/market", "/classic", "/predict/v9", "/app/api"])
      expect(response.body).toContain(`<code>${mount}</code>`);
  });

  it("GET / answers JSON to Accept: application/json, and every link it names is served", async () => {
    const response = await t.app.server.inject({ url: "/", headers: { accept: "application/json" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = landingSchema.parse(response.json());
    expect(body.apis).toEqual([
      {
        name: "market",
        title: "mkt Market API",
        basePath: "/market",
        docsPath: "/docs/market",
        openapiPath: "/openapi/market.json",
      },
      {
        name: "classic",
        title: "mkt Classic Booster-Box API",
        basePath: "/classic",
        docsPath: "/docs/classic",
        openapiPath: "/openapi/classic.json",
      },
      {
        name: "predict",
        title: "mkt Prediction-Market Feed API",
        basePath: "/predict/v9",
        docsPath: "/docs/predict",
        openapiPath: "/openapi/predict.json",
      },
      {
        name: "app",
        title: "mkt first-party website proxy",
        basePath: "/app/api",
        docsPath: "/docs/market",
        openapiPath: "/openapi/market.json",
      },
    ]);
    expect([body.keys, body.docs, body.health, body.readiness]).toEqual([
      "/keys",
      "/docs",
      "/healthz",
      "/readyz",
    ]);
    for (const path of [
      ...body.apis.flatMap((api) => [api.docsPath, api.openapiPath]),
      body.docs,
      body.health,
      body.readiness,
    ])
      expect((await t.app.server.inject({ url: path })).statusCode, path).toBe(200);
  });

  it("/docs/ with a trailing slash is the /docs index", async () => {
    const plain = await t.app.server.inject({ url: "/docs" });
    const slash = await t.app.server.inject({ url: "/docs/" });
    expect(slash.statusCode).toBe(200);
    expect(slash.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(slash.body).toBe(plain.body);
    for (const name of ["market", "classic", "predict"]) expect(slash.body).toContain(`href="/docs/${name}"`);
  });

  it("the reference pages say which credentials each operation takes, and list its headers", async () => {
    const page = (await t.app.server.inject({ url: "/docs/market" })).body;
    const section = (id: string) => {
      const start = page.indexOf(`<section class="op" id="${id}">`);
      return page.slice(start, page.indexOf("</section>", start));
    };
    expect(section("listReleases")).toContain(
      "<strong>Authentication:</strong> <code>API-KEY</code> header (ApiKey) and <code>Authorization: Bearer</code> (AccountSession); or <code>API-KEY</code> header (ApiKey)</p>",
    );
    expect(section("listReleasesViaProxy")).toContain(
      "<strong>Authentication:</strong> <code>mkt-session</code> cookie (AccountSessionCookie); or none (anonymous)</p>",
    );
    expect(section("getAccessSession")).toContain("<code>X-MKT-Session</code> header (AccessSession)");
    // Component parameters are listed like the others, not as references.
    expect(section("accountAction")).toContain("<td><code>Idempotency-Key</code><br>");
    expect(section("accountAction")).toContain("<td><code>X-MKT-Wallet</code><br>");
  });

  it.each([
    [undefined, false],
    ["*/*", false],
    [BROWSER, false],
    ["application/json", true],
    ["application/json, */*;q=0.5", true],
    ["application/*", true],
    ["text/html;q=0.5, application/json", true],
    ["application/json;q=0.4, text/html;q=0.9", false],
    ["application/json, text/html", false],
    ["image/png", false],
  ])("Accept %s prefers JSON: %s", (accept, json) => {
    expect(prefersJson(accept)).toBe(json);
  });
});

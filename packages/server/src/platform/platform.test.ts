import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { landingSchema } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { REFERENCE_UI_CONFIGURATION } from "../http/docs-page.ts";
import { prefersJson } from "./operations-routes.ts";
import { acceptsGzip, locateReferenceBundle } from "./reference-assets.ts";

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

  /** The reference page of one API, and the address of the UI script it loads. */
  async function referencePage(name: string) {
    const response = await t.app.server.inject({ url: `/docs/${name}` });
    const script = /<script src="(\/docs\/assets\/[^"]+)"><\/script>/.exec(response.body)?.[1];
    if (!script) throw new Error(`/docs/${name} loads no script: ${response.body}`);
    return { response, script };
  }

  it.each(["market", "classic", "predict"])(
    "/docs/%s loads the reference UI from this server, pointed at its OpenAPI document",
    async (name) => {
      const { response, script } = await referencePage(name);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers["cache-control"]).toBe("public, max-age=300");
      // One script, from this server, named by its content; no inline script, no other host.
      expect(script).toMatch(/^\/docs\/assets\/scalar-api-reference\.[0-9a-f]{16}\.js$/);
      expect(response.body.match(/<script/g)).toHaveLength(2);
      expect(response.body).not.toMatch(/https?:\/\//);
      // The UI reads the document's address and its configuration from the #api-reference element,
      // which is data (application/json), never run.
      const element =
        /<script id="api-reference" type="application\/json" data-url="([^"]+)" data-configuration="([^"]+)"><\/script>/.exec(
          response.body,
        );
      expect(element?.[1]).toBe(`/openapi/${name}.json`);
      expect(JSON.parse((element?.[2] ?? "").replaceAll("&quot;", '"'))).toEqual(REFERENCE_UI_CONFIGURATION);
      expect(REFERENCE_UI_CONFIGURATION).toMatchObject({
        withDefaultFonts: false,
        telemetry: false,
        persistAuth: false,
        agent: { disabled: true },
        hideClientButton: true,
        authentication: { preferredSecurityScheme: "ApiKey" },
      });
      expect(REFERENCE_UI_CONFIGURATION).not.toHaveProperty("proxyUrl");
      // Every page loads the same file.
      expect((await referencePage("market")).script).toBe(script);
    },
  );

  it("serves the reference UI's bundle from its npm package, compressed when asked, cacheable for a year", async () => {
    const { script } = await referencePage("market");
    const bundle = readFileSync(locateReferenceBundle());
    expect(locateReferenceBundle()).toMatch(
      /node_modules\/@scalar\/api-reference\/dist\/browser\/standalone\.js$/,
    );
    const hash = createHash("sha256").update(bundle).digest("hex").slice(0, 16);
    expect(script).toBe(`/docs/assets/scalar-api-reference.${hash}.js`);

    const plain = await t.app.server.inject({ url: script });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers).toMatchObject({
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
      vary: "Origin, Accept-Encoding",
      "x-content-type-options": "nosniff",
    });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.equals(bundle)).toBe(true);

    const compressed = await t.app.server.inject({
      url: script,
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect(compressed.rawPayload.length).toBeLessThan(bundle.length / 2);
    expect(gunzipSync(compressed.rawPayload).equals(bundle)).toBe(true);
    const refused = await t.app.server.inject({ url: script, headers: { "accept-encoding": "gzip;q=0" } });
    expect(refused.headers["content-encoding"]).toBeUndefined();
  });

  it("answers any other asset name with a 404 in the platform's error body, never cached", async () => {
    for (const url of [
      "/docs/assets/scalar-api-reference.0000000000000000.js",
      "/docs/assets/standalone.js",
      "/docs/assets/..%2F..%2Fpackage.json",
    ]) {
      const response = await t.app.server.inject({ url });
      expect([url, response.statusCode, response.json()]).toEqual([
        url,
        404,
        { error: "no such documentation file" },
      ]);
      expect(response.headers["cache-control"]).toBe("no-store");
    }
  });

  it.each([
    [undefined, false],
    ["", false],
    ["gzip", true],
    ["x-gzip", true],
    ["deflate, gzip;q=0.5", true],
    ["gzip;q=0", false],
    ["*", true],
    ["br, *;q=0.1", true],
    ["*;q=0", false],
    ["gzip;q=0, *", false],
    ["br, identity", false],
  ])("Accept-Encoding %s admits gzip: %s", (header, gzip) => {
    expect(acceptsGzip(header)).toBe(gzip);
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

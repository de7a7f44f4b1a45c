import { discoverySchema } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { setupDevChain, type TestChain } from "../../_test/dev-chain.ts";
import { chainRoles } from "../../chains/index.ts";

describe("GET /market/discovery", () => {
  let chain: TestChain;
  let test: TestApp;
  beforeAll(async () => {
    // The runtimes are what the dev chain's RuntimeRegistry registered (r1, then r2), once indexed.
    chain = await setupDevChain(8453);
    test = await setupApp({ env: { PUBLIC_READS: "open" }, deployments: [chain.deployment] });
    const scope = chainRoles([chain.deployment]).market!.scope;
    await test.app.services.indexer!.indexerOf(scope)!.syncOnce();
  }, 120_000);
  afterAll(async () => {
    await test?.close();
    await chain?.close();
  });

  it("lists the runtimes, surfaces and their documents, budgets, stream path and PUBLIC_READS mode", async () => {
    const response = await test.app.server.inject({ method: "GET", url: "/market/discovery" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=60");
    const body = discoverySchema.parse(response.json());
    const runtimes = await test.app.server.inject({ method: "GET", url: "/market/runtime" });
    expect(body.runtimes).toEqual(runtimes.json().runtimes);
    expect(body.runtimes.map((runtime) => runtime.id)).toEqual(["r2", "r1"]);
    expect(body).toMatchObject({
      publicReads: "open",
      keyCreateUrl: "https://api.mkt.test/keys",
      budgets: {
        key: {
          read: { limit: 100, windowSeconds: 60 },
          write: { limit: 25, windowSeconds: 60 },
          stream: { limit: 10, windowSeconds: 60 },
        },
        proxyAnonymous: { read: { limit: 30, windowSeconds: 60 } },
      },
      stream: { path: "/market/live", url: "https://api.mkt.test/market/live", bucket: "stream" },
    });
    expect(body.surfaces.map((surface) => surface.name)).toEqual(["market", "classic", "predict", "app"]);
    // Every document it names is served.
    for (const surface of body.surfaces) {
      for (const url of [surface.docsUrl, surface.openapiUrl]) {
        if (url === null) continue;
        const served = await test.app.server.inject({
          method: "GET",
          url: url.replace("https://api.mkt.test", ""),
        });
        expect(served.statusCode, url).toBe(200);
      }
    }
    const market = body.surfaces[0]!;
    const document = await test.app.server.inject({ method: "GET", url: "/openapi/market.json" });
    expect(market.baseUrl).toBe("https://api.mkt.test/market");
    expect(Object.keys(document.json().paths)).toEqual(
      expect.arrayContaining([
        "/market/discovery",
        "/market/board/creators",
        "/market/board/collectors",
        "/market/creators/{address}",
        "/market/creators/{address}/releases",
        "/market/creators/{address}/drops",
        "/market/releases/{releaseId}/artwork",
        "/market/releases/{releaseId}/artwork/history",
        "/market/rooms/{roomId}",
      ]),
    );
  });

  it("states PUBLIC_READS=key and then needs a key", async () => {
    const keyed = await setupApp({ deployments: [chain.deployment] });
    try {
      expect((await keyed.app.server.inject({ method: "GET", url: "/market/discovery" })).statusCode).toBe(
        401,
      );
      const { key } = await keyed.createKey();
      const response = await keyed.app.server.inject({
        method: "GET",
        url: "/market/discovery",
        headers: { "api-key": key },
      });
      expect(response.json().publicReads).toBe("key");
    } finally {
      await keyed.close();
    }
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PredictMarketMedia } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../_test/app.ts";
import {
  announcePredictCommit,
  PREDICT_HEAD_TIME,
  PREDICT_TEST_SCOPE,
  setPredictHead,
  setupPredictApp,
} from "../../_test/predict.ts";

const SCOPE = PREDICT_TEST_SCOPE;
const HEAD_TIME = PREDICT_HEAD_TIME;
const PUBLIC_URL = "https://api.mkt.test";
const MARKET = "0x00000000000000000000000000000000000c0de1";
const QUESTION = `Will <script>alert("x")</script> & friends win?`;
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from("a stand-in for the rest of a PNG"),
]);

describe("GET /predict/v9/markets/{address}/media", () => {
  let t: TestApp;
  let key: string;
  let images: Server;
  /** The operator's image, on an allowlisted host (127.0.0.1, reachable with the test-only loopback flag). */
  let IMAGE: string;

  const get = async (url: string) => {
    const response = await t.app.server.inject({ method: "GET", url, headers: { "api-key": key } });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };
  const media = async (address: string) => {
    const response = await get(`/predict/v9/markets/${address}/media`);
    expect(response.status, response.body).toBe(200);
    return JSON.parse(response.body) as PredictMarketMedia;
  };
  const setImage = (address: string, imageUrl: string | null) =>
    t.admin("PUT", `/admin/predict/markets/${address}/media`, { imageUrl });

  beforeAll(async () => {
    images = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "image/png", "content-length": PNG.length }).end(PNG);
    });
    await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
    IMAGE = `http://127.0.0.1:${(images.address() as AddressInfo).port}/markets/1.png`;
    ({ t, key } = await setupPredictApp({
      env: { IMAGE_PROXY_HOSTS: "127.0.0.1" },
      classicImageProxy: { allowLoopback: true, timeoutMs: 2_000 },
    }));
    await t.db.withConnection(async (connection) => {
      await connection.query(
        `INSERT INTO predict_markets (scope, chain_id, address, market_id, creator, question, seed, fee_bps, yes_pool,
           no_pool, backing, volume, status, created_block, created_at, updated_block, updated_at)
         VALUES ($1, 4663, $2, 1, '0x00000000000000000000000000000000000000aa', $3, 1000000000000000000, 100,
           1000000000000000000, 1000000000000000000, 1000000000000000000, 0, 'active', 11, $4, 11, $4)`,
        [SCOPE, MARKET, QUESTION, HEAD_TIME],
      );
    });
    // A fresh head, announced as the indexer announces a commit.
    await setPredictHead(t.db);
    await announcePredictCommit(t);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => images?.close(resolve));
  });

  it("answers the generated art of every market, an SVG without the question's text", async () => {
    const body = await media(MARKET.toUpperCase().replace("0X", "0x"));
    const artPath = `/classic/art/4663/${MARKET}/market.svg`;
    expect(body).toEqual({
      market: MARKET,
      images: [{ kind: "generated", url: `${PUBLIC_URL}${artPath}`, width: 400, height: 560 }],
    });
    // The art route is public: no key.
    const art = await t.app.server.inject({ method: "GET", url: artPath });
    expect(art.statusCode).toBe(200);
    expect(art.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(art.headers["content-security-policy"]).toBe("default-src 'none'");
    expect(art.body).toContain(">MARKET</text>");
    expect(art.body).not.toContain("<script");
    expect(art.body).not.toContain("friends");
    // Deterministic: the same market gives the same bytes, another market other ones.
    expect((await t.app.server.inject({ method: "GET", url: artPath })).body).toBe(art.body);
    const other = await t.app.server.inject({
      method: "GET",
      url: `/classic/art/4663/0x00000000000000000000000000000000000c0de2/market.svg`,
    });
    expect(other.body).not.toBe(art.body);
  });

  it("shows the operator's image as a signed proxy URL after the admin PUT, and drops it after null", async () => {
    const set = await setImage(MARKET, IMAGE);
    expect(set.statusCode, JSON.stringify(set.json())).toBe(200);
    expect(set.json()).toEqual({ market: MARKET, imageUrl: IMAGE });
    const body = await media(MARKET);
    expect(body.images).toHaveLength(2);
    const operator = body.images[1]!;
    expect(operator.kind).toBe("operator");
    const proxied = new URL(operator.url);
    expect(`${proxied.origin}${proxied.pathname}`).toMatch(
      new RegExp(`^${PUBLIC_URL}/classic/image/[A-Za-z0-9_-]{32}$`),
    );
    expect(proxied.searchParams.get("url")).toBe(IMAGE);
    // The signature is the classic proxy's: the proxy fetches the image through it, not through a forged one.
    const fetched = await t.app.server.inject({ method: "GET", url: `${proxied.pathname}${proxied.search}` });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers["content-type"]).toBe("image/png");
    expect(fetched.rawPayload.equals(PNG)).toBe(true);
    const forged = await t.app.server.inject({
      method: "GET",
      url: `/classic/image/${"0".repeat(32)}${proxied.search}`,
    });
    expect(forged.statusCode).toBe(404);

    const removed = await setImage(MARKET, null);
    expect(removed.json()).toEqual({ market: MARKET, imageUrl: null });
    expect((await media(MARKET)).images.map((image) => image.kind)).toEqual(["generated"]);
  });

  it("refuses an operator URL off the proxy's allowlist, or not http(s)", async () => {
    for (const url of [
      "https://evil.example.org/a.png",
      "http://localhost/a.png",
      "ftp://127.0.0.1/a.png",
      "https://user:pw@127.0.0.1/a.png",
      "not a url",
    ]) {
      const response = await setImage(MARKET, url);
      expect(response.statusCode, url).toBe(400);
    }
    expect((await setImage(MARKET, "https://evil.example.org/a.png")).json()).toEqual({
      error: "imageUrl's host evil.example.org is not on the image proxy's allowlist (IMAGE_PROXY_HOSTS)",
    });
    expect((await media(MARKET)).images.map((image) => image.kind)).toEqual(["generated"]);
  });

  it("answers 404 MARKET_NOT_FOUND for a market outside the projection and 400 for a bad address", async () => {
    const missing = await get("/predict/v9/markets/0x00000000000000000000000000000000000c0de2/media");
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ error: "MARKET_NOT_FOUND" });
    const bad = await get("/predict/v9/markets/0x1234/media");
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: "INVALID_INPUT" });
    expect((await setImage("0x1234", IMAGE)).statusCode).toBe(400);
  });
});

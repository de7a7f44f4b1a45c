import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { insertClassicGame, insertClassicMetadata } from "../../_test/classic.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { AppError } from "../../errors.ts";
import {
  createClassicImageLinks,
  createImageFetcher,
  createImageLinks,
  createImageProxyPolicy,
  type ImageLinks,
  isAllowedHost,
  isLoopbackAddress,
  isPublicAddress,
} from "../../media/index.ts";
import { createServerSecrets, hmac } from "../../secrets/index.ts";

const PUBLIC_URL = "https://api.mkt.test";
const PNG = Buffer.concat([
  Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
  Buffer.from("a tiny stand-in for the rest of a PNG"),
]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
const SIX_MB = 6 * 1024 * 1024;

/** The image host of the tests, on loopback: what it serves per path, and which paths were asked for. */
async function startImageHost() {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? "/";
    hits.push(path);
    switch (path) {
      case "/a.png":
      case "/b.png":
      case "/c.png":
        response.writeHead(200, { "content-type": "image/png", "content-length": PNG.length }).end(PNG);
        return;
      case "/a.svg":
        response.writeHead(200, { "content-type": "image/svg+xml" }).end(SVG);
        return;
      case "/svg-as.png":
        response.writeHead(200, { "content-type": "image/png" }).end(SVG);
        return;
      case "/huge.png": {
        // No Content-Length: the proxy must cut the stream off itself.
        response.writeHead(200, { "content-type": "image/png" });
        response.write(PNG);
        const chunk = Buffer.alloc(64 * 1024, 1);
        let sent = PNG.length;
        const pump = () => {
          while (sent < SIX_MB) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once("drain", pump);
          }
          response.end();
        };
        response.on("error", () => {});
        pump();
        return;
      }
      case "/declared-huge.png":
        response.writeHead(200, { "content-type": "image/png", "content-length": SIX_MB }).end();
        return;
      case "/redirect.png":
        response.writeHead(302, { location: "/a.png" }).end();
        return;
      case "/missing.png":
        response.writeHead(404).end();
        return;
      case "/stalls.png":
        return; // never answers
      default:
        response.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    hits,
    port,
    url: (path: string, host = "127.0.0.1") => `http://${host}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("classic image proxy and art", () => {
  let host: Awaited<ReturnType<typeof startImageHost>>;
  let database: TestDatabase;
  /** Allowlists 127.0.0.1 and may reach loopback (the test flag). */
  let open: TestApp;
  /** Allowlists 127.0.0.1, localhost and images.example, without the flag: production's rules. */
  let strict: TestApp;
  /** The image links of the `open` app's policy (the same signing key: one database). */
  let links: ImageLinks;
  /** This deployment's signing key, to sign URLs the links would never emit. */
  let key: Buffer;

  beforeAll(async () => {
    host = await startImageHost();
    database = await setupDatabase();
    open = await setupApp({
      database,
      env: { IMAGE_PROXY_HOSTS: "127.0.0.1" },
      classicImageProxy: { allowLoopback: true, timeoutMs: 300 },
    });
    strict = await setupApp({
      database,
      env: { IMAGE_PROXY_HOSTS: "127.0.0.1,localhost,images.example" },
    });
    const secrets = createServerSecrets({ db: database.db });
    links = await createClassicImageLinks({
      publicUrl: PUBLIC_URL,
      secrets,
      policy: createImageProxyPolicy({ hosts: ["127.0.0.1"], allowLoopback: true }),
    });
    key = await secrets.key("classic-images", "classic-image-proxy");
  });
  afterAll(async () => {
    await open?.close();
    await strict?.close();
    await database?.close();
    await host?.close();
  });

  /** GET of the proxied form of `original`, signed with this deployment's key, with no API key. */
  const proxied = (app: TestApp, original: string) => {
    const signature = hmac(key, `classic-image:${original}`).slice(0, 32);
    return app.app.server.inject({ url: `/classic/image/${signature}?url=${encodeURIComponent(original)}` });
  };
  const hitsOf = (path: string) => host.hits.filter((hit) => hit === path).length;

  describe("happy path", () => {
    it("serves an allowlisted PNG without a key, locked down and cacheable, and keeps it in memory", async () => {
      const response = await proxied(open, host.url("/a.png"));
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(PNG)).toBe(true);
      expect(response.headers["content-type"]).toBe("image/png");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["content-security-policy"]).toBe("default-src 'none'");
      expect(response.headers["cache-control"]).toBe("public, max-age=86400");
      const again = await proxied(open, host.url("/a.png"));
      expect(again.rawPayload.equals(PNG)).toBe(true);
      expect(hitsOf("/a.png")).toBe(1);
      // Concurrent requests for one image: one download between them (shared, then cached).
      const answers = await Promise.all([1, 2, 3].map(() => proxied(open, host.url("/c.png"))));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
      expect(hitsOf("/c.png")).toBe(1);
    });

    it("rewrites to the proxy exactly the URLs the proxy serves: allowlisted hosts on ports 80 and 443", () => {
      const only = createImageLinks({
        publicUrl: PUBLIC_URL,
        key,
        policy: createImageProxyPolicy({ hosts: ["images.example", "*.cdn.example"] }),
      });
      const signed = (url: string) =>
        `${PUBLIC_URL}/classic/image/${hmac(key, `classic-image:${url}`).slice(0, 32)}?url=${encodeURIComponent(url)}`;
      for (const url of [
        "https://images.example/a.png",
        "http://images.example/a.png",
        "https://images.example:443/a.png",
        "http://a.cdn.example:80/a.png",
      ])
        expect([url, only.link(url, false)]).toEqual([url, signed(url)]);
      for (const url of [
        "https://images.example:8443/a.png",
        "http://images.example:8080/a.png",
        "https://other.example/a.png",
        "https://cdn.example/a.png",
        "https://user:pw@images.example/a.png",
        "ftp://images.example/a.png",
      ])
        expect([url, only.link(url, false)]).toEqual([url, url]);
      expect(only.link(null, false)).toBeNull();
    });

    it("leaves our own URLs and the bypass variant unproxied", () => {
      expect(links.link(`${PUBLIC_URL}/classic/art/8453/0x01/1.svg`, false)).toBe(
        `${PUBLIC_URL}/classic/art/8453/0x01/1.svg`,
      );
      expect(links.link(host.url("/a.png"), true)).toBe(host.url("/a.png"));
    });
  });

  describe("refusals", () => {
    it("answers 404 for a tampered signature or another URL's signature, without fetching", async () => {
      const link = links.link(host.url("/b.png"), false)!.slice(PUBLIC_URL.length);
      const [, signature = ""] = /\/classic\/image\/([^?]+)/.exec(link) ?? [];
      const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
      const tampered = await open.app.server.inject({ url: link.replace(signature, flipped) });
      expect(tampered.statusCode).toBe(404);
      expect(tampered.json()).toEqual({
        success: false,
        message: "no image has this address",
        error: "IMAGE_NOT_FOUND",
      });
      const otherUrl = await open.app.server.inject({
        url: `/classic/image/${signature}?url=${encodeURIComponent(host.url("/a.svg"))}`,
      });
      expect(otherUrl.statusCode).toBe(404);
      const shortened = await open.app.server.inject({ url: link.replace(signature, signature.slice(1)) });
      expect(shortened.statusCode).toBe(404);
      expect(hitsOf("/b.png")).toBe(0);
      expect(hitsOf("/a.svg")).toBe(0);
    });

    it("refuses a host off the allowlist and a non-http scheme (403), without fetching", async () => {
      const offList = await proxied(open, host.url("/b.png", "localhost"));
      expect(offList.statusCode).toBe(403);
      expect(offList.json()).toMatchObject({ success: false, error: "IMAGE_HOST_NOT_ALLOWED" });
      const ftp = await proxied(open, "ftp://127.0.0.1/b.png");
      expect(ftp.statusCode).toBe(403);
      const credentials = await proxied(open, host.url("/b.png").replace("http://", "http://user:pw@"));
      expect(credentials.statusCode).toBe(403);
      expect(hitsOf("/b.png")).toBe(0);
    });

    it("refuses a URL naming a port other than 80 and 443 (403 IMAGE_PORT_NOT_ALLOWED) before connecting", async () => {
      for (const original of ["https://images.example:8443/a.png", "http://images.example:8080/a.png"]) {
        const response = await proxied(strict, original);
        expect([original, response.statusCode]).toEqual([original, 403]);
        expect(response.json()).toEqual({
          success: false,
          message: "the image proxy fetches from ports 80 and 443 only",
          error: "IMAGE_PORT_NOT_ALLOWED",
        });
      }
      // A host name resolving to loopback, reachable with the test flag: the port alone refuses it.
      const fetcher = createImageFetcher({
        policy: createImageProxyPolicy({ hosts: ["localhost"], allowLoopback: true }),
      });
      const refused = await fetcher.fetch(host.url("/b.png", "localhost")).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ kind: "forbidden", code: "IMAGE_PORT_NOT_ALLOWED" });
      expect(hitsOf("/b.png")).toBe(0);
    });

    it("refuses an allowlisted host on a private address, literal or resolved, without the test flag", async () => {
      const literal = await proxied(strict, host.url("/b.png"));
      expect(literal.statusCode).toBe(403);
      expect(literal.json()).toMatchObject({ error: "IMAGE_HOST_NOT_ALLOWED" });
      // Resolved: the test's image host listens on an ephemeral port, which the port rule refuses first,
      // so the lookup's own check is shown on port 80, refused before any connection.
      const fetcher = createImageFetcher({ policy: createImageProxyPolicy({ hosts: ["localhost"] }) });
      const resolved = await fetcher.fetch("http://localhost/b.png").catch((error: unknown) => error);
      expect(resolved).toMatchObject({
        kind: "forbidden",
        code: "IMAGE_HOST_NOT_ALLOWED",
        message: "the image host resolves to an address that is not public",
      });
      expect(hitsOf("/b.png")).toBe(0);
    });

    it("refuses SVG, a body that is not the image it claims, and oversized bodies (502, never cached)", async () => {
      const cases: [string, string][] = [
        ["/a.svg", "IMAGE_TYPE_NOT_ALLOWED"],
        ["/svg-as.png", "IMAGE_TYPE_NOT_ALLOWED"],
        ["/huge.png", "IMAGE_TOO_LARGE"],
        ["/declared-huge.png", "IMAGE_TOO_LARGE"],
      ];
      for (const [path, code] of cases) {
        const response = await proxied(open, host.url(path));
        expect([path, response.statusCode]).toEqual([path, 502]);
        expect(response.json()).toMatchObject({ success: false, error: code });
        expect(response.headers["cache-control"]).toBe("no-store");
        expect(response.body).not.toContain("<script");
      }
    });

    it("does not follow redirects; answers 502 for the host's failures and 504 for a stall", async () => {
      const redirect = await proxied(open, host.url("/redirect.png"));
      expect(redirect.statusCode).toBe(502);
      expect(redirect.json()).toMatchObject({ error: "IMAGE_UPSTREAM_ERROR" });
      expect(hitsOf("/redirect.png")).toBe(1);
      const missing = await proxied(open, host.url("/missing.png"));
      expect(missing.statusCode).toBe(502);
      expect(missing.json()).toMatchObject({
        error: "IMAGE_UPSTREAM_ERROR",
        message: "the image host answered 404",
      });
      const stalls = await proxied(open, host.url("/stalls.png"));
      expect(stalls.statusCode).toBe(504);
      expect(stalls.json()).toMatchObject({ error: "IMAGE_UPSTREAM_TIMEOUT" });
      expect(stalls.headers["cache-control"]).toBe("no-store");
    });
  });

  describe("image URLs in classic answers", () => {
    const GAME = `0x${"5e".repeat(20)}`;
    const CREATOR = `0x${"c1".repeat(20)}`;
    let plain: TestApp;
    const imageOf = (path: string) => host.url(path);

    beforeAll(async () => {
      // The default configuration: IMAGE_PROXY_HOSTS empty.
      plain = await setupApp({ database });
      await insertClassicGame(database.db, { address: GAME, creator: CREATOR, nftName: "Proxy Test" });
      const cards = [1, 2, 3, 4, 5].map((rarity) => ({
        name: `Card ${rarity}`,
        rarity,
        startId: rarity,
        endId: rarity,
        imageUrl: imageOf(`/a.png`),
        unopenedImageUrl: imageOf(`/c.png`),
      }));
      await insertClassicMetadata(database.db, {
        address: GAME,
        version: 1,
        effectiveFrom: new Date(Date.UTC(2025, 0, 1)),
        game: { description: "proxy test", imageUrl: imageOf("/a.png"), packImage: imageOf("/c.png") },
        cards,
      });
      await sql`
        INSERT INTO classic_packs (scope, chain_id, contract_address, token_id, owner, status, rarity, batch_id,
                                   acquired_price, mint_tx, mint_block, mint_time, updated_block, updated_at)
        VALUES ('classic-test', 8453, ${GAME}, 1, ${CREATOR}, 'minted', 0, 1, 1000, ${`0x${"1".padStart(64, "0")}`},
                1, ${new Date(Date.UTC(2025, 0, 2)).toISOString()}, 1, ${new Date(Date.UTC(2025, 0, 2)).toISOString()})`.execute(
        database.db.kysely,
      );
    });
    afterAll(() => plain?.close());

    /** The image URLs of the token JSON, the contract JSON and all-metadata (with its game) of `app`. */
    const imageUrls = async (app: TestApp) => {
      const apiKey = (await app.createKey()).key;
      const read = async (url: string, headers: Record<string, string> = {}) => {
        const response = await app.app.server.inject({ url: `/classic${url}`, headers });
        expect([url, response.statusCode]).toEqual([url, 200]);
        return response.json() as Record<string, unknown>;
      };
      const token = await read(`/metadata/${GAME}/1`);
      const contract = await read(`/metadata/${GAME}`);
      const all = await read(`/contractAddress/${GAME}/all-metadata?includeContractDetails=true`, {
        "api-key": apiKey,
      });
      const details = all["contractDetails"] as Record<string, unknown>;
      return {
        token: token["image"],
        contract: contract["image"],
        card: (all["metadata"] as Array<Record<string, unknown>>)[0]?.["imageUrl"],
        game: details["imageUrl"],
        packImage: details["packImage"],
      };
    };

    it("keeps the creator's URLs when the proxy would not serve them (default: no allowlisted host)", async () => {
      expect(await imageUrls(plain)).toEqual({
        token: imageOf("/c.png"),
        contract: imageOf("/a.png"),
        card: imageOf("/a.png"),
        game: imageOf("/a.png"),
        packImage: imageOf("/c.png"),
      });
    });

    it("answers signed proxy URLs for an allowlisted host, and the proxy serves them", async () => {
      const urls = await imageUrls(open);
      const proxy = `${PUBLIC_URL}/classic/image/`;
      for (const [field, original] of [
        ["token", imageOf("/c.png")],
        ["contract", imageOf("/a.png")],
        ["card", imageOf("/a.png")],
        ["game", imageOf("/a.png")],
        ["packImage", imageOf("/c.png")],
      ] as const)
        expect([field, urls[field]]).toEqual([field, links.link(original, false)]);
      const tokenImage = String(urls.token);
      expect(tokenImage.startsWith(proxy)).toBe(true);
      const served = await open.app.server.inject({ url: tokenImage.slice(PUBLIC_URL.length) });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(PNG)).toBe(true);
    });
  });

  describe("generated art", () => {
    const address = "0x00000000000000000000000000000000000000aB";
    const art = (path: string) => open.app.server.inject({ url: `/classic/art/${path}` });

    it("serves a deterministic SVG per chain, drop and card, without a key", async () => {
      const first = await art(`8453/${address}/12.svg`);
      expect(first.statusCode).toBe(200);
      expect(first.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
      expect(first.headers["content-security-policy"]).toBe("default-src 'none'");
      expect(first.headers["x-content-type-options"]).toBe("nosniff");
      expect(first.headers["cache-control"]).toBe("public, max-age=86400");
      expect(first.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(first.body).toContain(">#12</text>");
      expect(first.body).not.toMatch(/<script|href|on[a-z]+=/i);
      // Same subject, same bytes (the address is taken case-insensitively); another card, other colours.
      expect((await art(`8453/${address.toLowerCase()}/12.svg`)).body).toBe(first.body);
      const other = await art(`8453/${address}/13.svg`);
      expect(other.body).toContain(">#13</text>");
      expect(other.body.replace("#13", "#12")).not.toBe(first.body);
      const pack = await art(`4663/${address}/pack.svg`);
      expect(pack.statusCode).toBe(200);
      expect(pack.body).toContain(">PACK</text>");
    });

    it("refuses malformed subjects with 400", async () => {
      for (const path of [
        `8453/${address}/0.svg`,
        `8453/${address}/10001.svg`,
        `8453/${address}/012.svg`,
        `8453/${address}/packs.svg`,
        `8453/0x1234/1.svg`,
        `0/${address}/1.svg`,
      ]) {
        const response = await art(path);
        expect([path, response.statusCode]).toEqual([path, 400]);
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
      expect((await art(`8453/${address}/10000.svg`)).statusCode).toBe(200);
    });
  });
});

describe("address policy", () => {
  it("allows public unicast addresses only", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:8.8.8.8",
      "64:ff9b::a00:1",
      "2002:a00:1::",
      "fd00::1",
      "fe80::1",
      "ff02::1",
      "not an address",
    ])
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    // The tests' loopback allowance covers loopback only, never another private range.
    expect(["127.0.0.1", "127.8.9.10", "::1"].map(isLoopbackAddress)).toEqual([true, true, true]);
    expect(["10.0.0.1", "169.254.169.254", "::ffff:127.0.0.1", "fd00::1"].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("matches allowlisted hosts exactly, and subdomains for *. entries", () => {
    const list = ["images.example.com", "*.ipfs.example"];
    expect(isAllowedHost(list, "images.example.com")).toBe(true);
    expect(isAllowedHost(list, "images.example.com.")).toBe(true);
    expect(isAllowedHost(list, "evil-images.example.com")).toBe(false);
    expect(isAllowedHost(list, "images.example.com.evil.test")).toBe(false);
    expect(isAllowedHost(list, "a.ipfs.example")).toBe(true);
    expect(isAllowedHost(list, "a.b.ipfs.example")).toBe(true);
    expect(isAllowedHost(list, "ipfs.example")).toBe(false);
    expect(isAllowedHost(list, "xipfs.example")).toBe(false);
    expect(isAllowedHost([], "images.example.com")).toBe(false);
  });
});

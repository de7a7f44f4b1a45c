import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import {
  insertClassicFlags,
  insertClassicGame,
  insertClassicMetadata,
  insertClassicSlug,
} from "../../_test/classic.ts";
import { noPriceSource } from "../price.ts";

const ETHER = 10n ** 18n;
const PUBLIC = "https://api.mkt.test";
const A = `0x${"a".repeat(40)}`;
const B = `0x${"b".repeat(40)}`;
const C = `0x${"c".repeat(38)}01`;
const UNKNOWN = `0x${"d".repeat(40)}`;
const CREATOR_1 = `0x${"1".repeat(40)}`;
const CREATOR_2 = `0x${"2".repeat(40)}`;
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const HOUR = 3_600_000;

interface Game {
  dropContractAddress: string;
  slug: string;
  marketCap: string;
  marketCapUsd: string;
  pricePerPack: string;
  pricePerPackUsd: string;
  preorderProgress: number;
  version: string | number;
  imageUrl: string | null;
  potentialCards: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

async function insertPack(app: TestApp, address: string, tokenId: number, mintTime: number) {
  await sql`
    INSERT INTO classic_packs (scope, chain_id, contract_address, token_id, owner, status, rarity, batch_id,
                               acquired_price, mint_tx, mint_block, mint_time, updated_block, updated_at)
    VALUES ('classic-test', 8453, ${address}, ${tokenId}, ${CREATOR_1}, 'minted', 0, 1, 1000,
            ${`0x${tokenId.toString(16).padStart(64, "0")}`}, 1, ${new Date(mintTime).toISOString()}, 1,
            ${new Date(mintTime).toISOString()})`.execute(app.db.kysely);
}

/** Three games: A on its curve with default metadata, B graduated, C paused with two creator revisions. */
async function seed(app: TestApp) {
  await insertClassicGame(app.db, {
    address: A,
    gameId: 1n,
    creator: CREATOR_1,
    nftName: "Desert Bloom",
    nftSymbol: "DBLM",
    tokenName: "Bloom Ticket",
    tokenSymbol: "BLOOM",
    pricePerPack: ETHER / 1000n,
    virtualEth: ETHER,
    virtualTokens: 1_000_000n * ETHER,
    ethReserve: 123_456n * 10n ** 12n,
    tokensSold: 200_000n * ETHER,
    graduationEth: 2n * ETHER,
    packsMinted: 7n,
    createdBlock: 10,
    offers: [10n * ETHER, 115n * ETHER, 400n * ETHER, 4000n * ETHER, 20000n * ETHER],
  });
  await insertClassicGame(app.db, {
    address: B,
    gameId: 2n,
    creator: CREATOR_1,
    nftName: "Harbor Lights",
    nftSymbol: "HRBR",
    isGraduated: true,
    tokensSold: 800_000n * ETHER,
    poolEth: 3n * ETHER,
    poolTokens: 600_000n * ETHER,
    graduationEth: 2n * ETHER,
    mintVolume: 5n * ETHER,
    createdBlock: 20,
  });
  await insertClassicGame(app.db, {
    address: C,
    gameId: 3n,
    creator: CREATOR_2,
    nftName: "Night Market",
    nftSymbol: "NITE",
    isActive: false,
    oddsBps: [6653, 2400, 900, 45, 2],
    mintVolume: ETHER,
    packsMinted: 12n,
    createdBlock: 30,
  });
  await insertClassicSlug(app.db, C, "night-market");
  await insertClassicFlags(app.db, B, { isFeatured: true, isVerified: true });
  await insertClassicFlags(app.db, C, { isFeatured: true, isMarketfit: true });
  const cardsV1 = [
    { name: "Lantern", rarity: 1, startId: 1, endId: 4 },
    { name: "Stall", rarity: 2, startId: 5, endId: 5 },
    { name: "Crowd", rarity: 3, startId: 6, endId: 6 },
    { name: "Moon", rarity: 4, startId: 7, endId: 7 },
    { name: "Dragon", rarity: 5, startId: 8, endId: 8 },
  ];
  await insertClassicMetadata(app.db, {
    address: C,
    version: 1,
    effectiveFrom: new Date(Date.UTC(2026, 0, 1)),
    effectiveUntil: new Date(Date.UTC(2026, 5, 1)),
    game: { description: "first revision", imageUrl: "https://images.example/c1.png" },
    cards: cardsV1,
  });
  await insertClassicMetadata(app.db, {
    address: C,
    version: 2,
    effectiveFrom: new Date(Date.UTC(2026, 5, 1)),
    game: {
      description: "Stalls under paper lanterns.",
      imageUrl: "https://images.example/c.png",
      featuredImageUrl: "https://images.example/c-banner.png",
      websiteUrl: "https://night.example",
      links: { twitter: "https://x.com/night", website: "https://night.example", discord: "" },
      isNSFW: false,
      disableWear: true,
    },
    cards: [
      { name: "Lantern", rarity: 1, startId: 1, endId: 3, imageUrl: "https://images.example/lantern.png" },
      { name: "Noodles", rarity: 1, startId: 4, endId: 4 },
      ...cardsV1.slice(1),
    ],
  });
  // Trending: C has a mint in the last 24 hours, B only older ones (but more volume).
  await insertPack(app, C, 1, NOW - HOUR);
  for (const id of [1, 2, 3]) await insertPack(app, B, id, NOW - 48 * HOUR);
}

describe("classic game reads", () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    // The creator images of the fixtures are on images.example: the image proxy serves that host.
    app = await setupApp({ clock: createManualClock(NOW), env: { IMAGE_PROXY_HOSTS: "images.example" } });
    await seed(app);
    key = (await app.createKey({ multiplier: 20 })).key;
  });
  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.app.server.inject({ url: `/classic${url}`, headers: { "api-key": key, ...headers } });
  const json = async (url: string, headers?: Record<string, string>) => {
    const response = await get(url, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Record<string, unknown>;
  };
  const addresses = (body: Record<string, unknown>) =>
    (body["games"] as Game[]).map((game) => game.dropContractAddress);

  describe("GET /games", () => {
    it("lists newest first with computed prices and default metadata", async () => {
      const body = await json("/games");
      expect(body["success"]).toBe(true);
      expect(addresses(body)).toEqual([C, B, A]);
      expect(body["pagination"]).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
      const [c, b, a] = body["games"] as Game[];
      // A: x = 1 + 0.123456 ETH, y = 800,000 tokens, supply 200,000: x * supply / y = 0.280864 ETH.
      expect(a).toMatchObject({
        gameId: "1",
        nftName: "Desert Bloom",
        slug: "desert-bloom-1",
        marketCap: "280864000000000000",
        marketCapUsd: "$842.59",
        pricePerPack: "1000000000000000",
        pricePerPackUsd: "$3.00",
        preorderProgress: 6.17,
        isGraduated: false,
        isActive: true,
        isFeatured: false,
        version: "0",
        links: { twitter: "", website: "", discord: "" },
        imageUrl: `${PUBLIC}/classic/art/8453/${A}/pack.svg`,
        ownerAddress: CREATOR_1,
      });
      expect(a?.potentialCards.map((card) => [card["name"], card["startId"], card["odds"]])).toEqual([
        ["Desert Bloom Common", 1, 60],
        ["Desert Bloom Rare", 2, 25],
        ["Desert Bloom Epic", 3, 10],
        ["Desert Bloom Legendary", 4, 4],
        ["Desert Bloom Mythic", 5, 1],
      ]);
      expect(a?.potentialCards[0]).toMatchObject({
        metadataSource: "default",
        version: 0,
        imageUrl: `${PUBLIC}/classic/art/8453/${A}/1.svg`,
        effectiveFrom: null,
      });
      // B graduated: pool price 3 / 600,000 ETH per token, supply 1,400,000 tokens: 7 ETH.
      expect(b).toMatchObject({
        marketCap: "7000000000000000000",
        marketCapUsd: "$21,000.00",
        preorderProgress: 100,
        isFeatured: true,
        isVerified: true,
      });
      // C: no curve state and no graduation target.
      expect(c).toMatchObject({
        marketCap: "0",
        preorderProgress: 0,
        isActive: false,
        slug: "night-market",
        version: "2",
        description: "Stalls under paper lanterns.",
        disableWear: true,
        websiteUrl: "https://night.example",
      });
    });

    it("pages with total and totalPages", async () => {
      const second = await json("/games?limit=2&page=2");
      expect(addresses(second)).toEqual([A]);
      expect(second["pagination"]).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
      const past = await json("/games?limit=2&page=5");
      expect(past["games"]).toEqual([]);
      expect(past["pagination"]).toEqual({ page: 5, limit: 2, total: 3, totalPages: 2 });
      const other = await json("/games?chainId=1");
      expect(other["pagination"]).toEqual({ page: 1, limit: 20, total: 0, totalPages: 0 });
    });

    it("filters by active, graduated and featured", async () => {
      expect(addresses(await json("/games?active=false"))).toEqual([C]);
      expect(addresses(await json("/games?active=true"))).toEqual([B, A]);
      expect(addresses(await json("/games?includeGraduated=false"))).toEqual([C, A]);
      expect(addresses(await json("/games?featured=true"))).toEqual([C, B]);
      const notFeatured = await json("/games?featured=false&limit=1");
      expect(addresses(notFeatured)).toEqual([A]);
      expect(notFeatured["pagination"]).toEqual({ page: 1, limit: 1, total: 1, totalPages: 1 });
    });

    it("refuses malformed paging and filters with VALIDATION_ERROR", async () => {
      for (const query of ["limit=101", "limit=0", "page=0", "active=maybe", "chainId=0", "chainId=x"]) {
        const response = await get(`/games?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
    });
  });

  describe("GET /search", () => {
    it("matches name, symbol and slug case-insensitively, and the creator", async () => {
      expect(addresses(await json("/search?q=BLOOM"))).toEqual([A]);
      expect(addresses(await json("/search?q=hrbr"))).toEqual([B]);
      expect(addresses(await json("/search?q=night-mar"))).toEqual([C]);
      expect(addresses(await json("/search?q=%25"))).toEqual([]);
      expect(
        addresses(await json(`/search?ownerAddress=${CREATOR_1.toUpperCase().replace("0X", "0x")}`)),
      ).toEqual([B, A]);
      expect(addresses(await json(`/search?ownerAddress=${CREATOR_1}&q=desert`))).toEqual([A]);
      const paged = await json(`/search?ownerAddress=${CREATOR_1}&limit=1&page=2`);
      expect(addresses(paged)).toEqual([A]);
      expect(paged["pagination"]).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    });

    it("answers the search variant of a game", async () => {
      const [c] = (await json("/search?q=night"))["games"] as Game[];
      expect(c).toMatchObject({
        version: 2,
        isNSFW: false,
        isMarketfit: true,
        links: { twitter: "https://x.com/night", website: "https://night.example" },
      });
      expect(c?.["links"]).not.toHaveProperty("discord");
    });

    it("needs q or ownerAddress, and bounds them", async () => {
      for (const query of [
        "",
        "chainId=8453",
        "q=",
        `q=${"x".repeat(101)}`,
        "ownerAddress=0x12",
        "q=a&limit=101",
        "q=a&chainId=0",
      ]) {
        const response = await get(`/search?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
    });
  });

  describe("GET /featured", () => {
    it("sorts featured games by each rule", async () => {
      expect(addresses(await json("/featured"))).toEqual([C, B]);
      expect(addresses(await json("/featured?sortBy=trending"))).toEqual([C, B]);
      expect(addresses(await json("/featured?sortBy=volume"))).toEqual([B, C]);
      expect(addresses(await json("/featured?sortBy=marketCap"))).toEqual([B, C]);
      expect(addresses(await json("/featured?sortBy=newest"))).toEqual([C, B]);
      expect(addresses(await json("/featured?sortBy=volume&limit=1"))).toEqual([B]);
    });

    it("refuses unknown sorts and limits beyond 50", async () => {
      for (const query of ["sortBy=hot", "limit=51", "limit=0"]) {
        const response = await get(`/featured?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json()).toMatchObject({ error: "VALIDATION_ERROR" });
      }
    });
  });

  describe("GET /contractAddress/{addressOrSlug}", () => {
    it("finds a game by address in any case, creator slug and default slug", async () => {
      const byAddress = await json(`/contractAddress/0x${"A".repeat(40)}`);
      expect((byAddress["contractInfo"] as Game).dropContractAddress).toBe(A);
      expect(
        ((await json("/contractAddress/Night-Market"))["contractInfo"] as Game).dropContractAddress,
      ).toBe(C);
      expect(
        ((await json("/contractAddress/harbor-lights-2"))["contractInfo"] as Game).dropContractAddress,
      ).toBe(B);
    });

    it("answers 404 GAME_NOT_FOUND and 400 for malformed input", async () => {
      for (const path of [
        `/contractAddress/${UNKNOWN}`,
        "/contractAddress/no-such-game",
        `/contractAddress/${A}?chainId=1`,
      ]) {
        const response = await get(path);
        expect(response.statusCode, path).toBe(404);
        expect(response.json()).toEqual({
          success: false,
          message: expect.any(String),
          error: "GAME_NOT_FOUND",
        });
      }
      for (const path of [
        "/contractAddress/bad_slug!",
        `/contractAddress/${"x".repeat(81)}`,
        `/contractAddress/${A}?chainId=abc`,
      ]) {
        const response = await get(path);
        expect(response.statusCode, path).toBe(400);
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
    });

    it("reports readiness", async () => {
      expect(await json(`/contractAddress/${UNKNOWN}/ready`)).toEqual({
        success: true,
        ready: false,
        progress: 0,
        status: "indexing",
        metadataSource: null,
      });
      expect(await json(`/contractAddress/${A}/ready`)).toEqual({
        success: true,
        ready: true,
        progress: 100,
        status: "ready",
        metadataSource: "default",
      });
      expect((await json("/contractAddress/night-market/ready"))["metadataSource"]).toBe("user");
      const unknownSlug = await get("/contractAddress/nobody-has-this/ready");
      expect(unknownSlug.statusCode).toBe(404);
      expect(unknownSlug.json()).toMatchObject({ error: "GAME_NOT_FOUND" });
    });

    it("lists every card with its odds and the packs minted", async () => {
      const body = await json("/contractAddress/night-market/all-metadata");
      expect(body["totalTokens"]).toBe(12);
      expect(body).not.toHaveProperty("contractDetails");
      // Common 66.53% over four card ids: Lantern covers three of them, Noodles one.
      expect(body["metadata"]).toEqual([
        {
          name: "Lantern",
          description: "",
          imageUrl: expect.stringContaining("/classic/image/"),
          rarity: 1,
          startId: 1,
          endId: 3,
          odds: 49.8975,
          oddsFormatted: "49.8975%",
        },
        {
          name: "Noodles",
          description: "",
          imageUrl: null,
          rarity: 1,
          startId: 4,
          endId: 4,
          odds: 16.6325,
          oddsFormatted: "16.6325%",
        },
        {
          name: "Stall",
          description: "",
          imageUrl: null,
          rarity: 2,
          startId: 5,
          endId: 5,
          odds: 24,
          oddsFormatted: "24%",
        },
        {
          name: "Crowd",
          description: "",
          imageUrl: null,
          rarity: 3,
          startId: 6,
          endId: 6,
          odds: 9,
          oddsFormatted: "9%",
        },
        {
          name: "Moon",
          description: "",
          imageUrl: null,
          rarity: 4,
          startId: 7,
          endId: 7,
          odds: 0.45,
          oddsFormatted: "0.45%",
        },
        {
          name: "Dragon",
          description: "",
          imageUrl: null,
          rarity: 5,
          startId: 8,
          endId: 8,
          odds: 0.02,
          oddsFormatted: "0.02%",
        },
      ]);
      const detailed = await json(`/contractAddress/${C}/all-metadata?includeContractDetails=true`);
      expect((detailed["contractDetails"] as Game).slug).toBe("night-market");
      // totalTokens and the prices of contractDetails are game state: kept about 5 seconds, not 5 minutes.
      for (const query of ["", "?includeContractDetails=true"]) {
        const response = await get(`/contractAddress/${C}/all-metadata${query}`);
        expect([
          query,
          response.headers["cache-control"]?.split(", ").find((part) => part.startsWith("max-age=")),
        ]).toEqual([query, "max-age=5"]);
      }
      expect((await get(`/contractAddress/${C}/all-metadata?includeContractDetails=yes`)).statusCode).toBe(
        400,
      );
    });
  });

  describe("GET /metadata views", () => {
    it("serves the contract-level JSON with neither credential", async () => {
      const response = await app.app.server.inject({
        url: `/classic/metadata/${C}`,
        headers: { "x-bypass-image-proxy": "true" },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("public, max-age=300");
      expect(response.json()).toEqual({
        name: "Night Market",
        symbol: "NITE",
        description: "Stalls under paper lanterns.",
        image: "https://images.example/c.png",
        banner_image: "https://images.example/c-banner.png",
        featured_image: "https://images.example/c-banner.png",
        external_link: "https://night.example",
        external_url: "https://night.example",
        collaborators: [CREATOR_2],
        seller_fee_basis_points: 0,
        fee_recipient: CREATOR_2,
      });
      const byDefault = await app.app.server.inject({ url: "/classic/metadata/desert-bloom-1" });
      expect(byDefault.json()).toMatchObject({
        name: "Desert Bloom",
        image: `${PUBLIC}/classic/art/8453/${A}/pack.svg`,
        banner_image: null,
        external_link: null,
      });
      const missing = await app.app.server.inject({ url: `/classic/metadata/${UNKNOWN}` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: "GAME_NOT_FOUND" });
    });

    it("picks the revision in effect at `at`", async () => {
      const now = await json("/metadata/night-market/cards");
      expect(now).toMatchObject({
        metadataSource: "user",
        version: 2,
        effectiveFrom: "2026-06-01T00:00:00.000Z",
        effectiveUntil: null,
      });
      expect((now["cards"] as Game[]).map((card) => card["name"])).toEqual([
        "Lantern",
        "Noodles",
        "Stall",
        "Crowd",
        "Moon",
        "Dragon",
      ]);
      const march = await json("/metadata/night-market/cards?at=2026-03-01T00:00:00Z");
      expect(march).toMatchObject({
        version: 1,
        effectiveFrom: "2026-01-01T00:00:00.000Z",
        effectiveUntil: "2026-06-01T00:00:00.000Z",
      });
      expect((march["cards"] as Game[]).map((card) => [card["name"], card["odds"]])).toEqual([
        ["Lantern", 66.53],
        ["Stall", 24],
        ["Crowd", 9],
        ["Moon", 0.45],
        ["Dragon", 0.02],
      ]);
      // The boundary belongs to the later revision.
      expect((await json("/metadata/night-market/cards?at=2026-06-01T00:00:00Z"))["version"]).toBe(2);
      const before = await json("/metadata/night-market/cards?at=2025-12-01T00:00:00%2B01:00");
      expect(before).toMatchObject({ metadataSource: "default", version: 0, effectiveFrom: null });
      expect((before["cards"] as Game[])[0]?.["name"]).toBe("Night Market Common");
      const bad = await get("/metadata/night-market/cards?at=yesterday");
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: "VALIDATION_ERROR" });
      expect((await app.app.server.inject({ url: "/classic/metadata/night-market/cards" })).statusCode).toBe(
        429,
      );
    });

    it("shows the rarity odds with offers and card counts", async () => {
      const body = await json("/metadata/desert-bloom-1/odds");
      expect(body).toMatchObject({
        contractAddress: A,
        slug: "desert-bloom-1",
        metadataSource: "default",
        version: 0,
      });
      expect(body["rarities"]).toEqual([
        {
          rarity: 1,
          name: "Common",
          oddsBps: 6000,
          percent: 60,
          oddsFormatted: "60%",
          sellBackOffer: "10000000000000000000",
          cards: 1,
        },
        {
          rarity: 2,
          name: "Rare",
          oddsBps: 2500,
          percent: 25,
          oddsFormatted: "25%",
          sellBackOffer: "115000000000000000000",
          cards: 1,
        },
        {
          rarity: 3,
          name: "Epic",
          oddsBps: 1000,
          percent: 10,
          oddsFormatted: "10%",
          sellBackOffer: "400000000000000000000",
          cards: 1,
        },
        {
          rarity: 4,
          name: "Legendary",
          oddsBps: 400,
          percent: 4,
          oddsFormatted: "4%",
          sellBackOffer: "4000000000000000000000",
          cards: 1,
        },
        {
          rarity: 5,
          name: "Mythic",
          oddsBps: 100,
          percent: 1,
          oddsFormatted: "1%",
          sellBackOffer: "20000000000000000000000",
          cards: 1,
        },
      ]);
      const night = await json("/metadata/night-market/odds");
      expect(
        (night["rarities"] as Array<Record<string, unknown>>).map((rarity) => [
          rarity["oddsFormatted"],
          rarity["cards"],
        ]),
      ).toEqual([
        ["66.53%", 2],
        ["24%", 1],
        ["9%", 1],
        ["0.45%", 1],
        ["0.02%", 1],
      ]);
    });
  });

  describe("image URLs", () => {
    it("are proxied when the proxy serves their host, original with X-Bypass-Image-Proxy, cached apart", async () => {
      const proxied = await get(`/contractAddress/${C}`);
      const original = await get(`/contractAddress/${C}`, { "x-bypass-image-proxy": "true" });
      const proxiedGame = proxied.json().contractInfo as Game;
      const originalGame = original.json().contractInfo as Game;
      expect(originalGame.imageUrl).toBe("https://images.example/c.png");
      expect(proxiedGame.imageUrl).toMatch(
        new RegExp(
          `^${PUBLIC}/classic/image/[A-Za-z0-9_-]{32}\\?url=${encodeURIComponent("https://images.example/c.png").replaceAll(".", "\\.")}$`,
        ),
      );
      expect(originalGame.potentialCards[0]?.["imageUrl"]).toBe("https://images.example/lantern.png");
      expect(proxied.headers["etag"]).toBeDefined();
      expect(proxied.headers["etag"]).not.toBe(original.headers["etag"]);
      expect(proxied.headers["vary"]).toContain("x-bypass-image-proxy");
      // Repeated, each variant comes back from the read cache with its own ETag.
      const again = await get(`/contractAddress/${C}`, { "x-bypass-image-proxy": "true" });
      expect(again.headers["etag"]).toBe(original.headers["etag"]);
      expect((again.json().contractInfo as Game).imageUrl).toBe("https://images.example/c.png");
      // Our own art is never proxied.
      expect(((await json(`/contractAddress/${A}`))["contractInfo"] as Game).imageUrl).toBe(
        `${PUBLIC}/classic/art/8453/${A}/pack.svg`,
      );
    });

    it("bypass changes neither the key requirement nor the budget", async () => {
      const response = await app.app.server.inject({
        url: "/classic/games",
        headers: { "x-bypass-image-proxy": "true" },
      });
      expect(response.statusCode).toBe(429);
    });
  });

  describe("operator flags", () => {
    it("features a game through the admin listener, and the cached reads move", async () => {
      expect(addresses(await json("/featured?sortBy=newest"))).toEqual([C, B]);
      const patched = await app.admin(
        "PATCH",
        `/admin/classic/games/8453/${A.toUpperCase().replace("0X", "0x")}`,
        { isFeatured: true, isVerifiedArtist: true },
      );
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toEqual({
        chainId: 8453,
        contractAddress: A,
        isFeatured: true,
        isVerified: false,
        isVerifiedArtist: true,
        isMarketfit: false,
      });
      expect(addresses(await json("/featured?sortBy=newest"))).toEqual([C, B, A]);
      const unfeatured = await app.admin("PATCH", `/admin/classic/games/8453/${A}`, { isFeatured: false });
      expect(unfeatured.json()).toMatchObject({ isFeatured: false, isVerifiedArtist: true });
      expect(addresses(await json("/featured?sortBy=newest"))).toEqual([C, B]);
    });

    it("refuses unknown games and malformed changes", async () => {
      expect(
        (await app.admin("PATCH", `/admin/classic/games/8453/${UNKNOWN}`, { isFeatured: true })).statusCode,
      ).toBe(404);
      expect(
        (await app.admin("PATCH", `/admin/classic/games/8453/${A}`, { isFeatured: "yes" })).statusCode,
      ).toBe(400);
      expect(
        (await app.admin("PATCH", `/admin/classic/games/8453/${A}`, { featured: true })).statusCode,
      ).toBe(400);
      expect(
        (await app.admin("PATCH", "/admin/classic/games/8453/0x12", { isFeatured: true })).statusCode,
      ).toBe(400);
      expect(
        (await app.admin("PATCH", `/admin/classic/games/zero/${A}`, { isFeatured: true })).statusCode,
      ).toBe(400);
    });
  });
});

describe("classic game reads without an ETH/USD price", () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    app = await setupApp({
      clock: createManualClock(NOW),
      ethUsdPrice: noPriceSource,
    });
    await seed(app);
    key = (await app.createKey({ multiplier: 5 })).key;
  });
  afterAll(() => app.close());
  const get = (url: string) => app.app.server.inject({ url: `/classic${url}`, headers: { "api-key": key } });

  it("answers 503 PRICE_UNAVAILABLE where a game is priced, and the price-free views still", async () => {
    for (const url of [
      "/games",
      "/search?q=bloom",
      "/featured",
      `/contractAddress/${A}`,
      `/contractAddress/${A}/all-metadata?includeContractDetails=true`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(503);
      expect(response.json()).toEqual({
        success: false,
        message: expect.any(String),
        error: "PRICE_UNAVAILABLE",
      });
      expect(response.headers["cache-control"]).toBe("no-store");
    }
    expect((await get("/games?chainId=1")).statusCode).toBe(200);
    expect((await get(`/contractAddress/${A}/all-metadata`)).statusCode).toBe(200);
    expect((await get(`/metadata/${A}/odds`)).statusCode).toBe(200);
  });
});

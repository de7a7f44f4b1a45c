import { encodeAbiParameters, hexToBigInt, keccak256 } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { insertClassicFlags, insertClassicMetadata } from "../../_test/classic.ts";
import { addressOf, insertGame, insertPack } from "../../_test/classic-packs.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { CLASSIC_INDEXER_SOURCE } from "../routes.ts";

const A = addressOf(0xa1);
const A_TOKEN = addressOf(0xa2);
const B = addressOf(0xb1);
const B_TOKEN = addressOf(0xb2);
const ALICE = addressOf(0x1a);
const BOB = addressOf(0x1b);
/** Above 2^53 and above 2^64: only an exact writer keeps them. */
const BIG = 2n ** 60n + 1n;
const HUGE = 2n ** 200n + 5n;
const day = (d: number, h = 0) => new Date(Date.UTC(2026, 0, d, h));

const h = (seed: bigint, n: bigint) =>
  hexToBigInt(keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [seed, n])));

describe("classic pack reads", () => {
  let t: TestApp;
  let key: string;
  let noPrice = false;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await setupDatabase();
    t = await setupApp({
      database,
      ethUsdPrice: {
        quote: async () => (noPrice ? undefined : { usdPerEth: "3000", obtainedAt: new Date() }),
      },
    });
    key = (await t.createKey()).key;
    await insertGame(t.db, { drop: A, token: A_TOKEN, gameId: "1", nftName: "Alpha", slug: "alpha-1" });
    await insertGame(t.db, { drop: B, token: B_TOKEN, gameId: "2", nftName: "Beta", slug: "beta-2" });
    // Game A has creator metadata (one card per rarity, card ids 1..5); game B the default one.
    await insertClassicMetadata(t.db, {
      address: A,
      version: 1,
      effectiveFrom: day(1),
      game: {},
      cards: ["Common", "Rare", "Epic", "Legendary", "Mythic"].map((name, index) => ({
        name,
        description: `${name}, a test card`,
        imageUrl: `https://img.example/${name}.png`,
        unopenedImageUrl: `https://img.example/${name}-pack.png`,
        rarity: index + 1,
        startId: index + 1,
        endId: index + 1,
      })),
    });
    await insertClassicFlags(t.db, A, { isMarketfit: true });
    // Game A: six packs of Alice and Bob in every state, plus two huge ids.
    await insertPack(t.db, { drop: A, tokenId: 1n, owner: ALICE, updatedAt: day(5), mintTime: day(2) });
    await insertPack(t.db, {
      drop: A,
      tokenId: 2n,
      owner: ALICE,
      status: "rarity_assigned",
      rarity: 1,
      updatedAt: day(6),
      mintTime: day(2),
    });
    await insertPack(t.db, {
      drop: A,
      tokenId: 3n,
      owner: ALICE,
      status: "opened",
      rarity: 2,
      updatedAt: day(7),
      mintTime: day(3),
    });
    await insertPack(t.db, {
      drop: A,
      tokenId: 4n,
      owner: BOB,
      status: "burned",
      rarity: 4,
      rewardAmount: 40n,
      updatedAt: day(7),
      mintTime: day(3),
    });
    await insertPack(t.db, {
      drop: A,
      tokenId: 5n,
      owner: BOB,
      status: "rarity_assigned",
      rarity: 5,
      updatedAt: day(4),
      mintTime: day(4),
    });
    await insertPack(t.db, { drop: A, tokenId: BIG, owner: ALICE, updatedAt: day(3), mintTime: day(3) });
    await insertPack(t.db, { drop: A, tokenId: HUGE, owner: BOB, updatedAt: day(1), mintTime: day(1) });
    // Game B: one pack of Alice.
    await insertPack(t.db, {
      drop: B,
      tokenId: 1n,
      owner: ALICE,
      status: "rarity_assigned",
      rarity: 3,
      updatedAt: day(8),
      mintTime: day(8),
    });
    await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  /** Original image URLs unless asked otherwise, to compare with the fixture's. */
  const get = (url: string, headers: Record<string, string> = { "api-key": key }) =>
    t.app.server.inject({ url: `/classic${url}`, headers: { "x-bypass-image-proxy": "true", ...headers } });
  const ids = (body: { boosterBoxes?: { tokenIdString: string }[]; boxes?: { tokenIdString: string }[] }) =>
    (body.boosterBoxes ?? body.boxes ?? []).map((pack) => pack.tokenIdString);

  it("publishes every pack and activity route, with exact integer token ids, in the classic document", async () => {
    const document = (await t.app.server.inject({ url: "/openapi/classic.json" })).json();
    for (const path of [
      "/classic/range",
      "/classic/owner/{address}",
      "/classic/collection/{ownerAddress}",
      "/classic/collection/{contractAddress}/events",
      "/classic/recent",
      "/classic/metadata/{addressOrSlug}/{tokenId}",
    ])
      expect(document.paths[path]?.get, path).toBeDefined();
    const text = JSON.stringify(document.paths["/classic/range"]);
    expect(text).toContain("rarity_assigned");
    expect(text).toContain("Mythic (5) packs cannot be selected");
    expect(document.components.schemas.ClassicRangePack.properties.tokenId.type).toBe("integer");
  });

  describe("GET /range", () => {
    it("lists a game's packs by latest update, newest first, ties by token id", async () => {
      const response = await get(`/range?contractAddress=${A}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("private, max-age=5");
      const body = response.json();
      expect(ids(body)).toEqual(["4", "3", "2", "1", "5", BIG.toString(), HUGE.toString()]);
      expect(body.pagination).toEqual({ page: 1, limit: 50, total: 7, totalPages: 1 });
      expect(body.boosterBoxes[0]).toMatchObject({
        contractAddress: A,
        chainId: 8453,
        owner: BOB,
        status: "burned",
        rarity: 4,
        rarityName: "Legendary",
        randomValue: "42",
        tokenSpecificRandomness: (4n * 7919n + 13n).toString(),
        mintedAt: day(3).toISOString(),
        latestUpdateTimestamp: day(7).toISOString(),
      });
      expect(body.boosterBoxes[0].metadata).toBeUndefined();
      expect(body.boosterBoxes[0].contractDetails).toBeUndefined();
    });

    it("writes token ids above 2^53 exactly, with their string twins", async () => {
      const response = await get(`/range?contractAddress=alpha-1&sortBy=tokenId&sortOrder=desc&limit=2`);
      expect(response.body).toContain(`"tokenId":${HUGE},"tokenIdString":"${HUGE}"`);
      expect(response.body).toContain(`"tokenId":${BIG},"tokenIdString":"${BIG}"`);
      // JSON.parse would round them; the twin keeps the exact value.
      expect(ids(response.json())).toEqual([HUGE.toString(), BIG.toString()]);
      expect(response.json().pagination).toEqual({ page: 1, limit: 2, total: 7, totalPages: 4 });
    });

    it("filters by status, rarity, token ids and a token range", async () => {
      const read = async (query: string) => ids((await get(`/range?contractAddress=${A}&${query}`)).json());
      expect(await read("status=burned")).toEqual(["4"]);
      expect(await read("status=rarity_assigned&sortBy=tokenId&sortOrder=asc")).toEqual(["2", "5"]);
      expect(await read("status=minted&sortBy=tokenId&sortOrder=asc")).toEqual([
        "1",
        BIG.toString(),
        HUGE.toString(),
      ]);
      expect(await read("rarity=0&sortBy=tokenId&sortOrder=asc")).toEqual([
        "1",
        BIG.toString(),
        HUGE.toString(),
      ]);
      expect(await read("rarity=2")).toEqual(["3"]);
      expect(await read(`tokenIds=5,${HUGE},2,999&sortBy=tokenId&sortOrder=asc`)).toEqual([
        "2",
        "5",
        HUGE.toString(),
      ]);
      expect(await read(`startTokenId=2&endTokenId=${BIG}&sortBy=tokenId&sortOrder=asc`)).toEqual([
        "2",
        "3",
        "4",
        "5",
        BIG.toString(),
      ]);
      expect(await read("startTokenId=3&endTokenId=4&status=burned")).toEqual(["4"]);
    });

    it("sorts by token id, mint time and rarity, with token id breaking ties", async () => {
      const read = async (query: string) => ids((await get(`/range?contractAddress=${A}&${query}`)).json());
      expect(await read("sortBy=tokenId&sortOrder=asc")).toEqual([
        "1",
        "2",
        "3",
        "4",
        "5",
        BIG.toString(),
        HUGE.toString(),
      ]);
      expect(await read("sortBy=mintedAt&sortOrder=asc")).toEqual([
        HUGE.toString(),
        "1",
        "2",
        "3",
        "4",
        BIG.toString(),
        "5",
      ]);
      expect(await read("sortBy=rarity&sortOrder=desc")).toEqual([
        "5",
        "4",
        "3",
        "2",
        HUGE.toString(),
        BIG.toString(),
        "1",
      ]);
      // Pages of the same order never overlap and cover every pack.
      const pages = [];
      for (let page = 1; page <= 3; page++)
        pages.push(...(await read(`sortBy=rarity&sortOrder=asc&limit=3&page=${page}`)));
      expect(pages).toEqual(["1", BIG.toString(), HUGE.toString(), "2", "3", "4", "5"]);
    });

    it("adds token metadata and the game on request", async () => {
      const body = (
        await get(
          `/range?contractAddress=${A}&tokenIds=1,3&includeMetadata=true&includeContractDetails=true&sortBy=tokenId&sortOrder=asc`,
        )
      ).json();
      const [minted, opened] = body.boosterBoxes;
      expect(minted.metadata).toMatchObject({
        name: "Alpha Pack #1",
        image: "https://img.example/Common-pack.png",
      });
      expect(minted.metadata.attributes).toEqual([
        { trait_type: "Rarity", value: "NOT_ASSIGNED" },
        { trait_type: "Status", value: "minted" },
        { trait_type: "First Edition", value: "Yes" },
      ]);
      expect(opened.metadata.name).toBe("Rare #3");
      expect(opened.metadata.image).toBe("https://img.example/Rare.png");
      const wearValue = Number(h(3n * 7919n + 13n, 2n) % 1_000_000n) / 1_000_000;
      expect(opened.metadata.attributes).toContainEqual({
        trait_type: "Wear Value",
        value: wearValue,
        display_type: "number",
        max_value: 1,
      });
      expect(opened.metadata.attributes).toContainEqual({ trait_type: "Card ID", value: 2 });
      expect(opened.contractDetails).toMatchObject({ dropContractAddress: A, slug: "alpha-1", version: "1" });
    });

    it("answers 400 for malformed input and 404 for an unknown game, in the classic body", async () => {
      const cases = [
        "",
        `contractAddress=${A}&rarity=5`,
        `contractAddress=${A}&rarity=-1`,
        `contractAddress=${A}&status=opened`,
        `contractAddress=${A}&tokenIds=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`,
        `contractAddress=${A}&tokenIds=1,x`,
        `contractAddress=${A}&tokenIds=${2n ** 256n}`,
        `contractAddress=${A}&startTokenId=-1`,
        `contractAddress=${A}&endTokenId=1.5`,
        `contractAddress=${A}&limit=101`,
        `contractAddress=${A}&limit=0`,
        `contractAddress=${A}&page=0`,
        `contractAddress=${A}&sortBy=price`,
        `contractAddress=${A}&sortOrder=up`,
        `contractAddress=${A}&includeMetadata=yes`,
        `contractAddress=${A}&chainId=0`,
      ];
      for (const query of cases) {
        const response = await get(`/range?${query}`);
        expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
      const unknown = await get(`/range?contractAddress=${addressOf(0xdead)}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ success: false, error: "GAME_NOT_FOUND" });
      expect((await get(`/range?contractAddress=${A}&chainId=1`)).statusCode).toBe(404);
    });

    it("accepts 100 token ids", async () => {
      const list = Array.from({ length: 100 }, (_, i) => i + 1).join(",");
      expect(
        ids((await get(`/range?contractAddress=${A}&tokenIds=${list}&sortBy=tokenId&sortOrder=asc`)).json()),
      ).toEqual(["1", "2", "3", "4", "5"]);
    });

    it("needs the API key", async () => {
      const response = await get(`/range?contractAddress=${A}`, {});
      expect(response.statusCode).toBe(429);
      expect(response.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
    });
  });

  describe("GET /collection/{ownerAddress}", () => {
    it("returns one game's holdings directly, with the drawn card and the reward", async () => {
      const response = await get(
        `/collection/${ALICE.toUpperCase().replace("0X", "0x")}?contractAddress=alpha-1`,
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("private, max-age=30");
      const body = response.json();
      expect(body).toMatchObject({ ownerAddress: ALICE, contractAddress: A, chainId: 8453 });
      expect(body.success).toBeUndefined();
      expect(ids(body)).toEqual(["1", "2", "3", BIG.toString()]);
      const [minted, common, rare] = body.boxes;
      expect(minted).toMatchObject({
        status: "minted",
        rarity: 0,
        rarityName: "NOT_ASSIGNED",
        rewardAmount: null,
        metadata: null,
      });
      expect(minted).toMatchObject({
        tokenSeed: null,
        randomValue: null,
        rarityAssignedTxHash: null,
        isFirstEdition: true,
      });
      expect(common).toMatchObject({
        rarity: 1,
        rarityName: "Common",
        rewardAmount: "10",
        rarityAssignedBlockNumber: 11,
      });
      expect(common.metadata).toMatchObject({ name: "Common", rarityCode: 1 });
      expect(rare).toMatchObject({
        status: "opened",
        rewardAmount: "20",
        openedBlockNumber: 12,
        openedTxHash: expect.stringMatching(/^0x/),
      });
      const seed = 3n * 7919n + 13n;
      const wearValue = Number(h(seed, 2n) % 1_000_000n) / 1_000_000;
      const foilRoll = h(seed, 3n) % 10_000n;
      expect(rare.metadata).toMatchObject({
        name: "Rare",
        wearValue,
        foil: foilRoll < 50n ? "Prize" : foilRoll < 500n ? "Standard" : "None",
      });
      expect(rare.contract).toMatchObject({ dropContractAddress: A, version: 1, isMarketfit: true });
      expect(rare.isMarketfit).toBe(true);
      expect(rare.userData).toBeNull();
      expect(body.boxes[3].isFirstEdition).toBe(false);
      expect(body.pagination).toEqual({ page: 1, limit: 500, total: 4, totalPages: 1 });
    });

    it("without a game, holds every game's packs grouped by game; burned packs carry the paid offer", async () => {
      const alice = (await get(`/collection/${ALICE}`)).json();
      expect(alice.contractAddress).toBeNull();
      expect(
        alice.boxes.map(
          (box: { contractAddress: string; tokenIdString: string }) =>
            `${box.contractAddress === A ? "A" : "B"}${box.tokenIdString}`,
        ),
      ).toEqual(["A1", "A2", "A3", `A${BIG}`, "B1"]);
      const bob = (await get(`/collection/${BOB}?limit=1&page=1`)).json();
      expect(ids(bob)).toEqual(["4"]);
      expect(bob.boxes[0]).toMatchObject({ status: "burned", rewardAmount: "40", burnBlockNumber: 13 });
      expect(bob.pagination).toEqual({ page: 1, limit: 1, total: 3, totalPages: 3 });
      expect((await get(`/collection/${addressOf(0x77)}`)).json()).toMatchObject({
        boxes: [],
        pagination: { total: 0 },
      });
    });

    it("answers 400, 404 and 503 in the classic body", async () => {
      expect((await get(`/collection/0x123`)).json()).toMatchObject({
        success: false,
        error: "VALIDATION_ERROR",
      });
      expect((await get(`/collection/${ALICE}?chainId=0`)).statusCode).toBe(400);
      expect((await get(`/collection/${ALICE}?limit=501`)).statusCode).toBe(400);
      const unknown = await get(`/collection/${ALICE}?contractAddress=nope`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ error: "GAME_NOT_FOUND" });
      noPrice = true;
      try {
        const response = await get(`/collection/${ALICE}?contractAddress=beta-2`);
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ success: false, error: "PRICE_UNAVAILABLE" });
      } finally {
        noPrice = false;
      }
    });
  });

  describe("GET /owner/{address}", () => {
    it("lists an owner's packs across games, by latest update", async () => {
      const body = (await get(`/owner/${ALICE}`)).json();
      expect(
        body.boosterBoxes.map(
          (p: { contractAddress: string; tokenIdString: string }) =>
            `${p.contractAddress === A ? "A" : "B"}${p.tokenIdString}`,
        ),
      ).toEqual(["B1", "A3", "A2", "A1", `A${BIG}`]);
      expect(body.pagination).toEqual({ page: 1, limit: 50, total: 5, totalPages: 1 });
      const asc = (await get(`/owner/${ALICE}?sortOrder=asc&limit=2&page=2`)).json();
      expect(ids(asc)).toEqual(["2", "3"]);
      expect(ids((await get(`/owner/${BOB}?status=burned`)).json())).toEqual(["4"]);
      expect((await get(`/owner/${BOB}?limit=101`)).statusCode).toBe(400);
      expect((await get(`/owner/nope`)).statusCode).toBe(400);
    });
  });

  describe("GET /metadata/{addressOrSlug}/{tokenId}", () => {
    it("serves token JSON without any credential", async () => {
      const response = await get(`/metadata/${A}/3`, {});
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        name: "Rare #3",
        description: "Rare, a test card",
        image: "https://img.example/Rare.png",
      });
      const pending = (await get(`/metadata/alpha-1/1`, {})).json();
      expect(pending.name).toBe("Alpha Pack #1");
      expect(pending.attributes).toContainEqual({ trait_type: "Status", value: "minted" });
      const assigned = (await get(`/metadata/${A}/5`, {})).json();
      expect(assigned.name).toBe("Mythic #5");
      // Its batch's randomness arrived after the opening: the card's image.
      expect(assigned.image).toBe("https://img.example/Mythic.png");
      const huge = await get(`/metadata/${A}/${HUGE}`, {});
      expect(huge.json().name).toBe(`Alpha Pack #${HUGE}`);
    });

    it("answers 404 for a token never minted and 400 for a malformed id", async () => {
      const missing = await get(`/metadata/${A}/6`, {});
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, error: "PACK_NOT_FOUND" });
      expect((await get(`/metadata/nope/1`, {})).json()).toMatchObject({ error: "GAME_NOT_FOUND" });
      for (const id of ["1a", "-1", "01", `${2n ** 256n}`, "1.0"]) {
        const response = await get(`/metadata/${A}/${id}`, {});
        expect({ id, status: response.statusCode }).toEqual({ id, status: 400 });
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
    });
  });
});

import { encodeAbiParameters, keccak256 } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { insertClassicMetadata } from "../../_test/classic.ts";
import { addressOf, insertEvent, insertGame, insertPack, txHash } from "../../_test/classic-packs.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { CLASSIC_INDEXER_SOURCE } from "../routes.ts";

const A = addressOf(0xa1);
const A_TOKEN = addressOf(0xa2);
const B = addressOf(0xb1);
const B_TOKEN = addressOf(0xb2);
const ALICE = addressOf(0x1a);
const BOB = addressOf(0x1b);
const BIG = 2n ** 60n + 1n;
const day = (d: number, h = 0) => new Date(Date.UTC(2026, 0, d, h));
/** The transaction hash `insertEvent` gives a log at (block, index). */
const txOf = (block: number, logIndex: number) => txHash(block * 1000 + logIndex);
const OPEN_BLOCK = 500;

interface Box {
  _id: string;
  tokenIdString: string;
  contractAddress: string;
  status: string;
  rarity: number;
  rarityName: string;
  metadata?: Record<string, unknown>;
  contractDetails?: Record<string, unknown>;
}

describe("live-compatible pack reads", () => {
  let t: TestApp;
  let key: string;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await setupDatabase();
    // The proxy serves img.example, so proxied and original image URLs differ.
    t = await setupApp({
      database,
      ethUsdPrice: { quote: async () => ({ usdPerEth: "3000", obtainedAt: new Date() }) },
      env: { IMAGE_PROXY_HOSTS: "img.example" },
    });
    key = (await t.createKey({ multiplier: 100 })).key;
    await insertGame(t.db, { drop: A, token: A_TOKEN, gameId: "1", nftName: "Alpha", slug: "alpha-1" });
    await insertGame(t.db, { drop: B, token: B_TOKEN, gameId: "2", nftName: "Beta", slug: "beta-2" });
    await insertClassicMetadata(t.db, {
      address: A,
      version: 1,
      effectiveFrom: day(1),
      game: { isNSFW: true },
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
    // Game A. Alice: 1 minted, 2 Common assigned, 3 Rare opened, BIG minted; Bob: 4 Legendary burned,
    // 5 Mythic assigned, 6 Epic opened, 7 minted (rarity pending, but opened in the fixture's log).
    await insertPack(t.db, { drop: A, tokenId: 1n, owner: ALICE, updatedAt: day(5) });
    await insertPack(t.db, {
      drop: A,
      tokenId: 2n,
      owner: ALICE,
      status: "rarity_assigned",
      rarity: 1,
      updatedAt: day(6),
    });
    await insertPack(t.db, {
      drop: A,
      tokenId: 3n,
      owner: ALICE,
      status: "opened",
      rarity: 2,
      updatedAt: day(7),
    });
    await insertPack(t.db, {
      drop: A,
      tokenId: 4n,
      owner: BOB,
      status: "burned",
      rarity: 4,
      updatedAt: day(7),
    });
    await insertPack(t.db, {
      drop: A,
      tokenId: 5n,
      owner: BOB,
      status: "rarity_assigned",
      rarity: 5,
      updatedAt: day(4),
    });
    await insertPack(t.db, {
      drop: A,
      tokenId: 6n,
      owner: BOB,
      status: "opened",
      rarity: 3,
      updatedAt: day(9),
    });
    await insertPack(t.db, { drop: A, tokenId: 7n, owner: BOB, updatedAt: day(2) });
    await insertPack(t.db, { drop: A, tokenId: BIG, owner: ALICE, updatedAt: day(3) });
    // Game B (default metadata): Alice's Epic, opened, changed last of all.
    await insertPack(t.db, {
      drop: B,
      tokenId: 1n,
      owner: ALICE,
      status: "opened",
      rarity: 3,
      updatedAt: day(10),
    });
    // Openings: one transaction opened A's 6 and 3 (listed out of order); another opened A's 7; a
    // third is B's; a fourth log of the first transaction is not an opening.
    await insertEvent(t.db, {
      blockNumber: OPEN_BLOCK,
      logIndex: 0,
      blockTime: day(9),
      address: A,
      event: "BoosterDropOpened",
      args: { from: ALICE, tokenIds: ["6", "3"], batchId: "1" },
    });
    await insertEvent(t.db, {
      blockNumber: OPEN_BLOCK + 1,
      logIndex: 0,
      blockTime: day(9),
      address: A,
      event: "BoosterDropOpened",
      args: { from: BOB, tokenIds: ["7"], batchId: "2" },
    });
    await insertEvent(t.db, {
      blockNumber: OPEN_BLOCK + 2,
      logIndex: 0,
      blockTime: day(10),
      address: B,
      event: "BoosterDropOpened",
      args: { from: ALICE, tokenIds: ["1"], batchId: "1" },
    });
    await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.server.inject({ url: `/classic${url}`, headers: { "api-key": key, ...headers } });
  const boxes = async (url: string): Promise<Box[]> => {
    const response = await get(url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort(), url).toEqual(["boxes", "pagination", "success"]);
    return body.boxes;
  };
  const ids = (list: Box[]) =>
    list.map((box) => `${box.contractAddress === A ? "A" : "B"}${box.tokenIdString}`);
  const packId = (drop: string, tokenId: bigint, chainId = 8453n) =>
    keccak256(
      encodeAbiParameters(
        [{ type: "uint256" }, { type: "address" }, { type: "uint256" }],
        [chainId, drop as `0x${string}`, tokenId],
      ),
    ).slice(2, 26);

  describe("GET /owner/{address}", () => {
    it("keeps boosterBoxes without a box filter and answers boxes with contractAddress or rarityGreaterThan", async () => {
      const plain = (await get(`/owner/${ALICE}`)).json();
      expect(Object.keys(plain).sort()).toEqual(["boosterBoxes", "pagination", "success"]);
      expect(ids(plain.boosterBoxes)).toEqual(["B1", "A3", "A2", "A1", `A${BIG}`]);
      // The drop, by address or slug: only its packs.
      expect(ids(await boxes(`/owner/${ALICE}?contractAddress=${A}`))).toEqual(["A3", "A2", "A1", `A${BIG}`]);
      expect(ids(await boxes(`/owner/${ALICE}?contractAddress=beta-2`))).toEqual(["B1"]);
      // The rarity bound, across games and within one.
      expect(ids(await boxes(`/owner/${ALICE}?rarityGreaterThan=1`))).toEqual(["B1", "A3"]);
      expect(ids(await boxes(`/owner/${ALICE}?rarityGreaterThan=1&contractAddress=${A}`))).toEqual(["A3"]);
      expect(ids(await boxes(`/owner/${BOB}?rarityGreaterThan=3&contractAddress=alpha-1`))).toEqual([
        "A4",
        "A5",
      ]);
    });

    it("honours status, page, limit, sortOrder and counts the view's total", async () => {
      expect(ids(await boxes(`/owner/${BOB}?contractAddress=${A}&status=opened`))).toEqual(["A6"]);
      expect(ids(await boxes(`/owner/${BOB}?contractAddress=${A}&sortOrder=asc`))).toEqual([
        "A7",
        "A5",
        "A4",
        "A6",
      ]);
      const page = (await get(`/owner/${BOB}?contractAddress=${A}&limit=3&page=2`)).json();
      expect(ids(page.boxes)).toEqual(["A7"]);
      expect(page.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2 });
      const bounded = (await get(`/owner/${BOB}?rarityGreaterThan=2&limit=1`)).json();
      expect(ids(bounded.boxes)).toEqual(["A6"]);
      expect(bounded.pagination).toEqual({ page: 1, limit: 1, total: 3, totalPages: 3 });
      const status = (await get(`/owner/${BOB}?contractAddress=${A}&status=burned`)).json();
      expect(status.pagination.total).toBe(1);
    });

    it("adds the live metadata and the game on request", async () => {
      const [opened, assigned, minted] = await boxes(
        `/owner/${ALICE}?contractAddress=${A}&includeMetadata=true&includeContractDetails=true`,
      );
      expect(opened).toMatchObject({ tokenIdString: "3", status: "opened", rarityName: "Rare" });
      expect(opened!.metadata).toMatchObject({
        name: "Rare #3",
        originalImageUrl: "https://img.example/Rare.png",
        unopenedImageUrl: expect.stringContaining("/classic/image/"),
        foil: expect.stringMatching(/^(Prize|Standard|None)$/),
        wear: expect.stringMatching(/Pristine|Mint|Played/),
      });
      // Proxied by default: imageUrl is image, and not the creator's URL.
      expect(opened!.metadata!["imageUrl"]).toBe(opened!.metadata!["image"]);
      expect(opened!.metadata!["imageUrl"]).toMatch(/\/classic\/image\//);
      expect(opened!.contractDetails).toMatchObject({ dropContractAddress: A });
      // Opened, then its batch's randomness arrived: the card is drawn and shown (foil and wear known).
      expect(assigned!.metadata).toMatchObject({
        name: "Common #2",
        originalImageUrl: "https://img.example/Common.png",
        foil: expect.any(String),
      });
      // Minted: the pack image, no card yet.
      expect(minted!.metadata).toMatchObject({
        name: "Alpha Pack #1",
        originalImageUrl: "https://img.example/Common-pack.png",
        foil: null,
        wear: null,
      });
      const bypass = (
        await get(`/owner/${ALICE}?contractAddress=${A}&includeMetadata=true&limit=1`, {
          "x-bypass-image-proxy": "true",
        })
      ).json();
      expect(bypass.boxes[0].metadata).toMatchObject({
        image: "https://img.example/Rare.png",
        imageUrl: "https://img.example/Rare.png",
        originalImageUrl: "https://img.example/Rare.png",
        unopenedImageUrl: "https://img.example/Rare-pack.png",
      });
    });

    it("refuses bad input with 400 and an unknown game with 404", async () => {
      for (const query of [
        "rarityGreaterThan=5",
        "rarityGreaterThan=-1",
        "rarityGreaterThan=x",
        "contractAddress=",
        `contractAddress=${A}&status=lost`,
        `contractAddress=${A}&limit=101`,
        `contractAddress=${A}&page=201`,
        `contractAddress=${A}&colour=red`,
      ]) {
        const response = await get(`/owner/${ALICE}?${query}`);
        expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
        expect(response.json()).toMatchObject({ success: false });
      }
      expect((await get(`/owner/0x12?contractAddress=${A}`)).statusCode).toBe(400);
      const unknown = await get(`/owner/${ALICE}?contractAddress=nope`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ success: false, error: "GAME_NOT_FOUND" });
    });
  });

  describe("GET /recent", () => {
    it("answers the box view with a drop or a rarity bound, most recently changed first", async () => {
      expect(ids(await boxes(`/recent?contractAddress=${A}`))).toEqual([
        "A6",
        "A4",
        "A3",
        "A2",
        "A1",
        "A5",
        `A${BIG}`,
        "A7",
      ]);
      expect(ids(await boxes(`/recent?contractAddress=${A}&rarityGreaterThan=2`))).toEqual([
        "A6",
        "A4",
        "A5",
      ]);
      // Every game on the chain: B's Epic changed last.
      expect(ids(await boxes("/recent?rarityGreaterThan=2"))).toEqual(["B1", "A6", "A4", "A5"]);
      expect(ids(await boxes("/recent?rarityGreaterThan=4"))).toEqual(["A5"]);
      expect(ids(await boxes(`/recent?rarityGreaterThan=2&status=opened`))).toEqual(["B1", "A6"]);
      expect(ids(await boxes(`/recent?contractAddress=alpha-1&status=minted`))).toEqual([
        "A1",
        `A${BIG}`,
        "A7",
      ]);
    });

    it("pages the box view with its total", async () => {
      const first = (await get(`/recent?rarityGreaterThan=0&limit=2`)).json();
      const second = (await get(`/recent?rarityGreaterThan=0&limit=2&page=2`)).json();
      const third = (await get(`/recent?rarityGreaterThan=0&limit=2&page=3`)).json();
      expect([...ids(first.boxes), ...ids(second.boxes), ...ids(third.boxes)]).toEqual([
        "B1",
        "A6",
        "A4",
        "A3",
        "A2",
        "A5",
      ]);
      expect(third.pagination).toEqual({ page: 3, limit: 2, total: 6, totalPages: 3 });
      const drop = (await get(`/recent?contractAddress=${A}&rarityGreaterThan=2&limit=1`)).json();
      expect(drop.pagination).toEqual({ page: 1, limit: 1, total: 3, totalPages: 3 });
      const deep = await get(`/recent?rarityGreaterThan=0&limit=100&page=101`);
      expect(deep.statusCode).toBe(400);
      expect(deep.json()).toMatchObject({ error: "PAGE_TOO_DEEP" });
    });

    it("keeps the activity feed without a box filter", async () => {
      const body = (await get("/recent")).json();
      expect(Object.keys(body).sort()).toEqual(["events", "nextCursor", "success"]);
      expect(body.events.map((event: { type: string }) => event.type)).toEqual(["open", "open", "open"]);
    });

    it("adds the live metadata with includeMetadata", async () => {
      const [epic] = await boxes(
        `/recent?contractAddress=${A}&rarityGreaterThan=2&includeMetadata=true&limit=1`,
      );
      expect(epic).toMatchObject({ tokenIdString: "6", _id: packId(A, 6n), rarity: 3, rarityName: "Epic" });
      expect(epic!.metadata).toMatchObject({
        name: "Epic #6",
        originalImageUrl: "https://img.example/Epic.png",
      });
    });

    it("refuses a cursor with box parameters, box-only parameters alone, and unknown parameters", async () => {
      const cursor = `${day(9).getTime()}-${"0".repeat(24)}`;
      for (const query of [
        `cursor=${cursor}&contractAddress=${A}`,
        `cursor=${cursor}&rarityGreaterThan=2`,
        `cursor=${cursor}&page=2`,
        "page=2",
        "status=opened",
        "includeMetadata=true",
        "rarityGreaterThan=9",
        `contractAddress=${A}&status=sold`,
        `contractAddress=${A}&includeMetadata=maybe`,
        "timeframe=24h",
      ]) {
        const response = await get(`/recent?${query}`);
        expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
      const withCursor = await get(`/recent?cursor=${cursor}&contractAddress=${A}`);
      expect(withCursor.json().message).toContain("cannot be combined");
      expect((await get(`/recent?contractAddress=nope`)).json()).toMatchObject({ error: "GAME_NOT_FOUND" });
    });
  });

  describe("_id", () => {
    it("is the documented hash, stable across reads and routes, distinct per pack", async () => {
      const owner = await boxes(`/owner/${ALICE}?contractAddress=${A}`);
      const all = await boxes(`/contractAddress/${A}/all`);
      const range = (await get(`/range?contractAddress=${A}&sortBy=tokenId&sortOrder=asc`)).json()
        .boosterBoxes;
      const byToken = new Map(all.map((box) => [box.tokenIdString, box._id]));
      for (const box of [...owner, ...range]) expect(box._id).toBe(byToken.get(box.tokenIdString));
      expect(byToken.get("3")).toBe(packId(A, 3n));
      expect(byToken.get(BIG.toString())).toBe(packId(A, BIG));
      const b1 = (await boxes(`/contractAddress/${B}/all`))[0]!;
      expect(b1._id).toBe(packId(B, 1n));
      // Same token id, other drop; and every pack of A: all distinct, all 24 hex.
      const every = [...byToken.values(), b1._id];
      expect(new Set(every).size).toBe(every.length);
      for (const id of every) expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(packId(A, 1n, 1n)).not.toBe(byToken.get("1"));
    });
  });

  describe("GET / and GET /contractAddress/{addressOrSlug}/tokenId/{tokenId}", () => {
    it("answers one pack with the game's isNSFW, at /classic and /classic/", async () => {
      for (const root of ["/classic", "/classic/"]) {
        const response = await t.app.server.inject({
          url: `${root}?tokenId=3&contractAddress=${A}&includeMetadata=true`,
          headers: { "api-key": key },
        });
        expect(response.statusCode, root).toBe(200);
        const body = response.json();
        expect(Object.keys(body).sort()).toEqual(["boosterBox", "success"]);
        expect(body.boosterBox).toMatchObject({
          _id: packId(A, 3n),
          tokenIdString: "3",
          owner: ALICE,
          status: "opened",
          rarity: 2,
          rarityName: "Rare",
          isNSFW: true,
          mintTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          acquiredAtPackPrice: "1000",
        });
        expect(body.boosterBox.metadata).toMatchObject({ name: "Rare #3" });
        expect(body.boosterBox.contractDetails).toBeUndefined();
      }
      const beta = (await get(`/?tokenId=1&contractAddress=beta-2&includeContractDetails=true`)).json();
      expect(beta.boosterBox).toMatchObject({ isNSFW: false, rarityName: "Epic" });
      expect(beta.boosterBox.contractDetails).toMatchObject({ dropContractAddress: B });
      expect(beta.boosterBox.metadata).toBeUndefined();
    });

    it("answers the same pack by path, with exact token ids", async () => {
      const byQuery = (await get(`/?tokenId=${BIG}&contractAddress=${A}`)).body;
      const byPath = await get(`/contractAddress/alpha-1/tokenId/${BIG}`);
      expect(byPath.statusCode).toBe(200);
      expect(byPath.body).toBe(byQuery);
      expect(byPath.body).toContain(`"tokenId":${BIG},"tokenIdString":"${BIG}"`);
    });

    it("answers 404 for an unknown pack or game and 400 for bad input", async () => {
      const missing = await get(`/?tokenId=99&contractAddress=${A}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, error: "PACK_NOT_FOUND" });
      expect((await get(`/contractAddress/${A}/tokenId/99`)).json()).toMatchObject({
        error: "PACK_NOT_FOUND",
      });
      expect((await get(`/?tokenId=1&contractAddress=nope`)).json()).toMatchObject({
        error: "GAME_NOT_FOUND",
      });
      expect((await get(`/contractAddress/${addressOf(0xdead)}/tokenId/1`)).statusCode).toBe(404);
      for (const url of [
        `/?contractAddress=${A}`,
        "/?tokenId=1",
        `/?tokenId=-1&contractAddress=${A}`,
        `/?tokenId=01&contractAddress=${A}`,
        `/?tokenId=${2n ** 256n}&contractAddress=${A}`,
        `/?tokenId=1&contractAddress=${A}&status=minted`,
        `/contractAddress/${A}/tokenId/1x`,
        `/contractAddress/${A}/tokenId/1?page=2`,
      ]) {
        const response = await get(url);
        expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
    });

    it("needs the API key", async () => {
      const response = await t.app.server.inject({ url: `/classic/?tokenId=1&contractAddress=${A}` });
      expect(response.statusCode).toBe(429);
      expect(response.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
    });
  });

  describe("GET /contractAddress/{addressOrSlug}/all", () => {
    it("pages every pack of the drop in token id order", async () => {
      expect(ids(await boxes(`/contractAddress/${A}/all`))).toEqual([
        "A1",
        "A2",
        "A3",
        "A4",
        "A5",
        "A6",
        "A7",
        `A${BIG}`,
      ]);
      const second = (await get(`/contractAddress/alpha-1/all?limit=3&page=2`)).json();
      expect(ids(second.boxes)).toEqual(["A4", "A5", "A6"]);
      expect(second.pagination).toEqual({ page: 2, limit: 3, total: 8, totalPages: 3 });
      expect(ids(await boxes(`/contractAddress/${B}/all`))).toEqual(["B1"]);
    });

    it("does not shadow all-metadata or ready, and refuses bad input", async () => {
      expect((await get(`/contractAddress/${A}/all-metadata`)).json()).toHaveProperty("metadata");
      expect((await get(`/contractAddress/${A}/ready`)).json()).toHaveProperty("ready", true);
      expect((await get(`/contractAddress/nope/all`)).json()).toMatchObject({ error: "GAME_NOT_FOUND" });
      for (const query of ["limit=101", "page=0", "page=101&limit=100", "chainId=x", "status=minted"])
        expect((await get(`/contractAddress/${A}/all?${query}`)).statusCode, query).toBe(400);
    });
  });

  describe("GET /rarity", () => {
    it("answers the rarity of the lowest token id opened, and every pack that transaction opened", async () => {
      const response = await get(`/rarity?transactionHash=${txOf(OPEN_BLOCK, 0)}&contractAddress=${A}`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({
        success: true,
        tokenId: 3,
        tokenIdString: "3",
        rarity: 2,
        rarityName: "Rare",
        randomValue: "42",
        tokenSpecificRandomness: (3n * 7919n + 13n).toString(),
      });
      expect(body.packs).toEqual([
        {
          tokenId: 3,
          tokenIdString: "3",
          rarity: 2,
          rarityName: "Rare",
          randomValue: "42",
          tokenSpecificRandomness: (3n * 7919n + 13n).toString(),
        },
        {
          tokenId: 6,
          tokenIdString: "6",
          rarity: 3,
          rarityName: "Epic",
          randomValue: "42",
          tokenSpecificRandomness: (6n * 7919n + 13n).toString(),
        },
      ]);
      // Any case of the hash, the slug for the drop.
      const upper = await get(
        `/rarity?transactionHash=${txOf(OPEN_BLOCK, 0).toUpperCase().replace("0X", "0x")}&contractAddress=alpha-1`,
      );
      expect(upper.json().tokenIdString).toBe("3");
    });

    it("answers a pending rarity as 200 NOT_ASSIGNED", async () => {
      const body = (
        await get(`/rarity?transactionHash=${txOf(OPEN_BLOCK + 1, 0)}&contractAddress=${A}`)
      ).json();
      expect(body).toMatchObject({
        success: true,
        tokenIdString: "7",
        rarity: 0,
        rarityName: "NOT_ASSIGNED",
        randomValue: null,
        tokenSpecificRandomness: null,
      });
    });

    it("answers 404 TRANSACTION_NOT_FOUND for a transaction that opened none of the drop's packs", async () => {
      for (const [hash, drop] of [
        [txOf(OPEN_BLOCK + 2, 0), A],
        [txOf(OPEN_BLOCK, 0), B],
        [txHash(123456789), A],
      ] as const) {
        const response = await get(`/rarity?transactionHash=${hash}&contractAddress=${drop}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ success: false, error: "TRANSACTION_NOT_FOUND" });
      }
      expect(
        (await get(`/rarity?transactionHash=${txOf(OPEN_BLOCK, 0)}&contractAddress=nope`)).json(),
      ).toMatchObject({ error: "GAME_NOT_FOUND" });
      for (const query of [
        `contractAddress=${A}`,
        `transactionHash=${txOf(OPEN_BLOCK, 0)}`,
        `transactionHash=0x123&contractAddress=${A}`,
        `transactionHash=${txOf(OPEN_BLOCK, 0)}&contractAddress=${A}&tokenId=3`,
      ])
        expect((await get(`/rarity?${query}`)).statusCode, query).toBe(400);
    });
  });

  it("publishes the new routes and both views' keys, tagged Live-compatible", async () => {
    const document = (await t.app.server.inject({ url: "/openapi/classic.json" })).json();
    for (const path of [
      "/classic/",
      "/classic/contractAddress/{addressOrSlug}/tokenId/{tokenId}",
      "/classic/contractAddress/{addressOrSlug}/all",
      "/classic/rarity",
      "/classic/owner/{address}",
      "/classic/recent",
    ])
      expect(document.paths[path]?.get?.tags, path).toContain("Live-compatible");
    const schemas = document.components.schemas;
    expect(Object.keys(schemas.ClassicOwnerAnswer.properties).sort()).toEqual([
      "boosterBoxes",
      "boxes",
      "pagination",
      "success",
    ]);
    expect(schemas.ClassicOwnerAnswer.properties.boxes.description).toContain("present in the box view");
    expect(schemas.ClassicRecentAnswer.properties.events.description).toContain("absent in the box view");
    expect(schemas.ClassicRangePack.required).toContain("_id");
  });
});

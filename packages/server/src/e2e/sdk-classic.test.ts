import { createMktClient, MktApiError, type MktClient } from "@mkt/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { insertClassicFlags } from "../_test/classic.ts";
import { addressOf, insertEvent, insertGame, insertPack, setHead, txHash } from "../_test/classic-packs.ts";
import { CLASSIC_INDEXER_SOURCE } from "../classic/routes.ts";

const A = addressOf(0xa1);
const B = addressOf(0xb1);
const C = addressOf(0xc1);
const ALICE = addressOf(0x1a);
const BOB = addressOf(0x1b);
/** Above 2^64: a JavaScript number cannot hold it. */
const BIG = 2n ** 64n + 1n;
const day = (d: number, h = 0) => new Date(Date.UTC(2026, 0, d, h));

/** Every classic read through `client.classic`, over real HTTP, on fixture rows of the projection. */
describe("SDK classic reads over real HTTP", () => {
  let t: TestApp;
  let client: MktClient;
  let anonymous: MktClient;
  beforeAll(async () => {
    t = await setupApp();
    const { publicUrl: baseUrl } = await t.app.listen();
    const { key } = await t.createKey({ multiplier: 100 });
    client = createMktClient({ baseUrl, apiKey: key, retry: { attempts: 1 } });
    anonymous = createMktClient({ baseUrl, retry: { attempts: 1 } });
    await insertGame(t.db, {
      drop: A,
      token: addressOf(0xa2),
      gameId: "1",
      nftName: "Alpha",
      createdBlock: 1,
    });
    await insertGame(t.db, {
      drop: B,
      token: addressOf(0xb2),
      gameId: "2",
      nftName: "Beta",
      createdBlock: 2,
    });
    await insertGame(t.db, {
      drop: C,
      token: addressOf(0xc2),
      gameId: "3",
      nftName: "Deep Gamma",
      createdBlock: 3,
      firstTokenId: BIG,
    });
    await insertClassicFlags(t.db, B, { isFeatured: true });
    await insertPack(t.db, { drop: A, tokenId: 1n, owner: ALICE, updatedAt: day(3) });
    await insertPack(t.db, {
      drop: A,
      tokenId: 2n,
      owner: BOB,
      status: "rarity_assigned",
      rarity: 2,
      updatedAt: day(4),
    });
    await insertPack(t.db, {
      drop: C,
      tokenId: BIG,
      owner: ALICE,
      status: "opened",
      rarity: 4,
      updatedAt: day(5),
    });
    await insertPack(t.db, { drop: C, tokenId: BIG + 1n, owner: ALICE, updatedAt: day(6) });
    for (const [index, tokenId] of [1n, 2n].entries())
      await insertEvent(t.db, {
        blockNumber: 10 + index,
        logIndex: 0,
        blockTime: day(3 + index),
        address: A,
        event: "BoosterDropsMinted",
        args: {
          minter: ALICE,
          amount: "1",
          startTokenId: tokenId.toString(),
          endTokenId: tokenId.toString(),
        },
      });
    await insertEvent(t.db, {
      blockNumber: 12,
      logIndex: 0,
      blockTime: day(5),
      address: C,
      event: "BoosterDropsMinted",
      args: {
        minter: ALICE,
        amount: "2",
        startTokenId: BIG.toString(),
        endTokenId: (BIG + 1n).toString(),
      },
    });
    await setHead(t.db, 13);
    await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
  });
  afterAll(() => t.close());

  it("walks the games page by page and finds them by text, creator, slug and flag", async () => {
    const names: string[] = [];
    for await (const game of client.classic.games.iterate({ limit: 1 })) names.push(game.nftName);
    expect(names).toEqual(["Deep Gamma", "Beta", "Alpha"]);

    const found = await client.classic.games.search({ q: "gamma" });
    expect(found.games.map((game) => [game.dropContractAddress, game.version])).toEqual([[C, 0]]);
    const detail = await client.classic.games.get("game-2");
    expect(detail.contractInfo).toMatchObject({ dropContractAddress: B, isFeatured: true, version: "0" });
    const featured = await client.classic.games.featured();
    expect(featured.games.map((game) => game.dropContractAddress)).toEqual([B]);
    expect(await client.classic.games.ready(A)).toMatchObject({ ready: true });
    const cards = await client.classic.games.allMetadata(A, { includeContractDetails: true });
    expect(cards.metadata.map((card) => card.rarity)).toEqual([1, 2, 3, 4, 5]);
    expect(cards.contractDetails?.dropContractAddress).toBe(A);
  });

  it("returns token ids above 2^53 exactly, as bigint, in every pack read", async () => {
    const range = await client.classic.packs.range({
      contractAddress: C,
      sortBy: "tokenId",
      sortOrder: "asc",
    });
    expect(range.boosterBoxes.map((pack) => pack.tokenId)).toEqual([BIG, BIG + 1n]);
    expect(range.boosterBoxes[0]).toMatchObject({ rarity: 4, rarityName: "Legendary", owner: ALICE });

    const walked: bigint[] = [];
    for await (const pack of client.classic.packs.iterateOwner(ALICE, { limit: 1 }))
      walked.push(pack.tokenId);
    expect(walked.sort()).toEqual([1n, BIG, BIG + 1n].sort());

    const holdings = await client.classic.packs.holdings(ALICE, { contractAddress: C });
    expect(holdings.boxes.map((box) => [box.tokenId, box.status])).toEqual([
      [BIG, "opened"],
      [BIG + 1n, "minted"],
    ]);

    // The marketplace-standard token JSON needs no key.
    const token = await anonymous.classic.metadata.token(C, BIG);
    expect(token.attributes).toContainEqual(
      expect.objectContaining({ trait_type: "Rarity", value: "Legendary" }),
    );
    const collection = await anonymous.classic.metadata.collection(C);
    expect(collection.name).toBe("Deep Gamma");
  });

  it("walks activity by both cursors without duplicates", async () => {
    const forward = [];
    for await (const event of client.classic.activity.iterateEvents(A, { limit: 1 }))
      forward.push(event.blockNumber);
    expect(forward).toEqual([10, 11]);
    const recent = [];
    for await (const event of client.classic.activity.iterateRecent({ limit: 1 }))
      recent.push(event.tokenIds);
    expect(recent).toEqual([[BIG.toString(), (BIG + 1n).toString()], ["2"], ["1"]]);
  });

  it("reads the boards and the platform statistics", async () => {
    const collectors = await client.classic.stats.collectors();
    expect(collectors.leaderboard[0]).toMatchObject({ rank: 1, address: ALICE, packsHeld: 3 });
    const stats = await client.classic.stats.platform();
    expect(stats.stats).toMatchObject({ games: 3 });
    expect(await client.classic.unboxingDisallowed()).toEqual({ disallowed: false });
  });

  it("reads the live-compatible box views, one pack, a game's packs and the rarity of an opening", async () => {
    const owner = await client.classic.packs.ownerBoxes(ALICE, { contractAddress: C, includeMetadata: true });
    expect(owner.boxes.map((box) => [box.tokenId, box.status])).toEqual([
      [BIG + 1n, "minted"],
      [BIG, "opened"],
    ]);
    expect(owner.boxes[0]?._id).toMatch(/^[0-9a-f]{24}$/);
    expect(owner.boxes[1]?.metadata).toMatchObject({ foil: expect.any(String), wear: expect.any(String) });
    const rare = await client.classic.packs.recentBoxes({ rarityGreaterThan: 1 });
    expect(rare.boxes.map((box) => [box.contractAddress, box.tokenId])).toEqual([
      [C, BIG],
      [A, 2n],
    ]);
    expect(rare.pagination.total).toBe(2);
    const one = await client.classic.packs.get(C, BIG);
    expect(one.boosterBox).toMatchObject({ tokenId: BIG, rarityName: "Legendary", isNSFW: false });
    expect(one.boosterBox._id).toBe(owner.boxes[1]?._id);
    expect((await client.classic.packs.getByPath(C, BIG)).boosterBox._id).toBe(one.boosterBox._id);
    const all = await client.classic.packs.all(C, { limit: 1, page: 2 });
    expect(all.boxes.map((box) => box.tokenId)).toEqual([BIG + 1n]);
    expect(all.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });

    await insertEvent(t.db, {
      blockNumber: 14,
      logIndex: 0,
      blockTime: day(6),
      address: C,
      event: "BoosterDropOpened",
      args: { from: ALICE, tokenIds: [BIG.toString()], batchId: "1" },
    });
    await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
    const rarity = await client.classic.packs.rarity({ transactionHash: txHash(14_000), contractAddress: C });
    expect(rarity).toMatchObject({ tokenId: BIG, rarity: 4, rarityName: "Legendary" });
    expect(rarity.packs.map((pack) => pack.tokenId)).toEqual([BIG]);
    const unknown = await client.classic.packs
      .rarity({ transactionHash: txHash(14_001), contractAddress: C })
      .catch((error: unknown) => error);
    expect([(unknown as MktApiError).status, (unknown as MktApiError).code]).toEqual([
      404,
      "TRANSACTION_NOT_FOUND",
    ]);
  });

  it("reads the ETH price, a drop's price chart and its collection statistics", async () => {
    const price = await client.classic.ethPrice();
    // The dev chain's fixed rate, obtained when the app started.
    expect(price).toMatchObject({ success: true, price: 3000, priceFormatted: "$3,000.00" });
    expect(Date.parse(price.lastUpdated)).toBeLessThanOrEqual(Date.now());

    const chart = await client.classic.priceChart("game-1", { timeframe: "24h", includeStats: true });
    const hour = 3_600_000;
    const current = Math.floor(Date.now() / hour) * hour;
    expect(chart.points).toHaveLength(24);
    // The mints are months old: every hour carries their price (1000 Wei per pack) forward.
    expect(chart.points[23]).toEqual({
      timestamp: new Date(current).toISOString(),
      price: "1000",
      priceUsd: "$0.00",
      trades: 0,
      volume: "0",
    });
    expect(chart.points[0]?.timestamp).toBe(new Date(current - 23 * hour).toISOString());
    expect(chart.stats).toEqual({
      current: "1000",
      open: "1000",
      high: "1000",
      low: "1000",
      change: 0,
      volume: "0",
      trades: 0,
    });

    const { stats } = await client.classic.collectionStats(A);
    expect(stats).toMatchObject({
      contractAddress: A,
      packsMinted: 2,
      packsHeld: 2,
      // Pack 2 was opened (its rarity is assigned): one pack is left unopened.
      packsUnopened: 1,
      packsBurned: 0,
      holders: 2,
      pricePerPack: "1000",
      pricePerPackUsd: "$0.00",
      last24h: { packsMinted: 0, volumeWei: "0", trades: 0 },
    });

    const unknown = await client.classic.priceChart(addressOf(0xdead)).catch((error: unknown) => error);
    expect([(unknown as MktApiError).status, (unknown as MktApiError).code]).toEqual([404, "GAME_NOT_FOUND"]);
    const badWindow = await client.classic
      .priceChart(A, { timeframe: "2h" as "1h" })
      .catch((error: unknown) => error);
    expect([(badWindow as MktApiError).status, (badWindow as MktApiError).code]).toEqual([
      400,
      "VALIDATION_ERROR",
    ]);
    const noStats = await client.classic.collectionStats("nobody").catch((error: unknown) => error);
    expect([(noStats as MktApiError).status, (noStats as MktApiError).code]).toEqual([404, "GAME_NOT_FOUND"]);
  });

  it("throws errors that carry the status and the stable code", async () => {
    const missing = await client.classic.games.get(addressOf(0xdead)).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(MktApiError);
    expect([(missing as MktApiError).status, (missing as MktApiError).code]).toEqual([404, "GAME_NOT_FOUND"]);
    const invalid = await client.classic.games.search({}).catch((error: unknown) => error);
    expect([(invalid as MktApiError).status, (invalid as MktApiError).code]).toEqual([
      400,
      "VALIDATION_ERROR",
    ]);
    // A key-gated read without a key: the one 429 of the surface.
    const refused = await anonymous.classic.games.list().catch((error: unknown) => error);
    expect([(refused as MktApiError).status, (refused as MktApiError).code]).toEqual([429, "RATE_LIMITED"]);
  });
});

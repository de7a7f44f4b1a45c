import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import type { Database } from "../../db/index.ts";

const HOUR = 3_600_000;
const ETH = 10n ** 18n;
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const [G1, G2, G3, G4] = [0xa1, 0xa2, 0xa3, 0xa4].map(address) as [string, string, string, string];
const [W1, W2, W3, W4, W5, W6] = [1, 2, 3, 4, 5, 6].map(address) as [
  string,
  string,
  string,
  string,
  string,
  string,
];

interface GameFixture {
  chainId?: number;
  drop: string;
  gameId: number;
  name: string;
  slug: string;
  mintVolume: bigint;
  packsMinted: number;
  packsOpened: number;
  packsBurned: number;
  isActive: boolean;
  isGraduated: boolean;
  updatedAgoMs: number;
}

async function insertGame(db: Database, now: number, game: GameFixture) {
  const at = new Date(now - game.updatedAgoMs).toISOString();
  await sql`
    INSERT INTO classic_games (scope, chain_id, drop_address, game_id, token_address, creator, nft_name,
      nft_symbol, token_name, token_symbol, price_per_pack, merkle_root, is_graduated, packs_minted,
      created_block, created_tx, created_at, updated_block, updated_at, is_active, packs_opened,
      packs_burned, mint_volume, slug)
    VALUES ('classic', ${game.chainId ?? 8453}, ${game.drop}, ${game.gameId}, ${address(0xb0 + game.gameId)},
      ${W1}, ${game.name}, 'SYM', ${game.name}, 'TKN', ${String(ETH / 10n)}, ${`0x${"0".repeat(64)}`},
      ${game.isGraduated}, ${game.packsMinted}, 1, ${`0x${"1".repeat(64)}`}, ${at}, 2, ${at},
      ${game.isActive}, ${game.packsOpened}, ${game.packsBurned}, ${game.mintVolume.toString()}, ${game.slug})`.execute(
    db.kysely,
  );
}

async function insertPack(
  db: Database,
  now: number,
  pack: {
    chainId?: number;
    drop: string;
    tokenId: number;
    owner: string;
    status: "minted" | "rarity_assigned" | "opened" | "burned";
    price: bigint;
    reward?: bigint;
    mintedAgoHours: number;
  },
) {
  const minted = new Date(now - pack.mintedAgoHours * HOUR).toISOString();
  await sql`
    INSERT INTO classic_packs (scope, chain_id, contract_address, token_id, owner, status, rarity, batch_id,
      acquired_price, reward_amount, mint_tx, mint_block, mint_time, updated_block, updated_at)
    VALUES ('classic', ${pack.chainId ?? 8453}, ${pack.drop}, ${pack.tokenId}, ${pack.owner}, ${pack.status},
      ${pack.status === "minted" ? 0 : 1}, 1, ${pack.price.toString()}, ${pack.reward?.toString() ?? null},
      ${`0x${"2".repeat(64)}`}, 3, ${minted}, 3, ${minted})`.execute(db.kysely);
}

describe("classic leaderboards and platform stats", () => {
  const clock = createManualClock();
  let database: TestDatabase;
  let app: TestApp;
  /** Runs on a real chain with no price source configured. */
  let unpriced: TestApp;
  let key: string;

  beforeAll(async () => {
    database = await setupDatabase();
    app = await setupApp({ database, clock });
    unpriced = await setupApp({ database, clock, env: { RPC_URL_8453: "https://rpc.example.com" } });
    key = (await app.createKey()).key;
    const db = database.db;
    const now = clock.now();
    const game = { packsOpened: 0, packsBurned: 0, isActive: true, isGraduated: false };
    await insertGame(db, now, {
      ...game,
      drop: G1,
      gameId: 1,
      name: "Night Owls",
      slug: "night-owls-1",
      mintVolume: (5n * ETH) / 10n,
      packsMinted: 5,
      packsOpened: 1,
      packsBurned: 1,
      updatedAgoMs: HOUR,
    });
    await insertGame(db, now, {
      ...game,
      drop: G2,
      gameId: 2,
      name: "Sea Wolves",
      slug: "",
      mintVolume: (8n * ETH) / 10n,
      packsMinted: 4,
      packsOpened: 1,
      isActive: false,
      isGraduated: true,
      updatedAgoMs: 2 * HOUR,
    });
    await insertGame(db, now, {
      ...game,
      drop: G3,
      gameId: 3,
      name: "Ties",
      slug: "ties-3",
      mintVolume: (8n * ETH) / 10n,
      packsMinted: 4,
      packsBurned: 1,
      updatedAgoMs: 10 * 60_000,
    });
    // Another chain's game and pack never count on 8453.
    await insertGame(db, now, {
      ...game,
      chainId: 4663,
      drop: G4,
      gameId: 1,
      name: "Elsewhere",
      slug: "elsewhere-1",
      mintVolume: 100n * ETH,
      packsMinted: 99,
      updatedAgoMs: 0,
    });
    await insertPack(db, now, {
      chainId: 4663,
      drop: G4,
      tokenId: 1,
      owner: W6,
      status: "minted",
      price: 100n * ETH,
      mintedAgoHours: 1,
    });
    await sql`INSERT INTO classic_slugs (chain_id, slug, contract_address) VALUES (8453, 'owls', ${G1})`.execute(
      db.kysely,
    );
    const tenth = ETH / 10n;
    const fifth = ETH / 5n;
    for (const pack of [
      { drop: G1, tokenId: 1, owner: W1, status: "minted", price: tenth, mintedAgoHours: 2 },
      { drop: G1, tokenId: 2, owner: W1, status: "opened", price: tenth, mintedAgoHours: 30 },
      { drop: G1, tokenId: 3, owner: W2, status: "rarity_assigned", price: tenth, mintedAgoHours: 1 },
      {
        drop: G1,
        tokenId: 4,
        owner: W2,
        status: "burned",
        price: tenth,
        reward: ETH / 20n,
        mintedAgoHours: 30,
      },
      { drop: G1, tokenId: 5, owner: W3, status: "minted", price: tenth, mintedAgoHours: 48 },
      { drop: G2, tokenId: 1, owner: W2, status: "minted", price: fifth, mintedAgoHours: 3 },
      { drop: G2, tokenId: 2, owner: W3, status: "minted", price: fifth, mintedAgoHours: 25 },
      { drop: G2, tokenId: 3, owner: W3, status: "opened", price: fifth, mintedAgoHours: 23 },
      { drop: G2, tokenId: 4, owner: W5, status: "minted", price: fifth, mintedAgoHours: 200 },
      { drop: G3, tokenId: 1, owner: W1, status: "minted", price: fifth, mintedAgoHours: 100 },
      { drop: G3, tokenId: 2, owner: W1, status: "rarity_assigned", price: fifth, mintedAgoHours: 100 },
      { drop: G3, tokenId: 3, owner: W4, status: "minted", price: fifth, mintedAgoHours: 100 },
      { drop: G3, tokenId: 4, owner: W6, status: "burned", price: fifth, reward: tenth, mintedAgoHours: 100 },
    ] as const)
      await insertPack(db, now, pack);
  });
  afterAll(async () => {
    await app?.close();
    await unpriced?.close();
    await database?.close();
  });

  const get = (url: string, on: TestApp = app, headers: Record<string, string> = { "api-key": key }) =>
    on.app.server.inject({ url, headers });

  describe("GET /classic/leaderboards/collectors", () => {
    it("ranks wallets by packs held, then opened, then spent, then address", async () => {
      const response = await get("/classic/leaderboards/collectors");
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("private, max-age=300");
      const tenth = (n: number) => ((BigInt(n) * ETH) / 10n).toString();
      expect(response.json()).toEqual({
        success: true,
        leaderboard: [
          // Opened packs held: `opened` (randomness pending) and `rarity_assigned` ones.
          { rank: 1, address: W1, packsHeld: 4, packsOpened: 2, packsBurned: 0, spentWei: tenth(6) },
          { rank: 2, address: W3, packsHeld: 3, packsOpened: 1, packsBurned: 0, spentWei: tenth(5) },
          { rank: 3, address: W2, packsHeld: 2, packsOpened: 1, packsBurned: 1, spentWei: tenth(4) },
          // W4 and W5 tie on everything: the address decides.
          { rank: 4, address: W4, packsHeld: 1, packsOpened: 0, packsBurned: 0, spentWei: tenth(2) },
          { rank: 5, address: W5, packsHeld: 1, packsOpened: 0, packsBurned: 0, spentWei: tenth(2) },
          { rank: 6, address: W6, packsHeld: 0, packsOpened: 0, packsBurned: 1, spentWei: tenth(2) },
        ],
        pagination: { page: 1, limit: 25, total: 6, totalPages: 1 },
      });
    });

    it("pages with continuing ranks, and counts past the last page", async () => {
      const second = (await get("/classic/leaderboards/collectors?limit=2&page=2")).json();
      expect(
        second.leaderboard.map((entry: { rank: number; address: string }) => [entry.rank, entry.address]),
      ).toEqual([
        [3, W2],
        [4, W4],
      ]);
      expect(second.pagination).toEqual({ page: 2, limit: 2, total: 6, totalPages: 3 });
      const beyond = (await get("/classic/leaderboards/collectors?limit=2&page=9")).json();
      expect(beyond).toEqual({
        success: true,
        leaderboard: [],
        pagination: { page: 9, limit: 2, total: 6, totalPages: 3 },
      });
    });

    it("narrows to one drop, and to one chain", async () => {
      const one = (
        await get(`/classic/leaderboards/collectors?contractAddress=${G1.toUpperCase().replace("0X", "0x")}`)
      ).json();
      expect(one.leaderboard).toEqual([
        {
          rank: 1,
          address: W1,
          packsHeld: 2,
          packsOpened: 1,
          packsBurned: 0,
          spentWei: (ETH / 5n).toString(),
        },
        {
          rank: 2,
          address: W2,
          packsHeld: 1,
          packsOpened: 1,
          packsBurned: 1,
          spentWei: (ETH / 5n).toString(),
        },
        {
          rank: 3,
          address: W3,
          packsHeld: 1,
          packsOpened: 0,
          packsBurned: 0,
          spentWei: (ETH / 10n).toString(),
        },
      ]);
      const other = (await get("/classic/leaderboards/collectors?chainId=4663")).json();
      expect(other.leaderboard).toEqual([
        {
          rank: 1,
          address: W6,
          packsHeld: 1,
          packsOpened: 0,
          packsBurned: 0,
          spentWei: (100n * ETH).toString(),
        },
      ]);
      const empty = (await get("/classic/leaderboards/collectors?chainId=1")).json();
      expect(empty).toEqual({
        success: true,
        leaderboard: [],
        pagination: { page: 1, limit: 25, total: 0, totalPages: 0 },
      });
    });
  });

  describe("GET /classic/leaderboards/games", () => {
    it("ranks by volume, then packs, then address, with slugs and holders", async () => {
      const response = await get("/classic/leaderboards/games");
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        leaderboard: [
          {
            rank: 1,
            address: G2,
            name: "Sea Wolves",
            slug: "sea-wolves-2",
            volumeWei: ((8n * ETH) / 10n).toString(),
            packsMinted: 4,
            holders: 3,
          },
          {
            rank: 2,
            address: G3,
            name: "Ties",
            slug: "ties-3",
            volumeWei: ((8n * ETH) / 10n).toString(),
            packsMinted: 4,
            holders: 2,
          },
          {
            rank: 3,
            address: G1,
            name: "Night Owls",
            slug: "owls",
            volumeWei: ((5n * ETH) / 10n).toString(),
            packsMinted: 5,
            holders: 3,
          },
        ],
        pagination: { page: 1, limit: 25, total: 3, totalPages: 1 },
      });
    });

    it("ranks by packs minted with sortBy=packs, and pages", async () => {
      const byPacks = (await get("/classic/leaderboards/games?sortBy=packs")).json();
      expect(byPacks.leaderboard.map((entry: { address: string }) => entry.address)).toEqual([G1, G2, G3]);
      const page = (await get("/classic/leaderboards/games?sortBy=packs&limit=1&page=3")).json();
      expect(page.leaderboard).toMatchObject([{ rank: 3, address: G3 }]);
      expect(page.pagination).toEqual({ page: 3, limit: 1, total: 3, totalPages: 3 });
      const beyond = (await get("/classic/leaderboards/games?limit=1&page=4")).json();
      expect(beyond.pagination).toEqual({ page: 4, limit: 1, total: 3, totalPages: 3 });
    });
  });

  describe("GET /classic/stats", () => {
    it("totals the chain's projection, with the 24-hour window and the USD volume", async () => {
      const response = await get("/classic/stats");
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        stats: {
          chainId: 8453,
          games: 3,
          activeGames: 2,
          graduatedGames: 1,
          packsMinted: 13,
          packsOpened: 2,
          packsBurned: 2,
          holders: 5,
          mintVolumeWei: ((21n * ETH) / 10n).toString(),
          mintVolumeUsd: "$6,300.00",
          rewardsPaidWei: ((15n * ETH) / 100n).toString(),
          last24h: { packsMinted: 4, mintVolumeWei: ((6n * ETH) / 10n).toString() },
          updatedAt: new Date(clock.now() - 10 * 60_000).toISOString(),
        },
      });
    });

    it("answers zeros for a chain without games", async () => {
      const stats = (await get("/classic/stats?chainId=1")).json().stats;
      expect(stats).toMatchObject({
        chainId: 1,
        games: 0,
        holders: 0,
        mintVolumeWei: "0",
        mintVolumeUsd: "$0.00",
        updatedAt: null,
      });
    });

    it("answers 503 PRICE_UNAVAILABLE without a price source; the leaderboards need none", async () => {
      const unpricedKey = (await unpriced.createKey()).key;
      const response = await get("/classic/stats", unpriced, { "api-key": unpricedKey });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        success: false,
        message: "the ETH/USD price is temporarily unavailable; retry shortly",
        error: "PRICE_UNAVAILABLE",
      });
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["retry-after"]).toBe("60");
      expect(
        (await get("/classic/leaderboards/games", unpriced, { "api-key": unpricedKey })).statusCode,
      ).toBe(200);
    });
  });

  describe("errors", () => {
    it("needs the API key on every route", async () => {
      for (const url of [
        "/classic/stats",
        "/classic/leaderboards/games",
        "/classic/leaderboards/collectors",
      ]) {
        const response = await get(url, app, {});
        expect([url, response.statusCode]).toEqual([url, 429]);
        expect(response.json()).toMatchObject({ success: false, error: "RATE_LIMITED" });
      }
    });

    it("refuses malformed queries with 400", async () => {
      for (const url of [
        "/classic/leaderboards/collectors?limit=101",
        "/classic/leaderboards/collectors?limit=0",
        "/classic/leaderboards/collectors?page=0",
        "/classic/leaderboards/collectors?contractAddress=night-owls-1",
        "/classic/leaderboards/games?sortBy=holders",
        "/classic/stats?chainId=0",
      ]) {
        const response = await get(url);
        expect([url, response.statusCode]).toEqual([url, 400]);
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../../_test/app.ts";
import {
  addressOf,
  insertEvent,
  insertGame,
  insertOpenBatch,
  insertPack,
  setHead,
  txHash,
} from "../../_test/classic-packs.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { CLASSIC_INDEXER_SOURCE } from "../routes.ts";

const FACTORY = addressOf(0xf0);
const A = addressOf(0xa1);
const A_TOKEN = addressOf(0xa2);
const B = addressOf(0xb1);
const B_TOKEN = addressOf(0xb2);
const ALICE = addressOf(0x1a);
const BOB = addressOf(0x1b);
const ZERO = addressOf(0);
const BIG = 2n ** 70n + 3n;
const second = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

interface Event {
  id: string;
  type: string;
  blockNumber: number;
  logIndex: number;
  contractAddress: string;
  tokenIds: string[];
}

describe("classic activity", () => {
  let t: TestApp;
  let key: string;
  let database: TestDatabase;
  let block = 100;

  /** One log in the next block (or the same block at the next index when `sameBlock`). */
  const log = async (
    address: string,
    event: string,
    args: Record<string, unknown>,
    options: { sameBlock?: boolean; time?: Date; tx?: number } = {},
  ) => {
    if (!options.sameBlock) block += 1;
    const { rows } = await t.db.withConnection((c) =>
      c.query<{ n: string }>("SELECT count(*)::text AS n FROM chain_events WHERE block_number = $1", [block]),
    );
    await insertEvent(t.db, {
      blockNumber: block,
      logIndex: Number(rows[0]?.n ?? 0),
      blockTime: options.time ?? second(block),
      address,
      event,
      args,
      ...(options.tx === undefined ? {} : { transactionHash: txHash(options.tx) }),
    });
  };

  beforeAll(async () => {
    database = await setupDatabase();
    t = await setupApp({ database });
    key = (await t.createKey()).key;
    // As the projection writes it: a game's creation block is its GameCreated log's (the next one).
    await insertGame(t.db, {
      drop: A,
      token: A_TOKEN,
      gameId: "1",
      slug: "alpha-1",
      createdBlock: block + 1,
    });
    await insertGame(t.db, { drop: B, token: B_TOKEN, gameId: "2", slug: "beta-2" });
    await log(FACTORY, "DropCreated", {
      creator: ALICE,
      dropContract: A,
      tokenContract: A_TOKEN,
      nftName: "Game 1",
      nftSymbol: "PK",
      tokenName: "Tickets",
      tokenSymbol: "TIX",
    });
    await log(A_TOKEN, "TokensPurchased", { buyer: ALICE, amount: "5000", ethPaid: "1000" });
    // A mint of two packs in one transaction: the drop buys its token (the mint's ETH), then mints; the
    // drop's own purchase and the ERC-721 mint transfers are not activity of their own.
    const MINT_TX = 0x3001;
    await log(A_TOKEN, "TokensPurchased", { buyer: A, amount: "200", ethPaid: "600" }, { tx: MINT_TX });
    await log(A, "Transfer", { from: ZERO, to: ALICE, tokenId: "1" }, { sameBlock: true, tx: MINT_TX });
    await log(
      A,
      "Transfer",
      { from: ZERO, to: ALICE, tokenId: BIG.toString() },
      { sameBlock: true, tx: MINT_TX },
    );
    await log(
      A,
      "BoosterDropsMinted",
      { minter: ALICE, amount: "2", startTokenId: "1", endTokenId: "2" },
      { sameBlock: true, tx: MINT_TX },
    );
    await log(A_TOKEN, "Transfer", { from: ALICE, to: A, value: "100" }, { sameBlock: true });
    // Opening precedes the rarity: one RarityAssigned per open batch.
    await log(A, "BoosterDropOpened", { from: ALICE, tokenIds: ["1", BIG.toString()], batchId: "1" });
    await log(A, "RarityAssigned", { batchId: "1", randomNumber: `0x${"07".repeat(32)}` });
    // What the projection keeps of that batch: its packs (both drew Epic here).
    await insertOpenBatch(t.db, {
      drop: A,
      batchId: 1n,
      tokenIds: [1n, BIG],
      randomNumber: `0x${"07".repeat(32)}`,
      block,
    });
    for (const tokenId of [1n, BIG])
      await insertPack(t.db, { drop: A, tokenId, owner: ALICE, status: "opened", rarity: 3 });
    await log(A, "Transfer", { from: ALICE, to: BOB, tokenId: BIG.toString() });
    // `sellForEth`: the offer (tokens) sold by the drop for ETH in the same transaction.
    const SALE_TX = 0x3002;
    await log(
      A,
      "BoosterDropSold",
      { burner: BOB, tokenId: BIG.toString(), rarity: 3, offerAmount: "999" },
      { tx: SALE_TX },
    );
    await log(
      A_TOKEN,
      "TokensSold",
      { seller: A, recipient: BOB, amount: "999", ethReceived: "5" },
      { sameBlock: true, tx: SALE_TX },
    );
    await log(B_TOKEN, "TokensSold", { seller: BOB, recipient: BOB, amount: "10", ethReceived: "2" });
    await log(A_TOKEN, "MarketGraduated", {
      nftAddress: A,
      tokenAddress: A_TOKEN,
      pool: addressOf(0x9001),
      ethAmount: "55",
      tokenAmount: "66",
      positionId: "0",
    });
    await log(A, "ActiveChanged", { active: false });
    await setHead(t.db, block + 1);
    await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  const get = (url: string) => t.app.server.inject({ url: `/classic${url}`, headers: { "api-key": key } });

  describe("GET /collection/{contractAddress}/events", () => {
    it("gives one game's activity in log order with typed records", async () => {
      const response = await get(`/collection/alpha-1/events`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.events.map((event: Event) => event.type)).toEqual([
        "game_created",
        "curve_purchase",
        "mint",
        "open",
        "rarity_assigned",
        "transfer",
        "sell_back",
        "graduation",
        "pause",
      ]);
      expect(body.hasMore).toBe(false);
      expect(body.head).toBe(block);
      const [created, purchase, mint, open, assigned, transfer, sellBack, graduation] = body.events;
      expect(created).toMatchObject({ contractAddress: A, address: FACTORY, actor: ALICE, blockNumber: 101 });
      expect(purchase).toMatchObject({
        address: A_TOKEN,
        actor: ALICE,
        ethAmount: "1000",
        tokenAmount: "5000",
      });
      expect(mint).toMatchObject({
        tokenIds: ["1", "2"],
        actor: ALICE,
        ethAmount: "600",
        blockNumber: 103,
        logIndex: 3,
        id: `${(103).toString(16).padStart(16, "0")}00000003`,
        timestamp: second(103).toISOString(),
      });
      expect(open.tokenIds).toEqual(["1", BIG.toString()]);
      // The batch's packs, from its opening, and the rarity they share.
      expect(assigned).toMatchObject({ tokenIds: ["1", BIG.toString()], rarity: 3 });
      expect(transfer).toMatchObject({ actor: ALICE, to: BOB, tokenIds: [BIG.toString()] });
      expect(sellBack).toMatchObject({
        actor: BOB,
        rarity: 3,
        // The offer in the drop's token, and the ETH `sellForEth` got for it.
        tokenAmount: "999",
        ethAmount: "5",
        tokenIds: [BIG.toString()],
      });
      expect(graduation).toMatchObject({ to: addressOf(0x9001), ethAmount: "55", tokenAmount: "66" });
      expect(body.nextCursor).toBe(`${block}:0`);
    });

    it("walks forward without duplicates or gaps while new blocks arrive", async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let polls = 0;
      const poll = async () => {
        const response = await get(`/collection/${A}/events?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        expect(response.statusCode).toBe(200);
        const body = response.json();
        polls += 1;
        seen.push(...body.events.map((event: Event) => event.id));
        cursor = body.nextCursor;
        return body;
      };
      await poll();
      await poll();
      // New activity lands between pages (the indexer's commit moves the cache source).
      await log(A, "ActiveChanged", { active: true });
      // A mint paid with tokens (`mintWithToken`): no purchase in its transaction.
      await log(A, "BoosterDropsMinted", { minter: BOB, amount: "1", startTokenId: "3", endTokenId: "3" });
      await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
      while ((await poll()).hasMore && polls < 20) {}
      const caughtUp = cursor;
      // Nothing new: the same cursor comes back and no event repeats.
      expect((await poll()).events).toEqual([]);
      expect(cursor).toBe(caughtUp);
      await log(A, "BoosterDropSold", { burner: BOB, tokenId: "3", rarity: 1, offerAmount: "1" });
      await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
      await poll();

      const all = (await get(`/collection/${A}/events?limit=200`))
        .json()
        .events.map((event: Event) => event.id);
      expect(all).toHaveLength(12);
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it("answers 400 for a malformed cursor or limit and 404 for an unknown game", async () => {
      for (const query of [
        "cursor=abc",
        "cursor=1:",
        "cursor=-1:0",
        "cursor=1:2:3",
        "limit=0",
        "limit=201",
      ]) {
        const response = await get(`/collection/${A}/events?${query}`);
        expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
      const unknown = await get(`/collection/${addressOf(0xdead)}/events`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ error: "GAME_NOT_FOUND" });
    });
  });

  describe("GET /recent", () => {
    it("gives every game's activity newest first, paged by a timestamp-objectId cursor", async () => {
      const first = (await get(`/recent?limit=3`)).json();
      expect(first.events.map((event: Event) => event.type)).toEqual(["sell_back", "mint", "resume"]);
      expect(first.nextCursor).toMatch(/^\d+-[0-9a-f]{24}$/);
      const last = first.events[2];
      expect(first.nextCursor).toBe(`${Date.parse(last.timestamp)}-${last.id}`);
      const all = (await get(`/recent?limit=100`)).json();
      // Both games, no token transfers, no mint transfers.
      expect(all.events.map((event: Event) => event.contractAddress)).toContain(B);
      expect(all.events).toHaveLength(13);
      expect(all.nextCursor).toBeNull();
    });

    it("walks older pages without repeats or gaps while new activity arrives", async () => {
      const expected = (await get(`/recent?limit=100`)).json().events.map((event: Event) => event.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 20; page++) {
        const response = await get(`/recent?limit=4${cursor ? `&cursor=${cursor}` : ""}`);
        const body = response.json();
        seen.push(...body.events.map((event: Event) => event.id));
        cursor = body.nextCursor;
        if (page === 0) {
          // Newer activity arrives while the walk goes on.
          await log(B, "BoosterDropsMinted", {
            minter: ALICE,
            amount: "1",
            startTokenId: "1",
            endTokenId: "1",
          });
          await t.app.services.revisions.bump(CLASSIC_INDEXER_SOURCE);
        }
        if (cursor === null) break;
      }
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it("answers 400 for a malformed cursor", async () => {
      for (const cursor of [
        "abc",
        "1-abc",
        `1-${"g".repeat(24)}`,
        `99999999999999999-${"0".repeat(24)}`,
        `1-${"f".repeat(24)}`,
        `1-0000000000000000ffffffff`,
      ]) {
        const response = await get(`/recent?cursor=${cursor}`);
        expect({ cursor, status: response.statusCode }).toEqual({ cursor, status: 400 });
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
      expect((await get(`/recent?limit=101`)).statusCode).toBe(400);
    });
  });
});

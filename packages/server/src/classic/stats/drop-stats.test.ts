import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { insertClassicGame, insertClassicSlug } from "../../_test/classic.ts";
import { addressOf, insertEvent, insertMint } from "../../_test/classic-packs.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { type EthUsdPriceSource, type EthUsdQuote, fixedPriceSource, noPriceSource } from "../price.ts";

const ETH = 10n ** 18n;
const FINNEY = 10n ** 15n;
const HOUR = 3_600_000;
const DROP = addressOf(0xd1);
const TOKEN = addressOf(0xe1);
const OTHER_DROP = addressOf(0xd2);
const [W1, W2, W3] = [addressOf(0x101), addressOf(0x102), addressOf(0x103)] as [string, string, string];
/** The clock's start: 2026-11-25T12:00:00Z, the first instant of an hourly (and 6-hourly) bucket. */
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (iso: string) => new Date(iso);

type PackState = {
  owner: string;
  status: "minted" | "rarity_assigned" | "opened" | "burned";
  rarity?: number;
};

/**
 * A mint of `amount` packs at `price` Wei each, as the indexer records it: the drop's `TokensPurchased`
 * and `BoosterDropsMinted` of one transaction and the packs, each carrying its share of the ETH.
 */
const minted = (
  blockNumber: number,
  time: string,
  firstTokenId: bigint,
  amount: number,
  price: bigint,
  packs?: readonly PackState[],
  extra: { drop?: string; token?: string; chainId?: number } = {},
) => ({
  drop: extra.drop ?? DROP,
  token: extra.token ?? TOKEN,
  ...(extra.chainId === undefined ? {} : { chainId: extra.chainId }),
  minter: W1,
  firstTokenId,
  amount,
  paid: price * BigInt(amount),
  blockNumber,
  time: at(time),
  ...(packs ? { packs } : {}),
});
const pack = (owner: string, status: PackState["status"]): PackState => ({
  owner,
  status,
  ...(status === "minted" ? {} : { rarity: 1 }),
});

describe("classic live market reads: eth-price, price-chart, collection stats", () => {
  const clock = createManualClock(NOW);
  let database: TestDatabase;
  let app: TestApp;
  let unpriced: TestApp;
  let key: string;
  /** The price the main app's source answers now (mutable per test). */
  let quote: EthUsdQuote | undefined;
  const source: EthUsdPriceSource = { quote: async () => quote };

  beforeAll(async () => {
    database = await setupDatabase();
    app = await setupApp({ database, clock, ethUsdPrice: source });
    unpriced = await setupApp({ database, clock, ethUsdPrice: noPriceSource });
    key = (await app.createKey()).key;
    const db = database.db;
    await insertClassicGame(db, {
      address: DROP,
      tokenAddress: TOKEN,
      scope: "8453:classic:test",
      nftName: "Night Owls",
      gameId: 7n,
      pricePerPack: FINNEY,
      // Curve: (1 ETH + 0) * 500 tokens / (1000 - 500) tokens = a market cap of 1 ETH.
      virtualEth: ETH,
      virtualTokens: 1000n * ETH,
      tokensSold: 500n * ETH,
      mintVolume: 12n * FINNEY,
      createdAt: at("2026-11-20T05:00:00Z"),
      updatedAt: at("2026-11-25T02:45:00Z"),
    });
    await insertClassicSlug(db, DROP, "owls");
    await insertClassicGame(db, { address: OTHER_DROP, gameId: 8n, tokenAddress: addressOf(0xe2) });
    // The drop's ten packs, by mint, with what became of each.
    for (const mint of [
      // 30 hours ago: before the 24h window; the 7d chart's 06:00 bucket.
      minted(100, "2026-11-24T06:00:00Z", 1n, 2, FINNEY / 2n, [
        pack(W1, "minted"),
        pack(W1, "rarity_assigned"),
      ]),
      // The 24h window's first hour: two mints.
      minted(200, "2026-11-24T13:10:00Z", 3n, 3, FINNEY, [
        pack(W1, "opened"),
        pack(W2, "opened"),
        pack(W2, "burned"),
      ]),
      minted(201, "2026-11-24T13:40:00Z", 6n, 1, FINNEY, [pack(W3, "burned")]),
      // 02:00: two mints at different prices; the point is the Wei paid per pack.
      minted(300, "2026-11-25T02:30:00Z", 7n, 2, 2n * FINNEY, [pack(W3, "minted"), pack(W1, "minted")]),
      minted(301, "2026-11-25T02:45:00Z", 9n, 1, FINNEY, [pack(W2, "minted")]),
      // A block time past the clock (a chain ahead of it): counted in the bucket holding now.
      minted(400, "2026-11-25T12:20:00Z", 10n, 1, FINNEY, [pack(W3, "minted")]),
      // Not mints of this drop on this chain: never counted.
      minted(302, "2026-11-25T03:00:00Z", 1n, 5, 9n * FINNEY, undefined, {
        drop: OTHER_DROP,
        token: addressOf(0xe2),
      }),
      minted(303, "2026-11-25T03:00:00Z", 1n, 5, 9n * FINNEY, undefined, { chainId: 4663 }),
    ])
      await insertMint(db, mint);
    // A curve purchase by a collector: not a mint.
    await insertEvent(db, {
      blockNumber: 304,
      logIndex: 0,
      blockTime: at("2026-11-25T04:00:00Z"),
      address: TOKEN,
      event: "TokensPurchased",
      args: { buyer: W2, amount: "1", ethPaid: ETH.toString() },
    });
  });
  afterAll(async () => {
    await app?.close();
    await unpriced?.close();
    await database?.close();
  });

  const get = (url: string, on: TestApp = app) => on.app.server.inject({ url, headers: { "api-key": key } });

  it("documents the live-compatible reads: tags, the live format of …Usd fields", async () => {
    const document = (await app.app.server.inject({ url: "/openapi/classic.json" })).json();
    for (const path of [
      "/classic/eth-price",
      "/classic/price-chart/{addressOrSlug}",
      "/classic/collection/{contractAddress}/stats",
      "/classic/contractAddress/{addressOrSlug}",
    ])
      expect(document.paths[path].get.tags, path).toContain("Live-compatible");
    const game = document.components.schemas.ClassicGame.properties;
    expect(game.pricePerPackUsd.pattern).toBe("^\\$\\d{1,3}(,\\d{3})*\\.\\d{2}$");
    expect(game.marketCapUsd.description).toContain('"$4,743.63"');
  });

  it("contractInfo carries every field the live clients read, dollars in the live format", async () => {
    quote = { usdPerEth: "3000", obtainedAt: new Date(NOW) };
    const { contractInfo } = (await get("/classic/contractAddress/owls?chainId=8453")).json();
    expect(contractInfo).toMatchObject({
      dropContractAddress: DROP,
      nftName: "Night Owls",
      nftSymbol: "TEST",
      tokenAddress: TOKEN,
      ownerAddress: `0x${"c".repeat(40)}`,
      chainId: 8453,
      pricePerPackUsd: "$3.00",
      marketCapUsd: "$3,000.00",
      isVerified: false,
      isGraduated: false,
      isActive: true,
    });
    for (const field of ["description", "imageUrl", "packImage"])
      expect(typeof contractInfo[field], field).toBe("string");
  });

  describe("GET /classic/eth-price", () => {
    it("answers the price as a number, in the live format, with the time it was obtained", async () => {
      for (const [usdPerEth, price, priceFormatted] of [
        ["4662.53", 4662.53, "$4,662.53"],
        ["0.5", 0.5, "$0.50"],
        ["1234567.891", 1234567.891, "$1,234,567.89"],
      ] as const) {
        const obtainedAt = new Date(clock.now() - 20_000);
        quote = { usdPerEth, obtainedAt };
        const response = await get("/classic/eth-price");
        expect(response.statusCode).toBe(200);
        expect(response.headers["cache-control"]).toBe("private, max-age=30");
        expect(response.json()).toEqual({
          success: true,
          price,
          priceFormatted,
          lastUpdated: obtainedAt.toISOString(),
        });
        // The answer is kept for 30 seconds: the next price shows once they have passed.
        clock.advance(30_001);
      }
    });

    it("is 503 PRICE_UNAVAILABLE in the classic body without a price", async () => {
      const response = await get("/classic/eth-price", unpriced);
      expect(response.statusCode).toBe(503);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.json()).toMatchObject({ success: false, error: "PRICE_UNAVAILABLE" });
    });

    it("refuses query parameters and a missing key", async () => {
      expect((await get("/classic/eth-price?currency=eur")).statusCode).toBe(400);
      expect((await app.app.server.inject({ url: "/classic/eth-price" })).statusCode).toBe(429);
    });

    it("a fixed source answers the time it started", async () => {
      const started = new Date(Date.UTC(2026, 10, 1));
      const fixed = await setupApp({ database, clock, ethUsdPrice: fixedPriceSource("3000", started) });
      try {
        const fixedKey = (await fixed.createKey()).key;
        const response = await fixed.app.server.inject({
          url: "/classic/eth-price",
          headers: { "api-key": fixedKey },
        });
        expect(response.json()).toEqual({
          success: true,
          price: 3000,
          priceFormatted: "$3,000.00",
          lastUpdated: started.toISOString(),
        });
      } finally {
        await fixed.close();
      }
    });
  });

  describe("GET /classic/price-chart/{address}", () => {
    const withClock = async <T>(fn: () => Promise<T>) => {
      const saved = clock.now();
      clock.advance(NOW - saved);
      try {
        return await fn();
      } finally {
        clock.advance(saved - clock.now());
      }
    };
    const point = (timestamp: string, price: bigint, trades = 0, volume = 0n) => ({
      timestamp,
      price: price.toString(),
      // At $3000 per ETH, rounded down to the cent (every price here is below $1,000).
      priceUsd: `$${(price * 3000n * 100n) / ETH / 100n}.${String(((price * 3000n * 100n) / ETH) % 100n).padStart(2, "0")}`,
      trades,
      volume: volume.toString(),
    });
    const VWAP = (5n * FINNEY) / 3n; // 02:00: 2 packs at 2 finney and 1 at 1 finney

    it("buckets a known trade sequence hourly over 24h, carrying the price across empty hours", async () => {
      quote = { usdPerEth: "3000", obtainedAt: new Date(NOW) };
      const body = await withClock(async () =>
        (await get(`/classic/price-chart/${DROP}?includeStats=true`)).json(),
      );
      const expected = [];
      for (let hour = 0; hour < 24; hour++) {
        const ts = new Date(Date.UTC(2026, 10, 24, 13) + hour * HOUR).toISOString();
        if (hour === 0) expected.push(point(ts, FINNEY, 2, 4n * FINNEY));
        else if (hour < 13) expected.push(point(ts, FINNEY));
        else if (hour === 13) expected.push(point(ts, VWAP, 2, 5n * FINNEY));
        else if (hour < 23) expected.push(point(ts, VWAP));
        // The hour holding now, with the mint whose block time is past the clock.
        else expected.push(point(ts, FINNEY, 1, FINNEY));
      }
      expect(expected[13]!.timestamp).toBe("2026-11-25T02:00:00.000Z");
      expect(expected[13]!.priceUsd).toBe("$4.99");
      expect(body).toEqual({
        success: true,
        chainId: 8453,
        contractAddress: DROP,
        timeframe: "24h",
        interval: "1h",
        points: expected,
        stats: {
          current: FINNEY.toString(),
          open: FINNEY.toString(),
          high: VWAP.toString(),
          low: FINNEY.toString(),
          change: 0,
          volume: (10n * FINNEY).toString(),
          trades: 5,
        },
      });
    });

    it("starts a quiet hour from the last mint before it (1h: twelve 5-minute points)", async () => {
      const body = await withClock(async () => (await get(`/classic/price-chart/owls?timeframe=1h`)).json());
      expect(body.interval).toBe("5m");
      expect(body.stats).toBeUndefined();
      expect(body.points).toHaveLength(12);
      expect(body.points[0]).toEqual(point("2026-11-25T11:05:00.000Z", FINNEY));
      expect(body.points[11]).toEqual(point("2026-11-25T12:00:00.000Z", FINNEY, 1, FINNEY));
      expect(body.points.slice(0, 11).every((p: { trades: number }) => p.trades === 0)).toBe(true);
    });

    it("starts a young game at its creation, from its pack price (7d: 6-hourly points)", async () => {
      const body = await withClock(async () =>
        (await get(`/classic/price-chart/${DROP}?timeframe=7d&includeStats=1`)).json(),
      );
      expect(body.interval).toBe("6h");
      // Created 2026-11-20T05:00: from that 6-hour bucket to the one holding now.
      expect(body.points).toHaveLength(23);
      expect(body.points[0]).toEqual(point("2026-11-20T00:00:00.000Z", FINNEY));
      const byTime = new Map(body.points.map((p: { timestamp: string }) => [p.timestamp, p]));
      expect(byTime.get("2026-11-24T06:00:00.000Z")).toEqual(
        point("2026-11-24T06:00:00.000Z", FINNEY / 2n, 1, FINNEY),
      );
      expect(byTime.get("2026-11-24T12:00:00.000Z")).toEqual(
        point("2026-11-24T12:00:00.000Z", FINNEY, 2, 4n * FINNEY),
      );
      expect(byTime.get("2026-11-25T00:00:00.000Z")).toEqual(
        point("2026-11-25T00:00:00.000Z", VWAP, 2, 5n * FINNEY),
      );
      expect(body.points[21]).toEqual(point("2026-11-25T06:00:00.000Z", VWAP));
      expect(body.points[22]).toEqual(point("2026-11-25T12:00:00.000Z", FINNEY, 1, FINNEY));
      expect(body.stats).toMatchObject({
        low: (FINNEY / 2n).toString(),
        high: VWAP.toString(),
        trades: 6,
        change: 0,
      });
    });

    it("answers without an ETH price: priceUsd null, no 503", async () => {
      const response = await withClock(() => get(`/classic/price-chart/${DROP}?timeframe=30d`, unpriced));
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.interval).toBe("1d");
      // Created on the 20th: the 20th to the 25th.
      expect(body.points.map((p: { timestamp: string }) => p.timestamp.slice(0, 10))).toEqual([
        "2026-11-20",
        "2026-11-21",
        "2026-11-22",
        "2026-11-23",
        "2026-11-24",
        "2026-11-25",
      ]);
      expect(body.points.map((p: { priceUsd: null }) => p.priceUsd)).toEqual([
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
      expect(body.points[4]).toMatchObject({ trades: 3, volume: (5n * FINNEY).toString() });
    });

    it("refuses a bad timeframe, a malformed address and unknown parameters with 400; an unknown game is 404", async () => {
      for (const url of [
        `/classic/price-chart/${DROP}?timeframe=2h`,
        `/classic/price-chart/${DROP}?includeStats=yes`,
        `/classic/price-chart/${DROP}?chainId=0`,
        `/classic/price-chart/${DROP}?from=1`,
        "/classic/price-chart/not_a_slug!",
      ]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
      for (const url of [
        `/classic/price-chart/${addressOf(0xdead)}`,
        "/classic/price-chart/nobody",
        `/classic/price-chart/${DROP}?chainId=4663`,
      ]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toMatchObject({ success: false, error: "GAME_NOT_FOUND" });
      }
    });
  });

  describe("GET /classic/collection/{address}/stats", () => {
    it("answers the drop's figures, equal to recounts of the packs and the mints", async () => {
      quote = { usdPerEth: "3000", obtainedAt: new Date(NOW) };
      const response = await get(`/classic/collection/owls/stats`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("private, max-age=5");
      const { rows } = await sql<{ status: string; packs: string; owners: string }>`
        SELECT status, count(*)::text AS packs, count(DISTINCT owner)::text AS owners FROM classic_packs
        WHERE chain_id = 8453 AND contract_address = ${DROP} GROUP BY status`.execute(database.db.kysely);
      const recount = Object.fromEntries(rows.map((row) => [row.status, Number(row.packs)]));
      const holders = await sql<{ n: string }>`
        SELECT count(DISTINCT owner)::text AS n FROM classic_packs
        WHERE chain_id = 8453 AND contract_address = ${DROP} AND status <> 'burned'`.execute(
        database.db.kysely,
      );
      const minted = (recount["minted"] ?? 0) + (recount["rarity_assigned"] ?? 0) + (recount["opened"] ?? 0);
      expect(response.json()).toEqual({
        success: true,
        stats: {
          chainId: 8453,
          contractAddress: DROP,
          tokenAddress: TOKEN,
          name: "Night Owls",
          slug: "owls",
          packsMinted: minted + (recount["burned"] ?? 0),
          packsOpened:
            (recount["opened"] ?? 0) + (recount["rarity_assigned"] ?? 0) + (recount["burned"] ?? 0),
          packsBurned: recount["burned"] ?? 0,
          packsHeld: minted,
          packsUnopened: recount["minted"] ?? 0,
          holders: Number(holders.rows[0]!.n),
          collectors: 3,
          volumeWei: (12n * FINNEY).toString(),
          volumeUsd: "$36.00",
          pricePerPack: FINNEY.toString(),
          pricePerPackUsd: "$3.00",
          marketCap: ETH.toString(),
          marketCapUsd: "$3,000.00",
          isGraduated: false,
          isActive: true,
          // Since 2026-11-24T12:00: the mints at 13:10, 13:40, 02:30, 02:45 and 12:20.
          last24h: { packsMinted: 8, volumeWei: (10n * FINNEY).toString(), trades: 5 },
          updatedAt: "2026-11-25T02:45:00.000Z",
        },
      });
      // Values the recount must have produced (so the comparison above is not vacuous).
      expect(response.json().stats).toMatchObject({
        packsMinted: 10,
        packsOpened: 5,
        packsBurned: 2,
        holders: 3,
      });
    });

    it("answers without an ETH price with null dollars, and never collides with the holdings route", async () => {
      const body = (await get(`/classic/collection/${DROP}/stats`, unpriced)).json();
      expect(body.stats).toMatchObject({ volumeUsd: null, pricePerPackUsd: null, marketCapUsd: null });
      // `/collection/{ownerAddress}` is still a wallet's holdings.
      const holdings = await get(`/classic/collection/${W1}`);
      expect(holdings.statusCode).toBe(200);
      expect(holdings.json().stats).toBeUndefined();
    });

    it("is 404 for an unknown game and 400 for a malformed one", async () => {
      const unknown = await get(`/classic/collection/${addressOf(0xdead)}/stats`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ success: false, error: "GAME_NOT_FOUND" });
      expect((await get("/classic/collection/bad_slug!/stats")).statusCode).toBe(400);
      expect((await get(`/classic/collection/${DROP}/stats?page=2`)).statusCode).toBe(400);
    });
  });
});

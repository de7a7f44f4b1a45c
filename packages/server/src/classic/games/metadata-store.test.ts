import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../_test/app.ts";
import { insertClassicGame } from "../../_test/classic.ts";
import { setupDatabase, type TestDatabase } from "../../_test/database.ts";
import { createImageLinks, createImageProxyPolicy } from "../../media/index.ts";
import { fixedPriceSource } from "../price.ts";
import { createClassicGameDirectory } from "./directory.ts";
import { cardOddsPercent, formatPercent, marketCapWei, preorderProgress } from "./economics.ts";
import { createClassicMetadataStore } from "./metadata-store.ts";

const A = `0x${"a".repeat(40)}`;
const B = `0x${"b".repeat(40)}`;
const DAY = 86_400_000;
const cards = (names: string[]) =>
  names.map((name, index) => ({
    name,
    rarity: Math.min(index + 1, 5),
    startId: index + 1,
    endId: index + 1,
  }));

describe("classic metadata store", () => {
  let database: TestDatabase;
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  let bumps = 0;
  const store = () =>
    createClassicMetadataStore({
      db: database.db,
      clock,
      bump: async () => {
        bumps += 1;
      },
    });
  const directory = () =>
    createClassicGameDirectory({
      db: database.db,
      publicUrl: "https://api.mkt.test",
      images: createImageLinks({
        publicUrl: "https://api.mkt.test",
        key: Buffer.alloc(32, 1),
        policy: createImageProxyPolicy({ hosts: [] }),
      }),
      price: fixedPriceSource("2500.5"),
      clock,
    });
  beforeAll(async () => {
    database = await setupDatabase();
    await insertClassicGame(database.db, { address: A, gameId: 4n, nftName: "Paper Boats", createdBlock: 1 });
    await insertClassicGame(database.db, { address: B, gameId: 5n, nftName: "Tin Robots", createdBlock: 2 });
  });
  afterAll(() => database.close());

  it("publishes revisions in order; each ends where the next starts", async () => {
    expect((await store().unpublished(8453, 10)).map((game) => game.address)).toEqual([A, B]);
    const first = await store().publish(8453, A.toUpperCase().replace("0X", "0x"), {
      game: { description: "v1" },
      cards: cards(["One", "Two", "Three", "Four", "Five"]),
      slug: "paper-boats",
    });
    expect(first).toEqual({
      version: 1,
      effectiveFrom: new Date(Date.UTC(2026, 0, 1)),
      effectiveUntil: null,
    });
    expect(bumps).toBe(1);
    clock.advance(DAY);
    const second = await store().publish(8453, A, {
      game: { description: "v2" },
      cards: cards(["Uno", "Dos", "Tres", "Cuatro", "Cinco", "Seis"]),
    });
    expect(second.version).toBe(2);
    const { rows } = await sql<{ version: number; effective_until: Date | string | null }>`
      SELECT version, effective_until FROM classic_metadata WHERE contract_address = ${A} ORDER BY version`.execute(
      database.db.kysely,
    );
    expect(
      rows.map((row) => [row.version, row.effective_until && new Date(row.effective_until).toISOString()]),
    ).toEqual([
      [1, "2026-01-02T00:00:00.000Z"],
      [2, null],
    ]);
    expect((await store().unpublished(8453, 10)).map((game) => game.address)).toEqual([B]);

    const games = directory();
    expect(await games.resolve(8453, "paper-boats")).toBe(A);
    expect(await games.resolve(8453, "paper-boats-4")).toBe(A);
    const now = await games.catalogue(8453, A, { bypassImageProxy: false });
    expect(now?.cards.map((card) => card.name)).toEqual(["Uno", "Dos", "Tres", "Cuatro", "Cinco", "Seis"]);
    // Mythic 1% shared by two one-id cards: 0.5% each.
    expect(now?.cards.slice(4).map((card) => card.oddsFormatted)).toEqual(["0.5%", "0.5%"]);
    const before = await games.catalogue(8453, A, {
      bypassImageProxy: false,
      at: new Date(Date.UTC(2026, 0, 1, 12)),
    });
    expect(before?.version).toBe(1);
    expect(before?.game.description).toBe("v1");
    const game = await games.searchGames(8453, [A, B, `0x${"e".repeat(40)}`], { bypassImageProxy: true });
    expect([...game.keys()].sort()).toEqual([A, B]);
    expect(game.get(A)).toMatchObject({
      version: 2,
      slug: "paper-boats",
      description: "v2",
      pricePerPackUsd: "$2.50",
    });
  });

  it("refuses bad revisions, taken slugs and unknown games", async () => {
    await expect(
      store().publish(8453, B, { game: {}, cards: cards(["One", "Two", "Three", "Four"]) }),
    ).rejects.toMatchObject({
      kind: "bad_request",
      message: "no card of rarity 5",
    });
    await expect(
      store().publish(8453, B, {
        game: {},
        cards: [
          ...cards(["One", "Two", "Three", "Four", "Five"]),
          { name: "Gap", rarity: 1, startId: 7, endId: 7 },
        ],
      }),
    ).rejects.toMatchObject({ kind: "bad_request" });
    await expect(
      store().publish(8453, B, { game: {}, cards: cards(["1", "2", "3", "4", "5"]), slug: "paper-boats" }),
    ).rejects.toMatchObject({ kind: "conflict" });
    await expect(
      store().publish(8453, B, { game: {}, cards: cards(["1", "2", "3", "4", "5"]), slug: "paper-boats-4" }),
    ).rejects.toMatchObject({ kind: "bad_request" });
    await expect(
      store().publish(8453, B, { game: {}, cards: cards(["1", "2", "3", "4", "5"]), slug: "tin_robots" }),
    ).rejects.toMatchObject({ kind: "bad_request" });
    await expect(
      store().publish(8453, A, {
        game: {},
        cards: cards(["1", "2", "3", "4", "5"]),
        effectiveFrom: new Date(Date.UTC(2025, 0, 1)),
      }),
    ).rejects.toMatchObject({ kind: "bad_request" });
    await expect(
      store().publish(8453, `0x${"e".repeat(40)}`, { game: {}, cards: cards(["1", "2", "3", "4", "5"]) }),
    ).rejects.toMatchObject({
      kind: "not_found",
      code: "GAME_NOT_FOUND",
    });
    // Nothing was written by the refused attempts.
    expect((await store().unpublished(8453, 10)).map((game) => game.address)).toEqual([B]);
  });

  it("counts featured games", async () => {
    expect(await store().featuredCount(8453)).toBe(0);
    await store().setFlags(8453, B, { isFeatured: true });
    expect(await store().featuredCount(8453)).toBe(1);
  });
});

describe("game economics", () => {
  const curve = {
    isGraduated: false,
    virtualEth: 10n ** 18n,
    virtualTokens: 1_000n,
    ethReserve: 0n,
    tokensSold: 0n,
    graduationEth: 3n,
    poolEth: null,
    poolTokens: null,
  };
  it("computes market caps and progress exactly, rounding down", () => {
    expect(marketCapWei({ ...curve, tokensSold: 1_000n })).toBe(0n); // sold out: no spot price
    expect(marketCapWei({ ...curve, tokensSold: 3n, ethReserve: 2n })).toBe(((10n ** 18n + 2n) * 3n) / 997n);
    expect(marketCapWei({ ...curve, isGraduated: true, poolEth: 5n, poolTokens: 0n })).toBe(0n);
    expect(preorderProgress({ ...curve, ethReserve: 2n })).toBe(66.66);
    expect(preorderProgress({ ...curve, ethReserve: 4n })).toBe(100);
    expect(preorderProgress({ ...curve, graduationEth: 0n, ethReserve: 4n })).toBe(0);
    expect(preorderProgress({ ...curve, isGraduated: true })).toBe(100);
  });
  it("computes card odds and formats them", () => {
    expect(cardOddsPercent(2500, 1, 8)).toBe(3.125);
    expect(formatPercent(cardOddsPercent(100, 1, 3))).toBe("0.3333%");
    expect(formatPercent(12.5)).toBe("12.5%");
    expect(cardOddsPercent(100, 1, 0)).toBe(0);
  });
});

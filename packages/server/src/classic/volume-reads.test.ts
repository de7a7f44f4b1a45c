import { CLASSIC_MAX_PAGE_DEPTH } from "@mkt/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../_test/app.ts";
import { addressOf, insertGame, insertPack } from "../_test/classic-packs.ts";
import { setupDatabase, type TestDatabase } from "../_test/database.ts";
import type { Database } from "../db/index.ts";

const HOUR = 3_600_000;
const G1 = addressOf(0xd1);
const G2 = addressOf(0xd2);
const ALICE = addressOf(0xa1);
const BOB = addressOf(0xb0);
const CAROL = addressOf(0xc0);

/** Every summary row, as kept by the classic_packs triggers and as a GROUP BY over the packs computes it. */
async function summaries(db: Database) {
  const rows = (view: string) =>
    db.withConnection(async (c) =>
      (
        await c.query<{ row: string }>(
          `SELECT summary || ' ' || key::text || ' ' || value::text AS row FROM ${view} ORDER BY 1`,
        )
      ).rows.map(({ row }) => row),
    );
  return {
    kept: await rows("classic_summaries_kept"),
    recomputed: await rows("classic_summaries_recomputed"),
  };
}

describe("classic reads at volume", () => {
  // 12:20 UTC: the last 24 hours start 20 minutes into an hour.
  const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 20, 0));
  let database: TestDatabase;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    database = await setupDatabase();
    t = await setupApp({ database, clock });
    key = (await t.createKey({ multiplier: 100 })).key;
    await insertGame(t.db, { drop: G1, token: addressOf(0xe1), gameId: "1" });
    await insertGame(t.db, { drop: G2, token: addressOf(0xe2), gameId: "2" });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  const get = (url: string) => t.app.server.inject({ url, headers: { "api-key": key } });

  it("keeps every summary equal to a GROUP BY over the packs through inserts, changes, moves and deletions", async () => {
    const at = new Date(clock.now() - 2 * HOUR);
    for (let id = 1n; id <= 6n; id++)
      await insertPack(t.db, { drop: G1, tokenId: id, owner: id <= 4n ? ALICE : BOB, mintTime: at });
    await insertPack(t.db, { drop: G2, tokenId: 1n, owner: ALICE, mintTime: at });
    expect((await summaries(t.db)).kept).toEqual((await summaries(t.db)).recomputed);

    // The indexer's writes: an upsert of changed rows in one statement, a move of ownership, a sell-back.
    await sql`UPDATE classic_packs SET status = 'rarity_assigned', rarity = 2 WHERE contract_address = ${G1} AND token_id <= 3`.execute(
      t.db.kysely,
    );
    await sql`UPDATE classic_packs SET owner = ${CAROL} WHERE contract_address = ${G1} AND token_id IN (1, 5)`.execute(
      t.db.kysely,
    );
    await sql`UPDATE classic_packs SET status = 'burned', reward_amount = 77 WHERE contract_address = ${G2}`.execute(
      t.db.kysely,
    );
    const { kept, recomputed } = await summaries(t.db);
    expect(kept).toEqual(recomputed);
    // Alice holds G1 #2..#4 (her G2 pack is burned), Bob #6, Carol #1 and #5: three holders of G1,
    // and Alice is still a collector of G2 though she holds none of it.
    expect(kept).toContain(`classic_game_holders [8453, "${G1}"] [3, 3]`);
    expect(kept).toContain(`classic_game_holders [8453, "${G2}"] [0, 1]`);
    expect(kept).toContain("classic_platform_totals [8453] [3, 3, 77]");

    // A reorg's undo: rows deleted and their previous images inserted again; a rollback changes nothing.
    await sql`DELETE FROM classic_packs WHERE contract_address = ${G1} AND token_id IN (5, 6)`.execute(
      t.db.kysely,
    );
    await t.db.withConnection(async (c) => {
      await c.exec("BEGIN");
      await c.query("DELETE FROM classic_packs");
      await c.exec("ROLLBACK");
    });
    const after = await summaries(t.db);
    expect(after.kept).toEqual(after.recomputed);
    // Bob's only pack is gone: no row of his remains in any summary.
    expect(after.kept.filter((row) => row.includes(BOB))).toEqual([]);
    expect(after.kept).toContain("classic_platform_totals [8453] [2, 2, 77]");
  });

  it("counts the last 24 hours from whole hours and the packs of the hour they start in", async () => {
    const now = clock.now();
    // In the window: 23 h 55 min ago (in the hour it starts in) and an hour ago; out: 24 h 5 min ago,
    // in that same first hour.
    for (const [tokenId, ago] of [
      [101n, 23 * HOUR + 55 * 60_000],
      [102n, HOUR],
      [103n, 24 * HOUR + 5 * 60_000],
    ] as const)
      await insertPack(t.db, { drop: G2, tokenId, owner: CAROL, mintTime: new Date(now - ago) });
    const response = await get("/classic/stats");
    expect(response.statusCode).toBe(200);
    // The packs of the first test were minted two hours ago: four remain (G1 #1..#4) and G2 #1.
    expect(response.json().stats.last24h).toEqual({ packsMinted: 7, mintVolumeWei: "7000" });
  });

  it(`answers a page past row ${CLASSIC_MAX_PAGE_DEPTH} of a pack list or the collectors leaderboard with 400 PAGE_TOO_DEEP`, async () => {
    const deepest = CLASSIC_MAX_PAGE_DEPTH / 100;
    for (const path of [
      `/classic/range?contractAddress=${G1}&limit=100&page=`,
      `/classic/owner/${ALICE}?limit=100&page=`,
      `/classic/collection/${ALICE}?limit=100&page=`,
      "/classic/leaderboards/collectors?limit=100&page=",
    ]) {
      const last = await get(`${path}${deepest}`);
      expect([path, last.statusCode]).toEqual([path, 200]);
      const beyond = await get(`${path}${deepest + 1}`);
      expect([path, beyond.statusCode]).toEqual([path, 400]);
      expect(beyond.json()).toMatchObject({ success: false, error: "PAGE_TOO_DEEP" });
      expect(beyond.headers["cache-control"]).not.toMatch(/public/);
    }
  });
});

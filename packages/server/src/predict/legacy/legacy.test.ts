import type { PredictLegacyMarket, PredictLegacyTrade } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../_test/app.ts";
import {
  announcePredictCommit,
  PREDICT_TEST_SCOPE,
  predictGet,
  predictOk,
  setPredictHead,
  setupPredictApp,
} from "../../_test/predict.ts";

const SCOPE = PREDICT_TEST_SCOPE;
const ETH = 10n ** 18n;

const addressOf = (id: number) => `0x${id.toString(16).padStart(40, "0").replace(/^0/, "c")}`;

const TRADER = "0x00000000000000000000000000000000000000bb";
const txOf = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

interface LegacyPage<T = PredictLegacyMarket> {
  data: T[];
  page: number;
  per_page: number;
  has_more: boolean;
}

describe("GET /predict/v9/legacy/markets and /legacy/markets/{id}", () => {
  let t: TestApp;
  let key: string;

  const get = (url: string, headers: Record<string, string> = {}) => predictGet(t, key, url, headers);
  const ok = <T>(url: string) => predictOk<T>(t, key, url);

  const announceCommit = () => announcePredictCommit(t);

  beforeAll(async () => {
    ({ t, key } = await setupPredictApp());
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers 503, not cacheable, before the predict scope has indexed a block", async () => {
    for (const url of ["/legacy/markets", "/legacy/markets/1", "/legacy/markets/1/trades"]) {
      const response = await get(url);
      expect(response.status, url).toBe(503);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.body).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
  });

  describe("with a projection", () => {
    beforeAll(async () => {
      // A fresh head: block 100 is final.
      await setPredictHead(t.db);
      await t.db.withConnection(async (connection) => {
        // Markets 1..5, each with its own pools, backing, volume, creation block and state.
        await connection.query(
          `INSERT INTO predict_markets (scope, chain_id, address, market_id, creator, question, seed, fee_bps, yes_pool,
           no_pool, backing, volume, status, outcome, paused, fees_accrued, liquidity_collected, trade_count,
           trade_seq, created_block, created_at, updated_block, updated_at)
         SELECT $1, 4663, m->>'address', (m->>'id')::numeric, '0x00000000000000000000000000000000000000aa',
           'Question ' || (m->>'id'), 1000000000000000000, 100, (m->>'yes')::numeric, (m->>'no')::numeric,
           (m->>'backing')::numeric, (m->>'volume')::numeric, m->>'status', (m->>'outcome')::smallint,
           (m->>'paused')::boolean, 0, false, 3, CASE (m->>'id')::int WHEN 4 THEN 3 WHEN 5 THEN 1 ELSE 0 END,
           10 + (m->>'id')::int, now(), 60, now()
         FROM json_array_elements($2::json) m`,
          [
            SCOPE,
            JSON.stringify(
              [
                { id: 1, status: "resolved", outcome: 1, paused: false },
                { id: 2, status: "resolved", outcome: 0, paused: true },
                { id: 3, status: "paused", outcome: null, paused: true },
                { id: 4, status: "active", outcome: null, paused: false },
                { id: 5, status: "active", outcome: null, paused: false },
              ].map((m) => ({
                ...m,
                address: addressOf(m.id),
                yes: String(BigInt(m.id) * ETH + 1n),
                no: String(BigInt(m.id) * 2n * ETH + 7n),
                backing: String(BigInt(m.id) * 3n * ETH),
                volume: String(BigInt(m.id) * 123_456_789_012_345_678_901n),
              })),
            ),
          ],
        );
        // Market 4: a buy, a sell in the same block, then a redemption; market 5: one buy (never in 4's list).
        // Each trade carries its ordinal in its market, and the market its newest, as the projection keeps them.
        await connection.query(
          `INSERT INTO predict_trades (scope, chain_id, block_number, log_index, transaction_hash, block_time, market,
           trader, kind, side, weth, fee, shares, market_seq)
         VALUES ($1, 4663, 50, 3, $2, '2026-11-25T11:00:00.900Z', $6, $8, 'buy', 0, 1000000000000000000,
                   10000000000000000, 1980000000000000000, 1),
                ($1, 4663, 50, 7, $3, '2026-11-25T11:00:00.900Z', $6, $8, 'sell', 1, 500000000000000000, 0,
                   600000000000000000, 2),
                ($1, 4663, 90, 1, $4, '2026-11-25T11:40:00Z', $6, $8, 'redeem', 0, 1980000000000000000, 0,
                   1980000000000000000, 3),
                ($1, 4663, 40, 0, $5, '2026-11-25T10:00:00Z', $7, $8, 'buy', 1, 5, 0, 9, 1)`,
          [SCOPE, txOf(1), txOf(2), txOf(3), txOf(4), addressOf(4), addressOf(5), TRADER],
        );
      });
      await announceCommit();
    });

    it("maps each projection row to the earlier generation's flat market", async () => {
      const { data } = await ok<LegacyPage>("/legacy/markets?per_page=100");
      expect(data.map((m) => [m.id, m.status, m.winner])).toEqual([
        [1, "resolved", "NO"],
        // Resolved wins over the pause flag, as in V9.
        [2, "resolved", "YES"],
        [3, "paused", null],
        [4, "active", null],
        [5, "active", null],
      ]);
      expect(data[3]).toEqual({
        id: 4,
        contract: addressOf(4),
        title: "Question 4",
        status: "active",
        winner: null,
        yesPool: (4n * ETH + 1n).toString(),
        noPool: (8n * ETH + 7n).toString(),
        liquidity: (12n * ETH).toString(),
        volume: (4n * 123_456_789_012_345_678_901n).toString(),
        createdBlock: 14,
      });
      expect(await ok<PredictLegacyMarket>("/legacy/markets/4")).toEqual(data[3]);
      expect(await ok<PredictLegacyMarket>("/legacy/markets/1")).toEqual(data[0]);
    });

    it("pages by offset, oldest id first, with an exact has_more", async () => {
      const first = await ok<LegacyPage>("/legacy/markets?per_page=2");
      expect(first.data.map((m) => m.id)).toEqual([1, 2]);
      expect([first.page, first.per_page, first.has_more]).toEqual([1, 2, true]);
      const second = await ok<LegacyPage>("/legacy/markets?page=2&per_page=2");
      expect(second.data.map((m) => m.id)).toEqual([3, 4]);
      expect(second.has_more).toBe(true);
      const third = await ok<LegacyPage>("/legacy/markets?page=3&per_page=2");
      expect(third.data.map((m) => m.id)).toEqual([5]);
      expect(third.has_more).toBe(false);
      // A page ending exactly at the last market has no more; a page past the end is empty.
      expect((await ok<LegacyPage>("/legacy/markets?per_page=5")).has_more).toBe(false);
      const past = await ok<LegacyPage>("/legacy/markets?page=4&per_page=2");
      expect([past.data, past.has_more]).toEqual([[], false]);
      // Defaults: page 1, 20 per page.
      const defaults = await ok<LegacyPage>("/legacy/markets");
      expect([defaults.page, defaults.per_page, defaults.data.length]).toEqual([1, 20, 5]);
    });

    it("lists a market's trades oldest first, mapped and offset paged", async () => {
      const all = await ok<LegacyPage<PredictLegacyTrade>>("/legacy/markets/4/trades");
      expect([all.page, all.per_page, all.has_more]).toEqual([1, 20, false]);
      expect(all.data).toEqual([
        {
          txHash: txOf(1),
          blockNumber: 50,
          logIndex: 3,
          timestamp: Date.parse("2026-11-25T11:00:00Z") / 1000,
          trader: TRADER,
          type: "buy",
          outcome: "YES",
          amount: "1000000000000000000",
          fee: "10000000000000000",
          shares: "1980000000000000000",
        },
        expect.objectContaining({
          txHash: txOf(2),
          logIndex: 7,
          type: "sell",
          outcome: "NO",
          shares: "600000000000000000",
        }),
        expect.objectContaining({
          txHash: txOf(3),
          blockNumber: 90,
          type: "redeem",
          amount: "1980000000000000000",
        }),
      ]);
      const first = await ok<LegacyPage<PredictLegacyTrade>>("/legacy/markets/4/trades?per_page=2");
      expect([first.data.map((trade) => trade.txHash), first.has_more]).toEqual([[txOf(1), txOf(2)], true]);
      const second = await ok<LegacyPage<PredictLegacyTrade>>("/legacy/markets/4/trades?page=2&per_page=2");
      expect([second.data.map((trade) => trade.txHash), second.has_more]).toEqual([[txOf(3)], false]);
      const other = await ok<LegacyPage<PredictLegacyTrade>>("/legacy/markets/5/trades");
      expect(other.data.map((trade) => [trade.txHash, trade.amount])).toEqual([[txOf(4), "5"]]);
      // A market without trades is an empty list, not a 404.
      expect((await ok<LegacyPage<PredictLegacyTrade>>("/legacy/markets/1/trades")).data).toEqual([]);
    });

    it("refuses bad input with 400 INVALID_INPUT and an unknown id with 404 MARKET_NOT_FOUND", async () => {
      for (const url of [
        "/legacy/markets?per_page=0",
        "/legacy/markets?per_page=101",
        "/legacy/markets?page=0",
        "/legacy/markets?page=abc",
        "/legacy/markets?page=10001",
        "/legacy/markets/abc",
        "/legacy/markets/-1",
        "/legacy/markets/01",
        `/legacy/markets/${addressOf(4)}`,
        "/legacy/markets/x/trades",
        "/legacy/markets/4/trades?per_page=101",
        "/legacy/markets/4/trades?page=0",
      ]) {
        const response = await get(url);
        expect(response.status, url).toBe(400);
        expect(response.body, url).toEqual({ error: "INVALID_INPUT", message: expect.any(String) });
      }
      for (const url of ["/legacy/markets/6", "/legacy/markets/6/trades"]) {
        const missing = await get(url);
        expect(missing.status, url).toBe(404);
        expect(missing.body).toEqual({ error: "MARKET_NOT_FOUND", message: expect.any(String) });
      }
    });

    it("needs the API key: one identical 429", async () => {
      const bodies = new Set<string>();
      for (const url of ["/legacy/markets", "/legacy/markets/1", "/legacy/markets/1/trades"]) {
        for (const headers of [{ "api-key": "" }, { "api-key": "mkt_not_a_real_key_0000000000000000" }]) {
          const response = await t.app.server.inject({ method: "GET", url: `/predict/v9${url}`, headers });
          expect(response.statusCode).toBe(429);
          bodies.add(response.body);
        }
      }
      expect([...bodies]).toEqual([
        JSON.stringify({
          error: "API_KEY_REQUIRED_OR_RATE_LIMITED",
          docs: "https://api.mkt.test/docs/predict",
        }),
      ]);
    });

    it("publishes them deprecated, tagged Legacy, pointing to the V9 route that replaces each", async () => {
      const response = await t.app.server.inject({ method: "GET", url: "/openapi/predict.json" });
      expect(response.statusCode).toBe(200);
      const paths = (response.json() as { paths: Record<string, Record<string, Record<string, unknown>>> })
        .paths;
      const list = paths["/predict/v9/legacy/markets"]?.["get"];
      const one = paths["/predict/v9/legacy/markets/{id}"]?.["get"];
      const trades = paths["/predict/v9/legacy/markets/{id}/trades"]?.["get"];
      for (const [operation, replacement] of [
        [list, "use `GET /predict/v9/markets`"],
        [one, "use `GET /predict/v9/markets/{address}`"],
        [trades, "V9 has no per-market trade list; follow `GET /predict/v9/stream`"],
      ] as const) {
        expect(operation?.["deprecated"]).toBe(true);
        expect(operation?.["tags"]).toEqual(["Legacy"]);
        const firstSentence = String(operation?.["description"]).split(";")[0];
        expect(firstSentence).toMatch(
          /^An earlier-generation route kept for first-party history and migration/,
        );
        expect(String(operation?.["description"])).toContain(
          `NOT the supported developer surface: ${replacement}`,
        );
      }
      // The supported routes are not deprecated.
      expect(paths["/predict/v9/markets"]?.["get"]?.["deprecated"]).toBeUndefined();
    });
  });
});

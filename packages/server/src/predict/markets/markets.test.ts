import { MAX_UINT256, probabilityBps, quoteBuy, SIDE } from "@mkt/chain";
import type { PredictMarket, PredictMarketResponse, PredictMarketsPage, PredictQuote } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../_test/app.ts";
import {
  announcePredictCommit,
  PREDICT_HEAD_HASH,
  PREDICT_HEAD_TIME,
  PREDICT_TEST_SCOPE,
  predictGet,
  predictOk,
  setPredictHead,
  setupPredictApp,
} from "../../_test/predict.ts";

const SCOPE = PREDICT_TEST_SCOPE;
const HEAD_HASH = PREDICT_HEAD_HASH;
const HEAD_TIME = PREDICT_HEAD_TIME;
const ETH = 10n ** 18n;

interface SeedMarket {
  id: number;
  status?: "active" | "paused" | "resolved";
  paused?: boolean;
  outcome?: 0 | 1 | null;
  feeBps?: number;
  yes?: bigint;
  no?: bigint;
  backing?: bigint;
  fees?: bigint;
  collected?: boolean;
}

const addressOf = (id: number) => `0x${id.toString(16).padStart(40, "0").replace(/^0/, "c")}`;

describe("GET /predict/v9/markets, /markets/{address} and /quote", () => {
  let t: TestApp;
  let key: string;

  const get = (url: string, headers: Record<string, string> = {}) => predictGet(t, key, url, headers);
  const ok = <T>(url: string) => predictOk<T>(t, key, url);

  const seedMarkets = (markets: SeedMarket[]) =>
    t.db.withConnection((connection) =>
      connection.query(
        `INSERT INTO predict_markets (scope, chain_id, address, market_id, creator, question, seed, fee_bps, yes_pool,
           no_pool, backing, volume, status, outcome, paused, fees_accrued, liquidity_collected, trade_count,
           created_block, created_at, updated_block, updated_at, resolved_block, resolved_at)
         SELECT $1, 4663, m->>'address', (m->>'id')::numeric, '0x00000000000000000000000000000000000000aa',
           'Question ' || (m->>'id'), 1000000000000000000, (m->>'fee')::int, (m->>'yes')::numeric, (m->>'no')::numeric,
           (m->>'backing')::numeric, 42, m->>'status', (m->>'outcome')::smallint, (m->>'paused')::boolean,
           (m->>'fees')::numeric, (m->>'collected')::boolean, 3, 10 + (m->>'id')::int,
           timestamptz '2026-11-25T11:00:00Z' + make_interval(secs => (m->>'id')::int), 60, now(),
           CASE WHEN m->>'status' = 'resolved' THEN 70 END,
           CASE WHEN m->>'status' = 'resolved' THEN timestamptz '2026-11-25T11:30:00Z' END
         FROM json_array_elements($2::json) m`,
        [
          SCOPE,
          JSON.stringify(
            markets.map((m) => ({
              id: m.id,
              address: addressOf(m.id),
              status: m.status ?? "active",
              paused: m.paused ?? m.status === "paused",
              outcome: m.outcome ?? null,
              fee: m.feeBps ?? 100,
              yes: String(m.yes ?? ETH),
              no: String(m.no ?? ETH),
              backing: String(m.backing ?? ETH),
              fees: String(m.fees ?? 0n),
              collected: m.collected ?? false,
            })),
          ),
        ],
      ),
    );

  const seedHead = (nextBlock: number) => setPredictHead(t.db, { nextBlock: BigInt(nextBlock) });

  const announceCommit = () => announcePredictCommit(t);

  beforeAll(async () => {
    ({ t, key } = await setupPredictApp());
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers 503, not cacheable, before the predict scope has indexed a block", async () => {
    for (const url of [
      "/markets",
      `/markets/${addressOf(1)}`,
      `/quote?market=${addressOf(1)}&side=yes&amount=1`,
    ]) {
      const response = await get(url);
      expect(response.status, url).toBe(503);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.body).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
  });

  describe("with a projection", () => {
    beforeAll(async () => {
      await seedHead(101);
      await seedMarkets([
        { id: 1, status: "resolved", outcome: 1, yes: 0n, no: 0n, collected: true },
        { id: 2, status: "resolved", outcome: 0, paused: false, yes: 3n * ETH, no: ETH / 3n },
        { id: 3, status: "paused", feeBps: 0 },
        { id: 4, feeBps: 0, yes: ETH, no: ETH, backing: ETH },
        { id: 5, feeBps: 1000, yes: 7n * ETH, no: 2n * ETH + 1n, backing: 5n * ETH, fees: 12345n },
        { id: 6, status: "resolved", outcome: 0, paused: true },
        { id: 7, feeBps: 0, yes: MAX_UINT256 / (2n * ETH), no: 2n * ETH, backing: ETH },
      ]);
      await announceCommit();
    });

    it("walks the markets newest first, following nextCursor until null", async () => {
      const first = await ok<PredictMarketsPage>("/markets?limit=3");
      expect(first.markets.map((m) => m.marketId)).toEqual(["7", "6", "5"]);
      expect(first.nextCursor).toBe("5");
      expect(first.block).toEqual({ number: "100", hash: HEAD_HASH, timestamp: HEAD_TIME });
      const second = await ok<PredictMarketsPage>("/markets?limit=3&cursor=5");
      expect(second.markets.map((m) => m.marketId)).toEqual(["4", "3", "2"]);
      expect(second.nextCursor).toBe("2");
      const last = await ok<PredictMarketsPage>("/markets?limit=3&cursor=2");
      expect(last.markets.map((m) => m.marketId)).toEqual(["1"]);
      expect(last.nextCursor).toBeNull();
      // A page that ends exactly at the oldest market is the end: nothing older exists.
      const exact = await ok<PredictMarketsPage>("/markets?limit=7");
      expect(exact.markets).toHaveLength(7);
      expect(exact.nextCursor).toBeNull();
      const exactTail = await ok<PredictMarketsPage>("/markets?limit=2&cursor=3");
      expect(exactTail.markets.map((m) => m.marketId)).toEqual(["2", "1"]);
      expect(exactTail.nextCursor).toBeNull();
      // The default page is 20, and a cursor above every id starts at the newest.
      expect((await ok<PredictMarketsPage>("/markets")).markets).toHaveLength(7);
      const above = await ok<PredictMarketsPage>(`/markets?limit=1&cursor=${"9".repeat(78)}`);
      expect(above.markets.map((m) => m.marketId)).toEqual(["7"]);
    });

    it("maps the projection to the market record: states, outcome, prices as the contract's probabilityBps", async () => {
      const { markets } = await ok<PredictMarketsPage>("/markets?limit=100");
      const byId = new Map(markets.map((m) => [m.marketId, m]));
      const five = byId.get("5")!;
      expect(five).toEqual({
        address: addressOf(5),
        marketId: "5",
        chainId: 4663,
        creator: "0x00000000000000000000000000000000000000aa",
        question: "Question 5",
        outcomes: [
          { side: "yes", index: 0 },
          { side: "no", index: 1 },
        ],
        state: "open",
        paused: false,
        outcome: null,
        feeBps: 1000,
        totalSeed: ETH.toString(),
        backingWeth: (5n * ETH).toString(),
        pool: { yes: (7n * ETH).toString(), no: (2n * ETH + 1n).toString() },
        // (2e18 + 1) * 10000 / (9e18 + 1) = 2222.22… → 2222; 7e18 * 10000 / (9e18 + 1) = 7777.77… → 7777.
        prices: { yes: 2222, no: 7777 },
        feesAccrued: "12345",
        liquidityCollected: false,
        volumeWeth: "42",
        trades: 3,
        createdBlock: "15",
        createdAt: "2026-11-25T11:00:05.000Z",
        resolvedBlock: null,
        resolvedAt: null,
        updatedBlock: "60",
      } satisfies PredictMarket);
      const states = markets.map((m) => [m.marketId, m.state, m.paused, m.outcome]);
      expect(states).toEqual([
        ["7", "open", false, null],
        ["6", "resolved", true, "yes"],
        ["5", "open", false, null],
        ["4", "open", false, null],
        ["3", "paused", true, null],
        ["2", "resolved", false, "yes"],
        ["1", "resolved", false, "no"],
      ]);
      expect(byId.get("1")!.prices).toBeNull();
      expect(byId.get("1")!.liquidityCollected).toBe(true);
      expect(byId.get("2")!).toMatchObject({ resolvedBlock: "70", resolvedAt: "2026-11-25T11:30:00.000Z" });
      const pool2 = { yes: 3n * ETH, no: ETH / 3n };
      expect(byId.get("2")!.prices).toEqual({
        yes: Number(probabilityBps(pool2, SIDE.yes)),
        no: Number(probabilityBps(pool2, SIDE.no)),
      });
    });

    it("reads one market by address, in any case; 404 MARKET_NOT_FOUND otherwise", async () => {
      const found = await ok<PredictMarketResponse>(
        `/markets/${addressOf(4).toUpperCase().replace("0X", "0x")}`,
      );
      expect(found.market.marketId).toBe("4");
      expect(found.block.number).toBe("100");
      const missing = await get(`/markets/0x${"12".repeat(20)}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({
        error: "MARKET_NOT_FOUND",
        message: expect.stringContaining(`0x${"12".repeat(20)}`),
      });
    });

    it("quotes a buy with the contract's math at the head's block", async () => {
      // Fee-free, 1:1 pool, 1 WETH: inv = 1e18, sharesOut = 2e18 - ceil(1e36 / 2e18) = 1.5e18.
      const even = await ok<PredictQuote>(`/quote?market=${addressOf(4)}&side=yes&amount=${ETH}`);
      expect(even).toEqual({
        market: addressOf(4),
        side: "yes",
        amountIn: ETH.toString(),
        fee: "0",
        sharesOut: (15n * 10n ** 17n).toString(),
        averagePriceBps: 6667, // ceil(1e18 * 10000 / 1.5e18) = ceil(6666.67)
        probabilityBeforeBps: 5000,
        probabilityAfterBps: 8000, // pools after: yes 0.5e18, no 2e18
        block: { number: "100", hash: HEAD_HASH, timestamp: HEAD_TIME },
      } satisfies PredictQuote);
      // With a fee, on an uneven pool, for NO: the fee rounds down, the price up.
      const pool = { yes: 7n * ETH, no: 2n * ETH + 1n };
      const amount = 123_456_789_123_456_789n;
      const quote = await ok<PredictQuote>(`/quote?market=${addressOf(5)}&side=no&amount=${amount}`);
      const exact = quoteBuy(pool, SIDE.no, amount, 1000n);
      expect(quote.fee).toBe(((amount * 1000n) / 10000n).toString());
      expect(quote.fee).toBe(exact.fee.toString());
      expect(quote.sharesOut).toBe(exact.sharesOut.toString());
      const ceilPrice = (amount * 10000n + exact.sharesOut - 1n) / exact.sharesOut;
      expect(quote.averagePriceBps).toBe(Number(ceilPrice));
      expect(BigInt(quote.averagePriceBps) * exact.sharesOut).toBeGreaterThanOrEqual(amount * 10000n);
      expect(quote.probabilityBeforeBps).toBe(Number(probabilityBps(pool, SIDE.no)));
      expect(quote.probabilityAfterBps).toBe(Number(probabilityBps(exact.poolAfter, SIDE.no)));
      expect(quote.probabilityAfterBps).toBeGreaterThan(quote.probabilityBeforeBps);
    });

    it("refuses what the contract refuses: 400 INVALID_AMOUNT, 409 MARKET_NOT_TRADING, 404 MARKET_NOT_FOUND", async () => {
      const refused = async (url: string, status: number, error: string) => {
        const response = await get(url);
        expect(response.status, url).toBe(status);
        expect(response.body, url).toEqual({ error, message: expect.any(String) });
      };
      const open = addressOf(4);
      await refused(`/quote?market=${open}&side=yes&amount=0`, 400, "INVALID_AMOUNT");
      await refused(`/quote?market=${open}&side=yes&amount=000`, 400, "INVALID_AMOUNT");
      await refused(`/quote?market=${open}&side=yes&amount=${MAX_UINT256 + 1n}`, 400, "INVALID_AMOUNT");
      // Market 7's pools multiply to just under 2^256: a fee-free buy fits until `no + inv` or `b + inv` passes it.
      const big = addressOf(7);
      expect((await get(`/quote?market=${big}&side=yes&amount=${ETH}`)).status).toBe(200);
      await refused(`/quote?market=${big}&side=no&amount=${MAX_UINT256 - ETH}`, 400, "INVALID_AMOUNT");
      // Market 5 charges 10%: amount * 1000 overflows above MAX / 1000.
      await refused(
        `/quote?market=${addressOf(5)}&side=yes&amount=${MAX_UINT256 / 1000n + 1n}`,
        400,
        "INVALID_AMOUNT",
      );
      for (const bad of ["-1", "1.5", "1e18", "abc", "", "1".repeat(79)]) {
        await refused(`/quote?market=${open}&side=yes&amount=${bad}`, 400, "INVALID_INPUT");
      }
      await refused(`/quote?market=${open}&side=maybe&amount=1`, 400, "INVALID_INPUT");
      await refused(`/quote?market=0x1234&side=yes&amount=1`, 400, "INVALID_INPUT");
      await refused(`/quote?side=yes&amount=1`, 400, "INVALID_INPUT");
      await refused(`/quote?market=0x${"12".repeat(20)}&side=yes&amount=1`, 404, "MARKET_NOT_FOUND");
      await refused(`/quote?market=${addressOf(3)}&side=yes&amount=1`, 409, "MARKET_NOT_TRADING");
      await refused(`/quote?market=${addressOf(2)}&side=no&amount=1`, 409, "MARKET_NOT_TRADING");
      // Resolved and paused: resolution answers first, as the contract checks it first.
      const both = await get(`/quote?market=${addressOf(6)}&side=no&amount=1`);
      expect(both.status).toBe(409);
      expect((both.body as { message: string }).message).toContain("resolved");
      await refused(`/markets/0x123`, 400, "INVALID_INPUT");
      for (const query of [
        "cursor=0",
        "cursor=-1",
        "cursor=abc",
        "cursor=1.5",
        "limit=0",
        "limit=101",
        "limit=x",
      ]) {
        await refused(`/markets?${query}`, 400, "INVALID_INPUT");
      }
    });

    it("serves pages from the read cache until the predict scope commits, then the new state", async () => {
      const first = await get("/markets?limit=2");
      expect(first.headers["cache-control"]).toBe("private, max-age=2");
      const etag = first.headers["etag"] as string;
      expect(etag).toBeTruthy();
      const revalidated = await t.app.server.inject({
        method: "GET",
        url: "/predict/v9/markets?limit=2",
        headers: { "api-key": key, "if-none-match": etag },
      });
      expect(revalidated.statusCode).toBe(304);
      // A market the indexer wrote is not visible until its commit is announced…
      await seedMarkets([{ id: 8 }]);
      await seedHead(102);
      expect(((await get("/markets?limit=2")).body as PredictMarketsPage).markets[0]!.marketId).toBe("7");
      // …then it is, with the new block.
      await announceCommit();
      const moved = (await get("/markets?limit=2")).body as PredictMarketsPage;
      expect(moved.markets.map((m) => m.marketId)).toEqual(["8", "7"]);
      expect(moved.block.number).toBe("101");
      const quote = await get(`/quote?market=${addressOf(8)}&side=yes&amount=1000`);
      expect(quote.headers["cache-control"]).toBe("private, max-age=1");
      expect((quote.body as PredictQuote).block.number).toBe("101");
    });

    it("needs the API key on every route: one identical 429", async () => {
      const bodies = new Set<string>();
      for (const url of [
        "/markets",
        `/markets/${addressOf(4)}`,
        `/quote?market=${addressOf(4)}&side=yes&amount=1`,
      ]) {
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
  });
});

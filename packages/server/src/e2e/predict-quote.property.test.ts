import { DEV_ACCOUNT_ROLES, marketAbi } from "@mkt/chain";
import type { PredictQuote } from "@mkt/protocol";
import fc from "fast-check";
import { type Address, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { indexPredict, predictTrading } from "../_test/predict-trading.ts";

/**
 * The quote's guarantee: for random markets, sides and amounts, executing
 * the buy at the quoted block never yields fewer shares than quoted, and the
 * quote is within one unit of the exact result. The dev chain runs no demo
 * activity (setupDevChain mines only the test's transactions) and every buy
 * runs on an `evm_snapshot` of the quoted state, reverted afterwards.
 *
 * PREDICT_QUOTE_RUNS sets the number of cases (CI: 300; `npm run
 * test:quote-property` runs 5,000 unless it is set).
 */
const RUNS = Number(process.env["PREDICT_QUOTE_RUNS"] ?? 300);
const SEED =
  process.env["PREDICT_QUOTE_SEED"] === undefined ? undefined : Number(process.env["PREDICT_QUOTE_SEED"]);
const BUYER = DEV_ACCOUNT_ROLES.firstUser + 1;
const ETH = parseEther("1");

describe("GET /predict/v9/quote against Market.buy at the quoted block", () => {
  let chain: TestChain;
  let t: TestApp;
  let key: string;
  const markets: { address: Address; feeBps: bigint }[] = [];

  beforeAll(async () => {
    chain = await setupDevChain(4663, { finalityDepth: 2 });
    const trading = predictTrading(chain);
    const creator = DEV_ACCOUNT_ROLES.firstUser;
    // Varied seeds (down to a few Wei, where rounding dominates) and fees (0 to the factory's 10% cap).
    const specs: [string, bigint, bigint][] = [
      ["even, fee-free", ETH, 0n],
      ["half a WETH, 1%", ETH / 2n, 100n],
      ["five WETH, 3%", 5n * ETH, 300n],
      ["a thousand Wei, 10%", 1000n, 1000n],
      ["seven Wei, 2.5%", 7n, 250n],
      ["lopsided, 2%", 2n * ETH, 200n],
    ];
    for (const [question, seed, fee] of specs) {
      const { address } = await trading.createMarket(creator, question, seed, fee);
      markets.push({ address, feeBps: fee });
    }
    // Trades that move the pools off 50/50, some of them far.
    const trader = DEV_ACCOUNT_ROLES.firstUser + 2;
    const lopsided = markets[5]!.address;
    await trading.buy(trader, lopsided, 0, 30n * ETH);
    await trading.buy(trader, markets[1]!.address, 1, ETH / 7n);
    await trading.buy(trader, markets[2]!.address, 0, 2n * ETH);
    await trading.buy(trader, markets[2]!.address, 1, 3n * ETH + 12345n);
    await trading.buy(trader, markets[3]!.address, 0, 333n);
    await trading.buy(trader, markets[4]!.address, 1, 5n);
    // The buyer's WETH and approvals exist before the quoted block, so each case's state is the quoted one.
    for (const market of markets) await trading.fund(BUYER, market.address);

    // A clock that stands still at the start: the dev chain mines only the test's blocks (and the
    // property cases' blocks are reverted), so the feed's freshness bounds must not run out mid-test.
    t = await setupApp({ deployments: [chain.deployment], clock: createManualClock(Date.now()) });
    key = (await t.createKey({ multiplier: 1_000 })).key;
    await indexPredict(chain, t);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it(
    `never quotes more shares than the buy yields, and at most one fewer (${RUNS} cases)`,
    async () => {
      const { publicClient } = chain.clients;
      const wallet = chain.clients.wallet(BUYER);
      const amount = fc.oneof(
        fc.bigInt({ min: 1n, max: 10_000n }),
        fc.bigInt({ min: 1n, max: ETH }),
        fc.bigInt({ min: 1n, max: 200n * ETH }),
      );
      let exact = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: markets.length - 1 }),
          fc.constantFrom<0 | 1>(0, 1),
          amount,
          async (index, side, wethIn) => {
            const market = markets[index]!.address;
            const response = await t.app.server.inject({
              method: "GET",
              url: `/predict/v9/quote?market=${market}&side=${side === 0 ? "yes" : "no"}&amount=${wethIn}`,
              headers: { "api-key": key },
            });
            expect(response.statusCode, response.body).toBe(200);
            const quote = response.json() as PredictQuote;
            // The quoted block is the chain's state: nothing but empty blocks follows it.
            const block = await publicClient.getBlock({ blockNumber: BigInt(quote.block.number) });
            expect(quote.block.hash).toBe(block.hash);
            const snapshot = await chain.snapshot();
            try {
              const hash = await wallet.writeContract({
                address: market,
                abi: marketAbi,
                functionName: "buy",
                args: [side, wethIn, 0n],
              });
              const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 5 });
              expect(receipt.status).toBe("success");
              const [bought] = parseEventLogs({ abi: marketAbi, logs: receipt.logs, eventName: "Buy" });
              const actual = bought!.args.sharesOut;
              const quoted = BigInt(quote.sharesOut);
              expect(actual).toBeGreaterThanOrEqual(quoted);
              expect(actual - quoted).toBeLessThanOrEqual(1n);
              expect(bought!.args.fee.toString()).toBe(quote.fee);
              const after = await publicClient.readContract({
                address: market,
                abi: marketAbi,
                functionName: "probabilityBps",
                args: [side],
              });
              expect(Number(after)).toBe(quote.probabilityAfterBps);
              if (actual === quoted) exact++;
            } finally {
              await chain.revert(snapshot);
            }
          },
        ),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
      // The math is the contract's own: every quote is exact, not merely within one.
      expect(exact).toBe(RUNS);
    },
    Math.max(60_000, RUNS * 300),
  );

  it("refuses a paused market and a resolved one with 409, as buy would revert", async () => {
    const trading = predictTrading(chain);
    await trading.operate(markets[0]!.address, "pause");
    await trading.operate(markets[1]!.address, "resolve", 1);
    await indexPredict(chain, t);
    for (const market of [markets[0]!.address, markets[1]!.address]) {
      const response = await t.app.server.inject({
        method: "GET",
        url: `/predict/v9/quote?market=${market}&side=yes&amount=1000`,
        headers: { "api-key": key },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: "MARKET_NOT_TRADING" });
      await expect(
        chain.clients.publicClient.simulateContract({
          account: chain.clients.wallet(BUYER).account,
          address: market,
          abi: marketAbi,
          functionName: "buy",
          args: [0, 1000n, 0n],
        }),
      ).rejects.toThrow(/Market: (paused|resolved)/);
    }
    // The others still quote.
    const open = await t.app.server.inject({
      method: "GET",
      url: `/predict/v9/quote?market=${markets[2]!.address}&side=no&amount=1000`,
      headers: { "api-key": key },
    });
    expect(open.statusCode).toBe(200);
  });
});

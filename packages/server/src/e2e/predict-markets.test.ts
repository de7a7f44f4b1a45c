import { DEV_ACCOUNT_ROLES, marketAbi } from "@mkt/chain";
import { createMktClient, MktApiError, type MktClient } from "@mkt/client";
import type { PredictMarket } from "@mkt/protocol";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { indexPredict, predictTrading } from "../_test/predict-trading.ts";

const CREATOR = DEV_ACCOUNT_ROLES.firstUser;
const TRADER = DEV_ACCOUNT_ROLES.firstUser + 1;

/**
 * `/predict/v9/markets` end to end: dev-chain
 * transactions → the indexer (driven by hand) → HTTP → the SDK. Paging
 * while markets are created sees each market exactly once; every
 * expectation is read from the chain (MarketCreated logs, contract state
 * at the answer's block), never from the projection.
 */
describe("prediction markets end to end on the dev chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let api: MktClient["predict"]["markets"];
  let trading: ReturnType<typeof predictTrading>;
  let created = 0;

  const createMarkets = async (count: number) => {
    for (let i = 0; i < count; i++) {
      created++;
      await trading.createMarket(
        CREATOR,
        `Market ${created}?`,
        parseEther("1") + BigInt(created),
        BigInt(created % 11) * 90n,
      );
    }
    await indexPredict(chain, t);
  };

  beforeAll(async () => {
    chain = await setupDevChain(4663, { finalityDepth: 2 });
    trading = predictTrading(chain);
    // A clock that stands still at the start: the dev chain mines only the test's blocks (and the
    // property cases' blocks are reverted), so the feed's freshness bounds must not run out mid-test.
    t = await setupApp({ deployments: [chain.deployment], clock: createManualClock(Date.now()) });
    const { publicUrl } = await t.app.listen();
    const { key } = await t.createKey({ multiplier: 1_000 });
    api = createMktClient({ baseUrl: publicUrl, apiKey: key, retry: { attempts: 1 } }).predict.markets;
    // The deployment's sample market plus six, some traded.
    await createMarkets(6);
    const markets = await trading.createdUpTo(await chain.clients.publicClient.getBlockNumber());
    await trading.buy(TRADER, markets[2]!.address as `0x${string}`, 0, parseEther("0.3"));
    await trading.buy(TRADER, markets[2]!.address as `0x${string}`, 1, parseEther("0.1"));
    await indexPredict(chain, t);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it("walks /markets while markets are created between pages and sees each market exactly once", async () => {
    const seen: PredictMarket[] = [];
    let page = await api.page({ limit: 2 });
    const firstBlock = BigInt(page.block.number);
    for (let pages = 1; ; pages++) {
      // Every market of a page exists onchain at the page's block.
      const known = new Set(
        (await trading.createdUpTo(BigInt(page.block.number))).map((m) => `${m.marketId}:${m.address}`),
      );
      for (const market of page.markets) expect(known.has(`${market.marketId}:${market.address}`)).toBe(true);
      seen.push(...page.markets);
      if (page.nextCursor === null) break;
      expect(pages).toBeLessThan(50);
      // Two new markets land (and are indexed) before the next page is read.
      await createMarkets(2);
      page = await api.page({ limit: 2, cursor: page.nextCursor });
      expect(BigInt(page.block.number)).toBeGreaterThan(firstBlock);
    }
    const ids = seen.map((market) => market.marketId);
    expect(new Set(ids).size).toBe(ids.length);
    // Exactly the markets that existed at the first page's block, newest first.
    const atStart = await trading.createdUpTo(firstBlock);
    expect(atStart.length).toBeGreaterThanOrEqual(7);
    expect(ids).toEqual(atStart.map((m) => m.marketId.toString()).reverse());
    expect(seen.map((m) => m.address)).toEqual(atStart.map((m) => m.address).reverse());
  });

  it("iterates every market through the SDK, following nextCursor until null, while markets are created", async () => {
    const ids: string[] = [];
    let firstBlock: bigint | undefined;
    for await (const market of api.iterate({ limit: 3 })) {
      if (firstBlock === undefined) firstBlock = BigInt((await api.get(market.address)).block.number);
      ids.push(market.marketId);
      if (ids.length % 3 === 0) await createMarkets(1);
    }
    const atStart = await trading.createdUpTo(firstBlock!);
    expect(ids).toEqual(atStart.map((m) => m.marketId.toString()).reverse());
  });

  it("answers a market and a quote that match the contracts at the named block", async () => {
    const { markets, block } = await api.page({ limit: 100 });
    const traded = markets.find((market) => market.trades > 0)!;
    expect(traded).toBeDefined();
    const at = {
      address: traded.address as `0x${string}`,
      abi: marketAbi,
      blockNumber: BigInt(block.number),
    };
    const read = chain.clients.publicClient.readContract;
    const [yes, no, backing, fees, feeBps, yesPrice, noPrice] = await Promise.all([
      read({ ...at, functionName: "poolBalances", args: [0n] }),
      read({ ...at, functionName: "poolBalances", args: [1n] }),
      read({ ...at, functionName: "backing" }),
      read({ ...at, functionName: "feesAccrued" }),
      read({ ...at, functionName: "feeBps" }),
      read({ ...at, functionName: "probabilityBps", args: [0] }),
      read({ ...at, functionName: "probabilityBps", args: [1] }),
    ]);
    expect(traded).toMatchObject({
      state: "open",
      pool: { yes: yes.toString(), no: no.toString() },
      backingWeth: backing.toString(),
      feesAccrued: fees.toString(),
      feeBps: Number(feeBps),
      prices: { yes: Number(yesPrice), no: Number(noPrice) },
      trades: 2,
    });
    const byAddress = await api.get(traded.address);
    expect(byAddress.market).toEqual(traded);
    expect(await api.get(traded.address.toUpperCase().replace("0X", "0x"))).toEqual(byAddress);

    const quote = await api.quote({ market: traded.address, side: "no", amount: "123456789012345678" });
    const onchain = await read({
      ...at,
      blockNumber: BigInt(quote.block.number),
      functionName: "calcBuyAmount",
      args: [1, 123456789012345678n],
    });
    expect(quote.sharesOut).toBe(onchain.toString());
    const header = await chain.clients.publicClient.getBlock({ blockNumber: BigInt(quote.block.number) });
    expect(quote.block).toEqual({
      number: header.number.toString(),
      hash: header.hash,
      timestamp: new Date(Number(header.timestamp) * 1000).toISOString(),
    });

    const missing = await api.get(`0x${"12".repeat(20)}`).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(MktApiError);
    expect((missing as MktApiError).status).toBe(404);
    expect((missing as MktApiError).code).toBe("MARKET_NOT_FOUND");
    const zero = await api
      .quote({ market: traded.address, side: "yes", amount: "0" })
      .catch((e: unknown) => e);
    expect((zero as MktApiError).code).toBe("INVALID_AMOUNT");
  });
});

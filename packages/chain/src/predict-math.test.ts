import type { Address } from "viem";
import { maxUint256, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractAddress, setupDevChain, type TestChain } from "./_test/setup.ts";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import { waitForSuccess } from "./clients.ts";
import { PREDICT_CHAIN_ID } from "./deploy.ts";
import { marketAbi, marketFactoryAbi, wethAbi } from "./generated/abis.ts";
import type { PoolBalances, Side } from "./predict-math.ts";
import {
  BuyRefusedError,
  MAX_UINT256,
  maxSellReturn,
  probabilityBps,
  quoteBuy,
  quoteBuyChecked,
  quoteSell,
  SIDE,
  seededPool,
} from "./predict-math.ts";

describe("predict math (offchain)", () => {
  it("prices a fresh pool at 50% and moves the bought side up", () => {
    const pool = seededPool(parseEther("1"));
    expect(probabilityBps(pool, SIDE.yes)).toBe(5000n);
    const { sharesOut, fee, poolAfter } = quoteBuy(pool, SIDE.yes, parseEther("0.1"), 200n);
    expect(fee).toBe(parseEther("0.002"));
    // 0.098 WETH buys more than 0.098 YES shares (each is worth less than 1) but fewer than twice that.
    expect(sharesOut).toBeGreaterThan(parseEther("0.098"));
    expect(sharesOut).toBeLessThan(parseEther("0.196"));
    expect(poolAfter.no).toBe(parseEther("1.098"));
    expect(probabilityBps(poolAfter, SIDE.yes)).toBeGreaterThan(5000n);
    // The invariant never decreases.
    expect(poolAfter.yes * poolAfter.no).toBeGreaterThanOrEqual(pool.yes * pool.no);
  });

  it("needs more shares to take WETH out than the same WETH bought, and refuses to drain the pool", () => {
    const pool = seededPool(parseEther("1"));
    const bought = quoteBuy(pool, SIDE.no, parseEther("0.5"), 100n);
    const sold = quoteSell(bought.poolAfter, SIDE.no, parseEther("0.4"), 100n);
    expect(sold.sharesIn).toBeLessThan(bought.sharesOut);
    expect(sold.fee).toBeGreaterThan(0n);
    expect(() => quoteSell(pool, SIDE.yes, parseEther("1"), 0n)).toThrow("liquidity");
  });

  it("finds the largest sale a holding allows", () => {
    const pool = seededPool(parseEther("2"));
    const { sharesOut, poolAfter } = quoteBuy(pool, SIDE.yes, parseEther("0.3"), 150n);
    const best = maxSellReturn(poolAfter, SIDE.yes, sharesOut, 150n);
    expect(quoteSell(poolAfter, SIDE.yes, best, 150n).sharesIn).toBeLessThanOrEqual(sharesOut);
    expect(quoteSell(poolAfter, SIDE.yes, best + 1n, 150n).sharesIn).toBeGreaterThan(sharesOut);
  });

  it("rejects fees of 100% or more", () => {
    expect(() => quoteBuy(seededPool(1n), SIDE.yes, 1n, 10000n)).toThrow("feeBps");
  });

  it("applies Market.buy's guards that the math skips: zero amount, uint256 overflow, zero shares", () => {
    const state = {
      pool: seededPool(parseEther("1")),
      feeBps: 200n,
      backing: parseEther("1"),
      feesAccrued: 0n,
    };
    const refusal = (wethIn: bigint, at = state) => {
      try {
        quoteBuyChecked(at, SIDE.yes, wethIn);
        return undefined;
      } catch (error) {
        return error instanceof BuyRefusedError ? error.reason : "other";
      }
    };
    expect(quoteBuyChecked(state, SIDE.yes, parseEther("0.1"))).toEqual(
      quoteBuy(state.pool, SIDE.yes, parseEther("0.1"), 200n),
    );
    expect(refusal(0n)).toBe("zero_amount");
    // wethIn * feeBps is the first product to pass uint256.
    expect(refusal(MAX_UINT256 / 200n)).toBe(undefined);
    expect(refusal(MAX_UINT256 / 200n + 1n)).toBe("overflow");
    expect(refusal(MAX_UINT256 / 200n - parseEther("10"))).toBe(undefined);
    // The pools' product, and the backing's sum, bound a fee-free buy.
    const huge = { ...state, pool: { yes: 2n ** 128n, no: 2n ** 128n }, feeBps: 0n };
    expect(refusal(1n, huge)).toBe("overflow");
    const full = { ...state, feeBps: 0n, backing: MAX_UINT256 - 10n };
    expect(refusal(10n, full)).toBe(undefined);
    expect(refusal(11n, full)).toBe("overflow");
    // sharesOut = inv + floor(b * inv / (o + inv)) >= inv >= 1: even 1 Wei into a lopsided pool buys a share,
    // so the contract's `sharesOut > 0` guard never refuses an amount above zero.
    const lopsided = { ...state, pool: { yes: 1n, no: parseEther("1") }, feeBps: 1000n };
    expect(quoteBuyChecked(lopsided, SIDE.yes, 1n).sharesOut).toBe(1n);
  });
});

describe("predict math against Market.sol", () => {
  let t: TestChain;
  beforeAll(async () => {
    t = await setupDevChain(PREDICT_CHAIN_ID);
  });
  afterAll(async () => {
    await t?.close();
  });

  const trader = DEV_ACCOUNT_ROLES.firstUser;
  const amounts = [
    1n,
    999n,
    10n ** 9n,
    123456789012345678n,
    parseEther("0.3"),
    parseEther("0.97"),
    parseEther("25"),
  ];

  async function createMarket(seed: bigint, feeBps: bigint): Promise<Address> {
    const wallet = t.clients.wallet(trader);
    const factory = contractAddress(t.deployment, "MarketFactory");
    const weth = contractAddress(t.deployment, "WETH");
    const { publicClient } = t.clients;
    await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        address: weth,
        abi: wethAbi,
        functionName: "deposit",
        value: parseEther("100"),
      }),
    );
    await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        address: weth,
        abi: wethAbi,
        functionName: "approve",
        args: [factory, maxUint256],
      }),
    );
    const receipt = await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        address: factory,
        abi: marketFactoryAbi,
        functionName: "createMarket",
        args: [`fee ${feeBps}`, seed, feeBps],
      }),
    );
    const [created] = parseEventLogs({
      abi: marketFactoryAbi,
      logs: receipt.logs,
      eventName: "MarketCreated",
    });
    const market = created!.args.market;
    await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        address: weth,
        abi: wethAbi,
        functionName: "approve",
        args: [market, maxUint256],
      }),
    );
    return market;
  }

  async function readPool(market: Address): Promise<PoolBalances> {
    const read = (i: bigint) =>
      t.clients.publicClient.readContract({
        address: market,
        abi: marketAbi,
        functionName: "poolBalances",
        args: [i],
      });
    const [yes, no] = await Promise.all([read(0n), read(1n)]);
    return { yes, no };
  }

  async function expectViewsMatch(market: Address, feeBps: bigint): Promise<number> {
    const pool = await readPool(market);
    let compared = 0;
    for (const side of [SIDE.yes, SIDE.no] as Side[]) {
      const read = { address: market, abi: marketAbi } as const;
      expect(
        await t.clients.publicClient.readContract({ ...read, functionName: "probabilityBps", args: [side] }),
      ).toBe(probabilityBps(pool, side));
      for (const amount of amounts) {
        const buyView = await t.clients.publicClient.readContract({
          ...read,
          functionName: "calcBuyAmount",
          args: [side, amount],
        });
        expect(buyView).toBe(quoteBuy(pool, side, amount, feeBps).sharesOut);
        let offchainSell: bigint | "reverts";
        try {
          offchainSell = quoteSell(pool, side, amount, feeBps).sharesIn;
        } catch {
          offchainSell = "reverts";
        }
        const sellView = await t.clients.publicClient
          .readContract({ ...read, functionName: "calcSellAmount", args: [side, amount] })
          .catch(() => "reverts" as const);
        expect(sellView).toBe(offchainSell);
        compared += 2;
      }
    }
    return compared;
  }

  it.each([
    [parseEther("1"), 200n],
    [parseEther("7.5"), 0n],
    [12345678901234567n, 1000n],
  ])(
    "quotes exactly what calcBuyAmount / calcSellAmount return, before and after trades (seed %s, fee %s bps)",
    async (seed, feeBps) => {
      const market = await createMarket(seed, feeBps);
      const wallet = t.clients.wallet(trader);
      const { publicClient } = t.clients;
      expect(await readPool(market)).toEqual(seededPool(seed));
      let compared = await expectViewsMatch(market, feeBps);

      const trades: [Side, bigint][] = [
        [SIDE.yes, seed / 3n],
        [SIDE.no, seed / 7n + 11n],
        [SIDE.yes, seed * 2n],
      ];
      for (const [side, wethIn] of trades) {
        const quote = quoteBuy(await readPool(market), side, wethIn, feeBps);
        const receipt = await waitForSuccess(
          publicClient,
          await wallet.writeContract({
            address: market,
            abi: marketAbi,
            functionName: "buy",
            args: [side, wethIn, quote.sharesOut],
          }),
        );
        expect(parseEventLogs({ abi: marketAbi, logs: receipt.logs, eventName: "Buy" })[0]?.args).toEqual({
          buyer: wallet.account.address,
          side,
          wethIn,
          fee: quote.fee,
          sharesOut: quote.sharesOut,
        });
        expect(await readPool(market)).toEqual(quote.poolAfter);
        compared += await expectViewsMatch(market, feeBps);
      }

      const [yesHeld] = await publicClient.readContract({
        address: market,
        abi: marketAbi,
        functionName: "sharesOf",
        args: [wallet.account.address],
      });
      const pool = await readPool(market);
      const wethOut = maxSellReturn(pool, SIDE.yes, yesHeld, feeBps);
      const quote = quoteSell(pool, SIDE.yes, wethOut, feeBps);
      const receipt = await waitForSuccess(
        publicClient,
        await wallet.writeContract({
          address: market,
          abi: marketAbi,
          functionName: "sell",
          args: [SIDE.yes, wethOut, yesHeld],
        }),
      );
      expect(parseEventLogs({ abi: marketAbi, logs: receipt.logs, eventName: "Sell" })[0]?.args).toEqual({
        seller: wallet.account.address,
        side: SIDE.yes,
        wethOut,
        fee: quote.fee,
        sharesIn: quote.sharesIn,
      });
      expect(await readPool(market)).toEqual(quote.poolAfter);
      compared += await expectViewsMatch(market, feeBps);
      expect(compared).toBeGreaterThan(100);
    },
  );
});

import type { Address } from "viem";
import { maxUint256, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractAddress, setupDevChain, type TestChain } from "./_test/setup.ts";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import { waitForSuccess } from "./clients.ts";
import { PREDICT_CHAIN_ID } from "./deploy.ts";
import { marketAbi, marketFactoryAbi, wethAbi } from "./generated/abis.ts";
import { SIDE } from "./predict-math.ts";

let t: TestChain;
beforeAll(async () => {
  t = await setupDevChain(PREDICT_CHAIN_ID);
});
afterAll(async () => {
  await t?.close();
});

const creatorIndex = DEV_ACCOUNT_ROLES.firstUser;
const yesTrader = creatorIndex + 1;
const noTrader = creatorIndex + 2;

async function fundWeth(index: number, spender: Address) {
  const wallet = t.clients.wallet(index);
  const weth = contractAddress(t.deployment, "WETH");
  const { publicClient } = t.clients;
  await waitForSuccess(
    publicClient,
    await wallet.writeContract({
      address: weth,
      abi: wethAbi,
      functionName: "deposit",
      value: parseEther("10"),
    }),
  );
  await waitForSuccess(
    publicClient,
    await wallet.writeContract({
      address: weth,
      abi: wethAbi,
      functionName: "approve",
      args: [spender, maxUint256],
    }),
  );
}

describe("market lifecycle", () => {
  it("creates, trades, pauses, resolves, redeems and returns the pool to its creator", async () => {
    const { publicClient } = t.clients;
    const factory = contractAddress(t.deployment, "MarketFactory");
    const weth = contractAddress(t.deployment, "WETH");
    const creator = t.clients.wallet(creatorIndex);
    const operator = t.clients.wallet(DEV_ACCOUNT_ROLES.marketOperator);
    const seed = parseEther("2");

    await fundWeth(creatorIndex, factory);
    const created = await waitForSuccess(
      publicClient,
      await creator.writeContract({
        address: factory,
        abi: marketFactoryAbi,
        functionName: "createMarket",
        args: ["Will it rain on block 100?", seed, 300n],
      }),
    );
    const [event] = parseEventLogs({ abi: marketFactoryAbi, logs: created.logs, eventName: "MarketCreated" });
    expect(event?.args).toMatchObject({
      marketId: 2n,
      creator: creator.account.address,
      question: "Will it rain on block 100?",
      seed,
      feeBps: 300n,
    });
    const market = event!.args.market;
    const read = { address: market, abi: marketAbi } as const;
    expect(await publicClient.readContract({ ...read, functionName: "backing" })).toBe(seed);

    await fundWeth(yesTrader, market);
    await fundWeth(noTrader, market);
    const buy = async (index: number, side: number, wethIn: bigint) =>
      waitForSuccess(
        publicClient,
        await t.clients
          .wallet(index)
          .writeContract({ ...read, functionName: "buy", args: [side, wethIn, 0n] }),
      );
    await buy(yesTrader, SIDE.yes, parseEther("1"));
    await buy(noTrader, SIDE.no, parseEther("0.4"));

    await expect(creator.writeContract({ ...read, functionName: "pause" })).rejects.toThrow(
      "Market: not operator",
    );
    const paused = await waitForSuccess(
      publicClient,
      await operator.writeContract({ ...read, functionName: "pause" }),
    );
    expect(parseEventLogs({ abi: marketAbi, logs: paused.logs }).map((e) => [e.eventName, e.args])).toEqual([
      ["Paused", { operator: operator.account.address }],
    ]);
    await expect(buy(yesTrader, SIDE.yes, 1000n)).rejects.toThrow("Market: paused");
    const unpaused = await waitForSuccess(
      publicClient,
      await operator.writeContract({ ...read, functionName: "unpause" }),
    );
    expect(parseEventLogs({ abi: marketAbi, logs: unpaused.logs })[0]?.eventName).toBe("Unpaused");

    const resolved = await waitForSuccess(
      publicClient,
      await operator.writeContract({ ...read, functionName: "resolve", args: [SIDE.yes] }),
    );
    expect(parseEventLogs({ abi: marketAbi, logs: resolved.logs, eventName: "Resolved" })[0]?.args).toEqual({
      outcome: SIDE.yes,
      operator: operator.account.address,
    });
    await expect(buy(noTrader, SIDE.no, 1000n)).rejects.toThrow("Market: resolved");

    const [yesShares] = await publicClient.readContract({
      ...read,
      functionName: "sharesOf",
      args: [t.clients.accounts[yesTrader]!.address],
    });
    const wethBefore = await publicClient.readContract({
      address: weth,
      abi: wethAbi,
      functionName: "balanceOf",
      args: [t.clients.accounts[yesTrader]!.address],
    });
    const redeemed = await waitForSuccess(
      publicClient,
      await t.clients.wallet(yesTrader).writeContract({ ...read, functionName: "redeem" }),
    );
    expect(parseEventLogs({ abi: marketAbi, logs: redeemed.logs, eventName: "Redeemed" })[0]?.args).toEqual({
      owner: t.clients.accounts[yesTrader]!.address,
      shares: yesShares,
      payout: yesShares,
    });
    expect(
      await publicClient.readContract({
        address: weth,
        abi: wethAbi,
        functionName: "balanceOf",
        args: [t.clients.accounts[yesTrader]!.address],
      }),
    ).toBe(wethBefore + yesShares);
    await expect(
      t.clients.wallet(noTrader).writeContract({ ...read, functionName: "redeem" }),
    ).rejects.toThrow("Market: nothing to redeem");

    const fees = await publicClient.readContract({ ...read, functionName: "feesAccrued" });
    expect(fees).toBe((parseEther("1.4") * 300n) / 10000n);
    const collected = await waitForSuccess(
      publicClient,
      await creator.writeContract({ ...read, functionName: "collectLiquidity" }),
    );
    expect(
      parseEventLogs({ abi: marketAbi, logs: collected.logs, eventName: "LiquidityCollected" })[0]?.args,
    ).toMatchObject({
      creator: creator.account.address,
      fees,
    });
    // Every winning share has been paid out, so nothing backs anything any more.
    expect(await publicClient.readContract({ ...read, functionName: "backing" })).toBe(0n);
    expect(
      await publicClient.readContract({
        address: weth,
        abi: wethAbi,
        functionName: "balanceOf",
        args: [market],
      }),
    ).toBe(0n);
  });
});

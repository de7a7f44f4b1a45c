import type { Abi } from "viem";
import { parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupDevChain, type TestChain, waitForBlockNumber } from "../_test/setup.ts";
import { CLASSIC_CHAIN_ID, PREDICT_CHAIN_ID } from "../deploy.ts";
import {
  boosterDropAbi,
  boosterTokenAbi,
  claimDropsAbi,
  dropFactoryAbi,
  marketAbi,
  marketFactoryAbi,
  wethAbi,
} from "../generated/abis.ts";
import type { ActionReport } from "./index.ts";
import { createChainSimulation, startSimulator } from "./index.ts";

/** Per chain, a seed whose first 50 steps reach every event listed below on a fresh dev chain. */
const SEEDS: Record<number, bigint> = { [CLASSIC_CHAIN_ID]: 7n, [PREDICT_CHAIN_ID]: 4n };
const abis: Abi[] = [
  boosterDropAbi,
  boosterTokenAbi,
  claimDropsAbi,
  dropFactoryAbi,
  marketAbi,
  marketFactoryAbi,
  wethAbi,
];

async function eventNames(t: TestChain): Promise<Set<string>> {
  const logs = await t.clients.publicClient.getLogs({ fromBlock: 0n, toBlock: "latest" });
  return new Set(abis.flatMap((abi) => parseEventLogs({ abi, logs }).map((log) => log.eventName)));
}

/** The reports of each step. */
async function run(t: TestChain, steps: number): Promise<ActionReport[][]> {
  const simulation = createChainSimulation({ deployment: t.deployment, seed: SEEDS[t.deployment.chainId]! });
  const reports: ActionReport[][] = [];
  for (let i = 0; i < steps; i++) reports.push(await simulation.step());
  return reports;
}

describe.each([
  [
    CLASSIC_CHAIN_ID,
    [
      "DropConfigured",
      "BoosterDropsMinted",
      "BoosterDropOpened",
      "RandomnessRequested",
      "RandomnessFulfilled",
      "RarityAssigned",
      "BoosterDropSold",
      "OfferMinted",
      "TokensPurchased",
      "TokensSold",
      "MarketGraduated",
      "ActiveChanged",
      "MerkleRootUpdated",
      "DropCreated",
      "Claimed",
    ],
  ],
  [
    PREDICT_CHAIN_ID,
    [
      "MarketCreated",
      "Deposit",
      "Buy",
      "Sell",
      "Paused",
      "Unpaused",
      "Resolved",
      "Redeemed",
      "LiquidityCollected",
    ],
  ],
])("simulated activity on chain %i", (chainId, expectedEvents) => {
  const chains: TestChain[] = [];
  beforeAll(async () => {
    chains.push(await setupDevChain(chainId), await setupDevChain(chainId));
  });
  afterAll(async () => {
    await Promise.all(chains.map((chain) => chain.close()));
  });

  it("replays the same actions from the same seed and emits every kind of event", async () => {
    const [first, second] = chains as [TestChain, TestChain];
    const [long, short] = await Promise.all([run(first, 50), run(second, 20)]);
    expect(long.slice(0, short.length)).toEqual(short);
    expect(long.flat().filter((report) => report.failed)).toEqual([]);
    const names = await eventNames(first);
    expect(expectedEvents.filter((name) => !names.has(name))).toEqual([]);
    if (chainId === CLASSIC_CHAIN_ID) {
      // The sample game whose ids start past 2^64 gets packs: ids no JavaScript number holds exactly.
      const minted = long.flat().filter((report) => report.action === "mint");
      expect(minted.some((report) => BigInt(report["startTokenId"] as string) > 2n ** 53n)).toBe(true);
    }
  }, 40_000);
});

describe("startSimulator", () => {
  let t: TestChain;
  beforeAll(async () => {
    t = await setupDevChain(CLASSIC_CHAIN_ID);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps transactions flowing until stopped", async () => {
    const { publicClient } = t.clients;
    const start = await publicClient.getBlockNumber();
    const simulator = startSimulator({ chains: [t.deployment], seed: 9, intervalMs: 1 });
    await waitForBlockNumber(publicClient, start + 5n);
    await simulator.stop();
    await simulator.stop();
    const stoppedAt = await publicClient.getBlockNumber();
    // Interval mining is off on this chain, so any later block would have come from the simulator.
    await t.chain.provider.request({ method: "evm_mine" });
    expect(await publicClient.getBlockNumber()).toBe(stoppedAt + 1n);
  });
});

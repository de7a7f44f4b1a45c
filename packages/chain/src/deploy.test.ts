import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupDevChain, type TestChain } from "./_test/setup.ts";
import { parseChainConfig } from "./chain-config.ts";
import {
  CLASSIC_CHAIN_ID,
  DEV_RUNTIMES,
  deployReferenceContracts,
  PREDICT_CHAIN_ID,
  PREDICT_RUNTIME,
} from "./deploy.ts";
import { startDevChain } from "./dev-chain/index.ts";
import { dropFactoryAbi, marketFactoryAbi } from "./generated/abis.ts";

describe.each([
  [CLASSIC_CHAIN_ID, ["EntropyProvider", "DropFactory", "RuntimeRegistry"], DEV_RUNTIMES.map((r) => r.id)],
  [PREDICT_CHAIN_ID, ["WETH", "MarketFactory"], [PREDICT_RUNTIME.id]],
])("deployReferenceContracts on chain %i", (chainId, contractNames, runtimeIds) => {
  let t: TestChain;
  beforeAll(async () => {
    t = await setupDevChain(chainId);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("describes the deployment in the MKT_CONFIG shape", async () => {
    const { deployment } = t;
    expect(parseChainConfig({ chains: [deployment] })).toEqual({ chains: [deployment] });
    expect(deployment.chainId).toBe(chainId);
    expect(deployment.rpcUrl).toBe(t.chain.rpcUrl);
    expect(Object.keys(deployment.contracts)).toEqual(contractNames);
    expect(deployment.runtimes.map((runtime) => runtime.id)).toEqual(runtimeIds);
    const genesis = await t.clients.publicClient.getBlock({ blockNumber: 0n });
    expect(deployment.genesisHash).toBe(genesis.hash);
  });

  it("gives each contract the block it was deployed in as its start block", async () => {
    const { publicClient } = t.clients;
    for (const { address, startBlock } of Object.values(t.deployment.contracts)) {
      expect(await publicClient.getCode({ address, blockNumber: BigInt(startBlock) })).toMatch(
        /^0x[0-9a-f]{10,}/,
      );
      expect(await publicClient.getCode({ address, blockNumber: BigInt(startBlock - 1) })).toBeUndefined();
    }
  });

  it("starts each runtime no later than the first of its contracts", async () => {
    const { publicClient } = t.clients;
    for (const runtime of t.deployment.runtimes) {
      for (const address of Object.values(runtime.contracts)) {
        expect(await publicClient.getCode({ address })).toMatch(/^0x[0-9a-f]{10,}/);
        expect(
          await publicClient.getCode({ address, blockNumber: BigInt(runtime.startBlock - 1) }),
        ).toBeUndefined();
      }
    }
  });

  it("creates the sample games or market", async () => {
    const count =
      chainId === CLASSIC_CHAIN_ID
        ? await t.clients.publicClient.readContract({
            address: t.deployment.contracts["DropFactory"]!.address,
            abi: dropFactoryAbi,
            functionName: "gameCount",
          })
        : await t.clients.publicClient.readContract({
            address: t.deployment.contracts["MarketFactory"]!.address,
            abi: marketFactoryAbi,
            functionName: "marketCount",
          });
    expect(count).toBe(chainId === CLASSIC_CHAIN_ID ? 3n : 1n);
  });
});

describe("deployReferenceContracts guards", () => {
  it("refuses a chain id without a reference set, and an RPC serving another chain", async () => {
    const chain = await startDevChain({ chainId: 31337, port: 0, intervalMs: 0 });
    try {
      await expect(deployReferenceContracts({ rpcUrl: chain.rpcUrl, chainId: 31337 })).rejects.toThrow(
        "no reference contracts for chain 31337",
      );
      await expect(deployReferenceContracts({ rpcUrl: chain.rpcUrl, chainId: 8453 })).rejects.toThrow(
        "serves chain 31337, expected 8453",
      );
    } finally {
      await chain.close();
    }
  });
});

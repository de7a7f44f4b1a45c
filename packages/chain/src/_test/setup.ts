import type { Address, PublicClient } from "viem";
import type { ChainDeployment } from "../chain-config.ts";
import type { ChainClients } from "../clients.ts";
import { createChainClients } from "../clients.ts";
import { deployReferenceContracts } from "../deploy.ts";
import type { DevChain } from "../dev-chain/index.ts";
import { startDevChain } from "../dev-chain/index.ts";
import { dropFactoryAbi } from "../generated/abis.ts";

export interface TestChain {
  chain: DevChain;
  deployment: ChainDeployment;
  clients: ChainClients;
  close(): Promise<void>;
}

/**
 * A dev chain on a free port with the reference contracts deployed. Interval mining is off unless asked
 * for, so block numbers only move with the test's own transactions.
 */
export async function setupDevChain(
  chainId: number,
  options: { intervalMs?: number } = {},
): Promise<TestChain> {
  const chain = await startDevChain({ chainId, port: 0, intervalMs: options.intervalMs ?? 0 });
  try {
    const deployment = await deployReferenceContracts({ rpcUrl: chain.rpcUrl, chainId });
    const clients = createChainClients({ rpcUrl: chain.rpcUrl, chainId, pollingIntervalMs: 20 });
    return { chain, deployment, clients, close: chain.close };
  } catch (error) {
    await chain.close();
    throw error;
  }
}

export function contractAddress(deployment: ChainDeployment, name: string): Address {
  const contract = deployment.contracts[name];
  if (contract === undefined) throw new Error(`deployment has no ${name}`);
  return contract.address;
}

export async function readGame(
  testChain: TestChain,
  gameId: bigint,
): Promise<{ drop: Address; token: Address; creator: Address }> {
  const [drop, token, creator] = await testChain.clients.publicClient.readContract({
    address: contractAddress(testChain.deployment, "DropFactory"),
    abi: dropFactoryAbi,
    functionName: "games",
    args: [gameId],
  });
  return { drop, token, creator };
}

/** Resolves once the chain's head reaches `target`, by watching new blocks (no fixed sleeps). */
export function waitForBlockNumber(
  publicClient: Pick<PublicClient, "watchBlockNumber">,
  target: bigint,
): Promise<bigint> {
  return new Promise((resolve, reject) => {
    const unwatch = publicClient.watchBlockNumber({
      emitOnBegin: true,
      pollingInterval: 20,
      onBlockNumber: (blockNumber) => {
        if (blockNumber >= target) {
          unwatch();
          resolve(blockNumber);
        }
      },
      onError: (error) => {
        unwatch();
        reject(error);
      },
    });
  });
}

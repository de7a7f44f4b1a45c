import {
  type ChainClients,
  type ChainDeployment,
  createChainClients,
  createChainSimulation,
  type DevChain,
  deployReferenceContracts,
  startDevChain,
} from "@mkt/chain";

export interface TestChain {
  chain: DevChain;
  deployment: ChainDeployment;
  clients: ChainClients;
  /** Runs seeded demo actions; each step is one transaction or a few. */
  simulate(steps: number, seed?: bigint): Promise<void>;
  mine(blocks?: number): Promise<void>;
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A dev chain on a free port with the reference contracts deployed. Blocks
 * move only with the test's own transactions (no interval mining).
 * `metadataBaseUrl` is the drop factory's `metadataBaseURI` (8453), e.g. a
 * test app's `${PUBLIC_URL}/classic/metadata/`.
 */
export async function setupDevChain(
  chainId: 8453 | 4663,
  { finalityDepth = 3, metadataBaseUrl }: { finalityDepth?: number; metadataBaseUrl?: string } = {},
): Promise<TestChain> {
  const chain = await startDevChain({ chainId, port: 0, intervalMs: 0 });
  try {
    const deployment = await deployReferenceContracts({
      rpcUrl: chain.rpcUrl,
      chainId,
      finalityDepth,
      ...(metadataBaseUrl === undefined ? {} : { metadataBaseUrl }),
    });
    const clients = createChainClients({ rpcUrl: chain.rpcUrl, chainId, pollingIntervalMs: 20 });
    const simulations = new Map<bigint, ReturnType<typeof createChainSimulation>>();
    return {
      chain,
      deployment,
      clients,
      async simulate(steps, seed = 1n) {
        let simulation = simulations.get(seed);
        if (!simulation) {
          simulation = createChainSimulation({ deployment, seed });
          simulations.set(seed, simulation);
        }
        for (let i = 0; i < steps; i++) await simulation.step();
      },
      async mine(blocks = 1) {
        for (let i = 0; i < blocks; i++) await chain.provider.request({ method: "evm_mine" });
      },
      snapshot: async () => (await chain.provider.request({ method: "evm_snapshot" })) as string,
      async revert(id) {
        const ok = await chain.provider.request({ method: "evm_revert", params: [id] });
        if (ok !== true) throw new Error("evm_revert failed");
      },
      close: () => chain.close(),
    };
  } catch (error) {
    await chain.close();
    throw error;
  }
}

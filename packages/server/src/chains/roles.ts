import type { ChainDeployment, ContractDeployment, RuntimeDeployment } from "@mkt/chain";

/** The chain of the classic and current marketplaces. */
export const MARKET_CHAIN_ID = 8453;

/**
 * Which deployment plays which role. The one place that decides it: the
 * indexer's scopes, the runtime routes and the wallet verifier all read it.
 *
 * - market: the current marketplace, chain 8453's deployment without a
 *   MarketFactory; its runtimes (each with a ClaimDrops) are the market runtimes.
 * - classic: the deployment with a DropFactory (booster drops and tokens).
 * - predict: the deployment with a MarketFactory (the prediction feed).
 *
 * One deployment may play several roles (chain 8453 is market and classic).
 */
export interface ChainRoles {
  market: MarketRole | undefined;
  classic: FactoryRole | undefined;
  predict: FactoryRole | undefined;
}

export interface MarketRole {
  deployment: ChainDeployment;
  /** The runtimes the indexer follows (those with a ClaimDrops), with their scope ids. */
  runtimes: Array<{ runtime: RuntimeDeployment; claimDrops: string; scope: string }>;
}

export interface FactoryRole {
  deployment: ChainDeployment;
  /** The factory contract that defines the role. */
  factory: ContractDeployment;
  scope: string;
}

/**
 * Scope ids: one per contract set and runtime. They are `head.scope` on the
 * wire and the key of every projected row, so they never change form.
 * Addresses are lowercase.
 */
export const scopeIds = {
  classic: (chainId: number, dropFactory: string) => `${chainId}:classic:${dropFactory.toLowerCase()}`,
  runtime: (chainId: number, runtimeId: string) => `${chainId}:runtime:${runtimeId}`,
  predict: (chainId: number, marketFactory: string) => `${chainId}:predict:${marketFactory.toLowerCase()}`,
} as const;

/** The roles of these deployments; a role no deployment plays is undefined. */
export function chainRoles(deployments: readonly ChainDeployment[]): ChainRoles {
  const marketDeployment = deployments.find(
    (deployment) => deployment.chainId === MARKET_CHAIN_ID && !deployment.contracts["MarketFactory"],
  );
  const factoryRole = (name: string, scope: (chainId: number, address: string) => string) => {
    const deployment = deployments.find((candidate) => candidate.contracts[name] !== undefined);
    const factory = deployment?.contracts[name];
    return deployment && factory
      ? { deployment, factory, scope: scope(deployment.chainId, factory.address) }
      : undefined;
  };
  return {
    market: marketDeployment && {
      deployment: marketDeployment,
      runtimes: marketDeployment.runtimes.flatMap((runtime) => {
        const claimDrops = runtime.contracts["ClaimDrops"];
        return claimDrops
          ? [
              {
                runtime,
                claimDrops: claimDrops.toLowerCase(),
                scope: scopeIds.runtime(marketDeployment.chainId, runtime.id),
              },
            ]
          : [];
      }),
    },
    classic: factoryRole("DropFactory", scopeIds.classic),
    predict: factoryRole("MarketFactory", scopeIds.predict),
  };
}

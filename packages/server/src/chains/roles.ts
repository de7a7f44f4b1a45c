import type { ChainDeployment, ContractDeployment } from "@mkt/chain";
import type { Address } from "viem";

/** The chain of the classic and current marketplaces. */
export const MARKET_CHAIN_ID = 8453;

/**
 * Which deployment plays which role. The one place that decides it: the
 * indexer's scopes, the runtime routes and the wallet verifier all read it.
 *
 * - market: the current marketplace, chain 8453's deployment without a
 *   MarketFactory that names a RuntimeRegistry. The configuration only says
 *   where the registry is; the runtimes are what it registered onchain
 *   (`RuntimeRegistered`, indexed into the runtime catalog), never the
 *   deployment's `runtimes` list.
 * - classic: the deployment with a DropFactory (the creation contract: its
 *   `DropCreated` logs create the games) or a non-empty `classicDrops` (drops
 *   indexed by address: created by a contract the indexer does not follow, or
 *   before the factory's start block), or both. Its scope id is the
 *   factory's, else the zero address's (`<chainId>:classic:0x000…0`): the id
 *   keys every projected row, so adding a DropFactory to a deployment that
 *   only listed drops starts a new scope (indexed afresh from its start
 *   block), while listing more drops keeps the scope.
 * - predict: the deployment with a MarketFactory (the prediction feed).
 *
 * One deployment may play several roles (chain 8453 is market and classic).
 */
export interface ChainRoles {
  market: MarketRole | undefined;
  classic: ClassicRole | undefined;
  predict: FactoryRole | undefined;
}

export interface MarketRole {
  deployment: ChainDeployment;
  /** The RuntimeRegistry whose registrations are the market runtimes (address lowercase). */
  registry: ContractDeployment;
  /** The scope that indexes the registry and every ClaimDrops it registers. */
  scope: string;
}

export interface FactoryRole {
  deployment: ChainDeployment;
  /** The factory contract that defines the role. */
  factory: ContractDeployment;
  scope: string;
}

export interface ClassicRole {
  deployment: ChainDeployment;
  /** The creation contract whose `DropCreated` logs create games; undefined when only drops are listed. */
  factory: ContractDeployment | undefined;
  /** The drops indexed by address (`classicDrops`), each from its start block; their tokens are found onchain. */
  drops: ContractDeployment[];
  scope: string;
  /** The first block the scope reads: the lowest start block of the factory and the listed drops. */
  startBlock: number;
}

/** The classic scope's address when the deployment lists drops without a factory. */
const NO_FACTORY = "0x0000000000000000000000000000000000000000";

/**
 * Scope ids: one per contract set (the registry's scope holds every runtime it registered). They are `head.scope` on the
 * wire and the key of every projected row, so they never change form.
 * Addresses are lowercase.
 */
export const scopeIds = {
  classic: (chainId: number, dropFactory: string) => `${chainId}:classic:${dropFactory.toLowerCase()}`,
  registry: (chainId: number, registry: string) => `${chainId}:registry:${registry.toLowerCase()}`,
  predict: (chainId: number, marketFactory: string) => `${chainId}:predict:${marketFactory.toLowerCase()}`,
} as const;

/** The roles of these deployments; a role no deployment plays is undefined. */
export function chainRoles(deployments: readonly ChainDeployment[]): ChainRoles {
  const marketDeployment = deployments.find(
    (deployment) => deployment.chainId === MARKET_CHAIN_ID && !deployment.contracts["MarketFactory"],
  );
  const registry = marketDeployment?.contracts["RuntimeRegistry"];
  const factoryRole = (name: string, scope: (chainId: number, address: string) => string) => {
    const deployment = deployments.find((candidate) => candidate.contracts[name] !== undefined);
    const factory = deployment?.contracts[name];
    return deployment && factory
      ? { deployment, factory, scope: scope(deployment.chainId, factory.address) }
      : undefined;
  };
  const classicDeployment = deployments.find(
    (candidate) =>
      candidate.contracts["DropFactory"] !== undefined || (candidate.classicDrops ?? []).length > 0,
  );
  const classic = (deployment: ChainDeployment): ClassicRole => {
    const factory = deployment.contracts["DropFactory"];
    const drops = deployment.classicDrops ?? [];
    return {
      deployment,
      factory,
      drops,
      scope: scopeIds.classic(deployment.chainId, factory?.address ?? NO_FACTORY),
      startBlock: Math.min(...[factory, ...drops].flatMap((entry) => (entry ? [entry.startBlock] : []))),
    };
  };
  return {
    market:
      marketDeployment && registry
        ? {
            deployment: marketDeployment,
            registry: { address: registry.address.toLowerCase() as Address, startBlock: registry.startBlock },
            scope: scopeIds.registry(marketDeployment.chainId, registry.address),
          }
        : undefined,
    classic: classicDeployment ? classic(classicDeployment) : undefined,
    predict: factoryRole("MarketFactory", scopeIds.predict),
  };
}

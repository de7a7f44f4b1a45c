import { join } from "node:path";
import {
  type ChainDeployment,
  createChainClients,
  type DevChain,
  deployReferenceContracts,
  PREDICT_CHAIN_ID,
  type Repeating,
  readChainConfig,
  SIMULATOR_STEP_MS,
  startDevChain,
  startEntropyFulfiller,
  startSimulator,
  writeChainConfig,
} from "@mkt/chain";
import type { Logger } from "pino";
import type { Config } from "../config/index.ts";
import { MARKET_CHAIN_ID } from "./roles.ts";

export type { ChainRoles, ClassicRole, FactoryRole, MarketRole } from "./roles.ts";
export { chainRoles, MARKET_CHAIN_ID, scopeIds } from "./roles.ts";

export const CHAIN_IDS = [MARKET_CHAIN_ID, PREDICT_CHAIN_ID] as const;

export interface Chains {
  /** Every chain the indexer follows, as the config file describes it. */
  deployments: ChainDeployment[];
  /** Dev chains started by this process (none for real chains). */
  devChains: DevChain[];
  /** Where the deployments were written (dev chains) or read from (MKT_CONFIG). */
  configPath: string | undefined;
  /**
   * How often the indexer should poll a caught-up scope: slower (QUIET_POLL_INTERVAL_MS) when
   * every chain is a dev chain without the demo, where nothing happens unless someone sends a
   * transaction; undefined (the indexer's default) otherwise.
   */
  indexerPollIntervalMs: number | undefined;
  close(): Promise<void>;
}

/** Empty blocks while the demo plays: its activity reads as a chain a block every second. */
const DEMO_BLOCK_INTERVAL_MS = 1_000;
/**
 * Empty blocks with the demo off. Transactions are still mined at once (the dev chains automine),
 * so only the clock between them slows; every empty block costs the indexer a poll and a write per
 * scope, which made an idle process spend several percent of a core. Ten seconds keeps the
 * prediction feed's newest block well inside its freshness bound (PREDICT_FRESHNESS_BOUNDS).
 */
const QUIET_BLOCK_INTERVAL_MS = 10_000;
/** The indexer's poll of a caught-up scope on quiet dev chains: a new transaction is indexed within two seconds. */
const QUIET_POLL_INTERVAL_MS = 2_000;
/** Randomness requests on quiet dev chains are fulfilled within this long (two calls per round). */
const QUIET_ENTROPY_INTERVAL_MS = 5_000;

/**
 * The chains this process indexes. A chain with RPC_URL_<id> is a real
 * chain, described by MKT_CONFIG; a chain without one gets an in-process dev
 * chain on its loopback port, with the reference contracts deployed (the drop
 * factory's metadata base is `${PUBLIC_URL}/classic/metadata/`) and the
 * deployment written to `<MKT_DATA_DIR>/chains.json`, the same format as
 * MKT_CONFIG, so the indexer reads both the same way. MKT_DEMO keeps seeded
 * activity flowing on the dev chains; with it off, randomness requests are
 * still fulfilled so packs get their rarities.
 */
export async function startChains({ config, logger }: { config: Config; logger: Logger }): Promise<Chains> {
  const log = logger.child({ area: "chains" });
  const fromFile = config.configFile ? (await readChainConfig(config.configFile)).chains : [];
  const deployments: ChainDeployment[] = [];
  const devChains: DevChain[] = [];
  const background: Repeating[] = [];
  try {
    for (const chainId of CHAIN_IDS) {
      const rpcUrl = config.rpcUrls[chainId];
      const described = fromFile.find((chain) => chain.chainId === chainId);
      if (rpcUrl || described) {
        if (!described) {
          throw new Error(
            `RPC_URL_${chainId} is set but MKT_CONFIG does not describe chain ${chainId} (contracts, start blocks)`,
          );
        }
        deployments.push({ ...described, rpcUrl: rpcUrl ?? described.rpcUrl });
        log.info({ msg: "following a real chain", chainId, rpcUrl: redactUrl(rpcUrl ?? described.rpcUrl) });
        continue;
      }
      const chain = await startDevChain({
        chainId,
        port: config.devnetPorts[chainId],
        intervalMs: config.demo ? DEMO_BLOCK_INTERVAL_MS : QUIET_BLOCK_INTERVAL_MS,
        logger: log,
      });
      devChains.push(chain);
      const deployment = await deployReferenceContracts({
        rpcUrl: chain.rpcUrl,
        chainId,
        // The drops' tokenURI and contractURI point at this process's classic metadata routes.
        metadataBaseUrl: `${config.publicUrl}/classic/metadata/`,
        logger: log,
      });
      deployments.push(deployment);
      log.info({ msg: "dev chain started and reference contracts deployed", chainId, rpcUrl: chain.rpcUrl });
    }
    let configPath = config.configFile;
    if (devChains.length > 0) {
      configPath = join(config.dataDir, "chains.json");
      await writeChainConfig(configPath, deployments);
      const dev = deployments.filter((deployment) =>
        devChains.some((chain) => chain.chainId === deployment.chainId),
      );
      if (config.demo) {
        background.push(
          startSimulator({
            chains: dev,
            seed: 1,
            intervalMs: SIMULATOR_STEP_MS / config.demoRate,
            logger: log,
          }),
        );
      } else {
        for (const deployment of dev) {
          const entropy = deployment.contracts["EntropyProvider"];
          if (!entropy) continue;
          background.push(
            startEntropyFulfiller({
              clients: createChainClients({ rpcUrl: deployment.rpcUrl, chainId: deployment.chainId }),
              entropyProvider: entropy.address,
              intervalMs: QUIET_ENTROPY_INTERVAL_MS,
              logger: log,
            }),
          );
        }
      }
    }
    return {
      deployments,
      devChains,
      configPath,
      indexerPollIntervalMs:
        !config.demo && devChains.length > 0 && devChains.length === deployments.length
          ? QUIET_POLL_INTERVAL_MS
          : undefined,
      async close() {
        for (const task of background) await task.stop();
        for (const chain of devChains) await chain.close();
      },
    };
  } catch (error) {
    for (const task of background) await task.stop().catch(() => {});
    for (const chain of devChains) await chain.close().catch(() => {});
    throw error;
  }
}

/** RPC URLs of providers often carry an API key in the path or query: log the origin only. */
export function redactUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "[invalid url]";
  }
}

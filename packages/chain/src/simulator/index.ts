import { DEV_MNEMONIC } from "../accounts.ts";
import type { ChainDeployment } from "../chain-config.ts";
import { createChainClients } from "../clients.ts";
import type { ChainLogger } from "../logger.ts";
import { createSilentLogger } from "../logger.ts";
import type { Repeating } from "../repeat.ts";
import { repeatEvery } from "../repeat.ts";
import { createClassicActivity } from "./classic-activity.ts";
import type { ActionChoice, ActionReport, Activity } from "./context.ts";
import { createContext } from "./context.ts";
import { createPredictActivity } from "./predict-activity.ts";
import { createPrng, deriveSeed } from "./prng.ts";
import { createRuntimeActivity } from "./runtime-activity.ts";

export type { ActionReport } from "./context.ts";

export interface ChainSimulationOptions {
  deployment: ChainDeployment;
  seed: bigint;
  mnemonic?: string;
  logger?: ChainLogger;
}

export interface ChainSimulation {
  /**
   * Answers pending randomness, then takes one seeded action; returns what happened. A reverted action
   * is reported with `failed: true` rather than thrown, so the demo keeps going.
   */
  step(): Promise<ActionReport[]>;
}

/**
 * The demo traffic of one chain, one action per step, chosen by a PRNG seeded from `seed` and the chain
 * id: on a fresh dev chain the same seed replays the same actions. Which activities run follows from the
 * deployed contracts (drop factory and entropy, runtimes, market factory and WETH).
 */
export function createChainSimulation(options: ChainSimulationOptions): ChainSimulation {
  const { deployment } = options;
  const logger = options.logger ?? createSilentLogger();
  const clients = createChainClients({
    rpcUrl: deployment.rpcUrl,
    chainId: deployment.chainId,
    mnemonic: options.mnemonic ?? DEV_MNEMONIC,
  });
  const context = createContext({
    deployment,
    clients,
    prng: createPrng(deriveSeed(options.seed, BigInt(deployment.chainId))),
    seed: options.seed,
    logger,
  });
  const { contracts } = deployment;
  const activities: Activity[] = [];
  if (contracts["DropFactory"] && contracts["EntropyProvider"]) {
    activities.push(
      createClassicActivity(context, contracts["DropFactory"].address, contracts["EntropyProvider"].address),
    );
  }
  if (deployment.runtimes.some((runtime) => runtime.contracts["ClaimDrops"] !== undefined)) {
    activities.push(createRuntimeActivity(context, deployment.runtimes));
  }
  if (contracts["MarketFactory"] && contracts["WETH"]) {
    activities.push(
      createPredictActivity(context, contracts["MarketFactory"].address, contracts["WETH"].address),
    );
  }

  let initialised: Promise<void> | undefined;
  const pick = (choices: ActionChoice[]): ActionChoice | undefined => {
    const total = choices.reduce((sum, choice) => sum + choice.weight, 0);
    let roll = context.prng.next() * total;
    for (const choice of choices) {
      roll -= choice.weight;
      if (roll < 0) return choice;
    }
    return choices.at(-1);
  };

  return {
    async step() {
      initialised ??= (async () => {
        for (const activity of activities) await activity.init();
      })();
      try {
        await initialised;
      } catch (error) {
        initialised = undefined;
        throw error;
      }
      const reports: ActionReport[] = [];
      for (const activity of activities) reports.push(...((await activity.beforeStep?.()) ?? []));
      const choice = pick(activities.flatMap((activity) => activity.choices()).filter((c) => c.weight > 0));
      if (choice === undefined) return reports;
      try {
        reports.push(await choice.run());
      } catch (error) {
        const message =
          error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
        logger.warn({
          msg: "simulated action failed",
          chainId: deployment.chainId,
          action: choice.action,
          err: message,
        });
        reports.push({ action: choice.action, failed: true, error: message });
      }
      return reports;
    },
  };
}

/** The simulator's pause between steps on each chain unless `intervalMs` says otherwise. */
export const SIMULATOR_STEP_MS = 1_500;

export interface SimulatorOptions {
  chains: readonly ChainDeployment[];
  seed: number | bigint;
  /** Pause between steps on each chain (default `SIMULATOR_STEP_MS`). */
  intervalMs?: number;
  mnemonic?: string;
  logger?: ChainLogger;
}

/**
 * Keeps seeded demo activity flowing on every chain until stopped: games, mints (some allowlisted),
 * randomness and rarities, opens, sell-backs, transfers, token trades, runtime claims, and prediction
 * markets created, traded, paused, resolved and redeemed. It also answers randomness requests, so do not
 * run startEntropyFulfiller beside it.
 *
 * @example
 * const simulator = startSimulator({ chains: [deployment], seed: 1, intervalMs: 1500, logger });
 * // ...
 * await simulator.stop();
 */
export function startSimulator(options: SimulatorOptions): Repeating {
  const logger = options.logger ?? createSilentLogger();
  const intervalMs = options.intervalMs ?? SIMULATOR_STEP_MS;
  const loops = options.chains.map((deployment) => {
    const { chainId } = deployment;
    const simulation = createChainSimulation({
      deployment,
      seed: BigInt(options.seed),
      logger,
      ...(options.mnemonic === undefined ? {} : { mnemonic: options.mnemonic }),
    });
    return repeatEvery(
      intervalMs,
      async () => {
        for (const report of await simulation.step()) logger.debug({ msg: "simulated", chainId, ...report });
      },
      (error) => logger.warn({ msg: "simulation step failed", chainId, err: String(error) }),
    );
  });
  logger.info({ msg: "demo simulator started", chains: options.chains.map((c) => c.chainId), intervalMs });
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}

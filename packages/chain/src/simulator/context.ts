import type { Hash, TransactionReceipt } from "viem";
import { DEV_ACCOUNT_COUNT, DEV_ACCOUNT_ROLES } from "../accounts.ts";
import type { ChainDeployment } from "../chain-config.ts";
import type { ChainClients } from "../clients.ts";
import { waitForSuccess } from "../clients.ts";
import type { ChainLogger } from "../logger.ts";
import type { Prng } from "./prng.ts";

export interface SimulationContext {
  /** The contracts of the chain the activity acts on. */
  deployment: ChainDeployment;
  /** Its RPC clients and accounts. */
  clients: ChainClients;
  /** The activity's random choices, reproducible from the seed. */
  prng: Prng;
  /** The seed the run was started with. */
  seed: bigint;
  /** Where the activity reports what it did. */
  logger: ChainLogger;
  /** Account indices that act as ordinary users. */
  users: readonly number[];
  /** Waits for a sent transaction's receipt; a reverted one rejects. */
  send(hash: Promise<Hash>): Promise<TransactionReceipt>;
}

/** What one simulated action did, for logs and for tests that compare runs. */
export interface ActionReport {
  action: string;
  [detail: string]: string | number | boolean;
}

/** One kind of action an activity can take now; weight 0 or absence means not possible. */
export interface ActionChoice {
  action: string;
  weight: number;
  run(): Promise<ActionReport>;
}

export interface Activity {
  /** Loads what already exists onchain (games, drops, markets) so the demo resumes around it. */
  init(): Promise<void>;
  /** Runs before every step, e.g. to answer randomness requests of earlier steps. */
  beforeStep?(): Promise<ActionReport[]>;
  choices(): ActionChoice[];
}

export function createContext(options: Omit<SimulationContext, "users" | "send">): SimulationContext {
  const users = Array.from(
    { length: DEV_ACCOUNT_COUNT - DEV_ACCOUNT_ROLES.firstUser },
    (_, i) => DEV_ACCOUNT_ROLES.firstUser + i,
  );
  return {
    ...options,
    users,
    send: async (hash) => waitForSuccess(options.clients.publicClient, await hash),
  };
}

export function addressOf(context: SimulationContext, index: number) {
  const account = context.clients.accounts[index];
  if (account === undefined) throw new Error(`no dev account ${index}`);
  return account.address;
}

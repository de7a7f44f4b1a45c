import type { ChainDeployment } from "@mkt/chain";
import { sql } from "kysely";
import { chainRoles } from "../chains/index.ts";
import type { Database, SqlConnection } from "../db/index.ts";
import { createLogApplier } from "../indexer/apply.ts";
import type { Projection } from "../indexer/projection.ts";
import type { DecodedLog } from "../indexer/range-reader.ts";
import { BatchStore, readColumns } from "../indexer/store.ts";

/**
 * A market deployment on chain 8453 with no chain behind it: its
 * RuntimeRegistry is at `registry` and its runtimes are r1 (version 1) and
 * r2 (version 2). Tests that need block times or block numbers no dev chain
 * gives write the registry scope's projection themselves (`seedRuntimes`).
 */
export function marketDeployment(registry = `0x${"e".repeat(40)}` as const): ChainDeployment {
  return {
    chainId: 8453,
    rpcUrl: "http://127.0.0.1:1",
    finalityDepth: 3,
    genesisHash: `0x${"0".repeat(64)}`,
    contracts: { RuntimeRegistry: { address: registry, startBlock: 1 } },
    runtimes: [
      { id: "r1", version: 1, contracts: { ClaimDrops: `0x${"1".repeat(40)}` }, startBlock: 1 },
      { id: "r2", version: 2, contracts: { ClaimDrops: `0x${"2".repeat(40)}` }, startBlock: 1 },
    ],
  };
}

/**
 * Writes what the indexer writes for each of the deployment's runtimes when
 * its registry's `RuntimeRegistered` is indexed (a `market_runtimes` row in
 * the registry's scope, registered at the runtime's start block), and
 * answers the scope. Drops and claims the test inserts then belong to a
 * runtime of the catalog when they carry this scope, the chain id and the
 * runtime's ClaimDrops address (`claimDropsOf`).
 */
export async function seedRuntimes(db: Database, deployment: ChainDeployment): Promise<string> {
  const market = chainRoles([deployment]).market;
  if (!market) throw new Error("the deployment has no market role (a RuntimeRegistry on chain 8453)");
  for (const runtime of deployment.runtimes) {
    await sql`INSERT INTO market_runtimes (scope, chain_id, runtime_id, version, registry, claim_drops,
        registered_block, registered_tx, registered_at)
      VALUES (${market.scope}, ${deployment.chainId}, ${runtime.id}, ${runtime.version}, ${market.registry.address},
        ${claimDropsOf(deployment, runtime.id)}, ${runtime.startBlock}, ${`0x${"a".repeat(63)}${runtime.version}`},
        ${new Date(Date.UTC(2026, 0, 1) + runtime.startBlock * 1000)})`.execute(db.kysely);
  }
  return market.scope;
}

/** The ClaimDrops address of a runtime of the deployment, lowercase (as the projection stores it). */
export function claimDropsOf(deployment: ChainDeployment, runtimeId: string): string {
  const address = deployment.runtimes.find((runtime) => runtime.id === runtimeId)?.contracts["ClaimDrops"];
  if (!address) throw new Error(`no runtime ${runtimeId} in the deployment`);
  return address.toLowerCase();
}

/**
 * Applies decoded logs through a projection's real write path on
 * `connection` (in the caller's transaction, if any), in batches as the
 * indexer writes ranges, every block final (no undo rows): for tests whose
 * logs no dev chain makes (block times, volumes).
 */
export async function projectLogs(
  connection: SqlConnection,
  projection: Projection,
  logs: readonly DecodedLog[],
  batch = 10_000,
) {
  const apply = createLogApplier(projection);
  const columns = await readColumns(connection);
  for (let from = 0; from < logs.length; from += batch) {
    const store = new BatchStore(connection, projection.id, null, columns);
    await apply(store, logs.slice(from, from + batch));
    await store.flush();
  }
}

/** A runtime's `Claimed` log, as the range reader decodes it. */
export function claimedLog(
  deployment: ChainDeployment,
  runtimeId: string,
  claim: {
    blockNumber: number;
    logIndex?: number;
    blockTime: Date;
    owner: string;
    dropId: bigint;
    quantity: bigint;
    paid: bigint;
    totalClaimed: bigint;
  },
): DecodedLog {
  const address = claimDropsOf(deployment, runtimeId);
  return {
    contract: { address, kind: "claims", label: runtimeId },
    log: {
      address,
      event: "Claimed",
      blockNumber: BigInt(claim.blockNumber),
      blockHash: `0x${claim.blockNumber.toString(16).padStart(64, "0")}`,
      blockTime: claim.blockTime,
      logIndex: claim.logIndex ?? 0,
      transactionHash: `0x${claim.blockNumber.toString(16).padStart(64, "c")}`,
      args: {
        dropId: claim.dropId,
        owner: claim.owner,
        quantity: claim.quantity,
        paid: claim.paid,
        totalClaimed: claim.totalClaimed,
      },
    },
  };
}

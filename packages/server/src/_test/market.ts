import type { ChainDeployment } from "@mkt/chain";
import { sql } from "kysely";
import { chainRoles } from "../chains/index.ts";
import type { Database } from "../db/index.ts";

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

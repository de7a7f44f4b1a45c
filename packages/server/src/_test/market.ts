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

/**
 * Recomputes the board's summaries (migration 0031) from the claims the
 * projection holds: the same statements the migration backfills with. For
 * tests that remove claims by hand (a missed log) and need the summaries to
 * match what remains.
 */
export async function rebuildBoardSummaries(connection: SqlConnection) {
  await connection.query("DELETE FROM market_board_holdings", []);
  await connection.query("DELETE FROM market_board_collectors", []);
  await connection.query(
    "UPDATE market_drops SET claims = 0, volume = 0, holders = 0, creator_holders = 0, chain_holders = 0, last_claim_at = NULL",
    [],
  );
  for (const statement of BOARD_SUMMARY_BACKFILL) await connection.query(statement, []);
}

/** Migration 0031's backfill of the board's summaries, statement by statement. */
const BOARD_SUMMARY_BACKFILL = [
  `ANALYZE market_claims`,
  `ANALYZE market_drops`,
  `INSERT INTO market_board_holdings (scope, chain_id, runtime_id, owner, drop_id, claims, packs, volume)
SELECT min(scope), chain_id, runtime_id, owner, drop_id, count(*), sum(quantity), sum(paid)
FROM market_claims
GROUP BY chain_id, runtime_id, owner, drop_id`,
  `UPDATE market_drops d
SET claims = s.claims, volume = s.volume, holders = s.holders, last_claim_at = s.last_claim_at
FROM (
  SELECT chain_id, runtime_id, drop_id, count(*) AS claims, sum(paid) AS volume,
         count(DISTINCT owner) AS holders, max(block_time) AS last_claim_at
  FROM market_claims
  GROUP BY chain_id, runtime_id, drop_id
) s
WHERE d.chain_id = s.chain_id AND d.runtime_id = s.runtime_id AND d.drop_id = s.drop_id`,
  `-- Each wallet's first claim from each creator, within a runtime and within the chain.
UPDATE market_drops d
SET creator_holders = s.n
FROM (
  SELECT chain_id, runtime_id, drop_id, count(*) AS n
  FROM (
    SELECT DISTINCT ON (c.chain_id, c.runtime_id, d.creator, c.owner) c.chain_id, c.runtime_id, c.drop_id
    FROM market_claims c
    JOIN market_drops d ON d.chain_id = c.chain_id AND d.runtime_id = c.runtime_id AND d.drop_id = c.drop_id
    ORDER BY c.chain_id, c.runtime_id, d.creator, c.owner, c.block_number, c.log_index
  ) firsts
  GROUP BY chain_id, runtime_id, drop_id
) s
WHERE d.chain_id = s.chain_id AND d.runtime_id = s.runtime_id AND d.drop_id = s.drop_id`,
  `UPDATE market_drops d
SET chain_holders = s.n
FROM (
  SELECT chain_id, runtime_id, drop_id, count(*) AS n
  FROM (
    SELECT DISTINCT ON (c.chain_id, d.creator, c.owner) c.chain_id, c.runtime_id, c.drop_id
    FROM market_claims c
    JOIN market_drops d ON d.chain_id = c.chain_id AND d.runtime_id = c.runtime_id AND d.drop_id = c.drop_id
    ORDER BY c.chain_id, d.creator, c.owner, c.block_number, c.log_index
  ) firsts
  GROUP BY chain_id, runtime_id, drop_id
) s
WHERE d.chain_id = s.chain_id AND d.runtime_id = s.runtime_id AND d.drop_id = s.drop_id`,
  `INSERT INTO market_board_collectors (scope, chain_id, runtime_id, owner, claims, packs, volume, drops, creators, last_claim_at)
SELECT min(c.scope), c.chain_id, r.runtime_id, c.owner, count(*), sum(c.quantity), sum(c.paid),
       count(DISTINCT c.runtime_id || ':' || c.drop_id::text), COALESCE(f.creators, '[]'::jsonb), max(c.block_time)
FROM market_claims c
CROSS JOIN LATERAL (VALUES (c.runtime_id), ('')) AS r (runtime_id)
LEFT JOIN (
  -- The creators a wallet claimed from, in the order of its first claim from each.
  SELECT chain_id, runtime_id, owner, jsonb_agg(creator ORDER BY block_number, log_index) AS creators
  FROM (
    SELECT DISTINCT ON (c.chain_id, r.runtime_id, c.owner, d.creator)
           c.chain_id, r.runtime_id, c.owner, d.creator, c.block_number, c.log_index
    FROM market_claims c
    CROSS JOIN LATERAL (VALUES (c.runtime_id), ('')) AS r (runtime_id)
    JOIN market_drops d ON d.chain_id = c.chain_id AND d.runtime_id = c.runtime_id AND d.drop_id = c.drop_id
    ORDER BY c.chain_id, r.runtime_id, c.owner, d.creator, c.block_number, c.log_index
  ) firsts
  GROUP BY chain_id, runtime_id, owner
) f ON f.chain_id = c.chain_id AND f.runtime_id = r.runtime_id AND f.owner = c.owner
GROUP BY c.chain_id, r.runtime_id, c.owner, f.creators`,
];

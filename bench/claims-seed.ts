// Seeds the claims benchmark: a market deployment whose registry scope the server serves without
// indexing (no chain), one runtime, its head, and claims of many owners, of which CLAIMS_PER_OWNER
// belong to the measured owner. Pages of GET /market/runtime/r1/claims read the seeded rows.
import type { ChainDeployment } from "../packages/chain/src/index.ts";
import { chainRoles } from "../packages/server/src/chains/index.ts";
import type { Database } from "../packages/server/src/db/index.ts";

export const BENCH_CLAIMS_OWNER = "0x00000000000000000000000000000000000c1a11";
const REGISTRY = "0x000000000000000000000000000000000000beef";
const CLAIM_DROPS = "0x000000000000000000000000000000000000c0de";
const CLAIMS_PER_OWNER = 100;
const OTHER_CLAIMS = 20_000;

/** A chain-8453 deployment of `contracts` the benchmark server serves without indexing (no chain behind it). */
export function benchDeployment(contracts: ChainDeployment["contracts"]): ChainDeployment {
  return {
    chainId: 8453,
    // Never called: the benchmark server does not index.
    rpcUrl: "http://127.0.0.1:9",
    finalityDepth: 2,
    genesisHash: `0x${"00".repeat(32)}`,
    contracts,
    runtimes: [],
  };
}

/** The indexer head of a seeded scope: block 100000 applied. */
export async function seedHead(
  connection: { query(text: string, params: unknown[]): Promise<unknown> },
  scope: string,
  deployment: ChainDeployment,
) {
  await connection.query(
    `INSERT INTO indexer_heads (scope, chain_id, genesis_hash, next_block, block_hash, revision, observed_head, observed_at)
     VALUES ($1, 8453, $2, 100001, $3, 42, 100001, now())`,
    [scope, deployment.genesisHash, `0x${"ab".repeat(32)}`],
  );
}

export async function seedClaims(db: Database): Promise<ChainDeployment> {
  const deployment = benchDeployment({ RuntimeRegistry: { address: REGISTRY, startBlock: 1 } });
  const scope = chainRoles([deployment]).market!.scope;
  await db.withConnection(async (connection) => {
    await seedHead(connection, scope, deployment);
    await connection.query(
      `INSERT INTO market_runtimes (scope, chain_id, runtime_id, version, registry, claim_drops, registered_block, registered_tx, registered_at)
       VALUES ($1, 8453, 'r1', 1, $2, $3, 1, $4, now())`,
      [scope, REGISTRY, CLAIM_DROPS, `0x${"01".repeat(32)}`],
    );
    // The owner's claims spread among everyone else's, one claim per block.
    const total = OTHER_CLAIMS + CLAIMS_PER_OWNER;
    const every = Math.floor(total / CLAIMS_PER_OWNER);
    await connection.query(
      `INSERT INTO market_claims (scope, chain_id, runtime_id, block_number, log_index, transaction_hash, block_time,
         contract, owner, drop_id, quantity, paid, total_claimed)
       SELECT $1, 8453, 'r1', n, 0, '0x' || lpad(to_hex(n), 64, '0'), now(), $2,
         CASE WHEN n % $4 = 0 THEN $3 ELSE '0x' || lpad(to_hex(n % 997), 40, '0') END,
         115792089237316195423570985008687907853269984665640564039457584007913129639935 - (n % 7), 1 + n % 5,
         100000000000000 * (1 + n % 5), n
       FROM generate_series(1, $5::int) AS n`,
      [scope, CLAIM_DROPS, BENCH_CLAIMS_OWNER, every, total],
    );
  });
  return deployment;
}

// The market's production volumes, for the scale benchmark (bench/scale/market.ts) and the market
// plan test (market/query-plans.test.ts): a runtime with 1,000,000 claims over 100 drops, 10,000
// releases, 100,000 accounts and 1,000,000 direct messages, times a scale.
//
// Rows are written in bulk (generate_series), each defined by a closed formula of its index that
// this module also states in TypeScript (`claimEvent`, …): `checkMarketSample` applies the real
// projection to the events those formulas give (and writes through the real services) and compares
// what they write with what the bulk load wrote.
import type { ChainDeployment } from "@mkt/chain";
import { chainRoles, type MarketRole } from "../../chains/index.ts";
import type { Database, SqlConnection } from "../../db/index.ts";
import { createLogApplier } from "../../indexer/apply.ts";
import { marketProjection } from "../../indexer/market-projection.ts";
import type { DecodedLog } from "../../indexer/range-reader.ts";
import { BatchStore, readColumns } from "../../indexer/store.ts";

/** The market's volumes at scale 1. */
export const MARKET_VOLUMES = {
  claims: 1_000_000,
  drops: 100,
  releases: 10_000,
  accounts: 100_000,
  dms: 1_000_000,
} as const;

export const VOLUME_REGISTRY = "0x5ca1e00000000000000000000000000000000001";
export const VOLUME_CLAIM_DROPS = "0x5ca1e000000000000000000000000000000000c1";
export const VOLUME_RUNTIME = "r1";
const CHAIN_ID = 8453;
const GENESIS = `0x${"00".repeat(32)}` as const;
/** Drops are created at blocks DROP_BLOCK + d; claims start at CLAIM_BLOCK, CLAIMS_PER_BLOCK per block. */
const DROP_BLOCK = 100;
const CLAIM_BLOCK = 1000;
const CLAIMS_PER_BLOCK = 4;
/** The claims span a year of block times, ending at the load. */
const HISTORY_MS = 365 * 86_400_000;
/** Every WHALE_EVERY-th claim belongs to account 0, the measured collector. */
const WHALE_EVERY = 100;

/** A deployment of the volume's registry, served without indexing (no chain behind it). */
export function volumeDeployment(): ChainDeployment {
  return {
    chainId: CHAIN_ID,
    // Never called: the volume is served without indexing.
    rpcUrl: "http://127.0.0.1:9",
    finalityDepth: 2,
    genesisHash: GENESIS,
    contracts: { RuntimeRegistry: { address: VOLUME_REGISTRY, startBlock: 1 } },
    runtimes: [],
  };
}

export function volumeRole(): MarketRole {
  const role = chainRoles([volumeDeployment()]).market;
  if (!role) throw new Error("the volume deployment has no market role");
  return role;
}

/** The counts of one load: every volume times `scale`, at least 1. */
export function marketCounts(scale: number) {
  const count = (base: number) => Math.max(1, Math.round(base * scale));
  return {
    claims: count(MARKET_VOLUMES.claims),
    drops: count(MARKET_VOLUMES.drops),
    releases: count(MARKET_VOLUMES.releases),
    // At least the 60 accounts the drops' creators are.
    accounts: Math.max(60, count(MARKET_VOLUMES.accounts)),
    dms: count(MARKET_VOLUMES.dms),
  };
}
export type MarketCounts = ReturnType<typeof marketCounts>;

/** Account i's wallet: account 0 is `measured` (a wallet that can sign in), the others synthetic. */
export const accountAddress = (i: number, measured: string) =>
  i === 0 ? measured.toLowerCase() : `0x5ca1e${i.toString(16).padStart(35, "0")}`;
const ACCOUNT_ADDRESS_SQL = (i: string, measured: string) =>
  `CASE WHEN ${i} = 0 THEN ${measured} ELSE '0x5ca1e' || lpad(to_hex(${i}), 35, '0') END`;

// Drops: drop d (1..drops) is created at block DROP_BLOCK + d by account creatorOf(d).
export const dropCreator = (d: number) => 10 + ((d - 1) % 50);
const dropPrice = (d: number) => 1_000_000_000_000_000n * BigInt(1 + (d % 5));
const dropMaxSupply = (d: number) => (d % 2 === 0 ? 0n : 1_000_000n);

// Claims: claim n (1..claims) is the k-th claim of drop ((n-1) % drops) + 1, k = floor((n-1)/drops)+1,
// of quantity 1 + (k-1) % 3, so the drop's running total after it is 6*floor(k/3) + r(r+1)/2, r = k % 3.
const claimBlock = (n: number) => CLAIM_BLOCK + Math.floor((n - 1) / CLAIMS_PER_BLOCK);
const totalAfter = (k: number) => 6 * Math.floor(k / 3) + ((k % 3) * ((k % 3) + 1)) / 2;
export const claimOwnerIndex = (n: number, counts: MarketCounts) =>
  n % WHALE_EVERY === 0 ? 0 : 1 + ((n * 7919) % (counts.accounts - 1));
/** Milliseconds between blocks: the claims' blocks spread over HISTORY_MS. */
const blockInterval = (counts: MarketCounts) =>
  Math.max(1000, Math.floor(HISTORY_MS / Math.max(1, claimBlock(counts.claims) - CLAIM_BLOCK + 1)));

/** The `Claimed` event of claim n, as the chain would log it. */
export function claimEvent(n: number, counts: MarketCounts, anchorMs: number, measured: string) {
  const drop = ((n - 1) % counts.drops) + 1;
  const k = Math.floor((n - 1) / counts.drops) + 1;
  const quantity = BigInt(1 + ((k - 1) % 3));
  const block = claimBlock(n);
  return {
    blockNumber: BigInt(block),
    logIndex: (n - 1) % CLAIMS_PER_BLOCK,
    transactionHash: `0x${n.toString(16).padStart(64, "0")}`,
    blockTime: new Date(anchorMs + (block - CLAIM_BLOCK) * blockInterval(counts)),
    args: {
      dropId: BigInt(drop),
      owner: accountAddress(claimOwnerIndex(n, counts), measured),
      quantity,
      paid: dropPrice(drop) * quantity,
      totalClaimed: BigInt(totalAfter(k)),
    },
  };
}

/** The `DropCreated` event of drop d. */
export function dropEvent(d: number, anchorMs: number, measured: string) {
  return {
    blockNumber: BigInt(DROP_BLOCK + d),
    logIndex: 0,
    transactionHash: `0x${"d".repeat(56)}${d.toString(16).padStart(8, "0")}`,
    blockTime: new Date(anchorMs - (CLAIM_BLOCK - DROP_BLOCK - d) * 1000),
    args: {
      dropId: BigInt(d),
      creator: accountAddress(dropCreator(d), measured),
      price: dropPrice(d),
      maxSupply: dropMaxSupply(d),
    },
  };
}

/** Block b's hash (no chain behind the volume: any fixed function of the number). */
export const blockHash = (b: bigint | number) => `0x${b.toString(16).padStart(64, "b")}`;
const BLOCK_HASH_SQL = (b: string) => `'0x' || lpad(to_hex(${b}), 64, 'b')`;

const REGISTERED = {
  blockNumber: 1n,
  logIndex: 0,
  transactionHash: `0x${"1".repeat(64)}`,
};

/** Claims, drops, the runtime, its ClaimDrops contract and the registry scope's head, in bulk. */
export async function loadMarketClaims(
  db: Database,
  {
    counts,
    measured,
    anchorMs,
    log,
  }: { counts: MarketCounts; measured: string; anchorMs: number; log(line: string): void },
) {
  const role = volumeRole();
  const scope = role.scope;
  const interval = blockInterval(counts);
  const anchor = new Date(anchorMs);
  await db.withConnection(async (connection) => {
    const lastBlock = claimBlock(counts.claims);
    await connection.query(
      `INSERT INTO indexer_heads (scope, chain_id, genesis_hash, next_block, block_hash, revision, observed_head, observed_at)
       VALUES ($1, $2, $3, $4, $5, 1, $4, now())`,
      [scope, CHAIN_ID, GENESIS, lastBlock + 1, `0x${"ab".repeat(32)}`],
    );
    await connection.query(
      `INSERT INTO indexer_contracts (scope, address, kind, parent, block_number, label)
       VALUES ($1, $2, 'claims', $3, $4, $5)`,
      [scope, VOLUME_CLAIM_DROPS, VOLUME_REGISTRY, REGISTERED.blockNumber.toString(), VOLUME_RUNTIME],
    );
    await connection.query(
      `INSERT INTO market_runtimes (scope, chain_id, runtime_id, version, registry, claim_drops, registered_block, registered_tx, registered_at)
       VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8)`,
      [
        scope,
        CHAIN_ID,
        VOLUME_RUNTIME,
        VOLUME_REGISTRY,
        VOLUME_CLAIM_DROPS,
        REGISTERED.blockNumber.toString(),
        REGISTERED.transactionHash,
        new Date(anchorMs - CLAIM_BLOCK * 1000),
      ],
    );
    log(`market: ${counts.drops} drops`);
    const creators = Array.from({ length: counts.drops }, (_, i) =>
      accountAddress(dropCreator(i + 1), measured),
    );
    await connection.query(
      `INSERT INTO market_drops (scope, chain_id, runtime_id, drop_id, contract, creator, price, max_supply, claimed,
         created_block, created_tx, updated_block)
       SELECT $1, $2, $3, d, $4, ($5::text[])[d], 1000000000000000 * (1 + d % 5), CASE WHEN d % 2 = 0 THEN 0 ELSE 1000000 END,
         -- k claims: floor((claims - d) / drops) + 1 when d <= claims
         CASE WHEN d > $6 THEN 0 ELSE 6 * (((($6 - d) / $7) + 1) / 3) + ((((($6 - d) / $7) + 1) % 3) * (((($6 - d) / $7) + 1) % 3 + 1)) / 2 END,
         $8 + d, '0x' || repeat('d', 56) || lpad(to_hex(d), 8, '0'),
         CASE WHEN d > $6 THEN $8 + d ELSE $9 + ((d + (($6 - d) / $7) * $7) - 1) / $10 END
       FROM generate_series(1, $7::int) AS d`,
      [
        scope,
        CHAIN_ID,
        VOLUME_RUNTIME,
        VOLUME_CLAIM_DROPS,
        creators,
        counts.claims,
        counts.drops,
        DROP_BLOCK,
        CLAIM_BLOCK,
        CLAIMS_PER_BLOCK,
      ],
    );
    // The registration and the drops' creation are recorded in chain_events, as the projection records them.
    await connection.query(
      `INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
       VALUES ($1, $2, 0, $3, $4, $5, $6, $7, 'RuntimeRegistered', $8)`,
      [
        scope,
        REGISTERED.blockNumber.toString(),
        CHAIN_ID,
        blockHash(REGISTERED.blockNumber),
        new Date(anchorMs - CLAIM_BLOCK * 1000),
        REGISTERED.transactionHash,
        VOLUME_REGISTRY,
        JSON.stringify({ id: VOLUME_RUNTIME, version: "1", claimDrops: VOLUME_CLAIM_DROPS }),
      ],
    );
    await connection.query(
      `INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
       SELECT $1, $2 + d, 0, $3, ${BLOCK_HASH_SQL("$2 + d")}, $4::timestamptz - make_interval(secs => $5 - $2 - d),
         '0x' || repeat('d', 56) || lpad(to_hex(d), 8, '0'), $6, 'DropCreated',
         jsonb_build_object('dropId', d::text, 'creator', ($7::text[])[d], 'price', (1000000000000000 * (1 + d % 5))::text,
           'maxSupply', CASE WHEN d % 2 = 0 THEN '0' ELSE '1000000' END)
       FROM generate_series(1, $8::int) AS d`,
      [scope, DROP_BLOCK, CHAIN_ID, anchor, CLAIM_BLOCK, VOLUME_CLAIM_DROPS, creators, counts.drops],
    );
    // Claims in slices, so one statement never holds the whole volume in memory.
    const SLICE = 250_000;
    for (let from = 1; from <= counts.claims; from += SLICE) {
      const to = Math.min(counts.claims, from + SLICE - 1);
      log(
        `market: claims ${from.toLocaleString("en")}..${to.toLocaleString("en")} of ${counts.claims.toLocaleString("en")}`,
      );
      await connection.query(
        `INSERT INTO market_claims (scope, chain_id, runtime_id, block_number, log_index, transaction_hash, block_time,
           contract, owner, drop_id, quantity, paid, total_claimed)
         SELECT $1, $2, $3, b, (n - 1) % $4, '0x' || lpad(to_hex(n), 64, '0'),
           $5::timestamptz + make_interval(secs => ((b - $6)::bigint * $7) / 1000.0),
           $8, ${ACCOUNT_ADDRESS_SQL(`CASE WHEN n % ${WHALE_EVERY} = 0 THEN 0 ELSE 1 + ((n::bigint * 7919) % ($9 - 1)) END`, "$10")},
           d, q, 1000000000000000 * (1 + d % 5) * q, 6 * (k / 3) + ((k % 3) * (k % 3 + 1)) / 2
         FROM generate_series($11::int, $12::int) AS n,
           LATERAL (SELECT $6 + (n - 1) / $4 AS b, ((n - 1) % $13) + 1 AS d, ((n - 1) / $13) + 1 AS k) AS p,
           LATERAL (SELECT 1 + (k - 1) % 3 AS q) AS r`,
        [
          scope,
          CHAIN_ID,
          VOLUME_RUNTIME,
          CLAIMS_PER_BLOCK,
          anchor,
          CLAIM_BLOCK,
          interval,
          VOLUME_CLAIM_DROPS,
          counts.accounts,
          measured.toLowerCase(),
          from,
          to,
          counts.drops,
        ],
      );
    }
  });
}

type Json = Record<string, unknown>;

const rowsOf = async (connection: SqlConnection, sql: string, params: readonly unknown[]) =>
  (await connection.query<{ row: Json }>(sql, [...params])).rows.map((r) => r.row);

/** The loaded claims' anchor: the block time of the first claim's block. */
async function claimsAnchor(connection: SqlConnection): Promise<number> {
  const { rows } = await connection.query<{ t: Date }>(
    "SELECT block_time AS t FROM market_claims WHERE chain_id = $1 AND block_number = $2 AND log_index = 0",
    [CHAIN_ID, CLAIM_BLOCK],
  );
  if (!rows[0]) throw new Error("no claim at the first claim block: the claims were not loaded");
  return new Date(rows[0].t).getTime();
}

/**
 * Applies the real market projection to the registration, one drop's
 * `DropCreated` and every `Claimed` of that drop (the events the formulas
 * define), in a transaction where the loaded rows of that runtime and drop
 * were deleted first, and throws unless what it writes equals what the bulk
 * load wrote. Rolled back: the load is left as it was.
 */
export async function checkMarketClaimsSample(
  db: Database,
  { counts, measured, drop = counts.drops }: { counts: MarketCounts; measured: string; drop?: number },
) {
  const role = volumeRole();
  const projection = marketProjection(role);
  const apply = createLogApplier(projection);
  await db.withConnection(async (connection) => {
    const anchorMs = await claimsAnchor(connection);
    const columns = await readColumns(connection);
    const key = [CHAIN_ID, VOLUME_RUNTIME, String(drop)];
    const select = {
      runtime: [
        "SELECT to_jsonb(t) AS row FROM market_runtimes t WHERE chain_id = $1 AND runtime_id = $2",
        [CHAIN_ID, VOLUME_RUNTIME],
      ],
      drop: [
        "SELECT to_jsonb(t) AS row FROM market_drops t WHERE chain_id = $1 AND runtime_id = $2 AND drop_id = $3",
        key,
      ],
      events: [
        "SELECT to_jsonb(t) AS row FROM chain_events t WHERE scope = $1 AND block_number IN ($2, $3) ORDER BY block_number",
        [projection.id, REGISTERED.blockNumber.toString(), DROP_BLOCK + drop],
      ],
      claims: [
        "SELECT to_jsonb(t) AS row FROM market_claims t WHERE chain_id = $1 AND runtime_id = $2 AND drop_id = $3 ORDER BY block_number, log_index",
        key,
      ],
    } as const;
    const read = async () => ({
      runtime: await rowsOf(connection, ...select.runtime),
      drop: await rowsOf(connection, ...select.drop),
      events: await rowsOf(connection, ...select.events),
      claims: await rowsOf(connection, ...select.claims),
    });
    const loaded = await read();
    if (loaded.drop.length !== 1) throw new Error(`drop ${drop} was not loaded`);
    await connection.query("BEGIN", []);
    try {
      await connection.query(
        "DELETE FROM market_claims WHERE chain_id = $1 AND runtime_id = $2 AND drop_id = $3",
        key,
      );
      await connection.query(
        "DELETE FROM market_drops WHERE chain_id = $1 AND runtime_id = $2 AND drop_id = $3",
        key,
      );
      await connection.query(
        "DELETE FROM market_runtimes WHERE chain_id = $1 AND runtime_id = $2",
        key.slice(0, 2),
      );
      await connection.query("DELETE FROM chain_events WHERE scope = $1 AND block_number IN ($2, $3)", [
        projection.id,
        REGISTERED.blockNumber.toString(),
        DROP_BLOCK + drop,
      ]);
      const registry = { address: VOLUME_REGISTRY, kind: "registry" };
      const claims = {
        address: VOLUME_CLAIM_DROPS,
        kind: "claims",
        parent: VOLUME_REGISTRY,
        label: VOLUME_RUNTIME,
      };
      const logs: DecodedLog[] = [
        {
          contract: registry,
          log: {
            ...REGISTERED,
            address: VOLUME_REGISTRY,
            event: "RuntimeRegistered",
            blockHash: blockHash(REGISTERED.blockNumber),
            blockTime: new Date(anchorMs - CLAIM_BLOCK * 1000),
            args: { id: VOLUME_RUNTIME, version: 1n, claimDrops: VOLUME_CLAIM_DROPS },
          },
        },
        {
          contract: claims,
          log: {
            ...dropEvent(drop, anchorMs, measured),
            address: VOLUME_CLAIM_DROPS,
            event: "DropCreated",
            blockHash: blockHash(DROP_BLOCK + drop),
          },
        },
      ];
      for (let n = drop; n <= counts.claims; n += counts.drops) {
        logs.push({
          contract: claims,
          log: {
            ...claimEvent(n, counts, anchorMs, measured),
            address: VOLUME_CLAIM_DROPS,
            event: "Claimed",
            blockHash: "",
          },
        });
      }
      // Every block final: the projection writes no undo rows.
      const store = new BatchStore(connection, projection.id, null, columns);
      await apply(store, logs);
      await store.flush();
      const projected = await read();
      for (const part of ["runtime", "drop", "events", "claims"] as const) {
        const expected = JSON.stringify(projected[part]);
        const actual = JSON.stringify(loaded[part]);
        if (expected !== actual) {
          throw new Error(
            `the loaded ${part} of drop ${drop} differ from what the market projection writes:\nprojection ${expected.slice(0, 2000)}\nloaded     ${actual.slice(0, 2000)}`,
          );
        }
      }
    } finally {
      await connection.query("ROLLBACK", []);
    }
  });
}

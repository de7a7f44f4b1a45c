// The market's production volumes, for the scale benchmark (bench/scale/market.ts) and the market
// plan test (market/query-plans.test.ts): a runtime with 1,000,000 claims over 100 drops, 10,000
// releases, 100,000 accounts and 1,000,000 direct messages, times a scale.
//
// Rows are written in bulk (generate_series), each defined by a closed formula of its index that
// this module also states in TypeScript (`claimEvent`, …): `checkMarketSample` applies the real
// projection to the events those formulas give (and writes through the real services) and compares
// what they write with what the bulk load wrote.

import { randomUUID } from "node:crypto";
import type { ChainDeployment } from "@mkt/chain";
import {
  parseReleaseAction,
  type ReleaseActionInput,
  type ReleaseStatus,
  type RevisionAction,
  releaseActionMessage,
  releaseDraftSchema,
} from "@mkt/protocol";
import { chainRoles, type MarketRole } from "../../chains/index.ts";
import type { Database, SqlConnection } from "../../db/index.ts";
import { demoReleaseDraft } from "../../demo/index.ts";
import { accountForSignIn } from "../../identity/index.ts";
import { marketProjection } from "../../indexer/market-projection.ts";
import type { DecodedLog } from "../../indexer/range-reader.ts";
import { artworkChanges, artworkSourceOf } from "../../market/releases/artwork.ts";
import { createReleaseService } from "../../market/releases/service.ts";
import { createDmService } from "../../market/social/dms.ts";
import { createFollowService } from "../../market/social/follows.ts";
import { createCursorSigner } from "../../paging/index.ts";
import { testEnvelopeChecks, testWallet } from "../accounts.ts";
import { projectLogs, rebuildBoardSummaries } from "../market.ts";

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

// Drops: drop d (1..drops) is created at block DROP_BLOCK + d by account dropCreator(d).
export const dropCreator = (d: number) => (d - 1) % 50;
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
    log("market: the board's summaries (holdings, collectors, drops' claim figures)");
    await rebuildBoardSummaries(connection);
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

/** Logs of the volume as the range reader decodes them, to hand to the real projection. */
function volumeLogs(counts: MarketCounts, anchorMs: number, measured: string) {
  const registry = { address: VOLUME_REGISTRY, kind: "registry" };
  const claims = {
    address: VOLUME_CLAIM_DROPS,
    kind: "claims",
    parent: VOLUME_REGISTRY,
    label: VOLUME_RUNTIME,
  };
  return {
    registered: (): DecodedLog => ({
      contract: registry,
      log: {
        ...REGISTERED,
        address: VOLUME_REGISTRY,
        event: "RuntimeRegistered",
        blockHash: blockHash(REGISTERED.blockNumber),
        blockTime: new Date(anchorMs - CLAIM_BLOCK * 1000),
        args: { id: VOLUME_RUNTIME, version: 1n, claimDrops: VOLUME_CLAIM_DROPS },
      },
    }),
    dropCreated: (d: number): DecodedLog => ({
      contract: claims,
      log: {
        ...dropEvent(d, anchorMs, measured),
        address: VOLUME_CLAIM_DROPS,
        event: "DropCreated",
        blockHash: blockHash(DROP_BLOCK + d),
      },
    }),
    claimed: (n: number): DecodedLog => ({
      contract: claims,
      // Claims are recorded without their block's hash.
      log: {
        ...claimEvent(n, counts, anchorMs, measured),
        address: VOLUME_CLAIM_DROPS,
        event: "Claimed",
        blockHash: "",
      },
    }),
  };
}

/** Applies logs through the real market projection on `connection`, in the caller's transaction. */
const project = (connection: SqlConnection, logs: readonly DecodedLog[]) =>
  projectLogs(connection, marketProjection(volumeRole()), logs);

/** Rows as JSON, read on one connection. */
async function readRows(
  connection: SqlConnection,
  queries: Record<string, readonly [string, readonly unknown[]]>,
) {
  const out: Record<string, Json[]> = {};
  for (const [name, [sql, params]] of Object.entries(queries))
    out[name] = await rowsOf(connection, sql, params);
  return out;
}

function expectProjected(what: string, projected: Record<string, Json[]>, loaded: Record<string, Json[]>) {
  for (const part of Object.keys(loaded)) {
    const expected = JSON.stringify(projected[part]);
    const actual = JSON.stringify(loaded[part]);
    if (expected !== actual)
      throw new Error(
        `the loaded ${part} (${what}) differ from what the market projection writes:\nprojection ${expected.slice(0, 2000)}\nloaded     ${actual.slice(0, 2000)}`,
      );
    if (loaded[part]!.length === 0) throw new Error(`no loaded ${part} to compare (${what})`);
  }
}

/**
 * Checks the bulk load against the real market projection, in transactions
 * rolled back after (the load is left as it was):
 *
 * - one creator: the registration, the creator's `DropCreated` and every
 *   `Claimed` of its drops (the events the formulas define) are applied
 *   where the loaded rows they make were deleted (and the creator taken out
 *   of its collectors' creator lists); the runtime, drops (with their claim
 *   figures), recorded events, claims and holdings must equal the load's;
 * - a few wallets: every `Claimed` of theirs is applied where their claims,
 *   holdings and collector rows were deleted; those must equal the load's.
 */
export async function checkMarketClaimsSample(
  db: Database,
  { counts, measured }: { counts: MarketCounts; measured: string },
) {
  const scope = volumeRole().scope;
  await db.withConnection(async (connection) => {
    const anchorMs = await claimsAnchor(connection);
    const logs = volumeLogs(counts, anchorMs, measured);
    const inTransaction = async (fn: () => Promise<void>) => {
      await connection.query("BEGIN", []);
      try {
        await fn();
      } finally {
        await connection.query("ROLLBACK", []);
      }
    };

    // One creator: the creator of the last drop, and every drop of theirs.
    const creator = dropCreator(counts.drops);
    const drops = Array.from({ length: counts.drops }, (_, i) => i + 1).filter(
      (d) => dropCreator(d) === creator,
    );
    const dropIds = drops.map(String);
    const creatorRows = {
      runtime: [
        "SELECT to_jsonb(t) AS row FROM market_runtimes t WHERE chain_id = $1 AND runtime_id = $2",
        [CHAIN_ID, VOLUME_RUNTIME],
      ],
      drops: [
        "SELECT to_jsonb(t) AS row FROM market_drops t WHERE chain_id = $1 AND runtime_id = $2 AND drop_id = ANY($3::numeric[]) ORDER BY drop_id",
        [CHAIN_ID, VOLUME_RUNTIME, dropIds],
      ],
      events: [
        "SELECT to_jsonb(t) AS row FROM chain_events t WHERE scope = $1 AND (block_number = $2 OR block_number - $3 = ANY($4::bigint[])) ORDER BY block_number",
        [scope, REGISTERED.blockNumber.toString(), DROP_BLOCK, dropIds],
      ],
      claims: [
        "SELECT to_jsonb(t) AS row FROM market_claims t WHERE chain_id = $1 AND runtime_id = $2 AND drop_id = ANY($3::numeric[]) ORDER BY block_number, log_index",
        [CHAIN_ID, VOLUME_RUNTIME, dropIds],
      ],
      holdings: [
        "SELECT to_jsonb(t) AS row FROM market_board_holdings t WHERE chain_id = $1 AND runtime_id = $2 AND drop_id = ANY($3::numeric[]) ORDER BY owner, drop_id",
        [CHAIN_ID, VOLUME_RUNTIME, dropIds],
      ],
    } as const;
    const loaded = await readRows(connection, creatorRows);
    await inTransaction(async () => {
      const address = accountAddress(creator, measured);
      await connection.query(
        `UPDATE market_board_collectors SET creators = creators - $1::text
         WHERE owner IN (SELECT owner FROM market_claims WHERE chain_id = $2 AND runtime_id = $3 AND drop_id = ANY($4::numeric[]))`,
        [address, CHAIN_ID, VOLUME_RUNTIME, dropIds],
      );
      for (const table of ["market_claims", "market_board_holdings", "market_drops"])
        await connection.query(
          `DELETE FROM ${table} WHERE chain_id = $1 AND runtime_id = $2 AND drop_id = ANY($3::numeric[])`,
          [CHAIN_ID, VOLUME_RUNTIME, dropIds],
        );
      await connection.query("DELETE FROM market_runtimes WHERE chain_id = $1 AND runtime_id = $2", [
        CHAIN_ID,
        VOLUME_RUNTIME,
      ]);
      await connection.query(
        "DELETE FROM chain_events WHERE scope = $1 AND (block_number = $2 OR block_number - $3 = ANY($4::bigint[]))",
        [scope, REGISTERED.blockNumber.toString(), DROP_BLOCK, dropIds],
      );
      const applied = [logs.registered(), ...drops.map(logs.dropCreated)];
      // Chain order: claim n precedes claim n + 1.
      for (let n = 1; n <= counts.claims; n++)
        if (drops.includes(((n - 1) % counts.drops) + 1)) applied.push(logs.claimed(n));
      await project(connection, applied);
      expectProjected(`the drops of creator ${address}`, await readRows(connection, creatorRows), loaded);
    });

    // A few wallets: the measured collector and two others, every claim of theirs.
    const owners = [0, 1, Math.floor(counts.accounts / 2) + 1];
    const addresses = owners.map((i) => accountAddress(i, measured));
    const ownerRows = {
      claims: [
        "SELECT to_jsonb(t) AS row FROM market_claims t WHERE chain_id = $1 AND runtime_id = $2 AND owner = ANY($3::text[]) ORDER BY block_number, log_index",
        [CHAIN_ID, VOLUME_RUNTIME, addresses],
      ],
      holdings: [
        "SELECT to_jsonb(t) AS row FROM market_board_holdings t WHERE chain_id = $1 AND owner = ANY($2::text[]) ORDER BY runtime_id, owner, drop_id",
        [CHAIN_ID, addresses],
      ],
      collectors: [
        "SELECT to_jsonb(t) AS row FROM market_board_collectors t WHERE chain_id = $1 AND owner = ANY($2::text[]) ORDER BY runtime_id, owner",
        [CHAIN_ID, addresses],
      ],
    } as const;
    const loadedOwners = await readRows(connection, ownerRows);
    await inTransaction(async () => {
      for (const table of ["market_claims", "market_board_holdings", "market_board_collectors"])
        await connection.query(`DELETE FROM ${table} WHERE chain_id = $1 AND owner = ANY($2::text[])`, [
          CHAIN_ID,
          addresses,
        ]);
      const applied: DecodedLog[] = [];
      for (let n = 1; n <= counts.claims; n++)
        if (owners.includes(claimOwnerIndex(n, counts))) applied.push(logs.claimed(n));
      await project(connection, applied);
      expectProjected(
        `the claims of ${addresses.join(", ")}`,
        await readRows(connection, ownerRows),
        loadedOwners,
      );
    });
  });
}

// Accounts, follows, releases and direct messages ------------------------------------------------

/** Account i's id, as `newId("acct")` shapes it: the prefix and 20 hex digits. */
export const accountId = (i: number) => `acct_${i.toString(16).padStart(20, "0")}`;
const ACCOUNT_ID_SQL = (i: string) => `'acct_' || lpad(to_hex(${i}), 20, '0')`;
/** The measured creator: account 0 (drop 1's creator, owner of every 50th release). */
export const MEASURED_CREATOR = 0;
/** Account 0 follows accounts 1..followingOf0; every even account follows account 0; i follows i+1. */
const followingOf0 = (counts: MarketCounts) =>
  Math.min(counts.accounts - 1, Math.max(1, Math.round(counts.accounts / 20)));
/** Direct-message threads: a ring (account t with t+1) and a star around account 0 (with 2..stars+1). */
export const dmStars = (counts: MarketCounts) =>
  Math.min(counts.accounts - 3, Math.max(1, Math.round(counts.accounts / 20)));
export const dmThreadId = (t: number) => `dm_${t.toString(16).padStart(20, "0")}`;

/** Release r (0-based): owned by creator r % 50, of the status its index gives. */
export function releaseOf(r: number, counts: MarketCounts, anchorMs: number) {
  const owner = MEASURED_CREATOR + (r % 50);
  // Drafts and cancellations among them; the first releases of a drop's creator are linked to it (live).
  const status: ReleaseStatus =
    r % 20 === 0 ? "draft" : r % 20 === 1 ? "cancelled" : r < counts.drops ? "live" : "announced";
  const base = demoReleaseDraft(r);
  const draft = releaseDraftSchema.parse({ ...base, name: `${base.name} ${r + 1}` });
  return {
    id: `rel_${(r + 1).toString(16).padStart(20, "0")}`,
    owner,
    status,
    draft,
    launchAt: status === "draft" ? null : anchorMs + HISTORY_MS + 7 * 86_400_000 + r * 60_000,
    version: status === "live" ? VOLUME_RUNTIME : null,
    dropId: status === "live" ? String(r + 1) : null,
    actions: (status === "draft"
      ? ["create"]
      : status === "announced"
        ? ["create", "announce"]
        : status === "live"
          ? ["create", "announce", "link"]
          : ["create", "announce", "cancel"]) as RevisionAction[],
    updatedAt: new Date(anchorMs + Math.floor((r * HISTORY_MS) / Math.max(1, counts.releases))),
  };
}

/** Accounts and their wallets, follows, releases with their revisions, DM threads and messages. */
export async function loadMarketSocial(
  db: Database,
  {
    counts,
    measured,
    anchorMs,
    log,
  }: { counts: MarketCounts; measured: string; anchorMs: number; log(line: string): void },
) {
  const anchor = new Date(anchorMs);
  await db.withConnection(async (connection) => {
    log(`market: ${counts.accounts.toLocaleString("en")} accounts`);
    await connection.query(
      `INSERT INTO accounts (id, primary_address, username, created_at, updated_at)
       SELECT ${ACCOUNT_ID_SQL("i")}, ${ACCOUNT_ADDRESS_SQL("i", "$2")}, NULL, t, t
       FROM generate_series(0, $1::int - 1) AS i, LATERAL (SELECT $3::timestamptz + make_interval(secs => i) AS t) AS c`,
      [counts.accounts, measured.toLowerCase(), anchor],
    );
    await connection.query(
      `INSERT INTO account_wallets (address, account_id, linked_at)
       SELECT primary_address, id, created_at FROM accounts`,
      [],
    );
    log("market: follows");
    // In bulk: the counts the trigger keeps row by row are written once, by the same definition.
    await connection.query("ALTER TABLE follows DISABLE TRIGGER account_follow_counts_track", []);
    await connection.query(
      `INSERT INTO follows (follower_id, followee_id, created_at)
       SELECT ${ACCOUNT_ID_SQL("i")}, ${ACCOUNT_ID_SQL("0")}, $2::timestamptz + make_interval(secs => 10 * i)
         FROM generate_series(2, $1::int - 1, 2) AS i
       UNION ALL
       SELECT ${ACCOUNT_ID_SQL("0")}, ${ACCOUNT_ID_SQL("i")}, $2::timestamptz + make_interval(secs => 10 * i + 1)
         FROM generate_series(1, $3::int) AS i
       UNION ALL
       SELECT ${ACCOUNT_ID_SQL("i")}, ${ACCOUNT_ID_SQL("i + 1")}, $2::timestamptz + make_interval(secs => 10 * i + 2)
         FROM generate_series(1, $1::int - 2) AS i`,
      [counts.accounts, anchor, followingOf0(counts)],
    );
    await connection.query(
      `INSERT INTO account_follow_counts (account_id, followers, following)
       SELECT account_id, sum(followers), sum(following)
       FROM (SELECT followee_id AS account_id, 1 AS followers, 0 AS following FROM follows
             UNION ALL SELECT follower_id, 0, 1 FROM follows) f
       GROUP BY account_id`,
      [],
    );
    await connection.query("ALTER TABLE follows ENABLE TRIGGER account_follow_counts_track", []);

    log(`market: ${counts.releases.toLocaleString("en")} releases`);
    const BATCH = 500;
    for (let from = 0; from < counts.releases; from += BATCH) {
      const releases = [];
      const revisions: Json[] = [];
      for (let r = from; r < Math.min(counts.releases, from + BATCH); r++) {
        const release = releaseOf(r, counts, anchorMs);
        releases.push({
          id: release.id,
          owner_id: accountId(release.owner),
          status: release.status,
          revision: release.actions.length,
          draft: release.draft,
          launch_at: release.launchAt,
          version: release.version,
          drop_id: release.dropId,
          seq: r + 1,
          created_at: release.updatedAt,
          updated_at: release.updatedAt,
        });
        const artwork = artworkSourceOf(release.draft);
        release.actions.forEach((action, index) => {
          const changes = artworkChanges(index === 0 ? undefined : artwork, artwork);
          revisions.push({
            release_id: release.id,
            revision: index + 1,
            action,
            status: index === 0 ? "draft" : action === "announce" ? "announced" : release.status,
            changes,
            artwork,
            artwork_changed: changes.fields.length > 0,
            updated_at: release.updatedAt,
          });
        });
      }
      await connection.query(
        "INSERT INTO releases SELECT * FROM json_populate_recordset(NULL::releases, $1::json)",
        [JSON.stringify(releases)],
      );
      await connection.query(
        "INSERT INTO release_revisions SELECT * FROM json_populate_recordset(NULL::release_revisions, $1::json)",
        [JSON.stringify(revisions)],
      );
    }
    await connection.query("SELECT setval('releases_seq', $1::bigint)", [counts.releases]);

    const stars = dmStars(counts);
    log(
      `market: ${(counts.accounts + stars).toLocaleString("en")} DM threads, ${counts.dms.toLocaleString("en")} messages`,
    );
    // Thread t < accounts: account t with t + 1 (the last with account 0); then account 0 with 2..stars+1.
    await connection.query(
      `INSERT INTO dm_threads (id, account_a, account_b, created_at)
       SELECT 'dm_' || lpad(to_hex(t), 20, '0'), ${ACCOUNT_ID_SQL("least(x, y)")}, ${ACCOUNT_ID_SQL("greatest(x, y)")}, $3::timestamptz
       FROM generate_series(0, $1::int + $2::int - 1) AS t,
         LATERAL (SELECT CASE WHEN t < $1 THEN t ELSE 0 END AS x,
                         CASE WHEN t < $1 THEN (t + 1) % $1 ELSE t - $1 + 2 END AS y) AS p`,
      [counts.accounts, stars, anchor],
    );
    // Message m: every 10th in thread 0 (accounts 0 and 1), every 20th from the 1st in a star thread,
    // the others in ring thread m % accounts; sent by one side or the other every 10 messages.
    const SLICE = 250_000;
    for (let from = 1; from <= counts.dms; from += SLICE) {
      const to = Math.min(counts.dms, from + SLICE - 1);
      log(`market: messages ${from.toLocaleString("en")}..${to.toLocaleString("en")}`);
      await connection.query(
        `INSERT INTO dm_messages (id, thread_id, sender_id, sender_wallet, body, created_at)
         SELECT m, 'dm_' || lpad(to_hex(t), 20, '0'), ${ACCOUNT_ID_SQL("s")}, ${ACCOUNT_ADDRESS_SQL("s", "$4")},
           'message ' || m, $5::timestamptz + make_interval(secs => (m::bigint * $6) / 1000.0)
         FROM generate_series($1::int, $2::int) AS m,
           LATERAL (SELECT CASE WHEN m % 10 = 0 THEN 0 WHEN m % 20 = 1 THEN $3 + (m / 20) % $7 ELSE m % $3 END AS t) AS p,
           LATERAL (SELECT CASE WHEN t < $3 THEN t ELSE 0 END AS x,
                           CASE WHEN t < $3 THEN (t + 1) % $3 ELSE t - $3 + 2 END AS y) AS q,
           LATERAL (SELECT CASE WHEN (m / 10) % 2 = 0 THEN x ELSE y END AS s) AS r`,
        [
          from,
          to,
          counts.accounts,
          measured.toLowerCase(),
          anchor,
          Math.floor(HISTORY_MS / counts.dms),
          stars,
        ],
      );
    }
    await connection.query("SELECT setval('dm_messages_id_seq', $1::bigint)", [counts.dms]);
    // What the service keeps on the thread: its newest message, and each side's seen mark (all read,
    // but the measured account's thread 0 (its 20 newest) and every 10th star thread (all)).
    await connection.query(
      `UPDATE dm_threads t SET last_message_id = s.last_id, last_message_at = s.last_at, created_at = s.first_at,
         seen_a = CASE WHEN t.id = 'dm_' || lpad('0', 20, '0') THEN s.last_id - 200
                       WHEN t.account_a = ${ACCOUNT_ID_SQL("0")} AND right(t.id, 1) = '0' THEN 0 ELSE s.last_id END,
         seen_b = s.last_id
       FROM (SELECT thread_id, max(id) AS last_id, max(created_at) AS last_at, min(created_at) AS first_at
             FROM dm_messages GROUP BY thread_id) s
       WHERE s.thread_id = t.id`,
      [],
    );
    // Each side's unread count: the messages the other side sent after its seen mark.
    await connection.query(
      `UPDATE dm_threads t SET unread_a = u.a, unread_b = u.b
       FROM (SELECT m.thread_id,
               count(*) FILTER (WHERE m.id > s.seen_a AND m.sender_id <> s.account_a) AS a,
               count(*) FILTER (WHERE m.id > s.seen_b AND m.sender_id <> s.account_b) AS b
             FROM dm_messages m JOIN dm_threads s ON s.id = m.thread_id
             WHERE m.id > least(s.seen_a, s.seen_b)
             GROUP BY m.thread_id) u
       WHERE u.thread_id = t.id`,
      [],
    );
    // A thread without messages was never created: the service creates one with its first message.
    await connection.query("DELETE FROM dm_threads WHERE last_message_id = 0", []);
  });
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** A row as its JSON (numerics and times as the server's own text), keys sorted. */
const normal = (row: Json) => Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)));

function expectSame(what: string, service: unknown, loaded: unknown) {
  if (!sameJson(service, loaded))
    throw new Error(
      `the loaded ${what} differ from what the service writes:\nservice ${JSON.stringify(service).slice(0, 2000)}\nloaded  ${JSON.stringify(loaded).slice(0, 2000)}`,
    );
}

/**
 * Writes a sample through the real services into `scratch` (a migrated,
 * empty database): two accounts signing in, a follow, a direct message each
 * way, a release created and announced; and throws unless the loaded rows
 * have the shape the services give theirs (columns, id forms, defaults) and
 * keep the invariants they keep (a thread's newest message and seen marks,
 * a message's sender wallet, a release's revisions), on a sample of the load.
 */
export async function checkMarketSocialSample(
  db: Database,
  scratch: Database,
  { counts, now = Date.now() }: { counts: MarketCounts; now?: number },
) {
  const clock = { now: () => now };
  const cursors = createCursorSigner(Buffer.alloc(32, 7));
  const [one, two] = [testWallet(1), testWallet(2)];
  const ids = await scratch.kysely
    .transaction()
    .execute(async (tx) => [
      await accountForSignIn(tx, one.address.toLowerCase()),
      await accountForSignIn(tx, two.address.toLowerCase()),
    ]);
  const actor = (i: 0 | 1) => ({ accountId: ids[i]!, wallet: [one, two][i]!.address.toLowerCase() });
  await createFollowService({ db: scratch, clock, cursors }).follow(actor(0), actor(1).wallet);
  const dms = createDmService({ db: scratch, clock, cursors });
  await dms.send(actor(0), actor(1).wallet, "message 1");
  await dms.send(actor(1), actor(0).wallet, "message 2");
  // An announced release of the load, made again through the release service's signed actions.
  const r = Array.from({ length: counts.releases }, (_, i) => counts.releases - 1 - i).find(
    (i) => releaseOf(i, counts, 0).status === "announced",
  );
  const releases = createReleaseService({
    db: scratch,
    clock,
    envelopes: testEnvelopeChecks(scratch, clock),
    runtimes: { exists: async () => false, dropCreator: async () => undefined },
    bump: async () => {},
    cursors,
  });

  const query = async (on: Database, sql: string, params: unknown[] = []) =>
    (await on.withConnection((c) => c.query<{ row: Json }>(sql, params))).rows.map((x) => normal(x.row));
  const one_ = async (on: Database, sql: string, params: unknown[] = []) => {
    const [row] = await query(on, sql, params);
    if (!row) throw new Error(`no row for ${sql}`);
    return row;
  };

  // Accounts and wallets: the columns and defaults sign-in gives, the id's form.
  const serviceAccount = await one_(scratch, "SELECT to_jsonb(a) AS row FROM accounts a WHERE id = $1", [
    ids[0],
  ]);
  const loadedAccount = await one_(db, "SELECT to_jsonb(a) AS row FROM accounts a WHERE id = $1", [
    accountId(5),
  ]);
  const accountShape = (row: Json) => ({
    columns: Object.keys(row),
    id: /^acct_[0-9a-f]{20}$/.test(String(row["id"])),
    address: /^0x[0-9a-f]{40}$/.test(String(row["primary_address"])),
    defaults: [row["username"], row["bio"], row["dm_policy"], row["referred_by"]],
  });
  expectSame("accounts", accountShape(serviceAccount), accountShape(loadedAccount));
  const walletOf = async (on: Database, id: unknown) =>
    one_(on, "SELECT to_jsonb(w) - 'linked_at' AS row FROM account_wallets w WHERE account_id = $1", [id]);
  expectSame(
    "account wallets",
    (await walletOf(scratch, ids[0]))["address"] === serviceAccount["primary_address"],
    (await walletOf(db, accountId(5)))["address"] === loadedAccount["primary_address"],
  );

  // Follows: the same columns.
  const followColumns = async (on: Database) =>
    Object.keys(await one_(on, "SELECT to_jsonb(f) AS row FROM follows f LIMIT 1"));
  expectSame("follows", await followColumns(scratch), await followColumns(db));
  // Follow counts: what the trigger keeps for the service's follow, and for the loaded accounts the
  // number of their follows.
  const countsOf = async (on: Database, ids: string[]) =>
    query(
      on,
      `SELECT jsonb_build_object('kept', to_jsonb(c) - 'account_id',
         'counted', jsonb_build_object('followers', (SELECT count(*) FROM follows WHERE followee_id = a.id),
                                       'following', (SELECT count(*) FROM follows WHERE follower_id = a.id))) AS row
       FROM unnest($1::text[]) AS a (id) LEFT JOIN account_follow_counts c ON c.account_id = a.id ORDER BY a.id`,
      [ids],
    );
  const keptEqualsCounted = (rows: Json[]) =>
    rows.every(
      (row) =>
        sameJson(row["kept"], row["counted"]) ||
        (row["kept"] === null && sameJson(row["counted"], { followers: 0, following: 0 })),
    );
  expectSame(
    "follow counts",
    keptEqualsCounted(await countsOf(scratch, ids)),
    keptEqualsCounted(
      await countsOf(db, [
        accountId(0),
        accountId(1),
        accountId(2),
        accountId(Math.floor(counts.accounts / 2)),
      ]),
    ),
  );

  // Threads and messages: columns, the thread id's form, and what send keeps on the thread.
  const threadShape = async (on: Database, threadId?: string) => {
    const thread = await one_(
      on,
      threadId === undefined
        ? "SELECT to_jsonb(t) AS row FROM dm_threads t LIMIT 1"
        : "SELECT to_jsonb(t) AS row FROM dm_threads t WHERE id = $1",
      threadId === undefined ? [] : [threadId],
    );
    const messages = await query(
      on,
      "SELECT to_jsonb(m) || jsonb_build_object('wallet_of_sender', a.primary_address) AS row FROM dm_messages m JOIN accounts a ON a.id = m.sender_id WHERE m.thread_id = $1 ORDER BY m.id",
      [thread["id"]],
    );
    const last = messages.at(-1)!;
    return {
      threadColumns: Object.keys(thread),
      messageColumns: Object.keys(messages[0]!),
      id: /^dm_[0-9a-f]{20}$/.test(String(thread["id"])),
      ordered: String(thread["account_a"]) < String(thread["account_b"]),
      newest: [
        String(thread["last_message_id"]) === String(last["id"]),
        thread["last_message_at"] === last["created_at"],
      ],
      created: thread["created_at"] === messages[0]!["created_at"],
      sides: messages.every(
        (m) => m["sender_id"] === thread["account_a"] || m["sender_id"] === thread["account_b"],
      ),
      wallets: messages.every((m) => m["sender_wallet"] === m["wallet_of_sender"]),
      seen: [thread["seen_a"], thread["seen_b"]].every(
        (mark) => Number(mark) <= Number(thread["last_message_id"]),
      ),
      // Each side's kept unread count is the other side's messages after its seen mark.
      unread: (["a", "b"] as const).map(
        (side) =>
          Number(thread[`unread_${side}`]) ===
          messages.filter(
            (m) =>
              Number(m["id"]) > Number(thread[`seen_${side}`]) &&
              m["sender_id"] !== thread[`account_${side}`],
          ).length,
      ),
    };
  };
  for (const threadId of [
    dmThreadId(0),
    dmThreadId(counts.accounts),
    dmThreadId(Math.floor(counts.accounts / 20) * 10 + 3),
  ])
    expectSame(`DM thread ${threadId}`, await threadShape(scratch), await threadShape(db, threadId));

  // Releases: the same row and revisions as the signed create and announce give.
  if (r !== undefined) {
    const anchorMs = await scratchAnchor(db);
    const expected = releaseOf(r, counts, anchorMs);
    const sign = async (action: ReleaseActionInput) => {
      const fields = { address: one.address.toLowerCase(), nonce: randomUUID(), expires: now + 60_000 };
      const parsed = parseReleaseAction(action);
      const signature = await one.signMessage({
        message: releaseActionMessage({ ...fields, action: parsed }),
      });
      return releases.apply({ ...fields, action: parsed, signature }, { ip: "192.0.2.1" });
    };
    const base = demoReleaseDraft(r);
    const created = await sign({ kind: "create", draft: { ...base, name: `${base.name} ${r + 1}` } });
    if (created.kind !== "created") throw new Error("the release service did not create the sample release");
    await sign({
      kind: "announce",
      releaseId: created.release.id,
      revision: 1,
      launchAt: expected.launchAt!,
    });
    const releaseRow = (on: Database, id: string) =>
      one_(
        on,
        "SELECT to_jsonb(r) - 'id' - 'owner_id' - 'seq' - 'created_at' - 'updated_at' AS row FROM releases r WHERE id = $1",
        [id],
      );
    const revisionRows = (on: Database, id: string) =>
      query(
        on,
        "SELECT to_jsonb(v) - 'release_id' - 'updated_at' AS row FROM release_revisions v WHERE release_id = $1 ORDER BY revision",
        [id],
      );
    expectSame(
      `release ${expected.id}`,
      await releaseRow(scratch, created.release.id),
      await releaseRow(db, expected.id),
    );
    expectSame(
      `revisions of release ${expected.id}`,
      await revisionRows(scratch, created.release.id),
      await revisionRows(db, expected.id),
    );
  }
}

/** The load's anchor, from the accounts (account 0 was created at the anchor). */
async function scratchAnchor(db: Database): Promise<number> {
  const rows = await db.withConnection((c) =>
    c.query<{ t: Date }>("SELECT created_at AS t FROM accounts WHERE id = $1", [accountId(0)]),
  );
  if (!rows.rows[0]) throw new Error("no account 0: the accounts were not loaded");
  return new Date(rows.rows[0].t).getTime();
}

// The market's reads over the volume ---------------------------------------------------------

/** One measured read: the route as documented, its page, the volume behind it, the request. */
export interface VolumeRoute {
  route: string;
  page: "first" | "deep";
  volume: string;
  path: string;
  headers?: Record<string, string>;
}

/** One GET through the API (the benchmark's server, or a test app): status and body text. */
export type VolumeGet = (
  path: string,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: string }>;

/** Follows `next` of a list from `path` for at most `pages` pages; answers the last page's path. */
async function walk(get: VolumeGet, path: string, pages: number, headers?: Record<string, string>) {
  let current = path;
  for (let page = 1; page < pages; page++) {
    const response = await get(current, headers);
    if (response.status !== 200) throw new Error(`${current} answered ${response.status}: ${response.body}`);
    const body = JSON.parse(response.body) as { next?: string | number | null };
    if (body.next === undefined || body.next === null) return current;
    const url = new URL(current, "http://volume.invalid");
    url.searchParams.set(typeof body.next === "number" ? "offset" : "cursor", String(body.next));
    current = `${url.pathname}${url.search}`;
  }
  return current;
}

/** The loaded releases' ids: the public ones (newest change first), and the measured account's. */
function releaseIdsOf(counts: MarketCounts) {
  const all = Array.from({ length: counts.releases }, (_, r) => releaseOf(r, counts, 0));
  const mine = all.filter((release) => release.owner === MEASURED_CREATOR);
  return {
    public: all
      .filter((release) => release.status !== "draft")
      .map((release) => release.id)
      .reverse(),
    own: mine.length,
    ownPublic: mine.filter((release) => release.status !== "draft").length,
  };
}

const n = (value: number) => value.toLocaleString("en");

/**
 * Every market read over the volume, at its first page and at its last page
 * (reached by following `next`, or the last offset a bounded offset list
 * serves): the scale benchmark's routes and the plan test's queries.
 * `session` is the measured account's (account 0, `measured`) signed in.
 */
export async function marketReadRoutes({
  counts,
  measured,
  session,
  get,
}: {
  counts: MarketCounts;
  measured: string;
  session: Record<string, string>;
  get: VolumeGet;
}): Promise<VolumeRoute[]> {
  const runtime = `/market/runtime/${VOLUME_RUNTIME}`;
  const account1 = accountAddress(1, measured);
  const releaseIds = releaseIdsOf(counts);
  const publicReleases = releaseIds.public.length;
  const ownReleases = releaseIds.ownPublic;
  const volume = {
    claims: `${n(counts.claims)} claims`,
    drops: `${n(counts.drops)} drops, ${n(counts.claims)} claims`,
    releases: `${n(counts.releases)} releases`,
    accounts: `${n(counts.accounts)} accounts`,
    dms: `${n(counts.dms)} DMs`,
    follows: `${n(counts.accounts)} accounts' follows`,
  };
  const lastOffset = (total: number, page: number, bound: number) =>
    Math.min(bound, Math.max(0, Math.floor((total - 1) / page) * page));
  const routes: VolumeRoute[] = [];
  const add = (
    route: string,
    page: VolumeRoute["page"],
    volumeText: string,
    path: string,
    headers?: Record<string, string>,
  ) => routes.push({ route, page, volume: volumeText, path, ...(headers ? { headers } : {}) });
  /** A list's first page, and its last page reached by following `next` (at most `pages` pages). */
  const list = async (
    route: string,
    volumeText: string,
    path: string,
    pages: number,
    headers?: Record<string, string>,
  ) => {
    add(route, "first", volumeText, path, headers);
    add(route, "deep", volumeText, await walk(get, path, pages, headers), headers);
  };

  add("GET /market/runtime", "first", volume.drops, "/market/runtime");
  await list(
    "GET /market/runtime/{version}",
    volume.drops,
    `${runtime}?limit=10`,
    Math.ceil(counts.drops / 10) + 1,
  );
  const ownerClaims = `${runtime}/claims?owner=${measured}&limit=100`;
  await list(
    "GET /market/runtime/{version}/claims",
    volume.claims,
    ownerClaims,
    Math.ceil(counts.claims / 100 / 100) + 1,
  );
  add("GET /market/discovery", "first", volume.drops, "/market/discovery");
  for (const board of ["creators", "collectors"] as const) {
    const path = `/market/board/${board}?window=all`;
    add(`GET /market/board/${board}`, "first", volume.claims, path);
    // Offset paging, bounded at 10,000 (documented): the last page the board serves.
    const entries = board === "creators" ? Math.min(50, counts.accounts) : counts.accounts;
    add(
      `GET /market/board/${board}`,
      "deep",
      volume.claims,
      `${path}&offset=${lastOffset(entries, 25, 10_000)}`,
    );
    add(`GET /market/board/${board} (30d)`, "first", volume.claims, `/market/board/${board}?window=30d`);
  }
  add(
    "GET /market/creators/{address}",
    "first",
    `${volume.accounts}, ${volume.releases}`,
    `/market/creators/${measured}`,
  );
  await list(
    "GET /market/creators/{address}/releases",
    volume.releases,
    `/market/creators/${measured}/releases?limit=10`,
    Math.ceil(ownReleases / 10) + 1,
  );
  await list(
    "GET /market/creators/{address}/drops",
    volume.drops,
    `/market/creators/${measured}/drops?limit=1`,
    counts.drops,
  );
  add("GET /market/releases", "first", volume.releases, "/market/releases");
  // Offset paging, bounded at 10,000 (documented): the last page it serves.
  add(
    "GET /market/releases",
    "deep",
    volume.releases,
    `/market/releases?offset=${lastOffset(publicReleases, 50, 10_000)}`,
  );
  const release = releaseIds.public[0]!;
  add("GET /market/releases/{releaseId}", "first", volume.releases, `/market/releases/${release}`);
  add(
    "GET /market/releases/{releaseId}/artwork",
    "first",
    volume.releases,
    `/market/releases/${release}/artwork`,
  );
  await list(
    "GET /market/releases/{releaseId}/artwork/history",
    volume.releases,
    `/market/releases/${release}/artwork/history?limit=1`,
    4,
  );
  await list(
    "GET /market/account/releases",
    volume.releases,
    "/market/account/releases?limit=10",
    Math.ceil(releaseIds.own / 10) + 1,
    session,
  );
  await list("GET /market/dm/threads", volume.dms, "/market/dm/threads?limit=100", counts.accounts, session);
  await list(
    "GET /market/dm/messages",
    volume.dms,
    `/market/dm/messages?with=${account1}&limit=100`,
    counts.dms,
    session,
  );
  add("GET /market/dm/unread", "first", volume.dms, "/market/dm/unread", session);
  await list(
    "GET /market/accounts/{address}/followers",
    volume.follows,
    `/market/accounts/${measured}/followers?limit=100`,
    counts.accounts,
  );
  await list(
    "GET /market/accounts/{address}/following",
    volume.follows,
    `/market/accounts/${measured}/following?limit=100`,
    counts.accounts,
  );
  return routes;
}

import type { ClaimList, MarketClaim, MarketDrop, MarketRuntime, MarketRuntimeCatalog } from "@mkt/protocol";
import { sql } from "kysely";
import type { MarketRole } from "../../chains/index.ts";
import type { Database, Executor, SqlConnection } from "../../db/index.ts";
import { notFound } from "../../errors.ts";
import { type HeadRow, inTransaction } from "../../indexer/head-store.ts";
import { toHead } from "../../indexer/service.ts";
import type { CursorCodec } from "./cursors.ts";

export interface RuntimeCatalogDeps {
  db: Database;
  /** The market role (chains/roles.ts): which registry's scope holds the catalog. */
  market: MarketRole | undefined;
  cursors: CursorCodec;
}

export interface ClaimsRequest {
  owner: string;
  dropId?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

interface RuntimeRow {
  runtime_id: string;
  version: string;
  claim_drops: string;
  registry: string;
  registered_block: string;
  registered_tx: string;
  registered_at: Date;
  current: boolean;
}

interface DropRow {
  drop_id: string;
  contract: string;
  creator: string;
  price: string;
  max_supply: string;
  claimed: string;
  created_block: string;
  created_tx: string;
}

/** A claim as the page's JSON array holds it, in this order. */
type ClaimTuple = [string, string, string, string, string, string, string, string, number, number];

const toClaim = ([
  dropId,
  contract,
  owner,
  quantity,
  paid,
  totalClaimed,
  transactionHash,
  blockNumber,
  logIndex,
  blockTime,
]: ClaimTuple): MarketClaim => ({
  dropId,
  contract,
  owner,
  quantity,
  paid,
  totalClaimed,
  transactionHash,
  blockNumber: Number(blockNumber),
  logIndex: Number(logIndex),
  blockTime: Number(blockTime),
});

const RUNTIME_COLUMNS = `runtime_id, version::text AS version, claim_drops, registry,
  registered_block::text AS registered_block, registered_tx, registered_at,
  version = max(version) OVER () AS current`;

export interface RuntimeCatalog {
  /** Every runtime of the registry, newest version first. */
  list(): Promise<MarketRuntime[]>;
  /**
   * Whether `version` is a runtime of the catalog (routes taking `{version}`
   * answer 404 otherwise); inside the caller's transaction when given one.
   */
  exists(version: string, tx?: Executor): Promise<boolean>;
  /** The creator of drop `dropId` of runtime `version` as indexed, or undefined while the indexer has not seen it. */
  dropCreator(version: string, dropId: string, tx?: Executor): Promise<string | undefined>;
  /** Whether `owner` holds pack (drop) `dropId` of runtime `version`: a claim of it indexed at the current head. */
  holds(version: string, dropId: string, owner: string, tx?: Executor): Promise<boolean>;
  /** One runtime: its contracts, a page of its drops in creation order, and its scope's head. */
  get(version: string, page: { limit: number; cursor?: string | undefined }): Promise<MarketRuntimeCatalog>;
  /**
   * One page of an owner's claims in a runtime, in chain order (block,
   * log index): a keyset over positions that never change, so a walk
   * following `next` while claims are indexed returns each claim once. A
   * claim a reorg removed is gone from the next read.
   */
  claims(version: string, request: ClaimsRequest): Promise<ClaimList>;
}

/**
 * The market's runtime catalog, read from the projection the indexer builds
 * from the chain's RuntimeRegistry (`market_runtimes`, `market_drops`,
 * `market_claims` of the registry's scope). A runtime is known once its
 * `RuntimeRegistered` is indexed; every `{version}` is checked here.
 *
 * Pages are read in one repeatable-read transaction with the scope's head
 * row, so `head` describes exactly the projection the items came from.
 */
export function createRuntimeCatalog({ db, market, cursors }: RuntimeCatalogDeps): RuntimeCatalog {
  const scope = market?.scope;
  const chainId = market?.deployment.chainId;

  const snapshot = <T>(fn: (connection: SqlConnection) => Promise<T>): Promise<T> =>
    inTransaction(db, fn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");

  const runtimeRows = async (connection: SqlConnection, version?: string): Promise<RuntimeRow[]> => {
    if (scope === undefined) return [];
    const { rows } = await connection.query<RuntimeRow>(
      `SELECT * FROM (SELECT ${RUNTIME_COLUMNS} FROM market_runtimes WHERE scope = $1) r
       ${version === undefined ? "" : "WHERE runtime_id = $2"}
       ORDER BY version::numeric DESC`,
      version === undefined ? [scope] : [scope, version],
    );
    return rows;
  };

  const toRuntime = (row: RuntimeRow): MarketRuntime => ({
    id: row.runtime_id,
    version: row.version,
    chainId: chainId!,
    contracts: { ClaimDrops: row.claim_drops, RuntimeRegistry: row.registry },
    startBlock: Number(row.registered_block),
    registeredAt: row.registered_at.getTime(),
    registeredTransaction: row.registered_tx,
    scope: scope!,
    current: row.current,
  });

  /** The runtime, or 404: `{version}` must be an id the registry registered (never inferred from a name). */
  const runtimeOf = async (connection: SqlConnection, version: string): Promise<RuntimeRow> => {
    const [row] = await runtimeRows(connection, version);
    if (!row) {
      throw notFound(
        `runtime ${version} is not a runtime of the market's registry (see GET /market/runtime)`,
      );
    }
    return row;
  };

  const headOf = async (connection: SqlConnection) => {
    const { rows } = await connection.query<HeadRow>("SELECT * FROM indexer_heads WHERE scope = $1", [scope]);
    // A runtime is only known from an indexed log, so its scope has a head row.
    if (!rows[0]) throw notFound(`the scope ${scope} has not been indexed yet`);
    return toHead(rows[0]);
  };

  /**
   * A page from `limit + 1` rows (the extra row only tells that another
   * follows). The cursor is made after the snapshot's connection is
   * released: its key may need the database (PGlite has one connection).
   */
  const pageOf = async <Row>(
    rows: Row[],
    limit: number,
    binding: readonly string[],
    position: (row: Row) => string[],
  ): Promise<{ rows: Row[]; next?: string }> => {
    if (rows.length <= limit) return { rows };
    const page = rows.slice(0, limit);
    return { rows: page, next: await cursors.encode(binding, position(page[page.length - 1]!)) };
  };

  return {
    async list(): Promise<MarketRuntime[]> {
      return (await db.withConnection((connection) => runtimeRows(connection))).map(toRuntime);
    },

    async exists(version: string, tx: Executor = db.kysely): Promise<boolean> {
      if (scope === undefined) return false;
      const { rows } = await sql<{ found: number }>`
        SELECT 1 AS found FROM market_runtimes WHERE scope = ${scope} AND runtime_id = ${version}`.execute(
        tx,
      );
      return rows.length > 0;
    },

    async dropCreator(
      version: string,
      dropId: string,
      tx: Executor = db.kysely,
    ): Promise<string | undefined> {
      if (scope === undefined) return undefined;
      const { rows } = await sql<{ creator: string }>`
        SELECT creator FROM market_drops
        WHERE scope = ${scope} AND runtime_id = ${version} AND drop_id = ${dropId}::numeric`.execute(tx);
      return rows[0]?.creator;
    },

    async holds(version: string, dropId: string, owner: string, tx: Executor = db.kysely): Promise<boolean> {
      if (scope === undefined) return false;
      const { rows } = await sql<{ held: number }>`
        SELECT 1 AS held FROM market_claims
        WHERE scope = ${scope} AND runtime_id = ${version} AND drop_id = ${dropId}::numeric AND owner = ${owner}
        LIMIT 1`.execute(tx);
      return rows.length > 0;
    },

    async get(
      version: string,
      page: { limit: number; cursor?: string | undefined },
    ): Promise<MarketRuntimeCatalog> {
      const binding = ["runtime-drops", version];
      const after = page.cursor === undefined ? undefined : await cursors.decode(binding, page.cursor, 2);
      const read = await snapshot(async (connection) => {
        const runtime = await runtimeOf(connection, version);
        const params: unknown[] = [chainId, version, page.limit + 1];
        let where = "";
        if (after) {
          where = "AND (created_block, drop_id) > ($4::bigint, $5::numeric)";
          params.push(after[0], after[1]);
        }
        const { rows } = await connection.query<DropRow>(
          `SELECT drop_id::text AS drop_id, contract, creator, price::text AS price, max_supply::text AS max_supply,
             claimed::text AS claimed, created_block::text AS created_block, created_tx
           FROM market_drops d WHERE chain_id = $1 AND runtime_id = $2 ${where}
           ORDER BY d.created_block, d.drop_id LIMIT $3`,
          params,
        );
        return { runtime, rows, head: await headOf(connection) };
      });
      const drops = await pageOf(read.rows, page.limit, binding, (row) => [row.created_block, row.drop_id]);
      return {
        runtime: toRuntime(read.runtime),
        drops: drops.rows.map(
          (row): MarketDrop => ({
            id: row.drop_id,
            contract: row.contract,
            creator: row.creator,
            price: row.price,
            maxSupply: row.max_supply,
            claimed: row.claimed,
            createdBlock: Number(row.created_block),
            createdTransaction: row.created_tx,
          }),
        ),
        ...(drops.next === undefined ? {} : { next: drops.next }),
        head: read.head,
      };
    },

    async claims(version: string, request: ClaimsRequest): Promise<ClaimList> {
      const binding = ["claims", version, request.owner, request.dropId ?? ""];
      const after =
        request.cursor === undefined ? undefined : await cursors.decode(binding, request.cursor, 2);
      const params: unknown[] = [chainId, version, request.owner, request.limit + 1, scope];
      let where = "";
      if (request.dropId !== undefined) {
        params.push(request.dropId);
        where += ` AND c.drop_id = $${params.length}::numeric`;
      }
      if (after) {
        params.push(after[0], after[1]);
        where += ` AND (c.block_number, c.log_index) > ($${params.length - 1}::bigint, $${params.length}::int)`;
      }
      // One statement, so one snapshot: the head row, whether the runtime is known, and the page
      // as one JSON array of claims (a ClaimTuple each), which both drivers parse far
      // faster than rows of typed columns. ORDER BY names the table's columns.
      const { rows } = await db.withConnection((connection) =>
        connection.query<HeadRow & { known: boolean; page: ClaimTuple[] }>(
          `SELECT h.scope, h.chain_id, h.genesis_hash, h.next_block, h.block_hash, h.revision, h.updated_at,
             h.failure, h.observed_head, h.observed_at, h.webhook_audit,
             EXISTS (SELECT 1 FROM market_runtimes r WHERE r.scope = h.scope AND r.runtime_id = $2) AS known,
             (SELECT coalesce(json_agg(json_build_array(c.drop_id::text, c.contract, c.owner, c.quantity::text,
                  c.paid::text, c.total_claimed::text, c.transaction_hash, c.block_number::text, c.log_index,
                  floor(extract(epoch FROM c.block_time) * 1000)::bigint) ORDER BY c.block_number, c.log_index),
                '[]'::json)
              FROM (SELECT * FROM market_claims c
                    WHERE c.chain_id = $1 AND c.runtime_id = $2 AND c.owner = $3${where}
                    ORDER BY c.block_number, c.log_index LIMIT $4) c) AS page
           FROM indexer_heads h WHERE h.scope = $5`,
          params,
        ),
      );
      const [row] = rows;
      // A runtime is only known from an indexed log, so its scope has a head row.
      if (scope === undefined || !row?.known) {
        throw notFound(
          `runtime ${version} is not a runtime of the market's registry (see GET /market/runtime)`,
        );
      }
      // The cursor keeps the block number as the database wrote it (a decimal string).
      const page = await pageOf(row.page, request.limit, binding, (claim) => [claim[7], String(claim[8])]);
      return {
        items: page.rows.map(toClaim),
        ...(page.next === undefined ? {} : { next: page.next }),
        head: toHead(row),
      };
    },
  };
}

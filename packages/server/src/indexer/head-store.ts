import type { Database, SqlConnection } from "../db/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import type { Discovered } from "./projection.ts";
import type { CreatedContract } from "./range-reader.ts";
import type { BlockHeader } from "./rpc.ts";

/** Every commit that changes a scope's projection notifies this channel with the scope id. */
export const INDEXER_CHANNEL = "mkt_indexer";

export interface HeadRow {
  scope: string;
  chain_id: number;
  genesis_hash: string | null;
  next_block: string;
  block_hash: string | null;
  revision: string;
  updated_at: Date;
  failure: string | null;
  observed_head: string | null;
  observed_at: Date | null;
  /** Time of block next_block - 1 (null after a new head, a rewind or a restart until it moves again). */
  block_time: Date | null;
  webhook_audit: Record<string, unknown>;
}

/** Runs `fn` in one transaction on one connection. */
export const inTransaction = async <T>(
  db: Database,
  fn: (connection: SqlConnection) => Promise<T>,
  /** The statement that opens it (`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY` for a snapshot read). */
  begin = "BEGIN",
): Promise<T> =>
  db.withConnection(async (connection) => {
    await connection.exec(begin);
    try {
      const result = await fn(connection);
      await connection.exec("COMMIT");
      return result;
    } catch (error) {
      await connection.exec("ROLLBACK").catch(() => {});
      throw error;
    }
  });

export interface HeadStore {
  /** The scope's head row, or undefined before it was created. */
  read(connection: SqlConnection): Promise<HeadRow | undefined>;
  /** The head row, locked until the transaction ends. */
  lock(connection: SqlConnection): Promise<{ next_block: string } | undefined>;
  /** A new head at the start block, on the chain whose block 0 is `genesis`. */
  create(connection: SqlConnection, genesis: string): Promise<void>;
  /** Records the chain of a head created while the chain was unreachable (nothing indexed yet). */
  setGenesis(connection: SqlConnection, genesis: string): Promise<void>;
  /** Back to the start block after the scope was reset, on the chain whose block 0 is `genesis`. */
  restartOnChain(connection: SqlConnection, genesis: string): Promise<void>;
  /** Back to the start block after the scope was reset, on the same chain. */
  restart(connection: SqlConnection): Promise<void>;
  /** Back to the block after `fork` (whose hash is `forkHash`) after a rollback. */
  rewind(connection: SqlConnection, fork: bigint, forkHash: string): Promise<void>;
  /**
   * Moves the head past a written range ending at `to`: records the
   * contracts the range created (at the block of the log that created each,
   * so a rollback forgets exactly those created above the fork), the hashes
   * of its blocks above the finalised block, and forgets what the finalised
   * block made final.
   */
  advance(
    connection: SqlConnection,
    options: {
      to: bigint;
      headers: ReadonlyMap<bigint, BlockHeader>;
      created: readonly CreatedContract[];
      latest: bigint;
      finalized: bigint;
    },
  ): Promise<void>;
  /** After logs were re-applied below the head (recovery). */
  touch(connection: SqlConnection): Promise<void>;
  /** The chain's latest block, seen while the head is caught up. */
  observe(latest: bigint): Promise<void>;
  /** Records why indexing fails, creating the head row if the chain was never reached. Never throws. */
  recordFailure(message: string): Promise<void>;
  /** The block hashes of the unfinalised window, newest first. */
  window(): Promise<Array<{ number: string; hash: string }>>;
  /** The contracts written ranges created. */
  createdContracts(): Promise<Discovered[]>;
}

/**
 * The SQL of one scope's bookkeeping: its head row (`indexer_heads`, exactly
 * the fields of the claims `head` object plus the genesis hash), the block
 * hashes of its unfinalised window (`indexer_blocks`) and the contracts its
 * logs created (`indexer_contracts`).
 *
 * Invariants:
 * - Every writer of a scope's rows first locks its head row (`lock`), in the
 *   transaction that writes: ranges, recovery, rollbacks and resets never
 *   interleave, and nothing is recorded at or above `next_block`.
 * - Every change of the projection raises `revision` and notifies
 *   INDEXER_CHANNEL in the same transaction (read caches key on it).
 * - Block hashes and undo entries at or below the finalised block are deleted
 *   as the head passes it: only the unfinalised window can be undone.
 */
export function createHeadStore({
  db,
  clock,
  scope,
}: {
  db: Database;
  clock: Clock;
  scope: { id: string; chainId: number; startBlock: bigint };
}): HeadStore {
  const now = () => new Date(clock.now());
  const notify = (connection: SqlConnection) =>
    connection.query("SELECT pg_notify($1, $2)", [INDEXER_CHANNEL, scope.id]);
  return {
    async read(connection: SqlConnection): Promise<HeadRow | undefined> {
      return (await connection.query<HeadRow>("SELECT * FROM indexer_heads WHERE scope = $1", [scope.id]))
        .rows[0];
    },

    async lock(connection: SqlConnection): Promise<{ next_block: string } | undefined> {
      return (
        await connection.query<{ next_block: string }>(
          "SELECT next_block FROM indexer_heads WHERE scope = $1 FOR UPDATE",
          [scope.id],
        )
      ).rows[0];
    },

    async create(connection: SqlConnection, genesis: string): Promise<void> {
      await connection.query(
        `INSERT INTO indexer_heads (scope, chain_id, genesis_hash, next_block, revision, updated_at)
         VALUES ($1, $2, $3, $4, 0, $5)`,
        [scope.id, scope.chainId, genesis, scope.startBlock.toString(), now()],
      );
    },

    async setGenesis(connection: SqlConnection, genesis: string): Promise<void> {
      await connection.query("UPDATE indexer_heads SET genesis_hash = $2 WHERE scope = $1", [
        scope.id,
        genesis,
      ]);
    },

    async restartOnChain(connection: SqlConnection, genesis: string): Promise<void> {
      await connection.query(
        `UPDATE indexer_heads SET genesis_hash = $2, next_block = $3, block_hash = NULL, block_time = NULL, revision = revision + 1,
           updated_at = $4, failure = NULL WHERE scope = $1`,
        [scope.id, genesis, scope.startBlock.toString(), now()],
      );
      await notify(connection);
    },

    async restart(connection: SqlConnection): Promise<void> {
      await connection.query(
        "UPDATE indexer_heads SET next_block = $2, block_hash = NULL, block_time = NULL, revision = revision + 1, updated_at = $3 WHERE scope = $1",
        [scope.id, scope.startBlock.toString(), now()],
      );
      await notify(connection);
    },

    async rewind(connection: SqlConnection, fork: bigint, forkHash: string): Promise<void> {
      await connection.query(
        "UPDATE indexer_heads SET next_block = $2, block_hash = $3, block_time = NULL, revision = revision + 1, updated_at = $4 WHERE scope = $1",
        [scope.id, (fork + 1n).toString(), forkHash, now()],
      );
      await notify(connection);
    },

    async advance(
      connection: SqlConnection,
      {
        to,
        headers,
        created,
        latest,
        finalized,
      }: {
        to: bigint;
        headers: ReadonlyMap<bigint, BlockHeader>;
        created: readonly CreatedContract[];
        latest: bigint;
        finalized: bigint;
      },
    ): Promise<void> {
      if (created.length > 0) {
        await connection.query(
          `INSERT INTO indexer_contracts (scope, address, kind, parent, label, block_number)
           SELECT $1, c->>'address', c->>'kind', c->>'parent', c->>'label', (c->>'block')::bigint
           FROM json_array_elements($2::json) c
           ON CONFLICT DO NOTHING`,
          [
            scope.id,
            JSON.stringify(
              created.map(({ address, kind, parent, label, block }) => ({
                address,
                kind,
                parent,
                label,
                block: block.toString(),
              })),
            ),
          ],
        );
      }
      const window = [...headers.entries()].filter(([n]) => n > finalized);
      if (window.length > 0) {
        await connection.query(
          `INSERT INTO indexer_blocks (scope, number, hash, parent_hash)
           SELECT $1, (b->>'n')::bigint, b->>'h', b->>'p' FROM json_array_elements($2::json) b
           ON CONFLICT (scope, number) DO UPDATE SET hash = EXCLUDED.hash, parent_hash = EXCLUDED.parent_hash`,
          [
            scope.id,
            JSON.stringify(window.map(([n, h]) => ({ n: n.toString(), h: h.hash, p: h.parentHash }))),
          ],
        );
      }
      // Below the finalised block nothing can be undone any more.
      await connection.query(
        `WITH undo AS (DELETE FROM indexer_undo WHERE scope = $1 AND block_number <= $6),
              blocks AS (DELETE FROM indexer_blocks WHERE scope = $1 AND number <= $6)
         UPDATE indexer_heads SET next_block = $2, block_hash = $3, block_time = $8, revision = revision + 1,
           updated_at = $4, failure = NULL, observed_head = $5, observed_at = $4 WHERE scope = $1
         RETURNING pg_notify($7, $1)`,
        [
          scope.id,
          (to + 1n).toString(),
          headers.get(to)!.hash,
          now(),
          latest.toString(),
          finalized.toString(),
          INDEXER_CHANNEL,
          headers.get(to)!.time,
        ],
      );
    },

    async touch(connection: SqlConnection): Promise<void> {
      await connection.query(
        "UPDATE indexer_heads SET revision = revision + 1, updated_at = $2 WHERE scope = $1",
        [scope.id, now()],
      );
      await notify(connection);
    },

    async observe(latest: bigint): Promise<void> {
      await db.withConnection((connection) =>
        connection.query("UPDATE indexer_heads SET observed_head = $2, observed_at = $3 WHERE scope = $1", [
          scope.id,
          latest.toString(),
          now(),
        ]),
      );
    },

    async recordFailure(message: string): Promise<void> {
      await db
        .withConnection((connection) =>
          connection.query(
            `INSERT INTO indexer_heads (scope, chain_id, next_block, failure, updated_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (scope) DO UPDATE SET failure = EXCLUDED.failure, updated_at = EXCLUDED.updated_at
             WHERE indexer_heads.failure IS DISTINCT FROM EXCLUDED.failure`,
            [scope.id, scope.chainId, scope.startBlock.toString(), message, now()],
          ),
        )
        .catch(() => {});
    },

    async window(): Promise<Array<{ number: string; hash: string }>> {
      const { rows } = await db.withConnection((connection) =>
        connection.query<{ number: string; hash: string }>(
          "SELECT number, hash FROM indexer_blocks WHERE scope = $1 ORDER BY number DESC",
          [scope.id],
        ),
      );
      return rows;
    },

    async createdContracts(): Promise<Discovered[]> {
      const { rows } = await db.withConnection((connection) =>
        connection.query<{ address: string; kind: string; parent: string | null; label: string | null }>(
          "SELECT address, kind, parent, label FROM indexer_contracts WHERE scope = $1",
          [scope.id],
        ),
      );
      return rows;
    },
  };
}

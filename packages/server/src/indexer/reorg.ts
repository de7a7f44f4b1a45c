import type { Logger } from "pino";
import type { Database, SqlConnection } from "../db/index.ts";
import { type HeadRow, type HeadStore, inTransaction } from "./head-store.ts";
import type { ChainRpc } from "./rpc.ts";
import {
  APPEND_TABLES,
  quoteIdentifier as quote,
  type Row,
  STATE_TABLES,
  type StateTableName,
} from "./store.ts";

/**
 * A reorganisation the indexer repaired: `window` when the fork was inside
 * the unfinalised window (rolled back to it), `deep` when it was deeper than
 * the finality depth (the scope reset and rebuilt from its start block),
 * `chain` when the RPC serves another chain (another block 0; reset too).
 */
export interface Reorg {
  kind: "window" | "deep" | "chain";
  /** The block the projection was rolled back to (a window reorg). */
  forkBlock?: bigint;
}

export interface ReorgHandler {
  /**
   * Makes sure the head row exists and belongs to the chain the RPC serves
   * now (same block 0); resets the scope when it does not.
   */
  adoptChain(): Promise<void>;
  /**
   * The block below the head changed: walks back through the stored window
   * to the last block the chain still has and rolls back above it, or resets
   * the scope when no block of the window is left.
   */
  rollBack(head: HeadRow): Promise<void>;
}

/**
 * Reorg handling. What makes it possible, kept by the rest of the indexer:
 * - state rows changed above the finalised block have their previous image in
 *   `indexer_undo`, once per row and block (BatchStore.put);
 * - appended rows (`chain_events`, claims, trades) and discovered contracts
 *   carry their block number;
 * - `indexer_blocks` holds the hash of every block of the unfinalised window.
 * So rolling back to a fork block is: replay the undo log above it backwards,
 * delete what was appended above it. A fork below the window, or another
 * chain at the RPC URL, cannot be undone: the scope is reset and rebuilt from
 * its start block. Stale data is never served: each of these commits with the
 * head change, under the head row's lock.
 */
export function createReorgHandler({
  db,
  heads,
  rpc,
  scopeId,
  finalityDepth,
  log,
  onReorg,
}: {
  db: Database;
  heads: HeadStore;
  rpc: ChainRpc;
  scopeId: string;
  finalityDepth: number;
  log: Logger;
  /** Told of every reorganisation once it is repaired (metrics). */
  onReorg?: ((reorg: Reorg) => void) | undefined;
}): ReorgHandler {
  return {
    async adoptChain(): Promise<void> {
      const genesis = (await rpc.header(0n))?.hash;
      if (!genesis) throw new Error("the RPC has no block 0");
      const reset = await inTransaction(db, async (connection) => {
        const head = await heads.read(connection);
        if (!head) {
          await heads.create(connection, genesis);
          return false;
        }
        if (head.genesis_hash === genesis) return false;
        if (head.genesis_hash === null) {
          // Created while the chain was unreachable: nothing was indexed yet.
          await heads.setGenesis(connection, genesis);
          return false;
        }
        await resetScope(connection, scopeId);
        await heads.restartOnChain(connection, genesis);
        return true;
      });
      if (reset) {
        log.warn({
          msg: "the chain this scope indexed is gone (different genesis block); projection reset and rebuilding from the start block",
          genesis,
        });
        onReorg?.({ kind: "chain" });
      }
    },

    async rollBack(head: HeadRow): Promise<void> {
      const window = await heads.window();
      const fork = await findFork(window, (n) => rpc.header(n));
      if (fork === undefined) {
        // Blocks the chain called final changed: the chain broke its own finality rule (or the
        // configured depth is too small for it). Nothing below the window can be undone row by
        // row, so the projection is rebuilt from the start block; an operator should know.
        log.error({
          msg: "reorg deeper than the finality depth (the stored window); resetting the scope and rebuilding it from its start block",
          indexedBlock: (BigInt(head.next_block) - 1n).toString(),
          indexedHash: head.block_hash,
          finalityDepth,
          oldestStoredBlock: window.at(-1)?.number ?? null,
        });
        await inTransaction(db, async (connection) => {
          await heads.lock(connection);
          await resetScope(connection, scopeId);
          await heads.restart(connection);
        });
        onReorg?.({ kind: "deep" });
        return;
      }
      const undone = await inTransaction(db, async (connection) => {
        await heads.lock(connection);
        const count = await rollbackScope(connection, scopeId, fork.number);
        await heads.rewind(connection, fork.number, fork.hash);
        return count;
      });
      log.warn({ msg: "reorg: rolled back to the fork block", forkBlock: fork.number.toString(), undone });
      onReorg?.({ kind: "window", forkBlock: fork.number });
    },
  };
}

/**
 * The newest stored block the chain still has, walking back from the newest
 * (`window` newest first); undefined when the chain has none of them.
 */
export async function findFork(
  window: ReadonlyArray<{ number: string; hash: string }>,
  header: (blockNumber: bigint) => Promise<{ hash: string } | undefined>,
): Promise<{ number: bigint; hash: string } | undefined> {
  for (const row of window) {
    const block = await header(BigInt(row.number));
    if (block?.hash === row.hash) return { number: BigInt(row.number), hash: row.hash };
  }
  return undefined;
}

/**
 * Rolls a scope back to `forkBlock`: replays the undo log backwards, then
 * deletes appended rows, undo entries, block hashes and discovered contracts
 * above the fork. Returns the undo entries replayed.
 */
export async function rollbackScope(
  connection: SqlConnection,
  scope: string,
  forkBlock: bigint,
): Promise<number> {
  const { rows } = await connection.query<{ table_name: string; row_key: Row; previous: Row | null }>(
    "SELECT table_name, row_key, previous FROM indexer_undo WHERE scope = $1 AND block_number > $2 ORDER BY seq DESC",
    [scope, forkBlock.toString()],
  );
  for (const entry of rows) {
    const spec = STATE_TABLES[entry.table_name as StateTableName];
    if (!spec) continue;
    const matches = spec.key.map((column) => `t.${quote(column)} = k.${quote(column)}`).join(" AND ");
    await connection.query(
      `DELETE FROM ${quote(spec.name)} t USING json_populate_record(NULL::${quote(spec.name)}, $1::json) k WHERE ${matches}`,
      [JSON.stringify(entry.row_key)],
    );
    if (entry.previous) {
      await connection.query(
        `INSERT INTO ${quote(spec.name)} SELECT * FROM json_populate_record(NULL::${quote(spec.name)}, $1::json)`,
        [JSON.stringify(entry.previous)],
      );
    }
  }
  for (const table of Object.keys(APPEND_TABLES)) {
    await connection.query(`DELETE FROM ${quote(table)} WHERE scope = $1 AND block_number > $2`, [
      scope,
      forkBlock.toString(),
    ]);
  }
  for (const [table, column] of [
    ["indexer_undo", "block_number"],
    ["indexer_blocks", "number"],
    ["indexer_contracts", "block_number"],
  ] as const) {
    await connection.query(`DELETE FROM ${table} WHERE scope = $1 AND ${column} > $2`, [
      scope,
      forkBlock.toString(),
    ]);
  }
  return rows.length;
}

/** Deletes everything a scope ever projected, and its bookkeeping but the head row. */
export async function resetScope(connection: SqlConnection, scope: string): Promise<void> {
  for (const table of [
    ...Object.keys(STATE_TABLES),
    ...Object.keys(APPEND_TABLES),
    "indexer_undo",
    "indexer_blocks",
    "indexer_contracts",
  ]) {
    await connection.query(`DELETE FROM ${quote(table)} WHERE scope = $1`, [scope]);
  }
}

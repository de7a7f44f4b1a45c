import type { Database, SqlConnection } from "../db/index.ts";
import { type HeadRow, type HeadStore, inTransaction } from "./head-store.ts";
import type { Preload, Projection } from "./projection.ts";
import { ChainMovedError, type DecodedLog, type FetchedRange } from "./range-reader.ts";
import { undoableAbove } from "./ranges.ts";
import type { BlockHeader } from "./rpc.ts";
import type { StatisticsRefresher } from "./statistics.ts";
import { BatchStore, type Column, type Row, readColumns, type StateTableName } from "./store.ts";

/**
 * Applies decoded logs to the projection through a batch store, generically:
 * the projection declares which events it handles and what each log reads
 * (`preloads`); this loads every declared row in bulk, runs the handlers in
 * chain order and records each log exactly once: in the append table its
 * handler wrote (a claim, a trade), else in `chain_events`.
 */
export function createLogApplier(projection: Projection) {
  const handled = new Map(
    Object.entries(projection.handles).map(([kind, events]) => [kind, new Set(events)]),
  );
  const isHandled = ({ log, contract }: DecodedLog) => handled.get(contract.kind)?.has(log.event) === true;
  /** Loads, one statement per table, the rows the handled logs of a batch declare. */
  const loadDeclared = async (
    store: BatchStore,
    logs: readonly DecodedLog[],
    declared: (entry: DecodedLog) => Preload[],
  ) => {
    const keys = new Map<StateTableName, Row[]>();
    for (const entry of logs) {
      if (!isHandled(entry)) continue;
      for (const { table, key } of declared(entry)) {
        const tableKeys = keys.get(table) ?? [];
        tableKeys.push(key);
        keys.set(table, tableKeys);
      }
    }
    for (const [table, tableKeys] of keys) await store.load(table, tableKeys);
  };
  return async (store: BatchStore, logs: readonly DecodedLog[]): Promise<void> => {
    // Contracts created by earlier logs of this batch are already known; load every row the batch reads.
    await loadDeclared(store, logs, (entry) => projection.preloads(entry.log, entry.contract));
    // Rows found through rows just loaded (an open batch's packs); rows of the batch's own earlier
    // logs are still absent from the database here, and those logs declared them themselves.
    const { preloadsAfter } = projection;
    if (preloadsAfter)
      await loadDeclared(store, logs, (entry) => preloadsAfter(store, entry.log, entry.contract));
    for (const entry of logs) {
      const { log, contract } = entry;
      const appended = store.appended;
      if (isHandled(entry)) projection.apply(store, log, contract);
      if (store.appended === appended) {
        store.append("chain_events", {
          scope: projection.id,
          block_number: log.blockNumber.toString(),
          log_index: log.logIndex,
          chain_id: projection.chainId,
          block_hash: log.blockHash,
          block_time: log.blockTime,
          transaction_hash: log.transactionHash,
          address: log.address,
          event: log.event,
          args: plainArgs(log.args),
        });
      }
    }
  };
}

export interface Writer {
  /**
   * Writes a completed range and advances the head past it. Returns the
   * number of logs applied.
   */
  write(head: HeadRow, range: FetchedRange, latest: bigint, finalized: bigint): Promise<number>;
  /**
   * Re-applies the logs of one transaction in block `blockNumber` that the
   * projection does not have (recovery), idempotently. `pending` when the
   * block is at or above the head: the indexer applies it in order.
   */
  reapply(
    decoded: readonly DecodedLog[],
    blockNumber: bigint,
    block: BlockHeader,
    finalized: bigint,
  ): Promise<{ applied: number; pending: boolean; fresh: ReadonlySet<number> }>;
}

/**
 * Writes completed ranges and re-applies transactions: each in one
 * transaction that first locks the head row, so a crash anywhere resumes
 * without loss or duplication.
 */
export function createWriter({
  db,
  projection,
  heads,
  statistics,
}: {
  db: Database;
  projection: Projection;
  heads: HeadStore;
  /** Told what each committed range wrote (planner statistics on PGlite). */
  statistics?: StatisticsRefresher;
}): Writer {
  const applyLogs = createLogApplier(projection);
  let columns: Map<string, Column[]> | undefined;
  const columnsOnce = async () => {
    columns ??= await db.withConnection(readColumns);
    return columns;
  };
  const storeFor = async (connection: SqlConnection, undoable: bigint | null) =>
    new BatchStore(connection, projection.id, undoable, await columnsOnce());

  return {
    async write(head: HeadRow, range: FetchedRange, latest: bigint, finalized: bigint): Promise<number> {
      const { from, to, headers } = range;
      // A range read ahead may predate a reorg: it must continue the chain the head is on.
      if (head.block_hash && headers.get(from)!.parentHash !== head.block_hash) {
        throw new ChainMovedError(`block ${from} does not follow the indexed block ${from - 1n}`);
      }
      await columnsOnce();
      const logs = range.logs;
      for (const { log } of logs) log.blockTime = headers.get(log.blockNumber)!.time;
      const written = await inTransaction(db, async (connection) => {
        // Nothing is recorded at or above the head's next block (recovery writes below it, under
        // this lock; rollbacks delete above the fork): every log of the range is new.
        const locked = await heads.lock(connection);
        if (locked?.next_block !== from.toString()) {
          throw new ChainMovedError(`the head moved to ${locked?.next_block} while block ${from} was read`);
        }
        const store = await storeFor(connection, undoableAbove(finalized, to));
        await applyLogs(store, logs);
        await store.flush();
        await heads.advance(connection, { to, headers, created: range.created, latest, finalized });
        return store.writtenRows();
      });
      await statistics?.written(written);
      return logs.length;
    },

    async reapply(
      decoded: readonly DecodedLog[],
      blockNumber: bigint,
      block: BlockHeader,
      finalized: bigint,
    ): Promise<{ applied: number; pending: boolean; fresh: ReadonlySet<number> }> {
      await columnsOnce();
      return inTransaction(db, async (connection) => {
        // Under the head lock: the indexer cannot move the head or write this block meanwhile.
        const head = await heads.lock(connection);
        if (!head || blockNumber >= BigInt(head.next_block))
          return { applied: 0, pending: true, fresh: new Set() };
        for (const { log } of decoded) log.blockTime = block.time;
        // Where each log would be recorded tells whether it was: a dry run of the handlers, never flushed.
        const dryRun = await storeFor(connection, null);
        await applyLogs(dryRun, decoded);
        const recorded = await dryRun.recorded();
        const fresh = decoded.filter(({ log }) => !recorded.has(`${log.blockNumber}:${log.logIndex}`));
        if (fresh.length === 0) return { applied: 0, pending: false, fresh: new Set() };
        const store = await storeFor(connection, undoableAbove(finalized, blockNumber));
        await applyLogs(store, fresh);
        await store.flush();
        await heads.touch(connection);
        // The log indexes applied, for the recovery answer.
        return {
          applied: fresh.length,
          pending: false,
          fresh: new Set(fresh.map(({ log }) => log.logIndex)),
        };
      });
    },
  };
}

/** Event arguments as JSON values: uint values as decimal strings, arrays element by element, tuples (`GameCreated`'s params) field by field. */
function plainArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in args) out[name] = plainValue(args[name]);
  return out;
}

function plainValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(plainValue);
  if (typeof value === "object" && value !== null) return plainArgs(value as Record<string, unknown>);
  return value;
}

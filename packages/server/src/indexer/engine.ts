import type { Logger } from "pino";
import {
  BaseError,
  createPublicClient,
  type Hex,
  http,
  LimitExceededRpcError,
  type Log,
  type PublicClient,
  ResponseBodyTooLargeError,
  TimeoutError,
} from "viem";
import type { AdvisoryLock, Database, SqlConnection } from "../db/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import { createLogDecoder } from "./decode.ts";
import type { Discovered, IndexedLog, ScopeDefinition } from "./projections.ts";
import { BatchStore, readColumns, resetScope, rollbackScope } from "./store.ts";

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
  webhook_audit: Record<string, unknown>;
}

export interface IndexerProgress {
  scope: string;
  blocks: number;
  logs: number;
}

export interface ScopeIndexerOptions {
  db: Database;
  logger: Logger;
  clock: Clock;
  scope: ScopeDefinition;
  rpcUrl: string;
  /** Poll interval when caught up. */
  pollIntervalMs?: number;
  /** Initial and maximum eth_getLogs range. */
  initialRange?: number;
  maxRange?: number;
  onProgress?: (progress: IndexerProgress) => void;
  client?: PublicClient;
}

/** An RPC answer that says the requested log range is too large. */
/** Provider answers that say the requested log range is too large (wording differs per provider). */
const RANGE_ERROR = /range|too many|limit exceeded|exceed|response size|10000 results|block range/i;
/** Logs one range should bring: large enough to amortise a commit, small enough for any provider's answer. */
const TARGET_LOGS_PER_RANGE = 5_000;

/** True when a failed eth_getLogs asked for too much: too many logs, too large an answer, or too slow. */
function isRangeTooLarge(error: unknown): boolean {
  if (error instanceof BaseError) {
    const cause = error.walk(
      (inner) =>
        inner instanceof ResponseBodyTooLargeError ||
        inner instanceof TimeoutError ||
        inner instanceof LimitExceededRpcError,
    );
    if (cause) return true;
  }
  return RANGE_ERROR.test(error instanceof Error ? error.message : String(error));
}

class ChainMovedError extends Error {
  override readonly name = "ChainMovedError";
}

/**
 * Follows one scope: fetches logs over adaptive block ranges, applies them
 * and advances the head in one transaction, detects reorgs by block and
 * parent hash inside the unfinalised window, and resets the scope when the
 * chain it indexed is gone. One writer per scope across replicas, through a
 * PostgreSQL advisory lock; replicas without the lock wait and retry.
 */
export function createScopeIndexer(options: ScopeIndexerOptions) {
  const { db, logger, clock, scope } = options;
  const log = logger.child({ scope: scope.id });
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const maxRange = options.maxRange ?? 10_000;
  let range = options.initialRange ?? 2_000;
  const client =
    options.client ??
    (createPublicClient({
      transport: http(options.rpcUrl, { batch: { batchSize: 200 }, retryCount: 0 }),
    }) as PublicClient);
  const kinds = new Map<string, Discovered>(scope.contracts.map((contract) => [contract.address, contract]));
  const decoders = new Map(Object.entries(scope.abis).map(([kind, abi]) => [kind, createLogDecoder(abi)]));
  let columns: Map<string, string[]> | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;
  let lock: AdvisoryLock | null = null;
  let running: Promise<void> | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const inTransaction = async <T>(fn: (connection: SqlConnection) => Promise<T>): Promise<T> =>
    db.withConnection(async (connection) => {
      await connection.exec("BEGIN");
      try {
        const result = await fn(connection);
        await connection.exec("COMMIT");
        return result;
      } catch (error) {
        await connection.exec("ROLLBACK").catch(() => {});
        throw error;
      }
    });

  const readHead = async (connection: SqlConnection): Promise<HeadRow | undefined> =>
    (await connection.query<HeadRow>("SELECT * FROM indexer_heads WHERE scope = $1", [scope.id])).rows[0];

  const loadContracts = async () => {
    const { rows } = await db.withConnection((connection) =>
      connection.query<{ address: string; kind: string; parent: string | null }>(
        "SELECT address, kind, parent FROM indexer_contracts WHERE scope = $1",
        [scope.id],
      ),
    );
    kinds.clear();
    for (const contract of scope.contracts) kinds.set(contract.address, contract);
    for (const row of rows) kinds.set(row.address, row);
  };

  /** Makes sure the head row exists and belongs to the chain the RPC serves now. */
  const ensureHead = async () => {
    const genesis = (await client.getBlock({ blockNumber: 0n })).hash;
    const reset = await inTransaction(async (connection) => {
      const head = await readHead(connection);
      if (!head) {
        await connection.query(
          `INSERT INTO indexer_heads (scope, chain_id, genesis_hash, next_block, revision, updated_at)
           VALUES ($1, $2, $3, $4, 0, $5)`,
          [scope.id, scope.chainId, genesis, scope.startBlock.toString(), new Date(clock.now())],
        );
        return false;
      }
      if (head.genesis_hash === genesis) return false;
      if (head.genesis_hash === null) {
        // Created while the chain was unreachable: nothing was indexed yet.
        await connection.query("UPDATE indexer_heads SET genesis_hash = $2 WHERE scope = $1", [
          scope.id,
          genesis,
        ]);
        return false;
      }
      await resetScope(connection, scope.id);
      await connection.query(
        `UPDATE indexer_heads SET genesis_hash = $2, next_block = $3, block_hash = NULL, revision = revision + 1,
           updated_at = $4, failure = NULL WHERE scope = $1`,
        [scope.id, genesis, scope.startBlock.toString(), new Date(clock.now())],
      );
      await connection.query("SELECT pg_notify($1, $2)", [INDEXER_CHANNEL, scope.id]);
      return true;
    });
    if (reset) {
      log.warn({
        msg: "the chain this scope indexed is gone (different genesis block); projection reset and rebuilding from the start block",
        genesis,
      });
    }
    await loadContracts();
  };

  /** Records why indexing fails, creating the head row if the chain was never reached. */
  const recordFailure = async (message: string) => {
    await db
      .withConnection((connection) =>
        connection.query(
          `INSERT INTO indexer_heads (scope, chain_id, next_block, failure, updated_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (scope) DO UPDATE SET failure = EXCLUDED.failure, updated_at = EXCLUDED.updated_at
           WHERE indexer_heads.failure IS DISTINCT FROM EXCLUDED.failure`,
          [scope.id, scope.chainId, scope.startBlock.toString(), message, new Date(clock.now())],
        ),
      )
      .catch(() => {});
  };

  const decode = (raw: Log): { log: Omit<IndexedLog, "blockTime">; contract: Discovered } | undefined => {
    const address = raw.address.toLowerCase();
    const contract = kinds.get(address);
    if (!contract) return undefined;
    const decodeWith = decoders.get(contract.kind);
    if (!decodeWith) return undefined;
    try {
      const decoded = decodeWith(raw.data, raw.topics as Hex[]);
      if (!decoded) return undefined;
      return {
        contract,
        log: {
          address,
          event: String(decoded.eventName),
          args: (decoded.args ?? {}) as Record<string, unknown>,
          blockNumber: raw.blockNumber as bigint,
          blockHash: String(raw.blockHash),
          logIndex: raw.logIndex as number,
          transactionHash: String(raw.transactionHash),
        },
      };
    } catch {
      // A log this ABI does not describe (an approval, say): not part of the projection.
      return undefined;
    }
  };

  const getLogs = async (addresses: string[], fromBlock: bigint, toBlock: bigint) =>
    addresses.length === 0 ? [] : client.getLogs({ address: addresses as Hex[], fromBlock, toBlock });

  /** Logs of [from, to], in chain order; contracts created inside the range are read in the same pass. */
  const fetchRange = async (from: bigint, to: bigint) => {
    const known = [...kinds.keys()];
    const first = await getLogs(known, from, to);
    const decoded = first.map(decode).filter((entry) => entry !== undefined);
    // Factories may create contracts inside this range: read their logs too.
    const created: Discovered[] = [];
    for (const { log: entry, contract } of decoded) {
      if (contract.kind === "factory" && (entry.event === "GameCreated" || entry.event === "MarketCreated")) {
        if (entry.event === "GameCreated") {
          const drop = String(entry.args["drop"]).toLowerCase();
          created.push(
            { address: drop, kind: "drop" },
            { address: String(entry.args["token"]).toLowerCase(), kind: "token", parent: drop },
          );
        } else {
          created.push({ address: String(entry.args["market"]).toLowerCase(), kind: "market" });
        }
      }
    }
    const fresh = created.filter((contract) => !kinds.has(contract.address));
    for (const contract of fresh) kinds.set(contract.address, contract);
    if (fresh.length > 0) {
      const second = await getLogs(
        fresh.map((contract) => contract.address),
        from,
        to,
      );
      for (const raw of second) {
        const entry = decode(raw);
        if (entry) decoded.push(entry);
      }
    }
    decoded.sort((a, b) =>
      a.log.blockNumber === b.log.blockNumber
        ? a.log.logIndex - b.log.logIndex
        : a.log.blockNumber < b.log.blockNumber
          ? -1
          : 1,
    );
    return { decoded, created: fresh };
  };

  /**
   * Indexes [from, to] and advances the head, all in one transaction.
   * Returns the number of logs applied.
   */
  const indexRange = async (head: HeadRow, from: bigint, to: bigint, latest: bigint) => {
    const { decoded, created } = await fetchRange(from, to);
    // Headers: every block with logs (for timestamps), the last block (for the head hash)
    // and every block of the unfinalised window (for reorg detection).
    const finalized = latest - BigInt(scope.finalityDepth);
    const numbers = new Set<bigint>(decoded.map((entry) => entry.log.blockNumber));
    numbers.add(to);
    for (let n = from > finalized ? from : finalized + 1n; n <= to; n++) numbers.add(n);
    const headers = new Map<bigint, { hash: string; parentHash: string; timestamp: bigint }>();
    await Promise.all(
      [...numbers].map(async (blockNumber) => {
        const block = await client.getBlock({ blockNumber });
        headers.set(blockNumber, {
          hash: block.hash as string,
          parentHash: block.parentHash,
          timestamp: block.timestamp,
        });
      }),
    );
    // The chain must not have moved under us between the calls.
    for (const entry of decoded) {
      if (headers.get(entry.log.blockNumber)?.hash !== entry.log.blockHash) {
        throw new ChainMovedError(`block ${entry.log.blockNumber} changed while reading logs`);
      }
    }
    const firstHeader = headers.get(from);
    if (head.block_hash && firstHeader && from > finalized && firstHeader.parentHash !== head.block_hash) {
      throw new ChainMovedError(`block ${from} does not follow the indexed block ${from - 1n}`);
    }
    const last = headers.get(to)!;
    columns ??= await db.withConnection(readColumns);
    const allColumns = columns;

    await inTransaction(async (connection) => {
      const store = new BatchStore(connection, scope.id, finalized < to ? finalized : null, allColumns);
      const logs: Array<{ log: IndexedLog; contract: Discovered }> = decoded.map(
        ({ log: entry, contract }) => ({
          contract,
          log: { ...entry, blockTime: new Date(Number(headers.get(entry.blockNumber)!.timestamp) * 1000) },
        }),
      );
      // Record every log; only logs not applied before are handled (recovery may have applied some).
      if (logs.length > 0) {
        const fresh = await recordEvents(connection, logs);
        const toApply = logs.filter(({ log: entry }) => fresh.has(`${entry.blockNumber}:${entry.logIndex}`));
        await applyLogs(store, toApply);
      }
      await store.flush();
      if (created.length > 0) {
        await connection.query(
          `INSERT INTO indexer_contracts (scope, address, kind, parent, block_number)
           SELECT $1, c->>'address', c->>'kind', c->>'parent', $3::bigint FROM json_array_elements($2::json) c
           ON CONFLICT DO NOTHING`,
          [scope.id, JSON.stringify(created), to.toString()],
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
      await connection.query("DELETE FROM indexer_undo WHERE scope = $1 AND block_number <= $2", [
        scope.id,
        finalized.toString(),
      ]);
      await connection.query("DELETE FROM indexer_blocks WHERE scope = $1 AND number <= $2", [
        scope.id,
        finalized.toString(),
      ]);
      await connection.query(
        `UPDATE indexer_heads SET next_block = $2, block_hash = $3, revision = revision + 1, updated_at = $4,
           failure = NULL, observed_head = $5, observed_at = $4 WHERE scope = $1`,
        [scope.id, (to + 1n).toString(), last.hash, new Date(clock.now()), latest.toString()],
      );
      await connection.query("SELECT pg_notify($1, $2)", [INDEXER_CHANNEL, scope.id]);
    });
    return decoded.length;
  };

  /**
   * Inserts the logs into chain_events and returns the keys of those not
   * recorded before: only they are applied (recovery may have applied some).
   */
  const recordEvents = async (
    connection: SqlConnection,
    logs: Array<{ log: IndexedLog }>,
  ): Promise<Set<string>> => {
    const { rows } = await connection.query<{ block_number: string; log_index: number }>(
      `INSERT INTO chain_events (scope, block_number, log_index, chain_id, block_hash, block_time, transaction_hash, address, event, args)
       SELECT $1, (e->>'b')::bigint, (e->>'i')::int, $2, e->>'h', (e->>'t')::timestamptz, e->>'x', e->>'a', e->>'n', e->'r'
       FROM jsonb_array_elements($3::jsonb) e
       ON CONFLICT DO NOTHING RETURNING block_number, log_index`,
      [
        scope.id,
        scope.chainId,
        JSON.stringify(
          logs.map(({ log: entry }) => ({
            b: entry.blockNumber.toString(),
            i: entry.logIndex,
            h: entry.blockHash,
            t: entry.blockTime.toISOString(),
            x: entry.transactionHash,
            a: entry.address,
            n: entry.event,
            r: plainArgs(entry.args),
          })),
        ),
      ],
    );
    return new Set(rows.map((row) => `${row.block_number}:${row.log_index}`));
  };

  const applyLogs = async (store: BatchStore, logs: Array<{ log: IndexedLog; contract: Discovered }>) => {
    // Contracts created by earlier logs of this batch are already in `kinds`; load every row the batch reads.
    const reads = new Map<string, Array<Record<string, unknown>>>();
    for (const { log: entry, contract } of logs) {
      for (const { table, key } of scope.reads(entry, contract)) {
        const list = reads.get(table) ?? [];
        list.push(key);
        reads.set(table, list);
      }
    }
    for (const [table, keys] of reads) await store.load(table as never, keys);
    for (const { log: entry, contract } of logs) {
      const discovered = scope.apply(store, entry, contract);
      // A game's drop and token rows are read by logs later in the same batch.
      if (discovered) {
        for (const child of discovered) {
          if (child.kind === "drop" || child.kind === "market") {
            const table = child.kind === "drop" ? "classic_games" : "predict_markets";
            const key =
              child.kind === "drop"
                ? { chain_id: scope.chainId, drop_address: child.address }
                : { chain_id: scope.chainId, address: child.address };
            store.get(table, key);
          }
        }
      }
    }
  };

  /** Walks back through the stored window to the last block the chain still has; rolls back above it. */
  const handleReorg = async (head: HeadRow) => {
    const { rows } = await db.withConnection((connection) =>
      connection.query<{ number: string; hash: string }>(
        "SELECT number, hash FROM indexer_blocks WHERE scope = $1 ORDER BY number DESC",
        [scope.id],
      ),
    );
    let fork: bigint | undefined;
    for (const row of rows) {
      const block = await client.getBlock({ blockNumber: BigInt(row.number) }).catch(() => undefined);
      if (block?.hash === row.hash) {
        fork = BigInt(row.number);
        break;
      }
    }
    if (fork === undefined) {
      log.warn({
        msg: "reorg deeper than the stored window (finality depth); resetting the scope",
        nextBlock: head.next_block,
      });
      await inTransaction(async (connection) => {
        await resetScope(connection, scope.id);
        await connection.query(
          "UPDATE indexer_heads SET next_block = $2, block_hash = NULL, revision = revision + 1, updated_at = $3 WHERE scope = $1",
          [scope.id, scope.startBlock.toString(), new Date(clock.now())],
        );
        await connection.query("SELECT pg_notify($1, $2)", [INDEXER_CHANNEL, scope.id]);
      });
      await loadContracts();
      return;
    }
    const forkBlock = fork;
    const forkHash = rows.find((row) => BigInt(row.number) === forkBlock)!.hash;
    const undone = await inTransaction(async (connection) => {
      const count = await rollbackScope(connection, scope.id, forkBlock);
      await connection.query(
        "UPDATE indexer_heads SET next_block = $2, block_hash = $3, revision = revision + 1, updated_at = $4 WHERE scope = $1",
        [scope.id, (forkBlock + 1n).toString(), forkHash, new Date(clock.now())],
      );
      await connection.query("SELECT pg_notify($1, $2)", [INDEXER_CHANNEL, scope.id]);
      return count;
    });
    await loadContracts();
    log.warn({ msg: "reorg: rolled back to the fork block", forkBlock: forkBlock.toString(), undone });
  };

  /** One step: index what is new, or wait. Returns true when more is waiting. */
  const step = async (): Promise<boolean> => {
    const head = await db.withConnection(readHead);
    if (!head) throw new Error("head row missing");
    const latest = await client.getBlockNumber({ cacheTime: 0 });
    const next = BigInt(head.next_block);
    if (head.block_hash && next > scope.startBlock) {
      const indexed = await client.getBlock({ blockNumber: next - 1n }).catch(() => undefined);
      if (!indexed || indexed.hash !== head.block_hash) {
        await handleReorg(head);
        return true;
      }
    }
    if (next > latest) {
      await db.withConnection((connection) =>
        connection.query("UPDATE indexer_heads SET observed_head = $2, observed_at = $3 WHERE scope = $1", [
          scope.id,
          latest.toString(),
          new Date(clock.now()),
        ]),
      );
      return false;
    }
    const to = next + BigInt(range) - 1n < latest ? next + BigInt(range) - 1n : latest;
    try {
      const logs = await indexRange(head, next, to, latest);
      const blocks = Number(to - next + 1n);
      options.onProgress?.({ scope: scope.id, blocks, logs });
      // Size the next range from this one's log density; shrink hard on provider limits below.
      const sized = logs === 0 ? range * 2 : Math.floor((blocks * TARGET_LOGS_PER_RANGE) / logs);
      range = Math.min(maxRange, Math.max(1, sized));
    } catch (error) {
      if (error instanceof ChainMovedError) {
        log.info({ msg: "chain moved while reading; checking for a reorg", reason: error.message });
        return true;
      }
      if (isRangeTooLarge(error) && range > 1) {
        range = Math.max(1, Math.floor(range / 10));
        log.info({ msg: "provider refused the log range; shrinking", range });
        return true;
      }
      throw error;
    }
    return to < latest;
  };

  const loop = async () => {
    let backoff = 250;
    while (!stopped) {
      try {
        if (!lock || lock.lost()) {
          lock = await db.tryAdvisoryLock(`mkt-indexer:${scope.id}`);
          if (!lock) {
            await sleep(2_000);
            continue;
          }
          await ensureHead();
        }
        const more = await step();
        backoff = 250;
        if (!more) await sleep(pollIntervalMs);
      } catch (error) {
        if (stopped) break;
        const message = describeFailure(error);
        log.warn({ msg: "indexing failed; retrying", reason: message, retryInMs: backoff });
        await recordFailure(message.slice(0, 500));
        await sleep(backoff);
        backoff = Math.min(30_000, backoff * 2);
      }
    }
  };

  return {
    scope,
    start() {
      running ??= loop();
    },
    /** Indexes until the head reaches the chain's current block (tests, backfill benchmarks). */
    async syncOnce(): Promise<void> {
      lock ??= await db.tryAdvisoryLock(`mkt-indexer:${scope.id}`);
      if (!lock) throw new Error("another process holds this scope's writer lock");
      await ensureHead();
      while (await step()) {}
    },
    /** Re-applies one transaction's logs, idempotently (classic `/events/{txHash}`). */
    async reapplyTransaction(hash: Hex): Promise<{ applied: number; found: boolean; pending: boolean }> {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined);
      if (!receipt) return { applied: 0, found: false, pending: false };
      // Logs ahead of the head are the indexer's to apply, in order, when it gets there.
      const head = await db.withConnection(readHead);
      if (!head || receipt.blockNumber >= BigInt(head.next_block))
        return { applied: 0, found: true, pending: true };
      const latest = await client.getBlockNumber({ cacheTime: 0 });
      const finalized = latest - BigInt(scope.finalityDepth);
      const block = await client.getBlock({ blockNumber: receipt.blockNumber });
      const decoded = receipt.logs.map((raw) => decode(raw as Log)).filter((entry) => entry !== undefined);
      if (decoded.length === 0) return { applied: 0, found: true, pending: false };
      columns ??= await db.withConnection(readColumns);
      const allColumns = columns;
      const applied = await inTransaction(async (connection) => {
        const store = new BatchStore(
          connection,
          scope.id,
          receipt.blockNumber > finalized ? finalized : null,
          allColumns,
        );
        const logs = decoded.map(({ log: entry, contract }) => ({
          contract,
          log: { ...entry, blockTime: new Date(Number(block.timestamp) * 1000) },
        }));
        const fresh = await recordEvents(connection, logs);
        await applyLogs(
          store,
          logs.filter(({ log: entry }) => fresh.has(`${entry.blockNumber}:${entry.logIndex}`)),
        );
        await store.flush();
        if (fresh.size > 0) {
          await connection.query(
            "UPDATE indexer_heads SET revision = revision + 1, updated_at = $2 WHERE scope = $1",
            [scope.id, new Date(clock.now())],
          );
          await connection.query("SELECT pg_notify($1, $2)", [INDEXER_CHANNEL, scope.id]);
        }
        return fresh.size;
      });
      return { applied, found: true, pending: false };
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
      await lock?.release();
      lock = null;
    },
  };
}

export type ScopeIndexer = ReturnType<typeof createScopeIndexer>;

/**
 * One line saying why indexing failed. viem errors carry a short message and
 * the provider's details; their full message also names the request URL,
 * which may hold a provider API key, so it is never used.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof BaseError)
    return error.details ? `${error.shortMessage}: ${error.details}` : error.shortMessage;
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  return String(error);
}

/** Event arguments as JSON values: uint values as decimal strings, arrays element by element. */
function plainArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in args) out[name] = plainValue(args[name]);
  return out;
}

function plainValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(plainValue);
  return value;
}

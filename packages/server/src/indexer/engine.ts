import type { Logger } from "pino";
import {
  BaseError,
  createPublicClient,
  type Hex,
  http,
  LimitExceededRpcError,
  numberToHex,
  type PublicClient,
  ResponseBodyTooLargeError,
  TimeoutError,
} from "viem";
import type { AdvisoryLock, Database, SqlConnection } from "../db/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import { createLogDecoder } from "./decode.ts";
import type { Discovered, IndexedLog, ScopeDefinition } from "./projections.ts";
import { BatchStore, type Column, readColumns, resetScope, rollbackScope } from "./store.ts";

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
  /** Blocks of the first eth_getLogs range (16); later ranges are sized by log density, up to `maxRange` (10,000). */
  initialRange?: number;
  maxRange?: number;
  /**
   * Ranges read ahead while one is written (default 2; 0: one range at a
   * time). Only finalised blocks are read ahead.
   */
  readAhead?: number;
  onProgress?: (progress: IndexerProgress) => void;
  client?: PublicClient;
}

/** Provider answers that say the requested log range is too large (wording differs per provider). */
const RANGE_ERROR = /range|too many|limit exceeded|exceed|response size|10000 results|block range/i;
/** Logs one range should bring: large enough to amortise a request, small enough for any provider's answer. */
const TARGET_LOGS_PER_RANGE = 5_000;
/** Most logs one transaction writes when ranges read ahead are ready and join it. */
const MAX_LOGS_PER_WRITE = 20_000;

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

/** A log as JSON-RPC returns it (eth_getLogs, receipts): quantities in hex. */
interface RpcLog {
  address: string;
  topics: readonly Hex[];
  data: Hex;
  blockNumber: Hex | null;
  blockHash: Hex | null;
  logIndex: Hex | null;
  transactionHash: Hex | null;
}

interface BlockHeader {
  hash: string;
  parentHash: string;
  time: Date;
}

interface DecodedLog {
  /** `blockTime` is set from the block's header when the range is written. */
  log: IndexedLog;
  contract: Discovered;
}

/** The block time of a decoded log until its header is read. */
const UNKNOWN_TIME = new Date(0);

/** One block range read from the chain. */
interface FetchedRange {
  from: bigint;
  to: bigint;
  /** Decoded logs; in chain order once the range is complete. */
  logs: DecodedLog[];
  headers: Map<bigint, BlockHeader>;
  /** Contracts created inside the range, in creation order. */
  created: Discovered[];
  /** Addresses whose logs over the range were read. */
  queried: Set<string>;
}

interface PlannedRange {
  from: bigint;
  to: bigint;
  fetched: Promise<FetchedRange>;
  /** Set once read. */
  ready?: FetchedRange;
}

/** Contracts a factory log creates. */
function createdBy({ log, contract }: DecodedLog): Discovered[] {
  if (contract.kind !== "factory") return [];
  if (log.event === "GameCreated") {
    const drop = String(log.args["drop"]).toLowerCase();
    return [
      { address: drop, kind: "drop" },
      { address: String(log.args["token"]).toLowerCase(), kind: "token", parent: drop },
    ];
  }
  if (log.event === "MarketCreated")
    return [{ address: String(log.args["market"]).toLowerCase(), kind: "market" }];
  return [];
}

const byChainOrder = (a: DecodedLog, b: DecodedLog) =>
  a.log.blockNumber === b.log.blockNumber
    ? a.log.logIndex - b.log.logIndex
    : a.log.blockNumber < b.log.blockNumber
      ? -1
      : 1;

/**
 * Follows one scope: fetches logs over adaptive block ranges, applies them
 * and advances the head in one transaction, detects reorgs by block and
 * parent hash inside the unfinalised window, and resets the scope when the
 * chain it indexed is gone. One writer per scope across replicas, through a
 * PostgreSQL advisory lock; replicas without the lock wait and retry.
 *
 * While one range is written, the next finalised ranges are already being
 * read and decoded (`readAhead`): a backfill keeps the RPC node, this process
 * and the database busy at once. Ranges read by the time a write starts join
 * it (up to MAX_LOGS_PER_WRITE logs), so when the database is the slower side
 * commits grow instead of queueing. Ranges read ahead are dropped whenever the
 * head does not continue where they start (reorg, reset, failure) or their
 * blocks changed since they were read.
 */
export function createScopeIndexer(options: ScopeIndexerOptions) {
  const { db, logger, clock, scope } = options;
  const log = logger.child({ scope: scope.id });
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const maxRange = options.maxRange ?? 10_000;
  const readAhead = options.readAhead ?? 2;
  /** Blocks per range: sized by log density, shrunk tenfold when a provider refuses. */
  let span = Math.min(maxRange, options.initialRange ?? 16);
  const transport = (batch: boolean) =>
    http(options.rpcUrl, { retryCount: 0, ...(batch ? { batch: { batchSize: 200 } } : {}) });
  // Headers are many small requests: batched. Log ranges are few large ones: each on its own
  // connection, so answers arrive (and are decoded) one by one.
  const client = options.client ?? (createPublicClient({ transport: transport(true) }) as PublicClient);
  const logsClient = options.client ?? (createPublicClient({ transport: transport(false) }) as PublicClient);
  const kinds = new Map<string, Discovered>(scope.contracts.map((contract) => [contract.address, contract]));
  const decoders = new Map(Object.entries(scope.abis).map(([kind, abi]) => [kind, createLogDecoder(abi)]));
  let columns: Map<string, Column[]> | undefined;
  let planned: PlannedRange[] = [];
  /** Set when a range failed to be written: `kinds` may hold contracts only it discovered. */
  let contractsStale = false;
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

  /** The head row, locked until the transaction ends: every writer of the scope's rows takes it first. */
  const lockHead = async (connection: SqlConnection) =>
    (
      await connection.query<{ next_block: string }>(
        "SELECT next_block FROM indexer_heads WHERE scope = $1 FOR UPDATE",
        [scope.id],
      )
    ).rows[0];

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
    contractsStale = false;
  };

  /**
   * Drops the ranges read ahead. Their reads go on but are never used; the
   * contracts they discovered are known to them only (see `readRange`).
   */
  const dropPlanned = () => {
    planned = [];
  };

  /** After a failed write: `kinds` may hold contracts of the range that was not written. */
  const abandonRanges = () => {
    planned = [];
    contractsStale = true;
  };

  /** A block's header, or undefined when the chain has no such block. */
  const header = async (blockNumber: bigint): Promise<BlockHeader | undefined> => {
    const block = await client.request({
      method: "eth_getBlockByNumber",
      params: [numberToHex(blockNumber), false],
    });
    if (!block?.hash) return undefined;
    return {
      hash: block.hash,
      parentHash: block.parentHash,
      time: new Date(Number(BigInt(block.timestamp)) * 1000),
    };
  };

  const latestBlock = async () => BigInt(await client.request({ method: "eth_blockNumber" }));

  /** Makes sure the head row exists and belongs to the chain the RPC serves now. */
  const ensureHead = async () => {
    const genesis = (await header(0n))?.hash;
    if (!genesis) throw new Error("the RPC has no block 0");
    dropPlanned();
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

  // Logs of one block (and of one transaction) share these strings: one copy each is kept.
  let lastBlockHash = "";
  let lastTransactionHash = "";
  const decode = (raw: RpcLog, known: Map<string, Discovered>): DecodedLog | undefined => {
    const contract = known.get(raw.address.toLowerCase());
    if (!contract || raw.blockNumber === null || raw.logIndex === null) return undefined;
    const decodeWith = decoders.get(contract.kind);
    if (!decodeWith) return undefined;
    try {
      const decoded = decodeWith(raw.data, raw.topics);
      if (!decoded) return undefined;
      if (raw.blockHash !== lastBlockHash) lastBlockHash = String(raw.blockHash);
      if (raw.transactionHash !== lastTransactionHash) lastTransactionHash = String(raw.transactionHash);
      return {
        contract,
        log: {
          address: contract.address,
          event: decoded.eventName,
          args: decoded.args,
          blockNumber: BigInt(raw.blockNumber),
          blockHash: lastBlockHash,
          blockTime: UNKNOWN_TIME,
          logIndex: Number(raw.logIndex),
          transactionHash: lastTransactionHash,
        },
      };
    } catch {
      // A log this ABI does not describe (an approval, say): not part of the projection.
      return undefined;
    }
  };

  /**
   * Reads the logs of `addresses` over the range (those not read yet), and
   * the logs of the contracts they create; `known` learns those contracts.
   */
  const readLogs = async (
    range: FetchedRange,
    addresses: Iterable<string>,
    known: Map<string, Discovered>,
  ) => {
    let pending = [...addresses].filter((address) => !range.queried.has(address));
    while (pending.length > 0) {
      for (const address of pending) range.queried.add(address);
      const raw = (await logsClient.request({
        method: "eth_getLogs",
        params: [
          { address: pending as Hex[], fromBlock: numberToHex(range.from), toBlock: numberToHex(range.to) },
        ],
      })) as RpcLog[];
      const fresh: string[] = [];
      for (const entry of raw) {
        const decoded = decode(entry, known);
        if (!decoded) continue;
        range.logs.push(decoded);
        for (const child of createdBy(decoded)) {
          if (known.has(child.address)) continue;
          known.set(child.address, child);
          range.created.push(child);
          fresh.push(child.address);
        }
      }
      pending = fresh;
    }
  };

  /** Reads the headers of these blocks that the range does not have yet. */
  const readHeaders = async (range: FetchedRange, numbers: Iterable<bigint>) => {
    const missing = [...new Set(numbers)].filter((number) => !range.headers.has(number));
    await Promise.all(
      missing.map(async (number) => {
        const found = await header(number);
        if (!found) throw new ChainMovedError(`block ${number} is gone`);
        range.headers.set(number, found);
      }),
    );
  };

  const blocksWithLogs = (range: FetchedRange) => range.logs.map((entry) => entry.log.blockNumber);

  /**
   * Starts reading a range with the contracts known now, on a copy: what it
   * discovers joins `kinds` when its turn comes (`completeRange`), with the
   * logs of contracts earlier ranges discovered meanwhile.
   */
  const readRange = (from: bigint, to: bigint): PlannedRange => {
    const range: FetchedRange = { from, to, logs: [], headers: new Map(), created: [], queried: new Set() };
    const fetched = (async () => {
      await readLogs(range, kinds.keys(), new Map(kinds));
      // Size later ranges by this one's log density; shrink hard on provider limits (see step).
      const blocks = Number(to - from + 1n);
      const logs = range.logs.length;
      const sized = logs === 0 ? span * 2 : Math.floor((blocks * TARGET_LOGS_PER_RANGE) / logs);
      span = Math.min(maxRange, Math.max(1, sized));
      await readHeaders(range, [...blocksWithLogs(range), to]);
      return range;
    })();
    const planned: PlannedRange = { from, to, fetched };
    // A failure is reported when the range's turn comes, or never if it is dropped.
    fetched.then(
      (ready) => {
        planned.ready = ready;
      },
      () => {},
    );
    return planned;
  };

  /**
   * Plans up to `count` ranges from `next` on, each read as soon as it is
   * planned; ranges read `ahead` of the one being written end at the
   * finalised block. Planned ranges that do not start at `next` are dropped.
   */
  const plan = (next: bigint, latest: bigint, finalized: bigint, count: number, ahead: boolean) => {
    if (planned[0] && planned[0].from !== next) dropPlanned();
    let from = planned.length > 0 ? planned[planned.length - 1]!.to + 1n : next;
    while (planned.length < count && from <= latest) {
      let to = from + BigInt(span) - 1n;
      if (to > latest) to = latest;
      if (ahead) {
        // Only finalised blocks are read ahead: what is read ahead cannot be reorganised away.
        if (from > finalized) break;
        if (to > finalized) to = finalized;
      }
      planned.push(readRange(from, to));
      from = to + 1n;
    }
  };

  /**
   * Completes a range when its turn comes: the logs of contracts discovered
   * since it was read (by earlier ranges), the headers it needs, and the
   * check that logs and headers are of one chain.
   */
  const completeRange = async (range: FetchedRange, finalized: bigint) => {
    for (const contract of range.created)
      if (!kinds.has(contract.address)) kinds.set(contract.address, contract);
    await readLogs(range, kinds.keys(), kinds);
    range.logs.sort(byChainOrder);
    // Headers: every block with logs (for timestamps), the first block (to check it follows the
    // head), the last block (for the head hash) and every block of the unfinalised window.
    const numbers = blocksWithLogs(range);
    numbers.push(range.from, range.to);
    for (let n = range.from > finalized ? range.from : finalized + 1n; n <= range.to; n++) numbers.push(n);
    await readHeaders(range, numbers);
    for (const entry of range.logs) {
      if (range.headers.get(entry.log.blockNumber)?.hash !== entry.log.blockHash) {
        throw new ChainMovedError(`block ${entry.log.blockNumber} changed while reading logs`);
      }
    }
    // The range may have been read a while ago (ahead of its turn): its last block must still be
    // the one read with its logs, so that no block of the range changed since.
    const last = await header(range.to);
    if (last?.hash !== range.headers.get(range.to)?.hash) {
      throw new ChainMovedError(`blocks up to ${range.to} changed since they were read`);
    }
  };

  /** Appends a completed range to the completed range it follows. */
  const joinRange = (range: FetchedRange, following: FetchedRange) => {
    if (following.headers.get(following.from)!.parentHash !== range.headers.get(range.to)!.hash) {
      throw new ChainMovedError(`block ${following.from} does not follow block ${range.to}`);
    }
    range.to = following.to;
    for (const entry of following.logs) range.logs.push(entry);
    for (const [number, header] of following.headers) range.headers.set(number, header);
    for (const contract of following.created) range.created.push(contract);
  };

  /**
   * Writes a completed range and advances the head, all in one transaction.
   * Returns the number of logs applied.
   */
  const writeRange = async (head: HeadRow, range: FetchedRange, latest: bigint) => {
    const finalized = latest - BigInt(scope.finalityDepth);
    const { from, to, headers } = range;
    // A range read ahead may predate a reorg: it must continue the chain the head is on.
    if (head.block_hash && headers.get(from)!.parentHash !== head.block_hash) {
      throw new ChainMovedError(`block ${from} does not follow the indexed block ${from - 1n}`);
    }
    const last = headers.get(to)!;
    columns ??= await db.withConnection(readColumns);
    const allColumns = columns;
    const logs = range.logs;
    for (const { log: entry } of logs) entry.blockTime = headers.get(entry.blockNumber)!.time;

    await inTransaction(async (connection) => {
      // Nothing is recorded at or above the head's next block (recovery writes below it, under
      // this lock; rollbacks delete above the fork): every log of the range is new.
      const locked = await lockHead(connection);
      if (locked?.next_block !== from.toString()) {
        throw new ChainMovedError(`the head moved to ${locked?.next_block} while block ${from} was read`);
      }
      const store = new BatchStore(connection, scope.id, finalized < to ? finalized : null, allColumns);
      await applyLogs(store, logs);
      await store.flush();
      if (range.created.length > 0) {
        await connection.query(
          `INSERT INTO indexer_contracts (scope, address, kind, parent, block_number)
           SELECT $1, c->>'address', c->>'kind', c->>'parent', $3::bigint FROM json_array_elements($2::json) c
           ON CONFLICT DO NOTHING`,
          [scope.id, JSON.stringify(range.created), to.toString()],
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
         UPDATE indexer_heads SET next_block = $2, block_hash = $3, revision = revision + 1, updated_at = $4,
           failure = NULL, observed_head = $5, observed_at = $4 WHERE scope = $1
         RETURNING pg_notify($7, $1)`,
        [
          scope.id,
          (to + 1n).toString(),
          last.hash,
          new Date(clock.now()),
          latest.toString(),
          finalized.toString(),
          INDEXER_CHANNEL,
        ],
      );
    });
    for (const contract of range.created) kinds.set(contract.address, contract);
    return logs.length;
  };

  /**
   * Applies logs through the store. A log its handler recorded in a domain
   * table (a claim, a trade) is recorded there only; any other is recorded in chain_events.
   */
  const applyLogs = async (store: BatchStore, logs: DecodedLog[]) => {
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
      const appended = store.appended;
      const discovered = scope.apply(store, entry, contract);
      if (store.appended === appended) {
        store.append("chain_events", {
          scope: scope.id,
          block_number: entry.blockNumber.toString(),
          log_index: entry.logIndex,
          chain_id: scope.chainId,
          block_hash: entry.blockHash,
          block_time: entry.blockTime,
          transaction_hash: entry.transactionHash,
          address: entry.address,
          event: entry.event,
          args: plainArgs(entry.args),
        });
      }
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
    dropPlanned();
    const { rows } = await db.withConnection((connection) =>
      connection.query<{ number: string; hash: string }>(
        "SELECT number, hash FROM indexer_blocks WHERE scope = $1 ORDER BY number DESC",
        [scope.id],
      ),
    );
    let fork: bigint | undefined;
    for (const row of rows) {
      const block = await header(BigInt(row.number));
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
        await lockHead(connection);
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
      await lockHead(connection);
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
    if (contractsStale) await loadContracts();
    const head = await db.withConnection(readHead);
    if (!head) throw new Error("head row missing");
    const next = BigInt(head.next_block);
    const indexedBlock = head.block_hash && next > scope.startBlock ? next - 1n : undefined;
    const [latest, indexed] = await Promise.all([
      latestBlock(),
      indexedBlock === undefined ? undefined : header(indexedBlock),
    ]);
    if (indexedBlock !== undefined && indexed?.hash !== head.block_hash) {
      await handleReorg(head);
      return true;
    }
    if (next > latest) {
      dropPlanned();
      await db.withConnection((connection) =>
        connection.query("UPDATE indexer_heads SET observed_head = $2, observed_at = $3 WHERE scope = $1", [
          scope.id,
          latest.toString(),
          new Date(clock.now()),
        ]),
      );
      return false;
    }
    const finalized = latest - BigInt(scope.finalityDepth);
    plan(next, latest, finalized, 1, false);
    const current = planned.shift()!;
    // The next ranges are read while this one is written.
    plan(current.to + 1n, latest, finalized, readAhead, true);
    let to = current.to;
    try {
      const range = await current.fetched;
      await completeRange(range, finalized);
      // Ranges read meanwhile join this transaction: when the database is the slower side,
      // fewer and larger commits.
      while (planned[0]?.ready && range.logs.length + planned[0].ready.logs.length <= MAX_LOGS_PER_WRITE) {
        const following = planned.shift()!.ready!;
        await completeRange(following, finalized);
        joinRange(range, following);
      }
      to = range.to;
      plan(to + 1n, latest, finalized, readAhead, true);
      const logs = await writeRange(head, range, latest);
      options.onProgress?.({ scope: scope.id, blocks: Number(to - current.from + 1n), logs });
    } catch (error) {
      abandonRanges();
      if (error instanceof ChainMovedError) {
        log.info({ msg: "chain moved while reading; checking for a reorg", reason: error.message });
        return true;
      }
      if (isRangeTooLarge(error) && span > 1) {
        span = Math.max(1, Math.floor(Number(current.to - current.from + 1n) / 10));
        log.info({ msg: "provider refused the log range; shrinking", range: span });
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
        abandonRanges();
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
      try {
        while (await step()) {}
      } finally {
        dropPlanned();
      }
    },
    /** Re-applies one transaction's logs, idempotently (classic `/events/{txHash}`). */
    async reapplyTransaction(hash: Hex): Promise<{ applied: number; found: boolean; pending: boolean }> {
      const receipt = await client
        .request({ method: "eth_getTransactionReceipt", params: [hash] })
        .catch(() => null);
      if (!receipt) return { applied: 0, found: false, pending: false };
      const blockNumber = BigInt(receipt.blockNumber);
      const [latest, block] = await Promise.all([latestBlock(), header(blockNumber)]);
      if (!block) return { applied: 0, found: false, pending: false };
      const finalized = latest - BigInt(scope.finalityDepth);
      const decoded = receipt.logs
        .map((raw) => decode(raw as RpcLog, kinds))
        .filter((entry) => entry !== undefined);
      if (decoded.length === 0) return { applied: 0, found: true, pending: false };
      columns ??= await db.withConnection(readColumns);
      const allColumns = columns;
      return inTransaction(async (connection) => {
        // Under the head lock: the indexer cannot move the head or write this block meanwhile.
        const head = await lockHead(connection);
        // Logs ahead of the head are the indexer's to apply, in order, when it gets there.
        if (!head || blockNumber >= BigInt(head.next_block))
          return { applied: 0, found: true, pending: true };
        for (const { log: entry } of decoded) entry.blockTime = block.time;
        // Where each log would be recorded tells whether it was: a dry run of the handlers, never flushed.
        const dryRun = new BatchStore(connection, scope.id, null, allColumns);
        await applyLogs(dryRun, decoded);
        const recorded = await dryRun.recorded();
        const fresh = decoded.filter(
          ({ log: entry }) => !recorded.has(`${entry.blockNumber}:${entry.logIndex}`),
        );
        if (fresh.length === 0) return { applied: 0, found: true, pending: false };
        const store = new BatchStore(
          connection,
          scope.id,
          blockNumber > finalized ? finalized : null,
          allColumns,
        );
        await applyLogs(store, fresh);
        await store.flush();
        await connection.query(
          "UPDATE indexer_heads SET revision = revision + 1, updated_at = $2 WHERE scope = $1",
          [scope.id, new Date(clock.now())],
        );
        await connection.query("SELECT pg_notify($1, $2)", [INDEXER_CHANNEL, scope.id]);
        return { applied: fresh.length, found: true, pending: false };
      });
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
      dropPlanned();
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

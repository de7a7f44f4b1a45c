import { hostname } from "node:os";
import type { Logger } from "pino";
import type { Hex, PublicClient } from "viem";
import { defaultReplicaId } from "../config/index.ts";
import { type Database, DatabaseUnavailableError } from "../db/index.ts";
import { createDependencyLog, type DependencyLog } from "../logging/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import { createWriter } from "./apply.ts";
import { createHeadStore } from "./head-store.ts";
import type { Projection } from "./projection.ts";
import { ChainMovedError, createRangeReader, type DecodedLog, KnownContracts } from "./range-reader.ts";
import { finalizedBlock, indexedBlock } from "./ranges.ts";
import { createReorgHandler, type Reorg } from "./reorg.ts";
import {
  createChainRpc,
  describeFailure,
  FIRST_RETRY_DELAY_MS,
  isRangeTooLarge,
  RpcUnavailableError,
  retryDelay,
  ViewReadError,
} from "./rpc.ts";
import { createStatisticsRefresher } from "./statistics.ts";
import { createWriterLock, type HandOff } from "./writer-lock.ts";

export interface IndexerProgress {
  scope: string;
  blocks: number;
  logs: number;
}

/**
 * How often a caught-up scope records an unchanged chain head as observed again. Well inside the
 * prediction feed's `maxObservationAgeSeconds` (30 s, PREDICT_FRESHNESS_BOUNDS), past which its
 * reads answer 503: a live indexer never looks unobserved.
 */
const OBSERVATION_REFRESH_MS = 5_000;

/**
 * How often a replica without a scope's writer lock tries to take it. PostgreSQL frees a session
 * lock as soon as its connection closes, which for a killed or crashed process on a live host is at
 * once: a standby takes over within this interval (plus a connection setup).
 */
export const WRITER_LOCK_RETRY_MS = 2_000;

export interface ScopeIndexerOptions {
  db: Database;
  logger: Logger;
  /** Where failed steps are logged, throttled (default: a log of its own on `logger`). */
  dependencies?: DependencyLog;
  clock: Clock;
  scope: Projection;
  rpcUrl: string;
  /** The replica id the writer lock is taken under (`Config.replicaId`; default `<hostname>-<pid>`). */
  replicaId?: string;
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
  /** Told of every reorganisation the scope repaired (metrics). */
  onReorg?: (reorg: Reorg) => void;
  client?: PublicClient;
  /**
   * Test and fault-injection seam, never configuration: logs it matches are
   * dropped from the normal indexing path (never applied nor recorded, while
   * the head moves past them and the contracts a range creates are still
   * followed), as if the indexer had missed them. Recovery
   * (`recoverTransaction`) does not consult it.
   */
  skipLog?: (log: DecodedLog) => boolean;
}

/** One log of a transaction as recovery saw it. */
export interface RecoveredLog {
  event: string;
  address: string;
  kind: string;
  logIndex: number;
  /** Applied by this recovery (the projection lacked it). */
  applied: boolean;
}

/** What `recoverTransaction` found and did. */
export interface TransactionRecovery {
  /** The chain has the receipt (and its block). */
  found: boolean;
  /** The block is at or above the head: the indexer applies it in order. */
  pending: boolean;
  applied: number;
  blockNumber?: bigint;
  /** The transaction's logs of the scope's contracts, in log order. */
  logs: RecoveredLog[];
}

export interface ScopeIndexer {
  /** The projection this indexer writes. */
  scope: Projection;
  /** Starts the indexing loop in the background; a second call changes nothing. */
  start(): void;
  /** Indexes until the head reaches the chain's current block (tests, backfill benchmarks). */
  syncOnce(): Promise<void>;
  /**
   * Re-reads one transaction's receipt and re-applies the logs the projection
   * lacks through the writer's own apply step, idempotently (classic
   * `/events/{txHash}`). Works whether or not this replica runs the loop: the
   * writer takes the head row's lock, so it never races the replica that does.
   */
  recoverTransaction(hash: Hex): Promise<TransactionRecovery>;
  /**
   * The chain has a new block: a caught-up scope polls now instead of at
   * the end of its poll interval (announced by an in-process dev chain).
   */
  newBlock(): void;
  /** This replica holds the scope's writer lock now. */
  holdsWriterLock(): boolean;
  /** Until when (Unix ms) this replica leaves the scope to others after a hand-off; 0 when it does not. */
  holdOffUntil(): number;
  /**
   * Hands the writer lock off: the batch in flight is written, the lock released, and this
   * replica leaves the scope alone for `holdOffMs` so another replica takes it.
   */
  handOff(holdOffMs: number): Promise<HandOff>;
  /** Stops the loop, waits for it to end and releases the writer lock. */
  stop(): Promise<void>;
}

/**
 * Follows one scope. The parts, each in its own module:
 * - rpc.ts: the JSON-RPC calls, raw, and which failures mean "range too large";
 * - ranges.ts: range sizes and read-ahead planning, pure;
 * - range-reader.ts: reads and decodes ranges, ahead of their turn, and the
 *   contracts the projection's factories create;
 * - apply.ts: writes a range's projection and the head advance in one transaction;
 * - head-store.ts: the head row and the scope's bookkeeping tables;
 * - reorg.ts: walks back to the fork and undoes, or resets the scope;
 * - the projection (projection.ts): what the generation reads and writes.
 *
 * One step: check the head's block is still on the chain (else roll back),
 * take the next range (read ahead or read now), join the ranges read
 * meanwhile, write them with the head, and plan the next reads. One writer
 * per scope across replicas, through a PostgreSQL advisory lock; replicas
 * without the lock wait and retry. A failed step drops what was read ahead,
 * is recorded in the head row and retried with backoff (`retryDelay`: 250 ms
 * doubling to 30 s); a step that failed because the database is unavailable
 * is retried as soon as the pool sees the database answer again, whatever the
 * backoff has grown to.
 */
export function createScopeIndexer(options: ScopeIndexerOptions): ScopeIndexer {
  const { db, logger, clock, scope } = options;
  const log = logger.child({ scope: scope.id });
  const dependencies = options.dependencies ?? createDependencyLog({ logger, now: () => clock.now() });
  /** The dependency-log name of this scope's failures other than the database's (RPC, decoding). */
  const failureName = `indexer ${scope.id}`;
  let failing = false;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const rpc = createChainRpc({ rpcUrl: options.rpcUrl, client: options.client });
  const heads = createHeadStore({ db, clock, scope });
  const contracts = new KnownContracts(scope.contracts);
  const reader = createRangeReader({
    rpc,
    projection: scope,
    contracts,
    initialRange: options.initialRange,
    maxRange: options.maxRange,
    readAhead: options.readAhead,
  });
  const writer = createWriter({
    db,
    projection: scope,
    heads,
    statistics: createStatisticsRefresher({ db, clock }),
  });
  const reorgs = createReorgHandler({
    db,
    heads,
    rpc,
    scopeId: scope.id,
    finalityDepth: scope.finalityDepth,
    log,
    onReorg: options.onReorg,
  });
  let stopped = false;
  let wake: (() => void) | undefined;
  let running: Promise<void> | undefined;

  /** Ends the poll wait in progress, when a new block is announced (`newBlock`). */
  let endPollWait: (() => void) | undefined;
  /** A new block was announced while no poll wait was in progress: the next one is skipped. */
  let blockAnnounced = false;
  /**
   * Waits `ms`; a poll wait (`untilNewBlock`) also ends when a new block is announced, and any
   * wait when `until` settles first.
   */
  const sleep = (ms: number, untilNewBlock = false, until?: Promise<void>) =>
    new Promise<void>((resolve) => {
      if (untilNewBlock && blockAnnounced) {
        blockAnnounced = false;
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        if (endPollWait === done) endPollWait = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
      if (untilNewBlock) endPollWait = done;
      until?.then(done);
    });

  const writerLock = createWriterLock({
    db,
    clock,
    log,
    scopeId: scope.id,
    replicaId: options.replicaId ?? defaultReplicaId(hostname(), process.pid),
    wake: () => wake?.(),
  });

  const reloadContracts = async () => contracts.reset(await heads.createdContracts());

  /**
   * The deployment's contracts that only views name (`Projection.resolveContracts`): read once, by
   * the loop or a recovery, whichever asks first; read again after a failure.
   */
  let resolving: Promise<void> | undefined;
  const resolveContracts = (): Promise<void> => {
    if (!scope.resolveContracts) return Promise.resolve();
    resolving ??= scope.resolveContracts(rpc.readContract).then(
      (found) => contracts.seed(found),
      (error: unknown) => {
        resolving = undefined;
        throw new ViewReadError(error);
      },
    );
    return resolving;
  };

  /**
   * What the projection reads from views for these logs (`Projection.prefetch`), before they are
   * applied. A failure is the RPC's, never a refused log range.
   */
  const prefetch = async (logs: readonly DecodedLog[]) => {
    try {
      await scope.prefetch?.(logs, rpc.readContract);
    } catch (error) {
      throw new ViewReadError(error);
    }
  };

  /** Makes sure the head row exists and belongs to the chain the RPC serves now. */
  const ensureHead = async () => {
    reader.drop();
    observed = undefined;
    await reorgs.adoptChain();
    await reloadContracts();
  };

  /** After a failed write: `contracts` may hold contracts of the range that was not written. */
  const abandonRanges = () => {
    reader.drop();
    contracts.stale = true;
  };

  /**
   * The chain head this scope last recorded as observed while caught up, and when. An unchanged
   * head is recorded again only every OBSERVATION_REFRESH_MS: each record is a write, and a
   * scope that polls an idle chain twice a second would otherwise write twice a second forever.
   */
  let observed: { block: bigint; at: number } | undefined;

  /** One step: index what is new, or wait. Returns true when more is waiting. */
  const step = async (): Promise<boolean> => {
    await resolveContracts();
    if (contracts.stale) await reloadContracts();
    const head = await db.withConnection(heads.read);
    if (!head) throw new Error("head row missing");
    const next = BigInt(head.next_block);
    const indexed = indexedBlock({ nextBlock: next, blockHash: head.block_hash }, scope.startBlock);
    const [latest, indexedHeader] = await Promise.all([
      rpc.latestBlock(),
      indexed === undefined ? undefined : rpc.header(indexed),
    ]);
    if (indexed !== undefined && indexedHeader?.hash !== head.block_hash) {
      reader.drop();
      await reorgs.rollBack(head);
      await reloadContracts();
      observed = undefined;
      return true;
    }
    const finalized = finalizedBlock(latest, scope.finalityDepth);
    // The newest block this scope indexes: the chain's, or its last final one.
    const target = scope.reads === "finalized" ? finalized : latest;
    if (next > target) {
      reader.drop();
      const at = clock.now();
      if (observed?.block !== latest || at - observed.at >= OBSERVATION_REFRESH_MS) {
        await heads.observe(latest);
        observed = { block: latest, at };
      }
      return false;
    }
    // The next ranges are read while this one is written.
    const current = reader.take(next, target, finalized);
    let to = current.to;
    try {
      const range = await current.fetched;
      await reader.complete(range, finalized);
      // Ranges read meanwhile join this transaction: when the database is the slower side,
      // fewer and larger commits.
      for (let following = reader.takeJoinable(range.logs.length); following; ) {
        await reader.complete(following, finalized);
        reader.join(range, following);
        following = reader.takeJoinable(range.logs.length);
      }
      to = range.to;
      reader.readAfter(to, target, finalized);
      const { skipLog } = options;
      if (skipLog) range.logs = range.logs.filter((entry) => !skipLog(entry));
      await prefetch(range.logs);
      const logs = await writer.write(head, range, latest, finalized);
      // The write recorded the observation too.
      observed = { block: latest, at: clock.now() };
      for (const contract of range.created) contracts.add(contract);
      options.onProgress?.({ scope: scope.id, blocks: Number(to - current.from + 1n), logs });
    } catch (error) {
      abandonRanges();
      if (error instanceof ChainMovedError) {
        log.info({ msg: "chain moved while reading; checking for a reorg", reason: error.message });
        return true;
      }
      if (!(error instanceof RpcUnavailableError) && isRangeTooLarge(error) && reader.shrink(current)) {
        log.info({ msg: "provider refused the log range; shrinking", range: reader.span });
        return true;
      }
      throw error;
    }
    return to < target;
  };

  const loop = async () => {
    let backoff = FIRST_RETRY_DELAY_MS;
    while (!stopped) {
      try {
        // A hand-off asked for meanwhile: the batch in flight is written; release before the next.
        await writerLock.releaseIfHandedOff();
        if (!writerLock.held()) {
          if (!(await writerLock.acquire())) {
            await sleep(WRITER_LOCK_RETRY_MS);
            continue;
          }
          await ensureHead();
        }
        const more = await step();
        backoff = FIRST_RETRY_DELAY_MS;
        if (failing) {
          failing = false;
          dependencies.recovered(failureName);
        }
        if (!more) await sleep(pollIntervalMs, true);
      } catch (error) {
        if (stopped) break;
        abandonRanges();
        const message = describeFailure(error);
        if (error instanceof DatabaseUnavailableError) {
          // Nothing to record the failure in; the pool's recovery ends the wait.
          dependencies.failed("database", message);
          const recovery = db.availability.whenAvailable();
          await sleep(backoff, false, recovery);
          backoff = db.availability.available() ? FIRST_RETRY_DELAY_MS : retryDelay(backoff);
          continue;
        }
        failing = true;
        dependencies.failed(failureName, message);
        await heads.recordFailure(message.slice(0, 500));
        await sleep(backoff);
        backoff = retryDelay(backoff);
      }
    }
  };

  /**
   * Re-reads one transaction's receipt and re-applies the logs the projection
   * lacks through the writer's own apply step, idempotently (classic
   * `/events/{txHash}`). Works whether or not this replica runs the loop: the
   * writer takes the head row's lock, so it never races the replica that does.
   */
  const recoverTransaction = async (hash: Hex): Promise<TransactionRecovery> => {
    const receipt = await rpc.receipt(hash);
    if (receipt === undefined) return { applied: 0, found: false, pending: false, logs: [] };
    const [latest, block] = await Promise.all([rpc.latestBlock(), rpc.header(receipt.blockNumber)]);
    if (!block) return { applied: 0, found: false, pending: false, logs: [] };
    await resolveContracts();
    // Without the loop running here, the contracts the scope created are known only from the database.
    if (!running || contracts.stale) await reloadContracts();
    const decoded = reader.decodeAll(receipt.logs);
    const describe = (fresh: ReadonlySet<number>) =>
      decoded.map(({ log, contract }) => ({
        event: log.event,
        address: log.address,
        kind: contract.kind,
        logIndex: log.logIndex,
        applied: fresh.has(log.logIndex),
      }));
    const base = { found: true, blockNumber: receipt.blockNumber };
    if (decoded.length === 0) return { ...base, applied: 0, pending: false, logs: [] };
    const finalized = finalizedBlock(latest, scope.finalityDepth);
    await prefetch(decoded);
    const { applied, pending, fresh } = await writer.reapply(decoded, receipt.blockNumber, block, finalized);
    return { ...base, applied, pending, logs: describe(fresh) };
  };

  return {
    scope,
    start() {
      running ??= loop();
    },
    async syncOnce(): Promise<void> {
      if (!(await writerLock.acquire())) throw new Error("another process holds this scope's writer lock");
      await ensureHead();
      try {
        while (await step()) {}
      } finally {
        reader.drop();
      }
    },
    recoverTransaction,
    newBlock(): void {
      if (endPollWait) endPollWait();
      else blockAnnounced = true;
    },
    holdsWriterLock: (): boolean => writerLock.held(),
    holdOffUntil: (): number => writerLock.holdOffUntil(),
    handOff: (holdOffMs: number): Promise<HandOff> => writerLock.requestHandOff(holdOffMs),
    async stop() {
      stopped = true;
      wake?.();
      await running;
      reader.drop();
      await writerLock.close();
    },
  };
}

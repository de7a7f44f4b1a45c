import type { ChainDeployment } from "@mkt/chain";
import type { AdminIndexerHandOff, AdminScopeHead, Head } from "@mkt/protocol";
import type { Logger } from "pino";
import { Counter, Gauge, type Registry } from "prom-client";
import type { Database } from "../db/index.ts";
import type { DependencyLog } from "../logging/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import { createScopeIndexer, type ScopeIndexer, type ScopeIndexerOptions } from "./engine.ts";
import type { HeadRow } from "./head-store.ts";
import type { Projection } from "./projection.ts";
import { scopesOf } from "./projections.ts";
import { writerLockKey } from "./writer-lock.ts";

/** How long a hand-off answer waits to name the replica that took the lock after this one released it. */
export const HANDOFF_TAKEOVER_WAIT_MS = 5_000;
const HANDOFF_TAKEOVER_POLL_MS = 100;

/** A head row as the wire shows it: absent values are 0 or "", never null. */
export function toHead(row: HeadRow): Head {
  return {
    scope: row.scope,
    nextBlock: Number(row.next_block),
    blockHash: row.block_hash ?? "",
    revision: Number(row.revision),
    updatedAt: row.updated_at.getTime(),
    failure: row.failure ?? "",
    observedHead: row.observed_head === null ? 0 : Number(row.observed_head),
    observedAt: row.observed_at?.getTime() ?? 0,
    webhookAudit: row.webhook_audit ?? {},
  };
}

export interface IndexerServiceOptions {
  db: Database;
  logger: Logger;
  /** Where failed indexing steps are logged, throttled (`ScopeIndexerOptions.dependencies`). */
  dependencies?: DependencyLog;
  clock: Clock;
  deployments: ChainDeployment[];
  registry: Registry;
  /** This replica's id (`Config.replicaId`): the writer lock is taken under it. */
  replicaId?: string;
  /** How often backfill progress is printed. */
  progressIntervalMs?: number;
  /** Test and fault-injection seam: logs every scope indexer drops (`ScopeIndexerOptions.skipLog`). */
  skipLog?: ScopeIndexerOptions["skipLog"];
  /** How often a caught-up scope asks its chain for a new block (`ScopeIndexerOptions.pollIntervalMs`). */
  pollIntervalMs?: number;
}

export interface IndexerService {
  /** The projections this deployment indexes. */
  scopes: Projection[];
  /** One indexer per scope, in the order of `scopes`. */
  indexers: ScopeIndexer[];
  /** The head of every scope, with the writer lock's holder and any hand-off, for the operator. */
  heads(): Promise<AdminScopeHead[]>;
  /** A chain has a new block: its caught-up scopes poll now (`ScopeIndexer.newBlock`). */
  newBlock(chainId: number): void;
  /** The indexer of a scope, for recovery (classic `/events/{txHash}`). */
  indexerOf(scopeId: string): ScopeIndexer | undefined;
  /** This replica runs the indexer loop (`start` was called): false with `MKT_INDEXER=0`. */
  indexing(): boolean;
  /**
   * Hands one scope's writer lock off (see `ScopeIndexer.handOff`), then waits up to
   * HANDOFF_TAKEOVER_WAIT_MS for another replica to take it, to name it.
   */
  handOff(scopeId: string, holdOffMs: number): Promise<AdminIndexerHandOff>;
  /** Starts every scope's loop on this replica and the periodic progress report. */
  start(): void;
  /** Stops every scope's loop and the progress report. */
  stop(): Promise<void>;
}

/**
 * Runs one indexer per scope of every deployment, and reports progress: a
 * line every few seconds while a scope is backfilling (blocks/s, logs/s,
 * ETA), and the same figures as metrics.
 */
export function createIndexerService({
  db,
  logger,
  dependencies,
  clock,
  deployments,
  registry,
  replicaId,
  progressIntervalMs = 2_000,
  skipLog,
  pollIntervalMs,
}: IndexerServiceOptions): IndexerService {
  const log = logger.child({ area: "indexer" });
  const blocksTotal = new Counter({
    name: "mkt_indexer_blocks_total",
    help: "Blocks indexed, by scope.",
    labelNames: ["scope"] as const,
    registers: [registry],
  });
  const logsTotal = new Counter({
    name: "mkt_indexer_logs_total",
    help: "Logs applied to the projection, by scope.",
    labelNames: ["scope"] as const,
    registers: [registry],
  });
  const reorgsTotal = new Counter({
    name: "mkt_indexer_reorgs_total",
    help: "Chain reorganisations repaired, by scope and kind: window (rolled back inside the unfinalised window), deep (deeper than the finality depth: the scope was reset and rebuilt), chain (another chain at the RPC URL: reset).",
    labelNames: ["scope", "kind"] as const,
    registers: [registry],
  });
  const progress = new Map<string, { blocks: number; logs: number; since: number }>();
  const scopes: Projection[] = scopesOf(deployments);
  const rpcOf = new Map(deployments.map((deployment) => [deployment.chainId, deployment.rpcUrl]));
  const indexers: ScopeIndexer[] = scopes.map((scope) =>
    createScopeIndexer({
      db,
      logger,
      ...(dependencies ? { dependencies } : {}),
      clock,
      scope,
      rpcUrl: rpcOf.get(scope.chainId)!,
      ...(replicaId !== undefined ? { replicaId } : {}),
      ...(skipLog ? { skipLog } : {}),
      ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
      onReorg: ({ kind }) => reorgsTotal.inc({ scope: scope.id, kind }),
      onProgress: ({ scope: id, blocks, logs }) => {
        blocksTotal.inc({ scope: id }, blocks);
        logsTotal.inc({ scope: id }, logs);
        const entry = progress.get(id) ?? { blocks: 0, logs: 0, since: clock.now() };
        entry.blocks += blocks;
        entry.logs += logs;
        progress.set(id, entry);
      },
    }),
  );

  const projectionOf = new Map(scopes.map((scope) => [scope.id, scope]));
  const indexerOf = (scopeId: string) => indexers.find((indexer) => indexer.scope.id === scopeId);
  /** The replica holding each scope's writer lock, read from the locks themselves ("" when unnamed). */
  const writersOf = (scopeIds: readonly string[]) =>
    db
      .advisoryLockHolders(scopeIds.map(writerLockKey))
      .then((holders) => new Map(scopeIds.map((id) => [id, holders.get(writerLockKey(id)) ?? null])));
  const writerOf = (scopeId: string, holders: ReadonlyMap<string, string | null>) => {
    const indexer = indexerOf(scopeId);
    const holder = holders.get(scopeId) ?? null;
    return {
      replica: holder,
      thisReplica: indexer?.holdsWriterLock() === true,
      holdOffUntil: indexer?.holdOffUntil() || null,
    };
  };
  const heads = async (): Promise<AdminScopeHead[]> => {
    const { rows } = await db.withConnection((connection) =>
      connection.query<HeadRow>("SELECT * FROM indexer_heads ORDER BY scope"),
    );
    const holders = await writersOf(rows.map((row) => row.scope));
    return rows.map((row) => {
      const writer = writerOf(row.scope, holders);
      const head = { ...toHead(row), writer };
      const scope = projectionOf.get(head.scope);
      const lag = Math.max(0, head.observedHead - (head.nextBlock - 1));
      if (!scope) return { ...head, chainId: row.chain_id, lag, startBlock: null, targetBlock: null };
      const startBlock = Number(scope.startBlock);
      const newest =
        scope.reads === "finalized" ? head.observedHead - scope.finalityDepth : head.observedHead;
      const targetBlock = head.observedHead === 0 ? null : Math.max(startBlock - 1, newest);
      return { ...head, chainId: row.chain_id, lag, startBlock, targetBlock };
    });
  };

  new Gauge({
    name: "mkt_indexer_lag_blocks",
    help: "Blocks between the chain head last observed and the last block indexed, by scope.",
    labelNames: ["scope"] as const,
    registers: [registry],
    async collect() {
      for (const head of await heads().catch(() => [])) this.set({ scope: head.scope }, head.lag);
    },
  });

  new Gauge({
    name: "mkt_indexer_writer",
    help: "1 while this replica holds the scope's writer lock (writes its projection), else 0, by scope.",
    labelNames: ["scope"] as const,
    registers: [registry],
    collect() {
      for (const indexer of indexers)
        this.set({ scope: indexer.scope.id }, started && indexer.holdsWriterLock() ? 1 : 0);
    },
  });

  /**
   * Hands one scope's writer lock off (see `ScopeIndexer.handOff`), then waits up to
   * HANDOFF_TAKEOVER_WAIT_MS for another replica to take it, to name it.
   */
  const handOff = async (scopeId: string, holdOffMs: number): Promise<AdminIndexerHandOff> => {
    const indexer = indexerOf(scopeId);
    const before = (await writersOf([scopeId])).get(scopeId) ?? null;
    const handed = indexer && started ? await indexer.handOff(holdOffMs) : undefined;
    if (!handed?.released)
      return { scope: scopeId, released: false, writer: before, takenBy: null, holdOffUntil: null };
    let takenBy: string | null = null;
    // PGlite is one process's database: no other replica can take the lock.
    const polls = db.kind === "pglite" ? 0 : HANDOFF_TAKEOVER_WAIT_MS / HANDOFF_TAKEOVER_POLL_MS;
    for (let poll = 0; poll < polls && takenBy === null; poll++) {
      await new Promise((resolve) => setTimeout(resolve, HANDOFF_TAKEOVER_POLL_MS));
      takenBy =
        (await writersOf([scopeId]).catch(() => new Map<string, string | null>())).get(scopeId) ?? null;
    }
    return { scope: scopeId, released: true, writer: before, takenBy, holdOffUntil: handed.holdOffUntil };
  };

  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const report = async () => {
    const now = clock.now();
    const current = await heads().catch(() => []);
    for (const head of current) {
      const entry = progress.get(head.scope);
      if (!entry) continue;
      const seconds = Math.max(0.001, (now - entry.since) / 1000);
      const blocksPerSecond = entry.blocks / seconds;
      if (head.lag > 50) {
        log.info({
          msg: "backfill",
          scope: head.scope,
          block: head.nextBlock - 1,
          head: head.observedHead,
          blocksPerSecond: Math.round(blocksPerSecond),
          logsPerSecond: Math.round(entry.logs / seconds),
          etaSeconds: blocksPerSecond > 0 ? Math.round(head.lag / blocksPerSecond) : null,
        });
      }
      progress.set(head.scope, { blocks: 0, logs: 0, since: now });
    }
  };

  return {
    scopes,
    indexers,
    heads,
    newBlock(chainId: number): void {
      for (const indexer of indexers) if (indexer.scope.chainId === chainId) indexer.newBlock();
    },
    indexerOf,
    indexing: () => started,
    handOff,
    start() {
      started = true;
      for (const indexer of indexers) indexer.start();
      timer = setInterval(() => void report(), progressIntervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await Promise.all(indexers.map((indexer) => indexer.stop()));
    },
  };
}

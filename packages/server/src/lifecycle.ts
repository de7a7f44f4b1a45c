import type { FastifyInstance } from "fastify";
import { REVISIONS_CHANNEL, type ReadCache } from "./http/read-cache.ts";
import { INDEXER_CHANNEL } from "./indexer/head-store.ts";
import type { MountedSurface, SharedServices } from "./shared-services.ts";

const MAINTENANCE_INTERVAL_MS = 60_000;

/** How long closing waits for in-flight requests before it cuts every connection. */
const CLOSE_GRACE_MS = 5_000;

export interface LifecycleDeps {
  shared: SharedServices;
  /** The mounted surfaces, in mount order: their jobs, background work and indexer sources. */
  surfaces: readonly MountedSurface<unknown>[];
  server: FastifyInstance;
  admin: FastifyInstance;
  readCache: ReadCache;
  /** Run the indexer when listening. */
  indexing: boolean;
}

/** The app's background work once started: what `App` runs on demand, on `listen` and on `close`. */
export interface Lifecycle {
  /** Runs every periodic job once. */
  runJobs(): Promise<void>;
  /** Starts the indexer and the surfaces' background work, then binds both listeners. */
  listen(): Promise<{ publicUrl: string; adminUrl: string }>;
  /** Stops accepting, drains in-flight requests, stops background work. Does not close the database. */
  close(): Promise<void>;
}

/**
 * Starts what runs beside the listeners: the key and session caches, the
 * read cache's revision listeners, the live hub, the maintenance sweep and
 * every surface's periodic jobs.
 *
 * When the database answers again after an outage, the outage's end is logged
 * and every job whose last run failed runs again at once; the listeners
 * (caches, queues, sweeps) resume with the notification connection, which
 * reconnects on the same signal.
 */
export async function startLifecycle({
  shared,
  surfaces,
  server,
  admin,
  readCache,
  indexing,
}: LifecycleDeps): Promise<Lifecycle> {
  const {
    config,
    db,
    logger,
    dependencies,
    keys,
    sessions,
    revisions,
    live,
    limiter,
    idempotency,
    indexer,
    metrics,
  } = shared;
  const jobs = surfaces.flatMap((surface) => surface.jobs ?? []);
  const indexerSources = surfaces.flatMap((surface) => surface.indexerSources);

  metrics.start();
  await keys.start();
  await sessions.start();
  // Read-cache sources move on every replica: announced revisions, and every indexer commit.
  const onReconnect = () => {
    revisions.movedAll();
    readCache.clear();
  };
  const unlisten = [
    await db.listen(REVISIONS_CHANNEL, { onNotify: (source) => revisions.moved(source), onReconnect }),
    await db.listen(INDEXER_CHANNEL, {
      onNotify: (scope) => {
        revisions.moved(`indexer:${scope}`);
        for (const moved of indexerSources) if (moved.scope === scope) revisions.moved(moved.source);
      },
      onReconnect,
    }),
  ];
  await live.start();
  /** A background task's failure: counted as the database's while it is down, else a line of its own. */
  const failed = (msg: string, fields: Record<string, unknown>, error: unknown) => {
    if (!db.availability.available()) dependencies.failed("database", describe(error));
    else logger.warn({ msg, ...fields, err: error });
  };
  const pruneLive = () => live.prune().catch((error) => failed("live event log prune failed", {}, error));
  const maintenance = setInterval(() => {
    limiter.sweep();
    void pruneLive();
    idempotency.sweep().catch((error) => failed("idempotency sweep failed", {}, error));
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();
  /** Jobs whose last run failed: run again as soon as the database answers. */
  const failedJobs = new Set<(typeof jobs)[number]>();
  const runJob = (job: (typeof jobs)[number]) =>
    job.run().then(
      () => {
        failedJobs.delete(job);
      },
      (error) => {
        failedJobs.add(job);
        failed("job failed", { job: job.name }, error);
      },
    );
  const stopWatching = db.availability.onChange((change) => {
    if (!change.available) {
      dependencies.failed("database", change.reason);
      return;
    }
    dependencies.recovered("database");
    for (const job of failedJobs) void runJob(job);
  });
  const jobTimers = jobs.map((job) => {
    const timer = setInterval(() => void runJob(job), job.intervalMs);
    timer.unref();
    return timer;
  });

  return {
    async runJobs() {
      for (const job of jobs) await job.run();
      await pruneLive();
    },
    async listen() {
      if (indexing) indexer?.start();
      shared.chainProbes.start();
      for (const surface of surfaces) surface.start?.();
      const publicAddress = await server.listen({ host: config.host, port: config.port });
      const adminAddress = await admin.listen({ host: config.admin.host, port: config.admin.port });
      return { publicUrl: publicAddress, adminUrl: adminAddress };
    },
    async close() {
      stopWatching();
      clearInterval(maintenance);
      for (const timer of jobTimers) clearInterval(timer);
      // Streams end first: the listener would otherwise wait for them.
      await live.close();
      // In-flight requests get a grace period; then every connection is cut,
      // including sockets that never sent a request (an aborted fetch's spare
      // connection would otherwise hold the close until the header timeout).
      const force = setTimeout(() => server.server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      await server.close();
      clearTimeout(force);
      await admin.close();
      await indexer?.stop();
      await shared.chainProbes.stop();
      for (const surface of surfaces) await surface.stop?.();
      await keys.stop();
      await sessions.stop();
      for (const stop of unlisten) await stop();
      metrics.stop();
    },
  };
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

import type { ChainDeployment } from "@mkt/chain";
import type { FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { type ChainRoles, chainRoles } from "./chains/index.ts";
import type { Config } from "./config/index.ts";
import type { Database } from "./db/index.ts";
import { type ChainProbes, createChainProbes } from "./health/index.ts";
import { createRevisions, REVISIONS_CHANNEL, type Revisions } from "./http/read-cache.ts";
import type { RouteDefinition, RouteGate, RouteSpec } from "./http/route.ts";
import type { SurfaceName } from "./http/surfaces.ts";
import { createIdempotency, type Idempotency } from "./idempotency/index.ts";
import {
  createProfileReader,
  createSessionService,
  createWalletVerifier,
  type ProfileReader,
  type SessionService,
  type WalletSignatureVerifier,
} from "./identity/index.ts";
import { createIndexerService, type IndexerService, type IndexerServiceOptions } from "./indexer/service.ts";
import { createKeyService, type KeyService } from "./keys/service.ts";
import {
  createLiveHub,
  createLiveStore,
  type LiveHooks,
  type LiveHub,
  type LiveLimits,
} from "./live/index.ts";
import { createDependencyLog, type DependencyLog } from "./logging/index.ts";
import {
  createClassicImageLinks,
  createImageFetcher,
  createImageProxyPolicy,
  type ImageFetcher,
  type ImageFetcherOptions,
  type ImageLinks,
  type ImageProxyPolicy,
  type ImageProxyPolicyOptions,
} from "./media/index.ts";
import { createMetrics, type Metrics } from "./metrics/index.ts";
import { type CursorSigner, createCursorSigner } from "./paging/index.ts";
import {
  type Clock,
  createSlidingWindowLimiter,
  type SlidingWindowLimiter,
  systemClock,
} from "./quotas/limiter.ts";
import { defaultPolicies, type QuotaPolicies } from "./quotas/policies.ts";
import { createServerSecrets, type ServerSecrets } from "./secrets/index.ts";

/**
 * What the app builds once and every surface mounts itself from (`mountMarket`,
 * `mountClassic`, `mountPredict` take it), and what a mount hands back. Below
 * the surfaces: this module imports none of them.
 */

/** What the shared services are built from (the `AppOptions` every surface shares). */
export interface SharedOptions {
  config: Config;
  db: Database;
  logger: Logger;
  clock?: Clock;
  policies?: QuotaPolicies;
  keyCache?: { positiveTtlMs?: number; negativeTtlMs?: number };
  /** The chains the indexer follows; their runtimes are served by the runtime routes. */
  deployments?: ChainDeployment[];
  /**
   * The chain ids among `deployments` that this process runs as dev chains
   * (`startChains`). On a dev classic chain creators may use plain `http://`
   * URLs (the demo's art on `PUBLIC_URL`); elsewhere only `https://`.
   */
  devChainIds?: readonly number[];
  /**
   * Test and fault-injection seam (no configuration reaches it): logs the
   * indexer drops from its normal path, as if it had missed them, so tests
   * can prove that `/classic/events/{txHash}` repairs them.
   */
  indexerSkipLog?: IndexerServiceOptions["skipLog"];
  /**
   * How often a caught-up indexer scope polls its chain (default 500 ms). `npm start` slows it
   * on quiet dev chains (`Chains.indexerPollIntervalMs`).
   */
  indexerPollIntervalMs?: number;
  /**
   * Checks wallet signatures. Default: EOAs locally, contract wallets through
   * the RPC of chain 8453 from `deployments` (without it, EOAs only).
   */
  walletVerifier?: WalletSignatureVerifier;
  /** Live-update limits other than the documented ones (tests). */
  live?: Partial<LiveLimits>;
  /** How often each chain's RPC is probed for the health report (default `CHAIN_PROBE_INTERVAL_MS`; tests shorten it). */
  chainProbeIntervalMs?: number;
  /**
   * The classic image proxy's limits other than the documented ones (tests).
   * `allowLoopback` lets an allowlisted host resolve to 127.0.0.1: only a
   * test sets it; the configuration has no way to.
   */
  classicImageProxy?: Pick<ImageFetcherOptions, "timeoutMs" | "maxBytes" | "cacheBytes"> &
    Pick<ImageProxyPolicyOptions, "allowLoopback">;
}

/** The image proxy and its signed links: the classic images and the prediction feed's market media. */
export interface SharedMedia {
  /** One policy decides what the image proxy fetches and which image URLs are rewritten to it. */
  proxy: ImageProxyPolicy;
  /** Signs the proxy's image links (every replica derives the same key). */
  links: ImageLinks;
  /** Fetches and caches what the proxy serves. */
  fetcher: ImageFetcher;
}

/** The services every surface may use, built once per process. */
export interface SharedServices {
  config: Config;
  db: Database;
  logger: Logger;
  /** The one place dependency failures are logged, throttled per dependency. */
  dependencies: DependencyLog;
  clock: Clock;
  /** The quota budgets the guard charges (and the discovery document states). */
  policies: QuotaPolicies;
  /** Per-deployment secrets kept in the database (cursor and link signing keys). */
  secrets: ServerSecrets;
  /** Signs the page cursors of every list (the market's, the classic chat's, the operator's key list). */
  cursors: CursorSigner;
  keys: KeyService;
  limiter: SlidingWindowLimiter;
  metrics: Metrics;
  idempotency: Idempotency;
  /** The indexer of every deployment; undefined without deployments. */
  indexer: IndexerService | undefined;
  /** Which deployment plays which role (market, classic, predict). */
  roles: ChainRoles;
  /** This replica's probes of every deployment's RPC (`GET /admin/health`, `mkt_rpc_up`, READYZ_REQUIRE_CHAIN). */
  chainProbes: ChainProbes;
  /** The chain ids this process runs as dev chains (`SharedOptions.devChainIds`). */
  devChainIds: readonly number[];
  /** The read cache's revision counters: a surface bumps its sources when its data changes. */
  revisions: Revisions;
  /** Every kind of session (account, chat, access, the classic bearer) and the signed envelopes. */
  sessions: SessionService;
  /** Shared profiles: the market's creator pages and the classic holdings' `userData`. */
  profiles: ProfileReader;
  /** The live hub: every surface's streams, one log and one fan-out per replica. */
  live: LiveHub;
  media: SharedMedia;
}

/** A periodic job; runs on every replica, so its work must be safe to run concurrently. */
export interface Job {
  name: string;
  intervalMs: number;
  run(): Promise<void>;
}

/** A check a route's gate runs in the pipeline, throwing its refusal. */
export type RouteGateCheck = (request: FastifyRequest) => void | Promise<void>;

/** What a surface's mount hands back to the app: everything the app wires, nothing it builds. */
export interface MountedSurface<Services = undefined> {
  /** Its routes by the surface they are mounted on (the market's proxied copies on `app`, too). */
  routes: Partial<Record<SurfaceName, RouteDefinition[]>>;
  /** Its operator routes, mounted on the admin listener. */
  adminRoutes: RouteSpec[];
  /** Its periodic jobs; `App.services.runJobs` runs them once. */
  jobs?: Job[];
  /** Background work started with the listeners (a job queue worker). */
  start?(): void;
  /** Stops the background work; on close, after the indexer. */
  stop?(): Promise<void>;
  /** The product gates its routes declare, as pipeline steps (`gate` in its route table). */
  gates?: Partial<Record<RouteGate, RouteGateCheck>>;
  /** Its read-cache sources that move with every commit of an indexer scope (beside `indexer:<scope>`). */
  indexerSources: { scope: string; source: string }[];
  /** What it adds to the live hub's streams (registered before the hub starts). */
  live?: LiveHooks;
  /** What `App.services` exposes of it. */
  services: Services;
}

/**
 * Builds the shared services. `inFlight` is read by the metrics gauge: the
 * pipeline that counts requests is built once the surfaces are mounted.
 */
export async function createSharedServices(
  options: SharedOptions & { inFlight: () => number },
): Promise<SharedServices> {
  const { config, db, logger } = options;
  const clock = options.clock ?? systemClock;
  const policies = options.policies ?? defaultPolicies;

  const limiter = createSlidingWindowLimiter({ clock });
  const dependencies = createDependencyLog({ logger, now: () => clock.now() });
  let metrics: Metrics | undefined;
  const secrets = createServerSecrets({ db });
  const cursors = createCursorSigner(await secrets.key("cursors", "market-list-cursors"));
  const keys = createKeyService({
    db,
    clock,
    cursors,
    ...options.keyCache,
    onCacheFlush: () => {
      metrics?.keyCacheFlushes.inc();
      logger.warn({ msg: "key cache flushed after the notification connection was re-established" });
    },
  });
  metrics = createMetrics({
    poolStats: () => db.poolStats(),
    keyCacheSize: () => keys.cacheSize(),
    inFlight: options.inFlight,
    replica: options.config.replicaId,
  });
  const idempotency = createIdempotency({ db, clock });
  const deployments = options.deployments ?? [];
  const indexer =
    deployments.length > 0
      ? createIndexerService({
          db,
          logger,
          dependencies,
          clock,
          deployments,
          registry: metrics.registry,
          replicaId: options.config.replicaId,
          ...(options.indexerSkipLog ? { skipLog: options.indexerSkipLog } : {}),
          ...(options.indexerPollIntervalMs !== undefined
            ? { pollIntervalMs: options.indexerPollIntervalMs }
            : {}),
        })
      : undefined;

  const roles = chainRoles(deployments);
  const chainProbes = createChainProbes({
    chains: deployments,
    clock,
    logger,
    registry: metrics.registry,
    ...(options.chainProbeIntervalMs !== undefined ? { intervalMs: options.chainProbeIntervalMs } : {}),
  });
  const walletVerifier =
    options.walletVerifier ?? createWalletVerifier({ rpcUrl: roles.market?.deployment.rpcUrl });
  const sessions = createSessionService({
    db,
    clock,
    verifier: walletVerifier,
    allowedOrigins: config.allowedOrigins,
    limiter,
    onCacheFlush: () =>
      logger.warn({ msg: "session cache flushed after the notification connection was re-established" }),
  });
  const revisions = createRevisions({ announce: (source) => db.notify(REVISIONS_CHANNEL, source) });
  const live = createLiveHub({
    db,
    store: createLiveStore(db),
    logger,
    marketScope: roles.market?.scope,
    // What admitted each open stream, checked again from the caches every round (the surfaces
    // register their gates' checks; the first round runs once the app has started).
    checks: {
      key: (hash) => keys.current(hash),
      session: (id) => sessions.current(id),
    },
    limits: {
      maxStreams: config.maxStreams,
      maxStreamsPerKey: config.maxStreamsPerKey,
      maxStreamsPerClient: config.maxStreamsPerClient,
      ...options.live,
    },
  });
  const profiles = createProfileReader({ db, publicUrl: config.publicUrl });
  const { allowLoopback, ...imageLimits } = options.classicImageProxy ?? {};
  const proxy = createImageProxyPolicy({
    hosts: config.imageProxyHosts,
    ...(allowLoopback !== undefined ? { allowLoopback } : {}),
  });
  const links = await createClassicImageLinks({ publicUrl: config.publicUrl, secrets, policy: proxy });
  const fetcher = createImageFetcher({ policy: proxy, clock, ...imageLimits });

  return {
    config,
    db,
    logger,
    dependencies,
    clock,
    policies,
    secrets,
    cursors,
    keys,
    limiter,
    metrics,
    idempotency,
    indexer,
    roles,
    chainProbes,
    devChainIds: options.devChainIds ?? [],
    revisions,
    sessions,
    profiles,
    live,
    media: { proxy, links, fetcher },
  };
}

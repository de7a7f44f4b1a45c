import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { healthRoutes } from "./admin/health-route.ts";
import { adminRoutes } from "./admin/routes.ts";
import { createAdminServer } from "./admin/server.ts";
import { type ClassicOptions, type ClassicServices, mountClassic } from "./classic/mount.ts";
import { createHealthReport } from "./health/index.ts";
import { createCorsPolicy } from "./http/cors.ts";
import { createGuard } from "./http/guard.ts";
import { buildOpenApiDocument } from "./http/openapi.ts";
import { createPipeline } from "./http/pipeline.ts";
import { createReadCache, type ReadCache, type Revisions } from "./http/read-cache.ts";
import type { RouteDefinition } from "./http/route.ts";
import { createPublicServer } from "./http/server.ts";
import { surfaceNotes } from "./http/surface-notes.ts";
import {
  appProxySurface,
  classicSurface,
  marketSurface,
  platformSurface,
  predictSurface,
  type Surface,
  type SurfaceName,
} from "./http/surfaces.ts";
import type { Idempotency } from "./idempotency/index.ts";
import {
  createClassicBearerAuth,
  createProxyOriginCheck,
  createSessionAuth,
  SESSION_COOKIES,
  type SessionService,
  sessionPresented,
} from "./identity/index.ts";
import { createIndexedHeads } from "./indexer/indexed-heads.ts";
import type { IndexerService } from "./indexer/service.ts";
import { keyRoutes } from "./keys/key-routes.ts";
import type { KeyService } from "./keys/service.ts";
import { startLifecycle } from "./lifecycle.ts";
import type { LiveHub } from "./live/index.ts";
import { type MarketOptions, mountMarket } from "./market/mount.ts";
import type { Metrics } from "./metrics/index.ts";
import type { CursorSigner } from "./paging/index.ts";
import { operationsRoutes, type PublishedDocument } from "./platform/operations-routes.ts";
import { createReferenceAssets, locateReferenceBundle } from "./platform/reference-assets.ts";
import { platformRoutes } from "./platform/routes.ts";
import { mountPredict, type PredictOptions } from "./predict/mount.ts";
import type { SlidingWindowLimiter } from "./quotas/limiter.ts";
import { createSharedServices, type MountedSurface, type SharedOptions } from "./shared-services.ts";

/** What the app is built from: the shared services' inputs and each surface's own. */
export interface AppOptions extends SharedOptions, MarketOptions, ClassicOptions, PredictOptions {
  /** Run the indexer when listening (off in HTTP-only tests). */
  indexing?: boolean;
}

export interface App {
  server: FastifyInstance;
  admin: FastifyInstance;
  /** The operator token in force (generated when ADMIN_TOKEN is unset). */
  adminToken: string;
  /** The routes mounted on each surface, with their declarations (for tests and tools that walk every route). */
  routes: Readonly<Record<Surface["name"], readonly RouteDefinition[]>>;
  services: {
    keys: KeyService;
    limiter: SlidingWindowLimiter;
    metrics: Metrics;
    idempotency: Idempotency;
    indexer: IndexerService | undefined;
    sessions: SessionService;
    readCache: ReadCache;
    revisions: Revisions;
    live: LiveHub;
    /** Signs the market lists' page cursors (tests make cursors of another list with it). */
    cursors: CursorSigner;
    /** The classic games and their offchain metadata (the demo publishes through `metadata`). */
    classic: ClassicServices;
    /** Runs every periodic job once (tests drive them with a manual clock). */
    runJobs(): Promise<void>;
  };
  /** Binds both listeners. */
  listen(): Promise<{ publicUrl: string; adminUrl: string }>;
  /** Stops accepting, drains in-flight requests, stops background work. Does not close the database. */
  close(): Promise<void>;
}

/**
 * The composition root: the shared services, built once; each surface
 * mounted from them; the platform routes and documents; the pipeline and
 * both listeners.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, logger } = options;
  let inFlight: () => number = () => 0;
  const shared = await createSharedServices({ ...options, inFlight: () => inFlight() });
  const { keys, limiter, metrics, idempotency, revisions, sessions, live } = shared;

  // Each surface builds its own services, routes and jobs from the shared ones.
  const market = mountMarket(shared, options);
  const classic = mountClassic(shared, options);
  const predict = mountPredict(shared, options);
  const mounted = [market, classic, predict];
  for (const surface of mounted) if (surface.live) live.register(surface.live);
  const health = createHealthReport({
    probes: shared.chainProbes,
    heads: shared.indexer?.heads,
    price: classic.services.price,
    clock: shared.clock,
    registry: metrics.registry,
    requireChain: config.readyzRequireChain,
  });

  const surfaces: Record<SurfaceName, Surface> = {
    platform: platformSurface(),
    market: marketSurface(),
    classic: classicSurface(shared.clock),
    predict: predictSurface(config.publicUrl),
    app: appProxySurface(),
  };
  const routes: Record<SurfaceName, RouteDefinition[]> = {
    platform: [],
    app: [],
    market: [],
    classic: [],
    predict: [],
  };
  for (const surface of mounted) {
    for (const name of Object.keys(routes) as SurfaceName[])
      routes[name].push(...(surface.routes[name] ?? []));
  }
  // The documents are built after every route is known (on first request, then kept).
  const documents: PublishedDocument[] = (["market", "classic", "predict"] as const).map((name) => ({
    name,
    title: surfaces[name].title,
    prefix: surfaces[name].prefix,
    build: () =>
      buildOpenApiDocument(
        surfaces[name],
        [
          { prefix: "", routes: keyApi, errors: surfaces.platform },
          { prefix: surfaces[name].prefix, routes: routes[name] },
          // The market document also describes the first-party proxy's copies of its routes.
          ...(name === "market"
            ? [
                {
                  prefix: surfaces.app.prefix,
                  routes: routes.app,
                  proxy: { cookies: SESSION_COOKIES, of: surfaces.market.prefix },
                },
              ]
            : []),
        ],
        { publicUrl: config.publicUrl, publicReads: config.publicReads, notes: surfaceNotes(name, config) },
      ),
  }));
  routes.platform = platformRoutes([
    ...keyRoutes({ keys }),
    ...operationsRoutes({
      db: options.db,
      documents,
      proxy: { prefix: surfaces.app.prefix, title: surfaces.app.title },
      publicUrl: config.publicUrl,
      referenceAssets: createReferenceAssets(locateReferenceBundle()),
      chainNotReady: health.chainNotReady,
    }),
  ]);
  // `POST /keys` and `DELETE /keys/current` belong to all three documents (their `{key_create_url}`).
  const keyApi = routes.platform.filter((route) => route.path.startsWith("/keys"));

  const gates: NonNullable<MountedSurface["gates"]> = {};
  for (const surface of mounted) Object.assign(gates, surface.gates);
  const marketSessionAuth = createSessionAuth(sessions);
  const classicBearer = createClassicBearerAuth(sessions);
  const cors = createCorsPolicy(config.allowedOrigins, Object.values(routes).flat());
  const readCache = createReadCache({ clock: shared.clock });
  const pipeline = createPipeline({
    logger,
    dependencies: shared.dependencies,
    metrics,
    cors,
    guard: createGuard({
      keys,
      limiter,
      clock: shared.clock,
      policies: shared.policies,
      publicReads: config.publicReads,
      onRejected: (surface, reason) => metrics.quotaRejections.inc({ surface, reason }),
    }),
    idempotency,
    readCache,
    revisions,
    maxInFlight: config.maxInFlight,
    publicReads: config.publicReads,
    sessionAuth: (kind) => (kind === "classic" ? classicBearer : marketSessionAuth(kind)),
    sessionPresented,
    proxyOriginCheck: createProxyOriginCheck(config.allowedOrigins),
    gates,
    indexedHeads: createIndexedHeads({
      db: options.db,
      clock: shared.clock,
      revisions,
      scopes: shared.indexer?.scopes.map((scope) => scope.id) ?? [],
      sources: mounted.flatMap((surface) => surface.indexerSources),
    }),
  });
  inFlight = pipeline.inFlight;
  const server = createPublicServer({
    config,
    logger,
    dependencies: shared.dependencies,
    pipeline,
    cors,
    surfaces,
    routes,
  });

  const adminToken = config.admin.token ?? randomBytes(24).toString("base64url");
  const admin = createAdminServer({
    logger,
    dependencies: shared.dependencies,
    token: adminToken,
    limiter,
    routes: [
      ...adminRoutes({ keys, metrics, indexer: shared.indexer, replicaId: config.replicaId }),
      ...healthRoutes(health),
      ...mounted.flatMap((surface) => surface.adminRoutes),
    ],
  });

  const lifecycle = await startLifecycle({
    shared,
    surfaces: mounted,
    server,
    admin,
    readCache,
    indexing: options.indexing !== false && config.indexing,
  });
  await server.ready();
  await admin.ready();

  return {
    server,
    admin,
    adminToken,
    routes,
    services: {
      keys,
      limiter,
      metrics,
      idempotency,
      indexer: shared.indexer,
      sessions,
      cursors: shared.cursors,
      readCache,
      revisions,
      live,
      classic: classic.services,
      runJobs: lifecycle.runJobs,
    },
    listen: lifecycle.listen,
    close: lifecycle.close,
  };
}

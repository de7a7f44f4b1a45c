import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { ChainDeployment } from "@mkt/chain";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { Logger } from "pino";
import { createAdminServer } from "./admin/server.ts";
import { chainRoles } from "./chains/index.ts";
import type { Config } from "./config/index.ts";
import type { Database } from "./db/index.ts";
import { notFound, RateLimitedError } from "./errors.ts";
import { createCorsPolicy, registerPreflight } from "./http/cors.ts";
import { createGuard } from "./http/guard.ts";
import { buildOpenApiDocument } from "./http/openapi.ts";
import { type PublishedDocument, platformRoutes } from "./http/platform-routes.ts";
import { errorHandlerFor, registerSurface, sendError } from "./http/register-surface.ts";
import type { RouteDefinition } from "./http/route.ts";
import { surfaceNotes } from "./http/surface-notes.ts";
import {
  appProxySurface,
  classicSurface,
  marketSurface,
  platformSurface,
  predictSurface,
  type Surface,
} from "./http/surfaces.ts";
import { createIdempotency } from "./idempotency/index.ts";
import { createIndexerService, type IndexerService } from "./indexer/service.ts";
import { keyRoutes } from "./keys/routes.ts";
import { createKeyService } from "./keys/service.ts";
import { createActionDispatcher } from "./market/accounts/actions.ts";
import { createProxyOriginCheck, createSessionAuth } from "./market/accounts/auth.ts";
import { accountRoutes } from "./market/accounts/routes.ts";
import { createSessionService, type SessionService } from "./market/accounts/sessions.ts";
import { walletFeature } from "./market/accounts/wallet-feature.ts";
import { createWalletVerifier, type WalletSignatureVerifier } from "./market/accounts/wallet-signatures.ts";
import { createApiKeyFastPath } from "./market/api-key-fast-path.ts";
import { apiKeyCheckRoute } from "./market/api-key-route.ts";
import type { FeatureDeps, MarketFeature } from "./market/feature.ts";
import { profileFeature, type XAccountProvider } from "./market/profile/index.ts";
import { marketRuntimeRoute } from "./market/runtime-route.ts";
import { socialFeature } from "./market/social/index.ts";
import { createMetrics } from "./metrics/index.ts";
import { predictRoutes } from "./predict/routes.ts";
import { type Clock, createSlidingWindowLimiter, systemClock } from "./quotas/limiter.ts";
import { defaultPolicies, type QuotaPolicies } from "./quotas/policies.ts";

export interface AppOptions {
  config: Config;
  db: Database;
  logger: Logger;
  clock?: Clock;
  policies?: QuotaPolicies;
  keyCache?: { positiveTtlMs?: number; negativeTtlMs?: number };
  /** The chains the indexer follows; their runtimes are served by the runtime routes. */
  deployments?: ChainDeployment[];
  /** Run the indexer when listening (off in HTTP-only tests). */
  indexing?: boolean;
  /**
   * Checks wallet signatures. Default: EOAs locally, contract wallets through
   * the RPC of chain 8453 from `deployments` (without it, EOAs only).
   */
  walletVerifier?: WalletSignatureVerifier;
  /** The X account provider (tests); default: X OAuth when configured, else operator verification only. */
  xProvider?: XAccountProvider;
}

export interface App {
  server: FastifyInstance;
  admin: FastifyInstance;
  /** The operator token in force (generated when ADMIN_TOKEN is unset). */
  adminToken: string;
  services: {
    keys: ReturnType<typeof createKeyService>;
    limiter: ReturnType<typeof createSlidingWindowLimiter>;
    metrics: ReturnType<typeof createMetrics>;
    idempotency: ReturnType<typeof createIdempotency>;
    indexer: IndexerService | undefined;
    sessions: SessionService;
    /** Runs every periodic job once (tests drive them with a manual clock). */
    runJobs(): Promise<void>;
  };
  /** Binds both listeners. */
  listen(): Promise<{ publicUrl: string; adminUrl: string }>;
  /** Stops accepting, drains in-flight requests, stops background work. Does not close the database. */
  close(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAINTENANCE_INTERVAL_MS = 60_000;
const SLOW_REQUEST_MS = 1_000;

/**
 * TRUST_PROXY as Fastify takes it. Fastify 5 now ignores a bare hop count
 * (it cannot check the peer), so a count becomes the function Express uses:
 * trust exactly that many hops nearest the server, as the operator states.
 */
function trustProxyOption(
  value: Config["trustProxy"],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === "number" ? (_address, hop) => hop < value : value;
}

/**
 * Request ids: a random per-process prefix and a counter. Unique across
 * replicas and restarts for practical purposes, and far cheaper than a UUID
 * per request.
 */
function createRequestIds() {
  const prefix = randomBytes(6).toString("base64url");
  let next = 0;
  return () => `${prefix}-${(next++).toString(36)}`;
}

/** The composition root: every service and both listeners, wired once. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, db, logger } = options;
  const clock = options.clock ?? systemClock;
  const policies = options.policies ?? defaultPolicies;
  let inFlight = 0;

  const limiter = createSlidingWindowLimiter({ clock });
  let metrics: ReturnType<typeof createMetrics> | undefined;
  const keys = createKeyService({
    db,
    clock,
    ...options.keyCache,
    onCacheFlush: () => {
      metrics?.keyCacheFlushes.inc();
      logger.warn({ msg: "key cache flushed after the notification connection was re-established" });
    },
  });
  metrics = createMetrics({
    poolStats: () => db.poolStats(),
    keyCacheSize: () => keys.cacheSize(),
    inFlight: () => inFlight,
  });
  const idempotency = createIdempotency({ db, clock });
  const deployments = options.deployments ?? [];
  const indexer =
    deployments.length > 0
      ? createIndexerService({ db, logger, clock, deployments, registry: metrics.registry })
      : undefined;

  const roles = chainRoles(deployments);
  const walletVerifier =
    options.walletVerifier ?? createWalletVerifier({ rpcUrl: roles.market?.deployment.rpcUrl });
  const sessions = createSessionService({
    db,
    clock,
    verifier: walletVerifier,
    allowedOrigins: config.allowedOrigins,
    onCacheFlush: () =>
      logger.warn({ msg: "session cache flushed after the notification connection was re-established" }),
  });
  const featureDeps: FeatureDeps = { db, clock, logger, config, sessions };
  const features: MarketFeature[] = [
    walletFeature(sessions),
    socialFeature(featureDeps),
    profileFeature(featureDeps, options.xProvider ? { xProvider: options.xProvider } : {}),
  ];
  const dispatch = createActionDispatcher(features.map((feature) => feature.actions ?? {}));
  const jobs = features.flatMap((feature) => feature.jobs ?? []);

  const surfaces = {
    platform: platformSurface(),
    market: marketSurface(),
    classic: classicSurface(),
    predict: predictSurface(config.publicUrl),
    app: appProxySurface(),
  };
  const marketRoutes = [
    apiKeyCheckRoute,
    marketRuntimeRoute(deployments),
    ...accountRoutes({
      db,
      clock,
      sessions,
      dispatch,
      secureCookies: config.secureCookies,
      actionResults: Object.assign({}, ...features.map((feature) => feature.actionResults ?? {})),
    }),
    ...features.flatMap((feature) => feature.routes ?? []),
  ];
  const routes: Record<Surface["name"], RouteDefinition[]> = {
    platform: [],
    app: marketRoutes.filter((route) => route.proxy !== false && route !== apiKeyCheckRoute),
    market: marketRoutes,
    classic: [],
    predict: predictRoutes({
      db,
      deployment: roles.predict?.deployment,
    }),
  };
  const shared = keyRoutes({ keys });
  const documents: PublishedDocument[] = (["market", "classic", "predict"] as const).map((name) => ({
    name,
    title: surfaces[name].title,
    build: () =>
      buildOpenApiDocument(
        surfaces[name],
        [
          { prefix: "", routes: shared },
          { prefix: surfaces[name].prefix, routes: routes[name] },
        ],
        {
          publicUrl: config.publicUrl,
          notes: surfaceNotes(name, config),
        },
      ),
  }));
  routes.platform = [...shared, ...platformRoutes({ db, documents })];

  const cors = createCorsPolicy(config.allowedOrigins);
  const newRequestId = createRequestIds();
  /**
   * The log line of an answered request. Refused, failed and slow requests
   * are logged at info; successful ones at debug (LOG_LEVEL=debug gives a
   * full access log): at thousands of budget checks a second, an info line
   * each would be most of the work, and the metrics count them anyway.
   */
  const logAnswered = (
    method: string,
    route: string,
    reqId: string,
    path: string,
    status: number,
    ms: number,
  ) => {
    const level = status >= 400 || ms >= SLOW_REQUEST_MS ? "info" : "debug";
    if (logger.isLevelEnabled(level)) {
      logger[level]({ msg: "request", reqId, method, route, path, status, ms: Math.round(ms * 100) / 100 });
    }
  };
  /** Metrics and the log line of every answered request. */
  const answered = (
    surface: string,
    route: string,
    method: string,
    reqId: string,
    path: string,
    status: number,
    ms: number,
  ) => {
    metrics.recordRequest(surface, route, method, status, ms / 1000);
    logAnswered(method, route, reqId, path, status, ms);
  };
  let closing = false;
  const apiKeyRoute = `${surfaces.market.prefix}${apiKeyCheckRoute.path}`;
  const recordApiKeyAnswer = metrics.requestRecorder("market", apiKeyRoute, "GET", 204);
  // The hottest route's success answer, served before Fastify routes the request. With
  // TRUST_PROXY set the client IP needs Fastify's proxy handling, so the fast path is off.
  const fastPath =
    config.trustProxy === false
      ? createApiKeyFastPath({
          keys,
          limiter,
          policies,
          corsHeaders: cors.headerListFor,
          newRequestId,
          admit: () => {
            if (inFlight >= config.maxInFlight) return false;
            inFlight += 1;
            return true;
          },
          leave: () => {
            inFlight -= 1;
          },
          accepting: () => !closing,
          answered: (reqId, ms) => {
            recordApiKeyAnswer(ms / 1000);
            logAnswered("GET", apiKeyRoute, reqId, apiKeyRoute, 204, ms);
          },
        })
      : undefined;

  const server = Fastify({
    serverFactory: (handler) =>
      createServer((request, response) => {
        if (!fastPath?.(request, response)) handler(request, response);
      }),
    loggerInstance: logger as FastifyBaseLogger,
    // mkt logs one line per request itself (onResponse), without headers.
    logController: new LogController({ disableRequestLogging: true }),
    // No per-request child logger: lines that need the request id carry it explicitly.
    childLoggerFactory: (logger) => logger,
    trustProxy: trustProxyOption(config.trustProxy),
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : newRequestId();
    },
    bodyLimit: 1_048_576,
    return503OnClosing: true,
  });
  // JSON only: any other content type is a 415 in the surface's error body.
  server.removeContentTypeParser("text/plain");
  server.decorateRequest("apiKey", undefined);
  server.decorateRequest("idempotency", undefined);

  const surfaceOf = (request: FastifyRequest): Surface => {
    const name = request.routeOptions.config.surface;
    if (name) return surfaces[name];
    const path = request.url;
    if (path.startsWith("/market")) return surfaces.market;
    if (path.startsWith("/classic")) return surfaces.classic;
    if (path.startsWith("/predict/v9")) return surfaces.predict;
    if (path.startsWith("/app/api")) return surfaces.app;
    return surfaces.platform;
  };

  registerPreflight(server, cors);
  const counted = new WeakSet<FastifyRequest>();
  const release = (request: FastifyRequest) => {
    if (counted.delete(request)) inFlight -= 1;
  };

  // One synchronous hook for the work every request needs: its id, CORS
  // headers, and admission (a cap on requests in flight per replica).
  server.addHook("onRequest", (request, reply, done) => {
    reply.header("X-Request-Id", request.id);
    reply.headers(cors.headersFor(request.headers.origin, request.url));
    inFlight += 1;
    counted.add(request);
    if (inFlight > config.maxInFlight) {
      metrics.quotaRejections.inc({ surface: surfaceOf(request).name, reason: "admission" });
      done(
        new RateLimitedError("admission", "the service is at capacity; retry shortly", {
          retryAfterSeconds: 1,
        }),
      );
      return;
    }
    done();
  });
  server.addHook("onRequestAbort", (request, done) => {
    release(request);
    done();
  });

  server.addHook("onResponse", (request, reply, done) => {
    release(request);
    const surface = request.routeOptions.config.surface ?? "platform";
    const route = request.routeOptions.url ?? "unmatched";
    answered(
      surface,
      route,
      request.method,
      request.id,
      request.url.split("?")[0] ?? "",
      reply.statusCode,
      reply.elapsedTime,
    );
    done();
  });

  server.setErrorHandler(errorHandlerFor(surfaces.platform, logger));
  server.setNotFoundHandler((request, reply) =>
    sendError(surfaceOf(request), notFound(`no route ${request.method} ${request.url.split("?")[0]}`), reply),
  );

  const guard = createGuard({
    keys,
    limiter,
    policies,
    publicReads: config.publicReads,
    onRejected: (request, reason) =>
      metrics.quotaRejections.inc({ surface: surfaceOf(request).name, reason }),
  });
  server.decorateRequest("session", undefined);
  const surfaceDeps = { guard, idempotency, logger, sessionHook: createSessionAuth(sessions) };
  for (const name of ["platform", "market", "classic", "predict"] as const) {
    registerSurface(server, surfaces[name], routes[name], surfaceDeps);
  }
  registerSurface(server, surfaces.app, routes.app, {
    ...surfaceDeps,
    beforeGuard: createProxyOriginCheck(config.allowedOrigins),
  });

  const adminToken = config.admin.token ?? randomBytes(24).toString("base64url");
  const admin = createAdminServer({
    logger,
    token: adminToken,
    keys,
    metrics,
    indexer,
    extend: (app) => {
      for (const feature of features) feature.admin?.(app);
    },
  });

  await keys.start();
  await sessions.start();
  const maintenance = setInterval(() => {
    limiter.sweep();
    idempotency.sweep().catch((error) => logger.warn({ msg: "idempotency sweep failed", err: error }));
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();
  const runJob = (job: (typeof jobs)[number]) =>
    job.run().catch((error) => logger.warn({ msg: "job failed", job: job.name, err: error }));
  const jobTimers = jobs.map((job) => {
    const timer = setInterval(() => void runJob(job), job.intervalMs);
    timer.unref();
    return timer;
  });

  await server.ready();
  await admin.ready();

  return {
    server,
    admin,
    adminToken,
    services: {
      keys,
      limiter,
      metrics,
      idempotency,
      indexer,
      sessions,
      async runJobs() {
        for (const job of jobs) await job.run();
      },
    },
    async listen() {
      if (options.indexing !== false) indexer?.start();
      for (const feature of features) feature.start?.();
      const publicAddress = await server.listen({ host: config.host, port: config.port });
      const adminAddress = await admin.listen({ host: config.admin.host, port: config.admin.port });
      return { publicUrl: publicAddress, adminUrl: adminAddress };
    },
    async close() {
      closing = true;
      clearInterval(maintenance);
      for (const timer of jobTimers) clearInterval(timer);
      await server.close();
      await admin.close();
      await indexer?.stop();
      for (const feature of features) await feature.stop?.();
      await keys.stop();
      await sessions.stop();
    },
  };
}

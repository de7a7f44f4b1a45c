import { randomBytes, randomUUID } from "node:crypto";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { Logger } from "pino";
import { createAdminServer } from "./admin/server.ts";
import type { Config } from "./config/index.ts";
import type { Database } from "./db/index.ts";
import { notFound, RateLimitedError } from "./errors.ts";
import { registerCors } from "./http/cors.ts";
import { createGuard } from "./http/guard.ts";
import { buildOpenApiDocument } from "./http/openapi.ts";
import { type PublishedDocument, platformRoutes } from "./http/platform-routes.ts";
import { errorHandlerFor, registerSurface, sendError } from "./http/register-surface.ts";
import type { RouteDefinition } from "./http/route.ts";
import { surfaceNotes } from "./http/surface-notes.ts";
import {
  classicSurface,
  marketSurface,
  platformSurface,
  predictSurface,
  type Surface,
} from "./http/surfaces.ts";
import { createIdempotency } from "./idempotency/index.ts";
import { keyRoutes } from "./keys/routes.ts";
import { createKeyService } from "./keys/service.ts";
import { apiKeyCheckRoute } from "./market/api-key-route.ts";
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
  };
  /** Binds both listeners. */
  listen(): Promise<{ publicUrl: string; adminUrl: string }>;
  /** Stops accepting, drains in-flight requests, stops background work. Does not close the database. */
  close(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAINTENANCE_INTERVAL_MS = 60_000;

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

  const surfaces = {
    platform: platformSurface(),
    market: marketSurface(),
    classic: classicSurface(),
    predict: predictSurface(config.publicUrl),
  };
  const routes: Record<Surface["name"], RouteDefinition[]> = {
    platform: [],
    market: [apiKeyCheckRoute],
    classic: [],
    predict: predictRoutes({ db }),
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

  const server = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // mkt logs one line per request itself (onResponse), without headers.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxyOption(config.trustProxy),
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
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
    return surfaces.platform;
  };

  // Admission: a cap on requests in flight per replica, before any other work.
  server.addHook("onRequest", async (request, reply) => {
    reply.header("X-Request-Id", request.id);
    inFlight += 1;
    reply.raw.once("close", () => {
      inFlight -= 1;
    });
    if (inFlight > config.maxInFlight) {
      metrics.quotaRejections.inc({ surface: surfaceOf(request).name, reason: "admission" });
      throw new RateLimitedError("admission", "the service is at capacity; retry shortly", {
        retryAfterSeconds: 1,
      });
    }
  });

  server.addHook("onResponse", async (request, reply) => {
    const surface = request.routeOptions.config.surface ?? "platform";
    const route = request.routeOptions.url ?? "unmatched";
    const status = reply.statusCode;
    metrics.httpRequests.inc({ surface, route, method: request.method, status });
    metrics.httpDuration.observe({ surface, route, method: request.method }, reply.elapsedTime / 1000);
    logger.info({
      msg: "request",
      reqId: request.id,
      method: request.method,
      route,
      path: request.url.split("?")[0],
      status,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    });
  });

  registerCors(server, config.allowedOrigins);

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
  const surfaceDeps = { guard, idempotency, logger };
  for (const name of ["platform", "market", "classic", "predict"] as const) {
    registerSurface(server, surfaces[name], routes[name], surfaceDeps);
  }

  const adminToken = config.admin.token ?? randomBytes(24).toString("base64url");
  const admin = createAdminServer({ logger, token: adminToken, keys, metrics });

  await keys.start();
  const maintenance = setInterval(() => {
    limiter.sweep();
    idempotency.sweep().catch((error) => logger.warn({ msg: "idempotency sweep failed", err: error }));
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();

  await server.ready();
  await admin.ready();

  return {
    server,
    admin,
    adminToken,
    services: { keys, limiter, metrics, idempotency },
    async listen() {
      const publicAddress = await server.listen({ host: config.host, port: config.port });
      const adminAddress = await admin.listen({ host: config.admin.host, port: config.admin.port });
      return { publicUrl: publicAddress, adminUrl: adminAddress };
    },
    async close() {
      clearInterval(maintenance);
      await server.close();
      await admin.close();
      await keys.stop();
    },
  };
}

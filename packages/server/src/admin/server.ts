import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Logger } from "pino";
import { notFound, RateLimitedError, unauthorized } from "../errors.ts";
import { errorHandlerFor, sendError } from "../http/error-handler.ts";
import { validatorCompiler } from "../http/input-text.ts";
import { type AdminApp, mountOperatorRoutes } from "../http/operator-routes.ts";
import type { RouteSpec } from "../http/route.ts";
import { EVERY_ANSWER_HEADERS, secureDocuments } from "../http/security-headers.ts";
import { platformSurface } from "../http/surfaces.ts";
import { secretsEqual } from "../keys/secrets.ts";
import type { DependencyLog } from "../logging/index.ts";
import { clientGroup } from "../quotas/client-group.ts";
import type { SlidingWindowLimiter } from "../quotas/limiter.ts";
import type { Budget } from "../quotas/policies.ts";

/**
 * Wrong or missing operator tokens one client group (an IPv4 address, or an
 * IPv6 /64) may present in a sliding window. Past it, every request from the
 * group is refused with 429 and `Retry-After`, the right token included,
 * until the failures leave the window; refused requests are not counted.
 */
export const defaultFailedTokenAttempts: Budget = { limit: 10, windowMs: 10 * 60_000 };

export interface AdminServerDeps {
  logger: Logger;
  dependencies: DependencyLog;
  token: string;
  /** The replica's limiter, which counts failed token attempts per client group. */
  limiter: SlidingWindowLimiter;
  failedTokenAttempts?: Budget;
  /** Every operator route: the listener's own (`adminRoutes`) and those the surfaces define. */
  routes: readonly RouteSpec[];
}

/**
 * The operator listener: key administration and metrics, on its own port and
 * bind address, behind `Authorization: Bearer <ADMIN_TOKEN>` compared in
 * constant time (both sides hashed, then `timingSafeEqual`), with failed
 * attempts budgeted per client group (`defaultFailedTokenAttempts`). The
 * client is the socket's peer: this listener trusts no `X-Forwarded-For`.
 * Not part of any public API document.
 */
export function createAdminServer({
  logger,
  dependencies,
  token,
  limiter,
  failedTokenAttempts = defaultFailedTokenAttempts,
  routes,
}: AdminServerDeps): AdminApp {
  const app = Fastify({
    loggerInstance: logger.child({ listener: "admin" }) as FastifyBaseLogger,
    // mkt logs one line per request itself (onResponse), without headers.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  const surface = platformSurface();
  // The public listener's input rules: a string with refused text (NUL, ...) is a 400 naming its field.
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandlerFor(surface, { logger, dependencies }));
  app.setNotFoundHandler((request, reply) =>
    sendError(surface, notFound(`no route ${request.method} ${request.url.split("?")[0]}`), reply),
  );
  secureDocuments(app);
  const { limit, windowMs } = failedTokenAttempts;
  app.addHook("onRequest", async (request, reply) => {
    // Every operator answer is about this deployment's keys and state: never kept by any cache.
    reply.headers(EVERY_ANSWER_HEADERS).header("Cache-Control", "no-store");
    const failures = `admin:failed:${clientGroup(request.ip)}`;
    // Checked before the token, so a client that spent its failures learns nothing more.
    if (!limiter.allows(failures, limit, windowMs)) {
      throw new RateLimitedError(
        "failed_attempts",
        "too many failed operator token attempts from this client",
        {
          retryAfterSeconds: limiter.peek(failures, limit, windowMs).retryAfterSeconds,
        },
      );
    }
    const header = request.headers.authorization ?? "";
    const presented = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
    if (!secretsEqual(presented, token)) {
      limiter.take(failures, limit, windowMs);
      throw unauthorized("operator token missing or wrong");
    }
  });

  mountOperatorRoutes(app, routes);
  return app;
}

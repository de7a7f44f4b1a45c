import {
  adminIndexerHandOffRequestSchema,
  adminIndexerHandOffsSchema,
  adminIndexerSchema,
  adminIndexerScopeParamsSchema,
  adminKeyListQuerySchema,
  adminKeyListSchema,
  adminKeyParamsSchema,
  adminKeyPatchSchema,
  adminKeySchema,
} from "@mkt/protocol";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Logger } from "pino";
import type { z } from "zod";
import { conflict, notFound, RateLimitedError, unauthorized } from "../errors.ts";
import type { AdminApp } from "../http/admin-app.ts";
import { errorHandlerFor, sendError } from "../http/error-handler.ts";
import { validatorCompiler } from "../http/input-text.ts";
import { EVERY_ANSWER_HEADERS, secureDocuments } from "../http/security-headers.ts";
import { platformSurface } from "../http/surfaces.ts";
import type { IndexerService } from "../indexer/service.ts";
import { HANDOFF_HOLD_OFF_MS } from "../indexer/writer-lock.ts";
import { secretsEqual } from "../keys/secrets.ts";
import type { KeyService } from "../keys/service.ts";
import type { DependencyLog } from "../logging/index.ts";
import type { Metrics } from "../metrics/index.ts";
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
  keys: KeyService;
  metrics: Metrics;
  indexer?: IndexerService | undefined;
  /** This replica's id (`Config.replicaId`), named in the indexer's answers. */
  replicaId: string;
  /** The replica's limiter, which counts failed token attempts per client group. */
  limiter: SlidingWindowLimiter;
  failedTokenAttempts?: Budget;
  /** Operator routes other areas add. */
  extend?: (app: AdminApp) => void;
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
  keys,
  metrics,
  indexer,
  replicaId,
  limiter,
  failedTokenAttempts = defaultFailedTokenAttempts,
  extend,
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

  app.get("/metrics", async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  app.get(
    "/admin/keys",
    {
      schema: {
        querystring: adminKeyListQuerySchema,
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      return adminKeyListSchema.parse(await keys.list({ limit, after: cursor }));
    },
  );

  app.patch(
    "/admin/keys/:id",
    { schema: { params: adminKeyParamsSchema, body: adminKeyPatchSchema } },
    async (request) => {
      const { id } = request.params;
      return adminKeySchema.parse(await keys.update(id, request.body));
    },
  );

  app.get("/admin/indexer", async () => {
    if (!indexer) return adminIndexerSchema.parse({ replica: replicaId, indexing: false, scopes: [] });
    return adminIndexerSchema.parse({
      replica: replicaId,
      indexing: indexer.indexing(),
      scopes: await indexer.heads(),
    });
  });

  // A hand-off may come with no body at all: every field of its body has a default.
  const handOffBody = adminIndexerHandOffRequestSchema.nullish();
  const holdOffOf = (body: z.output<typeof handOffBody>) =>
    body?.holdOffSeconds === undefined ? HANDOFF_HOLD_OFF_MS : body.holdOffSeconds * 1000;

  // Every scope this replica writes: the others are listed with `released: false`.
  app.post("/admin/indexer/handoff", { schema: { body: handOffBody } }, async (request) => {
    const holdOffMs = holdOffOf(request.body);
    const scopes = indexer?.scopes.map((scope) => scope.id) ?? [];
    const handOffs = await Promise.all(scopes.map((scope) => indexer!.handOff(scope, holdOffMs)));
    return adminIndexerHandOffsSchema.parse({ replica: replicaId, handOffs });
  });

  // One scope: 409 when this replica does not hold its writer lock (the answer names who does).
  app.post(
    "/admin/indexer/:scope/handoff",
    { schema: { params: adminIndexerScopeParamsSchema, body: handOffBody } },
    async (request) => {
      const { scope } = request.params;
      if (!indexer?.indexerOf(scope)) throw notFound(`no indexer scope ${scope}`);
      const handOff = await indexer.handOff(scope, holdOffOf(request.body));
      if (!handOff.released) {
        throw conflict(
          `replica ${replicaId} does not hold the writer lock of ${scope}; ${handOff.writer === null ? "no replica holds it" : `replica ${handOff.writer} does`}`,
        );
      }
      return adminIndexerHandOffsSchema.parse({ replica: replicaId, handOffs: [handOff] });
    },
  );

  extend?.(app);
  return app;
}

import {
  adminKeyListQuerySchema,
  adminKeyListSchema,
  adminKeyParamsSchema,
  adminKeyPatchSchema,
  adminKeySchema,
} from "@mkt/protocol";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import type { Logger } from "pino";
import type { z } from "zod";
import { notFound, unauthorized } from "../errors.ts";
import { errorHandlerFor, sendError } from "../http/error-handler.ts";
import { EVERY_ANSWER_HEADERS, secureDocuments } from "../http/security-headers.ts";
import { validatorCompiler } from "../http/input-text.ts";
import { platformSurface } from "../http/surfaces.ts";
import type { IndexerService } from "../indexer/service.ts";
import { secretsEqual } from "../keys/secrets.ts";
import type { KeyService } from "../keys/service.ts";
import type { Metrics } from "../metrics/index.ts";

export interface AdminServerDeps {
  logger: Logger;
  token: string;
  keys: KeyService;
  metrics: Metrics;
  indexer?: IndexerService | undefined;
  /** Operator routes other areas add. */
  extend?: (app: FastifyInstance) => void;
}

/**
 * The operator listener: key administration and metrics, on its own port and
 * bind address, behind `Authorization: Bearer <ADMIN_TOKEN>` compared in
 * constant time. Not part of any public API document.
 */
export function createAdminServer({
  logger,
  token,
  keys,
  metrics,
  indexer,
  extend,
}: AdminServerDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger.child({ listener: "admin" }) as FastifyBaseLogger,
    // mkt logs one line per request itself (onResponse), without headers.
    logController: new LogController({ disableRequestLogging: true }),
  });
  const surface = platformSurface();
  // The public listener's input rules: a string with refused text (NUL, ...) is a 400 naming its field.
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandlerFor(surface, logger));
  app.setNotFoundHandler((request, reply) =>
    sendError(surface, notFound(`no route ${request.method} ${request.url.split("?")[0]}`), reply),
  );
  secureDocuments(app);
  app.addHook("onRequest", async (request, reply) => {
    // Every operator answer is about this deployment's keys and state: never kept by any cache.
    reply.headers(EVERY_ANSWER_HEADERS).header("Cache-Control", "no-store");
    const header = request.headers.authorization ?? "";
    const presented = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
    if (!secretsEqual(presented, token)) throw unauthorized("operator token missing or wrong");
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
      const { limit, cursor } = request.query as z.output<typeof adminKeyListQuerySchema>;
      return adminKeyListSchema.parse(await keys.list({ limit, after: cursor }));
    },
  );

  app.patch(
    "/admin/keys/:id",
    { schema: { params: adminKeyParamsSchema, body: adminKeyPatchSchema } },
    async (request) => {
      const { id } = request.params as z.output<typeof adminKeyParamsSchema>;
      return adminKeySchema.parse(await keys.update(id, request.body as z.infer<typeof adminKeyPatchSchema>));
    },
  );

  app.get("/admin/indexer", async () => {
    if (!indexer) return { scopes: [] };
    return { scopes: await indexer.heads() };
  });

  extend?.(app);
  return app;
}

import type { SessionKind } from "@mkt/protocol";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { Logger } from "pino";
import type { AppError } from "../errors.ts";
import { notFound } from "../errors.ts";
import type { Idempotency } from "../idempotency/index.ts";
import type { RouteDefinition } from "./route.ts";
import type { Surface } from "./surfaces.ts";
import { toAppError } from "./to-app-error.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    surface?: Surface["name"];
  }
}

export function sendError(surface: Surface, error: AppError, reply: FastifyReply) {
  const rendered = surface.renderError(error);
  reply.headers(rendered.headers);
  return reply.code(rendered.status).send(rendered.body);
}

export function errorHandlerFor(surface: Surface, logger: Logger) {
  return (raw: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { error, unexpected } = toAppError(raw);
    if (unexpected) {
      logger.error({ err: raw, reqId: request.id, route: request.routeOptions.url }, "request failed");
    } else if (error.kind === "unavailable") {
      logger.warn(
        { reqId: request.id, route: request.routeOptions.url, reason: error.message },
        "dependency unavailable",
      );
    }
    return sendError(surface, error, reply);
  };
}

export interface SurfaceDeps {
  guard: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;
  idempotency: Idempotency;
  logger: Logger;
  /** The hook that authenticates a route's session kind. */
  sessionHook?: (kind: SessionKind) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Runs before the guard on every route of the surface (the proxy's origin check). */
  beforeGuard?: (request: FastifyRequest) => void;
}

/**
 * Mounts one API surface: its routes under its prefix, with its own error
 * body for every error (validation, 404 and 5xx included) and the guard that
 * applies its credentials and budgets.
 */
export function registerSurface(
  app: FastifyInstance,
  surface: Surface,
  routes: RouteDefinition[],
  { guard, idempotency, logger, sessionHook, beforeGuard }: SurfaceDeps,
) {
  app.register(
    async (scope) => {
      scope.setValidatorCompiler(validatorCompiler);
      scope.setErrorHandler(errorHandlerFor(surface, logger));
      if (surface.prefix !== "") {
        scope.setNotFoundHandler((request, reply) =>
          sendError(surface, notFound(`no route ${request.method} ${request.url.split("?")[0]}`), reply),
        );
      }
      if (beforeGuard) {
        scope.addHook("onRequest", (request, _reply, done) => {
          try {
            beforeGuard(request);
          } catch (error) {
            done(error as Error);
            return;
          }
          done();
        });
      }
      scope.addHook("onRequest", guard);
      const sessionHookFor = (kind: SessionKind) => {
        if (!sessionHook)
          throw new Error(`route needs a ${kind} session but no session authentication is set up`);
        return sessionHook(kind);
      };
      for (const route of routes) {
        scope.route({
          method: route.method,
          url: route.path,
          schema: {
            ...(route.request?.query ? { querystring: route.request.query } : {}),
            ...(route.request?.params ? { params: route.request.params } : {}),
            ...(route.request?.body ? { body: route.request.body } : {}),
            ...(route.request?.headers ? { headers: route.request.headers } : {}),
          },
          config: { access: route.access, surface: surface.name },
          ...(route.session ? { onRequest: sessionHookFor(route.session) } : {}),
          ...(route.idempotent ? { preHandler: idempotency.preHandler, onSend: idempotency.onSend } : {}),
          handler: route.handler,
        });
      }
    },
    { prefix: surface.prefix },
  );
}

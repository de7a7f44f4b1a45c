import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { DatabaseError } from "../db/index.ts";
import type { AppError } from "../errors.ts";
import type { DependencyLog } from "../logging/index.ts";
import type { RouteGate } from "./route.ts";
import type { Surface } from "./surfaces.ts";
import { toAppError } from "./to-app-error.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    surface?: Surface["name"];
    /** The route's product gate (`gate` in its route table): open streams check it again. */
    gate?: RouteGate;
  }
}

export function sendError(surface: Surface, error: AppError, reply: FastifyReply) {
  const rendered = surface.renderError(error);
  reply.headers(rendered.headers);
  return reply.code(rendered.status).send(rendered.body);
}

/**
 * What a 503 waited on, as the dependency log names it: "database" when a
 * database error is among its causes, else the refusal's code or message (a
 * fixed text per cause: the RPC, the price feed, the stream cap...).
 */
export function dependencyOf(error: AppError): string {
  for (let cause: unknown = error.cause, depth = 0; cause && depth < 8; depth++) {
    if (cause instanceof DatabaseError) return "database";
    cause = (cause as { cause?: unknown }).cause;
  }
  return error.code ?? error.message;
}

/**
 * The error handler of one surface: every error, whatever threw it, in the surface's own body.
 * A 503 is one failure of a dependency, counted by the dependency log (a line at once, then one
 * per interval), never a line of its own: its request line says the rest.
 */
export function errorHandlerFor(surface: Surface, deps: { logger: Logger; dependencies: DependencyLog }) {
  const { logger, dependencies } = deps;
  return (raw: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { error, unexpected } = toAppError(raw);
    if (unexpected) {
      logger.error({ err: raw, reqId: request.id, route: request.routeOptions.url }, "request failed");
    } else if (error.kind === "unavailable") {
      dependencies.failed(dependencyOf(error), error.message);
    }
    return sendError(surface, error, reply);
  };
}

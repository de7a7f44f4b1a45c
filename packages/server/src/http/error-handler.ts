import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { AppError } from "../errors.ts";
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

/** The error handler of one surface: every error, whatever threw it, in the surface's own body. */
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

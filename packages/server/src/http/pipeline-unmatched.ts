import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../errors.ts";
import { sendError } from "./error-handler.ts";
import { surfaceOfPath } from "./framework-errors.ts";
import type { RequestLifecycle } from "./pipeline-lifecycle.ts";
import type { Surface } from "./surfaces.ts";
import { toAppError } from "./to-app-error.ts";

/**
 * The answers to requests no route took (no route matched, or the router
 * refused the path), in the error body of the surface the path belongs to,
 * with the headers, admission, metrics and log line every request gets.
 */
export function createUnmatchedHandlers(lifecycle: RequestLifecycle) {
  /** Records and logs a request no route took, under the route label `unmatched`. */
  function unmatchedAnswered(surface: Surface) {
    return lifecycle.answeredAs(surface.name, "unmatched", "ANY");
  }

  function notFoundHandler(surface: Surface) {
    const answered = unmatchedAnswered(surface);
    return (request: FastifyRequest, reply: FastifyReply) => {
      const refused = lifecycle.open(request, reply, surface.name, answered);
      return sendError(
        surface,
        refused ?? notFound(`no route ${request.method} ${request.url.split("?")[0]}`),
        reply,
      );
    };
  }

  function frameworkErrorHandler(surfaces: readonly Surface[], fallback: Surface) {
    const fallbackAnswered = unmatchedAnswered(fallback);
    const answered = new Map(surfaces.map((surface) => [surface, unmatchedAnswered(surface)]));
    return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const surface = surfaceOfPath(surfaces, request.url, fallback);
      const refused = lifecycle.open(request, reply, surface.name, answered.get(surface) ?? fallbackAnswered);
      void sendError(surface, refused ?? toAppError(error).error, reply);
    };
  }

  return { notFoundHandler, frameworkErrorHandler };
}

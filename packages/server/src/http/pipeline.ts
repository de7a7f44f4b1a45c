import multipart from "@fastify/multipart";
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";
import type { DependencyLog } from "../logging/index.ts";
import { errorHandlerFor } from "./error-handler.ts";
import { validatorCompiler } from "./input-text.ts";
import { createRequestLifecycle, type RequestLifecycleDeps } from "./pipeline-lifecycle.ts";
import { createReadCacheHooks } from "./pipeline-read-cache.ts";
import { createRouteCompiler, type RouteCompilerDeps } from "./pipeline-route.ts";
import { createUnmatchedHandlers } from "./pipeline-unmatched.ts";
import type { ReadCache, Revisions } from "./read-cache.ts";
import { createRequestIds, requestIdOf } from "./request-ids.ts";
import type { RouteDefinition } from "./route.ts";
import type { Surface } from "./surfaces.ts";

export interface PipelineDeps extends RequestLifecycleDeps, RouteCompilerDeps {
  readCache: ReadCache;
  /** Where 503s count as dependency failures (throttled lines). */
  dependencies: DependencyLog;
  revisions: Revisions;
}

export interface Pipeline {
  /** Requests this replica is answering now. */
  inFlight(): number;
  /** A request id for Fastify's `genReqId`: the caller's `X-Request-Id` when well-formed, else a new one. */
  requestId(request: { headers: Record<string, string | string[] | undefined> }): string;
  /**
   * Mounts one API surface: its routes under its prefix, each through the
   * pipeline, with the surface's own error body for every error (validation,
   * 404 and 5xx included).
   */
  mount(app: FastifyInstance, surface: Surface, routes: readonly RouteDefinition[]): void;
  /**
   * The answer to a request no route matched, in the surface's error body,
   * with the headers, admission, metrics and log line every request gets.
   */
  notFoundHandler(surface: Surface): (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
  /**
   * Fastify's `frameworkErrors`: the router's refusals before any route is
   * matched (a path that does not decode, 400; a path parameter over
   * `MAX_PATH_PARAMETER_LENGTH`, 414), in the error body of the surface the
   * path belongs to, with the headers, admission, metrics and log line every
   * request gets.
   */
  frameworkErrorHandler(
    surfaces: readonly Surface[],
    fallback: Surface,
  ): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;
  /** The hooks of a route outside the route tables (CORS preflight): id, CORS, admission, metrics, log. */
  plainHooks(
    surface: Surface["name"],
    url: string,
    method: string,
  ): { onRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void };
}

/**
 * The request pipeline every route goes through. What a route needs is
 * decided once, when the route is mounted, from its declaration in its
 * surface's route table, and compiled into two hooks of its own:
 *
 * - `onRequest`: request id, CORS headers, `Cache-Control`, admission (a cap
 *   on requests in flight per replica), then the route's checks in order: the
 *   proxy's origin check, the access rule (key and budget), the session, the
 *   route's gate (a product switch, `gate`), the query's parameter names
 *   (only those the route declares, each once: `query-names.ts`), and the
 *   read cache (a hit answers here, after it was charged). A route whose
 *   session is optional compiles both paths and takes, per request, the
 *   signed-in one (private, no read cache) when a credential is presented.
 * - once the response is finished (or the connection closed under it): the
 *   admission slot back, the request's metrics (a recorder bound to the route)
 *   and its log line.
 *
 * Every 2xx JSON body is serialised by a serializer Fastify compiles once from
 * the route's response schema. Nothing is special-cased per route: a speed-up
 * belongs here, where every route gets it.
 */
export function createPipeline(deps: PipelineDeps): Pipeline {
  const { logger } = deps;
  const lifecycle = createRequestLifecycle(deps);
  const compileRoute = createRouteCompiler(deps, lifecycle, createReadCacheHooks(deps));
  const { notFoundHandler, frameworkErrorHandler } = createUnmatchedHandlers(lifecycle);
  const newRequestId = createRequestIds();

  return {
    inFlight: lifecycle.inFlight,

    requestId: (request: { headers: Record<string, string | string[] | undefined> }) =>
      requestIdOf(request.headers["x-request-id"], newRequestId),

    mount(app: FastifyInstance, surface: Surface, routes: readonly RouteDefinition[]) {
      app.register(
        async (scope) => {
          scope.setValidatorCompiler(validatorCompiler);
          scope.setErrorHandler(errorHandlerFor(surface, { logger, dependencies: deps.dependencies }));
          if (surface.prefix !== "") scope.setNotFoundHandler(notFoundHandler(surface));
          for (const route of routes) {
            const { multipart: form } = route;
            if (form === undefined) {
              scope.route(compileRoute(surface, route));
              continue;
            }
            // Multipart is parsed only in this route's own scope, with its limits.
            scope.register(async (own) => {
              await own.register(multipart, {
                limits: {
                  fileSize: form.maxFileBytes,
                  files: 1,
                  fields: 0,
                  parts: 1,
                  fieldNameSize: 100,
                  headerPairs: 20,
                },
              });
              own.route(compileRoute(surface, route));
            });
          }
        },
        { prefix: surface.prefix },
      );
    },

    notFoundHandler,

    frameworkErrorHandler,

    plainHooks(surface: Surface["name"], url: string, method: string) {
      const answered = lifecycle.answeredAs(surface, url, method);
      return {
        onRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
          done(lifecycle.open(request, reply, surface, answered));
        },
      };
    },
  };
}

import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Config } from "../config/index.ts";
import type { DependencyLog } from "../logging/index.ts";
import { type CorsPolicy, registerPreflight } from "./cors.ts";
import { errorHandlerFor } from "./error-handler.ts";
import {
  createClientErrorHandler,
  MAX_PATH_PARAMETER_LENGTH,
  MAX_REQUEST_HEAD_BYTES,
} from "./framework-errors.ts";
import type { Pipeline } from "./pipeline.ts";
import type { RouteDefinition } from "./route.ts";
import { secureDocuments } from "./security-headers.ts";
import type { Surface, SurfaceName } from "./surfaces.ts";

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

export interface PublicServerDeps {
  config: Pick<Config, "trustProxy">;
  logger: Logger;
  dependencies: DependencyLog;
  pipeline: Pipeline;
  cors: CorsPolicy;
  /** Every surface the listener serves. */
  surfaces: Readonly<Record<SurfaceName, Surface>>;
  /** Each surface's routes, mounted through the pipeline. */
  routes: Readonly<Record<SurfaceName, readonly RouteDefinition[]>>;
}

/** The public listener: every surface's routes behind the request pipeline, in their surface's error body. */
export function createPublicServer({
  config,
  logger,
  dependencies,
  pipeline,
  cors,
  surfaces,
  routes,
}: PublicServerDeps): FastifyInstance {
  const mounted = (["market", "classic", "predict", "app", "platform"] as const).map(
    (name) => surfaces[name],
  );
  const server = Fastify({
    // No Fastify logger: the pipeline logs one line per request itself (without headers) and the
    // error handlers log failures with the process logger. With a logger, Fastify would add two
    // response listeners, a closure and two clock reads to every request to time it.
    logger: false,
    trustProxy: trustProxyOption(config.trustProxy),
    requestIdHeader: false,
    genReqId: pipeline.requestId,
    bodyLimit: 1_048_576,
    return503OnClosing: true,
    // Every refusal, whichever layer makes it, in the error body of the surface the path names:
    // the router's (a path that does not decode, an over-long path parameter) and Node's parser's
    // (a request head over the limit, a request that is not HTTP, one that never finishes).
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    http: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES },
    frameworkErrors: pipeline.frameworkErrorHandler(mounted, surfaces.platform),
    clientErrorHandler: createClientErrorHandler({ surfaces: mounted, fallback: surfaces.market, logger }),
  });
  // JSON only: any other content type is a 415 in the surface's error body.
  server.removeContentTypeParser("text/plain");
  server.decorateRequest("apiKey", undefined);
  server.decorateRequest("idempotency", undefined);
  server.decorateRequest("session", undefined);
  server.decorateRequest("classicAccount", undefined);
  server.decorateRequest("admitted", false);
  server.decorateRequest("readCacheSlot", undefined);
  // Before any route is mounted: every route inherits the hooks its parent holds at that point.
  secureDocuments(server);
  server.setErrorHandler(errorHandlerFor(surfaces.platform, { logger, dependencies }));
  server.setNotFoundHandler(pipeline.notFoundHandler(surfaces.platform));
  registerPreflight(server, cors, pipeline.plainHooks("platform", "/*", "OPTIONS"));
  for (const name of ["platform", "market", "classic", "predict", "app"] as const) {
    pipeline.mount(server, surfaces[name], routes[name]);
  }
  return server;
}

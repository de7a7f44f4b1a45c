import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { RateLimitedError } from "../errors.ts";
import type { Metrics } from "../metrics/index.ts";
import type { CorsPolicy } from "./cors.ts";
import { EVERY_ANSWER_HEADERS } from "./security-headers.ts";
import type { Surface } from "./surfaces.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Whether the request holds an admission slot (released when it is answered or aborted). */
    admitted: boolean;
  }
}

const SLOW_REQUEST_MS = 1_000;

/**
 * Every answer's own headers, named as the reply stores them: `reply.header`
 * lowercases each name it is given, and one that is lowercase already costs
 * no new string (and no string-table lookup) per request.
 */
const EVERY_ANSWER = Object.entries(EVERY_ANSWER_HEADERS).map(([name, value]) => [name.toLowerCase(), value]);

/** What runs once a request is answered (or its connection closed under it), with its duration. */
export type Answered = (request: FastifyRequest, reply: FastifyReply, ms: number) => void;

export interface RequestLifecycleDeps {
  logger: Logger;
  metrics: Metrics;
  cors: CorsPolicy;
  /** Requests in flight per replica before 429 (admission cap). */
  maxInFlight: number;
}

/** What every request gets, matched by a route or not, from its first hook to its log line. */
export interface RequestLifecycle {
  /** Requests holding an admission slot on this replica. */
  inFlight(): number;
  /**
   * Request id, CORS, `X-Content-Type-Options` and admission; the admission
   * refusal when the replica is at its cap.
   */
  open(
    request: FastifyRequest,
    reply: FastifyReply,
    surface: Surface["name"],
    answered: Answered,
  ): RateLimitedError | undefined;
  /** Gives the request's admission slot back (once; later calls do nothing). */
  release(request: FastifyRequest): void;
  /** Records an answered request's metrics and log line under a route label. */
  answeredAs(surface: Surface["name"], route: string, method: string): Answered;
}

export function createRequestLifecycle(deps: RequestLifecycleDeps): RequestLifecycle {
  const { logger, metrics, cors } = deps;
  let inFlight = 0;

  /**
   * The log line of an answered request. Refused, failed and slow requests
   * are logged at info; successful ones at debug (LOG_LEVEL=debug gives a
   * full access log): at thousands of budget checks a second, an info line
   * each would be most of the work, and the metrics count them anyway.
   */
  const logAnswered = (request: FastifyRequest, route: string, status: number, ms: number) => {
    const level = status >= 400 || ms >= SLOW_REQUEST_MS ? "info" : "debug";
    if (logger.isLevelEnabled(level)) {
      const url = request.url;
      const query = url.indexOf("?");
      logger[level]({
        msg: "request",
        reqId: request.id,
        method: request.method,
        route,
        path: query === -1 ? url : url.slice(0, query),
        status,
        ms: Math.round(ms * 100) / 100,
      });
    }
  };

  const release = (request: FastifyRequest) => {
    if (request.admitted) {
      request.admitted = false;
      inFlight -= 1;
    }
  };

  /**
   * Request id, CORS, `X-Content-Type-Options` and admission: what every request gets, matched
   * or not.
   * `answered` runs once the response is finished or the connection closed
   * under it (one `close` listener: it fires in both cases), to release the
   * admission slot and record the request.
   */
  const open = (
    request: FastifyRequest,
    reply: FastifyReply,
    surface: Surface["name"],
    answered: Answered,
  ): RateLimitedError | undefined => {
    const started = performance.now();
    reply.raw.on("close", () => {
      request.readCacheSlot?.settle?.();
      release(request);
      answered(request, reply, performance.now() - started);
    });
    reply.header("x-request-id", request.id);
    reply.headers(cors.headersFor(request.headers.origin, request.url));
    // Here rather than in an onSend hook: streams take the response over and skip onSend.
    for (const [name, value] of EVERY_ANSWER) reply.header(name!, value!);
    inFlight += 1;
    request.admitted = true;
    if (inFlight > deps.maxInFlight) {
      metrics.quotaRejections.inc({ surface, reason: "admission" });
      return new RateLimitedError("admission", "the service is at capacity; retry shortly", {
        retryAfterSeconds: 1,
      });
    }
    return undefined;
  };

  const answeredAs = (surface: Surface["name"], route: string, method: string): Answered => {
    const record = metrics.routeRecorder(surface, route, method);
    return (request, reply, ms) => {
      record(reply.statusCode, ms / 1000);
      logAnswered(request, route, reply.statusCode, ms);
    };
  };

  return { inFlight: () => inFlight, open, release, answeredAs };
}

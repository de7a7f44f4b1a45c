import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { KeyService } from "../keys/service.ts";
import type { SlidingWindowLimiter } from "../quotas/limiter.ts";
import type { QuotaPolicies } from "../quotas/policies.ts";

export interface FastPathDeps {
  keys: KeyService;
  limiter: SlidingWindowLimiter;
  policies: QuotaPolicies;
  /** Headers every response carries (request id excluded): Vary and CORS. */
  commonHeaders(origin: string | undefined, url: string): Record<string, string>;
  /** Takes an admission slot; false when the replica is at its cap. */
  admit(): boolean;
  leave(): void;
  /** False while the server is closing: Fastify's path answers 503 then. */
  accepting(): boolean;
  /** Metrics and the request log line, as for any other request. */
  answered(entry: { reqId: string; path: string; status: number; ms: number }): void;
}

const PATH = "/market/api-key";
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BUCKETS = new Set(["read", "write", "stream"]);

/**
 * `GET /market/api-key` is the API's hottest route: clients call it before
 * every batch of work. Its successful answer is served here, before Fastify
 * routes the request, with the same headers, budget, metrics and log line
 * as the Fastify route. Only the success case is served: a key that is not
 * cached, any refusal and any malformed input fall through to the Fastify
 * route (nothing is charged here then), so every error still has exactly
 * one implementation.
 *
 * Benchmarks showed Fastify's routing and hook machinery alone at about
 * three quarters of a bare node:http server's throughput on this machine,
 * below the 0.7 target once the route does its own work.
 */
export function createApiKeyFastPath(deps: FastPathDeps) {
  const failed = deps.policies.failedKeyAttempts;
  return function serve(request: IncomingMessage, response: ServerResponse): boolean {
    const url = request.url;
    if (request.method !== "GET" || url === undefined || !url.startsWith(PATH) || !deps.accepting())
      return false;
    const query = url.slice(PATH.length);
    if (query[0] !== "?") return false;
    const params = new URLSearchParams(query.slice(1));
    const bucket = params.get("bucket");
    if (bucket === null || !BUCKETS.has(bucket)) return false;
    const presented = request.headers["api-key"];
    if (typeof presented !== "string") return false;
    const ip = request.socket.remoteAddress ?? "";
    if (!deps.limiter.peek(`failed:${ip}`, failed.limit, failed.windowMs).allowed) return false;
    const key = deps.keys.cached(presented);
    if (!key) return false;
    if (!deps.admit()) return false;
    const budget = deps.policies.market[bucket as "read" | "write" | "stream"];
    const decision = deps.limiter.take(
      `market:${bucket}:key:${key.id}`,
      budget.limit * key.multiplier,
      budget.windowMs,
    );
    if (!decision.allowed) {
      deps.leave();
      return false;
    }
    const started = performance.now();
    const given = request.headers["x-request-id"];
    const reqId = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    response.writeHead(204, {
      "x-request-id": reqId,
      ...deps.commonHeaders(request.headers.origin, url),
      "ratelimit-limit": decision.limit,
      "ratelimit-remaining": decision.remaining,
      "ratelimit-reset": decision.resetSeconds,
    });
    response.end();
    deps.leave();
    deps.answered({ reqId, path: PATH, status: 204, ms: performance.now() - started });
    return true;
  };
}

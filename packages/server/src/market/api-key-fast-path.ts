import type { IncomingMessage, ServerResponse } from "node:http";
import type { KeyService } from "../keys/service.ts";
import type { SlidingWindowLimiter } from "../quotas/limiter.ts";
import type { QuotaPolicies } from "../quotas/policies.ts";

export interface FastPathDeps {
  keys: KeyService;
  limiter: SlidingWindowLimiter;
  policies: QuotaPolicies;
  /** Headers every response carries (request id excluded): Vary and CORS. */
  commonHeaders(origin: string | undefined, url: string): Readonly<Record<string, string>>;
  /** A request id for a request that brought no valid one. */
  newRequestId(): string;
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

/** The three request headers the fast path reads, straight from rawHeaders (no header object is built). */
function readHeaders(raw: string[]) {
  let apiKey: string | undefined;
  let origin: string | undefined;
  let requestId: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 7 && name.toLowerCase() === "api-key")
      apiKey = apiKey === undefined ? raw[i + 1] : "";
    else if (name.length === 6 && name.toLowerCase() === "origin") origin = raw[i + 1];
    else if (name.length === 12 && name.toLowerCase() === "x-request-id") requestId = raw[i + 1];
  }
  return { apiKey, origin, requestId };
}

/** The `bucket` of a query string holding nothing else, or undefined. */
function bucketOf(query: string): string | undefined {
  if (!query.startsWith("?bucket=")) return undefined;
  const bucket = query.slice("?bucket=".length);
  return BUCKETS.has(bucket) ? bucket : undefined;
}

/**
 * `GET /market/api-key` is the API's hottest route: clients call it before
 * every batch of work. Its successful answer is served here, before Fastify
 * routes the request, with the same headers, budget, metrics and log line
 * as the Fastify route. Only the plain success case is served: a key that is
 * not cached, any refusal, a repeated header and any other query fall
 * through to the Fastify route (nothing is charged here then), so every
 * error has exactly one implementation.
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
    const bucket = bucketOf(url.slice(PATH.length));
    if (bucket === undefined) return false;
    const headers = readHeaders(request.rawHeaders);
    if (!headers.apiKey) return false;
    const ip = request.socket.remoteAddress ?? "";
    if (!deps.limiter.peek(`failed:${ip}`, failed.limit, failed.windowMs).allowed) return false;
    const key = deps.keys.cached(headers.apiKey);
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
    const reqId =
      headers.requestId !== undefined && REQUEST_ID.test(headers.requestId)
        ? headers.requestId
        : deps.newRequestId();
    const out: string[] = ["x-request-id", reqId];
    const common = deps.commonHeaders(headers.origin, url);
    for (const name in common) out.push(name, common[name]!);
    out.push(
      "ratelimit-limit",
      String(decision.limit),
      "ratelimit-remaining",
      String(decision.remaining),
      "ratelimit-reset",
      String(decision.resetSeconds),
    );
    response.writeHead(204, out);
    response.end();
    deps.leave();
    deps.answered({ reqId, path: PATH, status: 204, ms: performance.now() - started });
    return true;
  };
}

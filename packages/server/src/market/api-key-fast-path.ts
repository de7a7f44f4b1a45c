import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { MARKET_BUCKETS, type MarketBucket } from "@mkt/protocol";
import type { CachedKey } from "../keys/cache.ts";
import { API_KEY_LENGTH, hashSecret } from "../keys/secrets.ts";
import type { KeyService } from "../keys/service.ts";
import type { SlidingWindowLimiter } from "../quotas/limiter.ts";
import { counterIds, type QuotaPolicies } from "../quotas/policies.ts";

export interface FastPathDeps {
  keys: KeyService;
  limiter: SlidingWindowLimiter;
  policies: QuotaPolicies;
  /** The CORS headers (Vary included) every response carries, as a flat `[name, value, …]` list. */
  corsHeaders(origin: string | undefined, url: string): readonly string[];
  /** A request id for a request that brought no valid one. */
  newRequestId(): string;
  /** Takes an admission slot; false when the replica is at its cap. */
  admit(): boolean;
  leave(): void;
  /** False while the server is closing: Fastify's path answers 503 then. */
  accepting(): boolean;
  /** Metrics and the request log line of a 204 it served, as for any other request. */
  answered(reqId: string, ms: number): void;
}

const PATH = "/market/api-key";
const QUERY = "?bucket=";
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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

/** The bucket of `/market/api-key?bucket=<bucket>` with nothing else in the query, or undefined. */
function bucketOf(url: string): MarketBucket | undefined {
  if (!url.startsWith(QUERY, PATH.length)) return undefined;
  const length = url.length - PATH.length - QUERY.length;
  // Compare in place: no substring is built for the common case.
  for (const bucket of MARKET_BUCKETS) if (length === bucket.length && url.endsWith(bucket)) return bucket;
  return undefined;
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
  // What a keep-alive connection repeats, worked out once per connection
  // rather than per request: the failed-attempts counter id of its peer (which
  // never changes) and the hash of the key it last presented. A client sends
  // the same key request after request, and SHA-256 was the largest cost of
  // the check after the socket write. The hash is recomputed whenever the
  // presented key differs; the memo lives and dies with the socket.
  interface Connection {
    failedId: string;
    presented: string;
    hash: string;
  }
  const connections = new WeakMap<Socket, Connection>();
  const connectionOf = (socket: Socket) => {
    let connection = connections.get(socket);
    if (connection === undefined) {
      connection = {
        failedId: counterIds.failedAttempts(socket.remoteAddress ?? ""),
        presented: "",
        hash: "",
      };
      connections.set(socket, connection);
    }
    return connection;
  };
  const hashOf = (connection: Connection, presented: string) => {
    if (presented !== connection.presented) {
      connection.hash = hashSecret(presented);
      connection.presented = presented;
    }
    return connection.hash;
  };
  // Counter ids per cached key object (replaced when the cache refills), built once.
  const bucketIdsOf = new WeakMap<CachedKey, Record<MarketBucket, string>>();
  const bucketIdsFor = (key: CachedKey) => {
    let ids = bucketIdsOf.get(key);
    if (ids === undefined) {
      ids = Object.fromEntries(
        MARKET_BUCKETS.map((bucket) => [bucket, counterIds.marketKey(bucket, key.id)]),
      ) as Record<MarketBucket, string>;
      bucketIdsOf.set(key, ids);
    }
    return ids;
  };
  return function serve(request: IncomingMessage, response: ServerResponse): boolean {
    const url = request.url;
    if (request.method !== "GET" || url === undefined || !url.startsWith(PATH) || !deps.accepting())
      return false;
    const bucket = bucketOf(url);
    if (bucket === undefined) return false;
    const started = performance.now();
    const headers = readHeaders(request.rawHeaders);
    if (!headers.apiKey) return false;
    if (headers.apiKey.length !== API_KEY_LENGTH) return false;
    const connection = connectionOf(request.socket);
    if (!deps.limiter.peek(connection.failedId, failed.limit, failed.windowMs).allowed) return false;
    const key = deps.keys.cachedByHash(hashOf(connection, headers.apiKey));
    if (!key) return false;
    if (!deps.admit()) return false;
    const budget = deps.policies.market[bucket];
    const decision = deps.limiter.take(
      bucketIdsFor(key)[bucket],
      budget.limit * key.multiplier,
      budget.windowMs,
    );
    if (!decision.allowed) {
      deps.leave();
      return false;
    }
    const reqId =
      headers.requestId !== undefined && REQUEST_ID.test(headers.requestId)
        ? headers.requestId
        : deps.newRequestId();
    // One flat header list and one writeHead: Node validates each header once
    // and writes head and (empty) body in a single socket write on end().
    const out = [
      "x-request-id",
      reqId,
      "ratelimit-limit",
      `${decision.limit}`,
      "ratelimit-remaining",
      `${decision.remaining}`,
      "ratelimit-reset",
      `${decision.resetSeconds}`,
    ];
    const cors = deps.corsHeaders(headers.origin, url);
    for (let i = 0; i < cors.length; i++) out.push(cors[i]!);
    response.writeHead(204, out);
    response.end();
    deps.leave();
    deps.answered(reqId, performance.now() - started);
    return true;
  };
}

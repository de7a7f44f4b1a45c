import { LIVE_RATE_LIMIT_HEADERS, RATE_LIMIT_HEADERS } from "@mkt/protocol";
import type { FastifyInstance, RouteShorthandOptions } from "fastify";
import { INDEXED_HEADERS } from "./indexed-head.ts";
import type { RouteDefinition } from "./route.ts";

/**
 * Request headers read outside any route's `request.headers` schema: the
 * credentials the guard and the session checks read, the body's type, the
 * idempotency key, the resume point of event streams, conditional reads
 * against the read cache, the caller's request id and the classic image
 * switch. A browser may send each of them cross-origin.
 */
export const CREDENTIAL_HEADERS = [
  "API-KEY",
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  "Last-Event-ID",
  "If-None-Match",
  "X-MKT-Wallet",
  "X-MKT-Session",
  "X-Request-Id",
  "X-Bypass-Image-Proxy",
] as const;

/**
 * Response headers a client reads (beyond the CORS-safelisted ones): budgets (in both names: the
 * classic surface also sends the live service's `x-ratelimit-*`), retries, validators, ids,
 * replays, indexed heads.
 */
export const EXPOSED_HEADERS = [
  ...Object.values(RATE_LIMIT_HEADERS),
  ...Object.values(LIVE_RATE_LIMIT_HEADERS),
  "Retry-After",
  "ETag",
  "X-Request-Id",
  "Idempotent-Replayed",
  ...Object.values(INDEXED_HEADERS),
] as const;

/** One comma list of header names, each once whatever its case, in first-seen order. */
function headerList(names: readonly string[]): string {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  return [...seen.values()].join(", ");
}

/** Every request header routes read: those their schemas declare, and those a shared-cache answer varies on. */
export function routeRequestHeaders(routes: readonly RouteDefinition[]): string[] {
  return routes.flatMap((route) => [
    ...Object.keys(route.request?.headers?.shape ?? {}),
    ...(route.cache.kind === "shared" ? (route.cache.vary ?? []) : []),
  ]);
}

/** Every response header routes document (`responses[status].headers`). */
export function routeResponseHeaders(routes: readonly RouteDefinition[]): string[] {
  return routes.flatMap((route) =>
    Object.values(route.responses).flatMap((response) => Object.keys(response.headers ?? {})),
  );
}

const METHODS = "GET, POST, PUT, PATCH, DELETE";
const PROXY_PREFIX = "/app/api";

export interface CorsPolicy {
  /** Whether any CORS access is granted, and to which origin value. */
  allowOrigin(origin: string | undefined, url: string): { origin: string; credentials: boolean } | undefined;
  /** `Access-Control-Allow-Headers` of a preflight. */
  allowedHeaders: string;
  /** The CORS headers of a response to `origin` on `url`: at least `Vary: Origin`. */
  headersFor(origin: string | undefined, url: string): Readonly<Record<string, string>>;
}

/**
 * The CORS policy, the same on every API surface: any origin may call
 * without credentials (`*`); the first-party origins get their origin echoed
 * with credentials. The first-party proxy (`/app/api`) answers its own
 * origins only. Preflight is answered before any key check.
 *
 * Written here rather than with @fastify/cors because that plugin rebuilds
 * its options on every request when they depend on the request, which cost
 * a measurable share of the hot path.
 */
/**
 * The CORS response headers for a request from `origin` to `url` (always
 * Vary: Origin). Preflight allows every request header a route reads
 * (`CREDENTIAL_HEADERS` and every header `routes` declare) and responses
 * expose every header a client needs (`EXPOSED_HEADERS` and every header
 * `routes` document), so a header a new route declares is allowed with it.
 */
export function createCorsPolicy(
  allowedOrigins: readonly string[],
  routes: readonly RouteDefinition[] = [],
): CorsPolicy {
  const allowedHeaders = headerList([...CREDENTIAL_HEADERS, ...routeRequestHeaders(routes)]);
  const exposedHeaders = headerList([...EXPOSED_HEADERS, ...routeResponseHeaders(routes)]);
  const firstParty = new Set(allowedOrigins);
  // Names as the reply stores them (lowercase): `reply.header` then makes no new string per request.
  const varyOnly = Object.freeze({ vary: "Origin" });
  const publicHeaders = Object.freeze({
    vary: "Origin",
    "access-control-allow-origin": "*",
    "access-control-expose-headers": exposedHeaders,
  });
  // Built once per first-party origin: the pipeline sets them on every response.
  const firstPartyHeaders = new Map(
    [...firstParty].map((origin) => [
      origin,
      Object.freeze({
        vary: "Origin",
        "access-control-allow-origin": origin,
        "access-control-allow-credentials": "true",
        "access-control-expose-headers": exposedHeaders,
      }),
    ]),
  );
  /** Whether any CORS access is granted, and to which origin value. */
  const allowOrigin = (
    origin: string | undefined,
    url: string,
  ): { origin: string; credentials: boolean } | undefined => {
    if (origin === undefined) return undefined;
    if (firstParty.has(origin)) return { origin, credentials: true };
    return url.startsWith(PROXY_PREFIX) ? undefined : { origin: "*", credentials: false };
  };
  return {
    allowOrigin,
    allowedHeaders,
    headersFor(origin: string | undefined, url: string): Readonly<Record<string, string>> {
      const allowed = allowOrigin(origin, url);
      if (!allowed) return varyOnly;
      if (!allowed.credentials) return publicHeaders;
      return firstPartyHeaders.get(allowed.origin) ?? varyOnly;
    },
  };
}

/**
 * Registers the preflight route, with the pipeline's plain hooks (request id,
 * CORS headers, admission, metrics, log line); the pipeline sets `headersFor`
 * on every other response.
 */
export function registerPreflight(
  app: FastifyInstance,
  policy: CorsPolicy,
  hooks: Pick<RouteShorthandOptions, "onRequest">,
) {
  app.options("/*", hooks, async (request, reply) => {
    if (
      request.headers["access-control-request-method"] &&
      policy.allowOrigin(request.headers.origin, request.url)
    ) {
      reply.header("Access-Control-Allow-Methods", METHODS);
      reply.header("Access-Control-Allow-Headers", policy.allowedHeaders);
      reply.header("Access-Control-Max-Age", "600");
    }
    return reply.code(204).send();
  });
}

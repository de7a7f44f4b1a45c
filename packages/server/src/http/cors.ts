import { RATE_LIMIT_HEADERS } from "@mkt/protocol";
import type { FastifyInstance, RouteShorthandOptions } from "fastify";

const ALLOWED_HEADERS = [
  "API-KEY",
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  "X-MKT-Wallet",
  "X-MKT-Session",
  "X-Request-Id",
  "X-Bypass-Image-Proxy",
].join(", ");
const EXPOSED_HEADERS = [
  ...Object.values(RATE_LIMIT_HEADERS),
  "Retry-After",
  "X-Request-Id",
  "Idempotent-Replayed",
].join(", ");
const METHODS = "GET, POST, PUT, PATCH, DELETE";
const PROXY_PREFIX = "/app/api";

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
/** The CORS response headers for a request from `origin` to `url` (always Vary: Origin). */
export function createCorsPolicy(allowedOrigins: readonly string[]) {
  const firstParty = new Set(allowedOrigins);
  const varyOnly = Object.freeze({ Vary: "Origin" });
  const publicHeaders = Object.freeze({
    Vary: "Origin",
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS,
  });
  // Built once per first-party origin: the pipeline sets them on every response.
  const firstPartyHeaders = new Map(
    [...firstParty].map((origin) => [
      origin,
      Object.freeze({
        Vary: "Origin",
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Credentials": "true",
        "Access-Control-Expose-Headers": EXPOSED_HEADERS,
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
    headersFor(origin: string | undefined, url: string): Readonly<Record<string, string>> {
      const allowed = allowOrigin(origin, url);
      if (!allowed) return varyOnly;
      if (!allowed.credentials) return publicHeaders;
      return firstPartyHeaders.get(allowed.origin) ?? varyOnly;
    },
  };
}

export type CorsPolicy = ReturnType<typeof createCorsPolicy>;

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
      reply.header("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      reply.header("Access-Control-Max-Age", "600");
    }
    return reply.code(204).send();
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

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
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
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
 * origins only. Preflight is answered here, before any key check.
 *
 * Written here rather than with @fastify/cors because that plugin rebuilds
 * its options on every request when they depend on the request, which cost
 * a measurable share of the hot path.
 */
export function registerCors(app: FastifyInstance, allowedOrigins: readonly string[]) {
  const firstParty = new Set(allowedOrigins);

  /** The Access-Control-Allow-Origin value for this request, or undefined for none. */
  const allowOrigin = (request: FastifyRequest): { origin: string; credentials: boolean } | undefined => {
    const origin = request.headers.origin;
    if (origin === undefined) return undefined;
    if (firstParty.has(origin)) return { origin, credentials: true };
    return request.url.startsWith(PROXY_PREFIX) ? undefined : { origin: "*", credentials: false };
  };

  const apply = (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("Vary", "Origin");
    const allowed = allowOrigin(request);
    if (!allowed) return;
    reply.header("Access-Control-Allow-Origin", allowed.origin);
    if (allowed.credentials) reply.header("Access-Control-Allow-Credentials", "true");
    reply.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  };

  app.addHook("onRequest", async (request, reply) => {
    apply(request, reply);
  });

  app.options("/*", { config: { access: { kind: "none" } } }, async (request, reply) => {
    if (request.headers["access-control-request-method"] && allowOrigin(request)) {
      reply.header("Access-Control-Allow-Methods", METHODS);
      reply.header("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      reply.header("Access-Control-Max-Age", "600");
    }
    return reply.code(204).send();
  });
}

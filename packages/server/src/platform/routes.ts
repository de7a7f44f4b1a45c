import {
  cache,
  declareRoutes,
  type RouteDefinition,
  type RouteSpec,
  type RouteTable,
} from "../http/route.ts";

const none = { kind: "none" } as const;
/** Documentation is built once per process: HTTP caches may keep it for a while. */
const docs = { access: none, cache: cache.public(300) };
/** The reference UI's files: named by their content, so a name never gets other bytes and caches may keep it for a year. */
const contentAddressed = { access: none, cache: cache.public(31_536_000, true) };

/**
 * Platform routes, outside the three namespaces: API keys (the three
 * documents' `{key_create_url}`), health and readiness, the landing page
 * (`GET /`) and documentation, which need no key.
 */
export const PLATFORM_ROUTES = {
  // A replay never carries the secret: `key` is withheld from the stored answer.
  "POST /keys": { access: { kind: "key-creation" }, cache: cache.noStore, idempotent: { withheld: ["key"] } },
  "DELETE /keys/current": { access: { kind: "key-holder" }, cache: cache.noStore },
  "GET /healthz": { access: none, cache: cache.noStore },
  "GET /readyz": { access: none, cache: cache.noStore },
  "GET /openapi/market.json": docs,
  "GET /openapi/classic.json": docs,
  "GET /openapi/predict.json": docs,
  "GET /docs/market": docs,
  "GET /docs/classic": docs,
  "GET /docs/predict": docs,
  "GET /docs/assets/:file": contentAddressed,
  "GET /docs": docs,
  "GET /docs/": docs,
  // The landing page: HTML or JSON by Accept (the route sends Vary: Accept).
  "GET /": docs,
} satisfies RouteTable;

export function platformRoutes(specs: readonly RouteSpec[]): RouteDefinition[] {
  return declareRoutes("platform", PLATFORM_ROUTES, specs);
}

import type { AnySessionKind, MarketBucket } from "@mkt/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Config } from "../config/index.ts";
import type { ClassicClass } from "../quotas/policies.ts";

/**
 * What a route needs before its handler runs: which credential, which
 * budget. Declared in the surface's route table, compiled once into the
 * route's access check when the route is mounted.
 */
export type Access =
  /** No key and no quota: documentation, health. */
  | { kind: "none" }
  /**
   * Market route charging one bucket; "query" takes it from the `bucket` query parameter
   * (`GET /market/api-key`). `publicRead` routes need no key when PUBLIC_READS=open.
   */
  | { kind: "market"; bucket: MarketBucket | "query"; publicRead?: boolean }
  /**
   * Classic route in one quota class. `key: true`: the API key, checked first
   * (one opaque 429). `key: false`: the class's per-client budget instead, for
   * the public marketplace-standard metadata routes and, with `session:
   * "classic"`, the bearer-only routes. With `session: "classic"` and
   * `key: true` a route needs both ("API-KEY and bearer"); a bearer
   * never replaces the key.
   */
  | { kind: "classic"; class: ClassicClass; key: boolean }
  /**
   * Every prediction-feed route: key required, one per-IP budget; `class:
   * "stream"` (the feed's stream) charges the market's stream budget too.
   */
  | { kind: "predict"; class?: "stream" }
  /** `POST /keys`: keyless, limited per client IP. */
  | { kind: "key-creation" }
  /** Routes authenticated by the API key they act on (self-revocation), without charging a budget. */
  | { kind: "key-holder" };

/**
 * How a route's answers may be cached, by this replica and by clients.
 *
 * - `no-store`: never cached (`Cache-Control: no-store`): budgets, writes, anything per request.
 * - `private`: session-dependent or owner-scoped answers (`Cache-Control: private, no-store`, or
 *   `private, max-age=…` when given); never in the read cache.
 * - `public`: content-addressed answers HTTP caches may keep (`max-age=…[, immutable]`); not kept
 *   in the read cache (images).
 * - `shared`: the body depends only on the route, its path parameters, its normalised query and the `vary` request
 *   headers. Bodies are kept in the per-replica read cache, keyed by those, with a strong
 *   `ETag` (`If-None-Match` → 304), until one of the `sources` moves to a new revision (announced
 *   to every replica through the database's notifications) or `maxAgeSeconds` passes
 *   (`max-age=…`). A hit is still charged to the caller's budget.
 *
 * Who else may keep a `public` or `shared` answer follows from the route's access rule, never
 * from this policy (`cacheControlFor`): `public, max-age=…` only when the route answers a caller
 * that presents no credential, `private, max-age=…` when it needs an API key or a session.
 * Error answers are never cached, whatever the route (`Cache-Control: no-store`, set by the
 * surface's error renderer).
 */
export type CachePolicy =
  | { kind: "no-store" }
  | { kind: "private"; maxAgeSeconds?: number }
  | { kind: "public"; maxAgeSeconds: number; immutable?: boolean }
  | { kind: "shared"; maxAgeSeconds: number; sources: readonly string[]; vary?: readonly string[] };

/** A route's rules, declared once in its surface's route table (`market/routes.ts`, …). */
export interface RouteDeclaration {
  access: Access;
  /**
   * The session kind the route needs, checked after the API key: a market
   * kind (docs/market.md, Accounts, sessions and messages) on market routes, `classic` (the Classic
   * API's bearer token, 401 in the classic body when missing, expired,
   * revoked or invalid) on classic routes.
   */
  session?: AnySessionKind;
  /**
   * The route answers anonymous callers too; `session` is then the kind it
   * accepts. A request that presents that kind's credential (the bearer token
   * directly, the session cookie through the proxy) is authenticated exactly
   * like on a session route, a refused credential included (401, never an
   * anonymous answer), and is answered `Cache-Control: private, no-store`
   * without the read cache; a request without one is anonymous and keeps the
   * route's cache policy. Answers vary on `Authorization` and `Cookie`.
   */
  sessionOptional?: true;
  cache: CachePolicy;
  /** Also served by the first-party website proxy at `/app/api` (market routes only). */
  proxy?: boolean;
  /**
   * Accepts an `Idempotency-Key` header (POST routes that create something). `withheld` names
   * top-level body fields a replay leaves out: they are never stored (a secret shown once).
   */
  idempotent?: true | { withheld: readonly string[] };
  /**
   * A long-lived stream (server-sent events): once its checks pass, the
   * handler takes the raw response over (`reply.hijack()`) and the request
   * gives its admission slot back, so open streams never count against the
   * in-flight cap (the handler enforces its own stream caps).
   */
  stream?: true;
  /**
   * A product gate the pipeline runs after the access check and the session,
   * before the read cache: it may refuse (a 503 in the surface's body, never
   * cached) whatever the route. `feed`: the prediction feed's switches and
   * projection freshness (predict/gate.ts).
   */
  gate?: RouteGate;
}

/** The gates a route may declare; each is implemented once and handed to the pipeline. */
export type RouteGate = "feed";

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : unknown;

/** What a route file defines: the endpoint's schemas, documentation and handler. */
export interface RouteSpecOf<
  Q extends z.ZodObject | undefined,
  P extends z.ZodObject | undefined,
  B extends z.ZodType | undefined,
  H extends z.ZodObject | undefined,
> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path below the surface's mount point, in Fastify syntax (`/keys/:id`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Published as `deprecated: true` in OpenAPI: kept for history and migration, not the supported surface. */
  deprecated?: boolean;
  request?: { query?: Q; params?: P; body?: B; headers?: H };
  /** The body schema published in OpenAPI when it differs from the validating one (a union checked by the handler). */
  documentedBody?: z.ZodType;
  /**
   * The route reads a `multipart/form-data` body itself (`request.parts()`),
   * as at most one file part of at most `maxFileBytes` and no other part: the
   * pipeline mounts it in a scope of its own that parses multipart with these
   * limits (the reader stops the stream past them), so no other route takes
   * multipart. `documentedBody` describes the form for OpenAPI.
   */
  multipart?: { maxFileBytes: number };
  responses: Record<number, ResponseSpec>;
  handler: (
    request: FastifyRequest<{ Querystring: Infer<Q>; Params: Infer<P>; Body: Infer<B>; Headers: Infer<H> }>,
    reply: FastifyReply,
  ) => Promise<unknown> | unknown;
}

export type RouteSpec = RouteSpecOf<
  z.ZodObject | undefined,
  z.ZodObject | undefined,
  z.ZodType | undefined,
  z.ZodObject | undefined
>;

/** A route with its declaration: what a surface mounts. */
export type RouteDefinition = RouteSpec & RouteDeclaration;

/** Checks a route against its own schemas and erases the types for registration. */
export function defineRoute<
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  H extends z.ZodObject | undefined = undefined,
>(route: RouteSpecOf<Q, P, B, H>): RouteSpec {
  return route as unknown as RouteSpec;
}

/**
 * The Fastify validation schemas of a route's request, from its `request` schemas: what every
 * listener registers, public surfaces and the operator listener alike.
 */
export function requestSchemasOf(route: Pick<RouteSpec, "request">): {
  querystring?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
  headers?: z.ZodObject;
} {
  const { query, params, body, headers } = route.request ?? {};
  return {
    ...(query ? { querystring: query } : {}),
    ...(params ? { params } : {}),
    ...(body ? { body } : {}),
    ...(headers ? { headers } : {}),
  };
}

/** `"GET /runtime"`: a route table's key, the method and the path below the surface's mount point. */
export type RouteKey = `${RouteSpec["method"]} /${string}`;

export type RouteTable = Readonly<Record<RouteKey, RouteDeclaration>>;

export const routeKey = (route: Pick<RouteSpec, "method" | "path">): RouteKey =>
  `${route.method} ${route.path}` as RouteKey;

/**
 * Joins a surface's route table with the routes its areas define. Every
 * route must be declared and every declaration must name a route, so the
 * table is the complete list of the surface's routes: a route missing from
 * it, or a stale line in it, stops the server at start.
 */
export function declareRoutes(
  surface: string,
  table: RouteTable,
  specs: readonly RouteSpec[],
): RouteDefinition[] {
  const seen = new Set<string>();
  const declared = specs.map((spec) => {
    const key = routeKey(spec);
    if (seen.has(key)) throw new Error(`${surface}: route ${key} is defined twice`);
    seen.add(key);
    const declaration = table[key];
    if (!declaration) throw new Error(`${surface}: route ${key} is not in the surface's route table`);
    if (
      (declaration.session === "classic") !==
      (declaration.access.kind === "classic" && !!declaration.session)
    ) {
      throw new Error(
        `${surface}: route ${key}: classic routes take only the classic bearer, and only they take it`,
      );
    }
    if (declaration.sessionOptional && !declaration.session) {
      throw new Error(`${surface}: route ${key} has an optional session but names no session kind`);
    }
    const sharedCache = declaration.cache.kind === "shared" || declaration.cache.kind === "public";
    if (sharedCache && declaration.session && !declaration.sessionOptional) {
      throw new Error(`${surface}: route ${key} needs a session, so its answers cannot be shared-cached`);
    }
    // A replay is answered from storage, not through the surface's error renderer: only the
    // route's own header keeps a replayed error out of every cache.
    if (declaration.idempotent && declaration.cache.kind !== "no-store") {
      throw new Error(`${surface}: route ${key} takes an Idempotency-Key, so its answers must be no-store`);
    }
    return { ...spec, ...declaration };
  });
  const stale = Object.keys(table).filter((key) => !seen.has(key));
  if (stale.length > 0)
    throw new Error(`${surface}: the route table names routes nobody defines: ${stale.join(", ")}`);
  return declared;
}

/**
 * Whether a route answers a caller that presents no credential at all: neither an API key nor
 * a session. Documentation and health (`none`), key creation, the classic marketplace-standard
 * metadata routes (`key: false` without the bearer) and, when PUBLIC_READS=open, the market's
 * public reads. A route whose session is optional answers anonymously when its access rule does.
 */
export function answersWithoutCredential(
  route: Pick<RouteDeclaration, "access" | "session" | "sessionOptional">,
  publicReads: Config["publicReads"],
): boolean {
  if (route.session !== undefined && !route.sessionOptional) return false;
  switch (route.access.kind) {
    case "none":
    case "key-creation":
      return true;
    case "market":
      return route.access.publicRead === true && publicReads === "open";
    case "classic":
      return !route.access.key;
    case "predict":
    case "key-holder":
      return false;
  }
}

/**
 * The `Cache-Control` value a cache policy sends with every successful answer of its route.
 * `shareable`: whether shared HTTP caches (CDNs, proxies) may keep the answer, that is whether
 * the route answers without a credential (`answersWithoutCredential`). An answer that needed an
 * API key or a session is `private, max-age=…`: the caller's own cache may keep it, a shared
 * cache may not. `private` rather than `Vary: API-KEY, Authorization, Cookie`: a shared cache
 * would still serve a kept answer without asking the server, so the key would be neither checked
 * (revocation) nor charged (a hit is charged here), and it would keep one copy per key, the key
 * among its cache keys; many CDNs do not honour `Vary` on arbitrary headers at all.
 */
export function cacheControlOf(policy: CachePolicy, { shareable }: { shareable: boolean }): string {
  const scope = shareable ? "public" : "private";
  switch (policy.kind) {
    case "no-store":
      return "no-store";
    case "private":
      return policy.maxAgeSeconds === undefined
        ? "private, no-store"
        : `private, max-age=${policy.maxAgeSeconds}`;
    case "public":
      return `${scope}, max-age=${policy.maxAgeSeconds}${policy.immutable ? ", immutable" : ""}`;
    case "shared":
      return `${scope}, max-age=${policy.maxAgeSeconds}`;
  }
}

/** The `Cache-Control` of a route's successful answers: its cache policy, scoped by its access rule. */
export const cacheControlFor = (route: RouteDeclaration, publicReads: Config["publicReads"]): string =>
  cacheControlOf(route.cache, { shareable: answersWithoutCredential(route, publicReads) });

/** Declaration helpers, so a route table reads as a table. */
export const cache = {
  noStore: { kind: "no-store" } as const satisfies CachePolicy,
  private: { kind: "private" } as const satisfies CachePolicy,
  privateFor: (maxAgeSeconds: number): CachePolicy => ({ kind: "private", maxAgeSeconds }),
  public: (maxAgeSeconds: number, immutable = false): CachePolicy => ({
    kind: "public",
    maxAgeSeconds,
    immutable,
  }),
  shared: (maxAgeSeconds: number, sources: readonly string[], vary?: readonly string[]): CachePolicy => ({
    kind: "shared",
    maxAgeSeconds,
    sources,
    ...(vary ? { vary } : {}),
  }),
};

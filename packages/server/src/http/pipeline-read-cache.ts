import type { FastifyReply, FastifyRequest, onSendHookHandler } from "fastify";
import type { Step } from "./pipeline-steps.ts";
import { type ReadCache, type Revisions, strongEtag } from "./read-cache.ts";
import type { CachePolicy, RouteDefinition } from "./route.ts";
import type { Surface } from "./surfaces.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Where a shared-cache route's answer is stored once built (read cache miss). */
    readCacheSlot: { key: string; built: number[]; settle?: () => void } | undefined;
  }
}

const JSON_TYPE = "application/json; charset=utf-8";

/** The normalised query of a request: keys sorted, so `?a=1&b=2` and `?b=2&a=1` share a cache entry. */
function normalisedQuery(query: unknown): string {
  if (query === null || typeof query !== "object") return "";
  const entries = Object.entries(query as Record<string, unknown>);
  if (entries.length === 0) return "";
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/** A request URL's share of its read-cache key is remembered up to this many URLs per route, then forgotten. */
export const MAX_REMEMBERED_URLS = 1024;
/** URLs longer than this are keyed afresh on every request rather than remembered. */
export const MAX_REMEMBERED_URL_LENGTH = 512;

/**
 * The read-cache keys of one route: route, path parameters, the query
 * normalised (keys sorted) and the varying request headers. The parameters
 * and the query are a function of the request URL alone, so their part of
 * the key is remembered per URL (a bounded map, emptied when full): a URL
 * asked again costs one map lookup instead of sorting and serialising its
 * query.
 */
export function readCacheKeys({
  prefix,
  fixed,
  vary,
}: {
  prefix: string;
  /** The route answers one body whatever the URL: its key is the prefix alone. */
  fixed: boolean;
  /** Request header names (lowercase) the answer varies on. */
  vary: readonly string[];
}) {
  const fixedKey = fixed ? `${prefix}\u0000` : undefined;
  const byUrl = new Map<string, string>();
  const urlKeyOf = (request: FastifyRequest) => {
    const url = request.url;
    const known = byUrl.get(url);
    if (known !== undefined) return known;
    // Path parameters first: `/releases/:releaseId` answers one body per id.
    const key = `${prefix}${normalisedQuery(request.params)}\u0000${normalisedQuery(request.query)}`;
    if (url.length <= MAX_REMEMBERED_URL_LENGTH) {
      if (byUrl.size >= MAX_REMEMBERED_URLS) byUrl.clear();
      byUrl.set(url, key);
    }
    return key;
  };
  return {
    keyOf(request: FastifyRequest): string {
      if (fixedKey !== undefined) return fixedKey;
      let key = urlKeyOf(request);
      for (const name of vary) key += `\u0000${request.headers[name] ?? ""}`;
      return key;
    },
    /** URLs whose key part is remembered now. */
    remembered: () => byUrl.size,
  };
}

/** The read cache's hooks of one shared-cache route. */
export interface ReadCacheHooks {
  /** The `onRequest` step: answers a hit (or a 304), else holds the slot the answer is stored in. */
  lookup: Step;
  /** The `onSend` hook that stores a 200 and answers 304 when the client already has it. */
  store: onSendHookHandler;
  /** The request headers the cached answer varies on. */
  vary: readonly string[];
}

/** Compiles the read cache's hooks of one shared-cache route. */
export type CompileReadCache = (
  surface: Surface,
  route: RouteDefinition,
  policy: Extract<CachePolicy, { kind: "shared" }>,
) => ReadCacheHooks;

/**
 * The read cache of the routes whose cache policy is `shared`: a body built
 * once per key is answered from memory, with its ETag, until a source it was
 * built from moves or it is older than the policy allows.
 */
export function createReadCacheHooks(deps: { readCache: ReadCache; revisions: Revisions }): CompileReadCache {
  const { readCache, revisions } = deps;
  /** Bodies being built, by read-cache key: the requests that miss meanwhile wait for them. */
  const building = new Map<string, Promise<void>>();

  const compileReadCache: CompileReadCache = (surface, route, policy) => {
    const counters = revisions.counters(policy.sources);
    const vary = (policy.vary ?? []).map((name) => name.toLowerCase());
    const keyOf = readCacheKeys({
      prefix: `${surface.name} ${route.method} ${route.path}\u0000`,
      // A route without parameters, query or varying headers answers one body: its key is built once.
      fixed:
        !/[:*]/.test(route.path) &&
        route.request?.params === undefined &&
        route.request?.query === undefined &&
        vary.length === 0,
      vary,
    }).keyOf;
    /** Answers from a cached entry: its ETag, a 304 when the client has it, else the bytes. */
    const answer = (
      request: FastifyRequest,
      reply: FastifyReply,
      entry: NonNullable<ReturnType<ReadCache["get"]>>,
    ) => {
      reply.header("etag", entry.etag);
      if (request.headers["if-none-match"] === entry.etag) {
        reply.code(304).send();
        return;
      }
      reply.type(entry.contentType).send(entry.body);
    };
    const lookup: Step = (request, reply) => {
      const key = keyOf(request);
      const entry = readCache.get(key);
      if (entry !== undefined) {
        answer(request, reply, entry);
        return;
      }
      // One build per key at a time: a request that misses while another builds the same body
      // waits for it and answers from the cache (a burst at expiry costs one build, not one per
      // connection); if that build stored nothing (an error, a moved source), it builds its own.
      const pending = building.get(key);
      if (pending !== undefined) {
        return pending.then(() => {
          const built = readCache.get(key);
          if (built !== undefined) answer(request, reply, built);
          else request.readCacheSlot = { key, built: counters.map((counter) => counter.value) };
        });
      }
      let settle!: () => void;
      const done = new Promise<void>((resolve) => {
        settle = () => {
          if (building.get(key) === done) building.delete(key);
          resolve();
        };
      });
      building.set(key, done);
      request.readCacheSlot = { key, built: counters.map((counter) => counter.value), settle };
    };
    const store: onSendHookHandler = (request, reply, payload, done) => {
      const slot = request.readCacheSlot;
      if (slot === undefined || reply.statusCode !== 200 || typeof payload !== "string") {
        slot?.settle?.();
        done(null, payload);
        return;
      }
      const etag = strongEtag(payload);
      readCache.set(slot.key, {
        body: payload,
        contentType: String(reply.getHeader("content-type") ?? JSON_TYPE),
        etag,
        counters,
        built: slot.built,
        maxAgeMs: policy.maxAgeSeconds * 1000,
      });
      slot.settle?.();
      reply.header("etag", etag);
      if (request.headers["if-none-match"] === etag) {
        reply.code(304);
        done(null, "");
        return;
      }
      done(null, payload);
    };
    return { lookup, store, vary: policy.vary ?? [] };
  };

  return compileReadCache;
}

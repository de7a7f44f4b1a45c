import { MARKET_BUCKETS, type MarketBucket, RATE_LIMIT_HEADERS } from "@mkt/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config/index.ts";
import { badRequest, RateLimitedError, unauthorized } from "../errors.ts";
import type { CachedKey } from "../keys/cache.ts";
import type { KeyLookup, KeyService } from "../keys/service.ts";
import type { LimitDecision, SlidingWindowLimiter } from "../quotas/limiter.ts";
import { type Budget, counterIds, type QuotaPolicies } from "../quotas/policies.ts";
import type { Access } from "./route.ts";
import type { SurfaceName } from "./surfaces.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The API key that authorised this request, when one did. */
    apiKey: CachedKey | undefined;
  }
}

export interface GuardDeps {
  keys: KeyService;
  limiter: SlidingWindowLimiter;
  policies: QuotaPolicies;
  publicReads: Config["publicReads"];
  onRejected?: (surface: SurfaceName, reason: string) => void;
}

/** A route's compiled access check: synchronous when the key is cached, so the hot path allocates no promise. */
export type AccessCheck = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

const KEY_HEADER = "api-key";

type Resolved = CachedKey | "missing" | "invalid";

function setBudgetHeaders(reply: FastifyReply, decision: LimitDecision) {
  reply.header(RATE_LIMIT_HEADERS.limit, decision.limit);
  reply.header(RATE_LIMIT_HEADERS.remaining, decision.remaining);
  reply.header(RATE_LIMIT_HEADERS.reset, decision.resetSeconds);
}

/**
 * The one place that applies credentials and budgets, before any body is
 * read. Each route's rule is compiled once, when the route is mounted, from
 * the access its surface's route table declares. Each surface gets its
 * rules from its document:
 *
 * - market: 401 for a missing, malformed or unknown key; 429 with the real
 *   budget state when a bucket is spent or the client has used up its failed
 *   key attempts.
 * - classic and predict: a missing key, an invalid key and a spent budget give
 *   one identical 429, headers included, so the answer reveals nothing about
 *   the key: its headers carry the route class's base budget as exhausted and
 *   Retry-After the whole window.
 */
export function createGuard({ keys, limiter, policies, publicReads, onRejected }: GuardDeps) {
  const failed = policies.failedKeyAttempts;
  const failuresExhausted = (ip: string) =>
    !limiter.peek(counterIds.failedAttempts(ip), failed.limit, failed.windowMs).allowed;

  /** The undifferentiated 429 of the classic and predict surfaces. */
  const opaqueRefusal = (budget: Budget, reason: "missing_key" | "invalid_key" | "quota") => {
    const windowSeconds = Math.ceil(budget.windowMs / 1000);
    return new RateLimitedError(reason, "API key missing or invalid, or rate limit exceeded", {
      retryAfterSeconds: windowSeconds,
      rateLimit: { limit: budget.limit, remaining: 0, resetSeconds: windowSeconds },
    });
  };

  const toResolved = (ip: string, lookup: KeyLookup): Resolved => {
    if (lookup.status === "valid") return lookup.key;
    limiter.take(counterIds.failedAttempts(ip), failed.limit, failed.windowMs);
    return "invalid";
  };

  /**
   * The presented key, synchronously when cached. Unknown keys count as failed
   * attempts of the client IP. The key's hash is memoised per connection
   * inside the key service.
   */
  const resolveKey = (request: FastifyRequest, ip: string): Resolved | Promise<Resolved> => {
    const header = request.headers[KEY_HEADER];
    const presented = Array.isArray(header) ? header[0] : header;
    if (!presented) return "missing";
    if (failuresExhausted(ip)) return "invalid";
    const lookup = keys.authenticate(presented, request.raw.socket);
    return lookup instanceof Promise
      ? lookup.then((result) => toResolved(ip, result))
      : toResolved(ip, lookup);
  };

  const charge = (reply: FastifyReply, id: string, budget: Budget, multiplier: number) => {
    const decision = limiter.take(id, budget.limit * multiplier, budget.windowMs);
    if (decision.allowed) setBudgetHeaders(reply, decision);
    return decision;
  };

  /** Runs `then` on the resolved key, synchronously when it is. */
  const withKey = (
    request: FastifyRequest,
    ip: string,
    then: (key: Resolved) => void,
  ): void | Promise<void> => {
    const key = resolveKey(request, ip);
    return key instanceof Promise ? key.then(then) : then(key);
  };

  const compileMarket = (
    surface: SurfaceName,
    access: Extract<Access, { kind: "market" }>,
    reject: (reason: string, error: Error) => never,
  ): AccessCheck => {
    const fixed = access.bucket === "query" ? undefined : access.bucket;
    // The first-party proxy holds no per-user key: it spends the first-party
    // budget, per end-user IP, at the market's rates.
    if (surface === "app") {
      return (request, reply) => {
        const bucket = fixed ?? bucketFromQuery(request);
        const decision = charge(reply, `app:${bucket}:ip:${request.ip}`, policies.market[bucket], 1);
        if (!decision.allowed)
          reject("quota", quotaExceeded(decision, "request budget exhausted; retry later"));
      };
    }
    return (request, reply) => {
      const bucket = fixed ?? bucketFromQuery(request);
      const budget = policies.market[bucket];
      const ip = request.ip;
      const header = request.headers[KEY_HEADER];
      if (!header && access.publicRead && publicReads === "open") {
        const decision = charge(reply, `market:${bucket}:ip:${ip}`, budget, 1);
        if (!decision.allowed) reject("quota", quotaExceeded(decision));
        return;
      }
      if (header && failuresExhausted(ip)) {
        const state = limiter.peek(counterIds.failedAttempts(ip), failed.limit, failed.windowMs);
        reject(
          "failed_attempts",
          new RateLimitedError("failed_attempts", "too many failed API key attempts from this client", {
            retryAfterSeconds: state.retryAfterSeconds,
          }),
        );
      }
      return withKey(request, ip, (key) => {
        if (key === "missing")
          reject("missing_key", unauthorized("API key missing: send it in the API-KEY header"));
        if (key === "invalid") reject("invalid_key", unauthorized("API key malformed or invalid"));
        const valid = key as CachedKey;
        const decision = charge(reply, valid.counters.market[bucket], budget, valid.multiplier);
        if (!decision.allowed) reject("quota", quotaExceeded(decision));
        request.apiKey = valid;
      });
    };
  };

  /** A key-gated route of the classic or predict surface: one opaque 429 for every refusal. */
  const compileOpaque = (
    prefix: string,
    budget: Budget,
    reject: (reason: string, error: Error) => never,
  ): AccessCheck => {
    return (request, reply) => {
      const ip = request.ip;
      return withKey(request, ip, (key) => {
        if (key === "missing" || key === "invalid") reject(`${key}_key`, opaqueRefusal(budget, `${key}_key`));
        const valid = key as CachedKey;
        if (!charge(reply, `${prefix}:key:${valid.id}:ip:${ip}`, budget, valid.multiplier).allowed)
          reject("quota", opaqueRefusal(budget, "quota"));
        request.apiKey = valid;
      });
    };
  };

  return {
    /** The access check of one route of one surface, built once when the route is mounted. */
    compile(surface: SurfaceName, access: Access): AccessCheck | undefined {
      const reject = (reason: string, error: Error): never => {
        onRejected?.(surface, reason);
        throw error;
      };
      switch (access.kind) {
        case "none":
        case "key-holder":
          return undefined;
        case "market":
          return compileMarket(surface, access, reject);
        case "classic": {
          const budget = policies.classic[access.class];
          if (!access.key) {
            return (request, reply) => {
              if (!charge(reply, `classic:${access.class}:ip:${request.ip}`, budget, 1).allowed)
                reject("quota", opaqueRefusal(budget, "quota"));
            };
          }
          return compileOpaque(`classic:${access.class}`, budget, reject);
        }
        case "predict":
          return compileOpaque("predict", policies.predict.all, reject);
        case "key-creation":
          return (request, reply) => {
            const decision = charge(reply, `keys:create:ip:${request.ip}`, policies.keyCreation, 1);
            if (!decision.allowed)
              reject("quota", quotaExceeded(decision, "too many keys created from this client"));
          };
      }
    },
  };
}

export type Guard = ReturnType<typeof createGuard>;

const BUCKETS: ReadonlySet<unknown> = new Set(MARKET_BUCKETS);

function bucketFromQuery(request: FastifyRequest): MarketBucket {
  const bucket = (request.query as Record<string, unknown> | undefined)?.["bucket"];
  if (BUCKETS.has(bucket)) return bucket as MarketBucket;
  throw badRequest(`bucket is required and must be one of ${MARKET_BUCKETS.join(", ")}`);
}

function quotaExceeded(decision: LimitDecision, message = "API key budget exhausted for this bucket") {
  return new RateLimitedError("quota", message, {
    retryAfterSeconds: decision.retryAfterSeconds,
    rateLimit: { limit: decision.limit, remaining: decision.remaining, resetSeconds: decision.resetSeconds },
  });
}

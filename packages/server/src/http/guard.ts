import { MARKET_BUCKETS, type MarketBucket, marketBucketSchema, RATE_LIMIT_HEADERS } from "@mkt/protocol";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import type { Config } from "../config/index.ts";
import { badRequest, RateLimitedError, unauthorized } from "../errors.ts";
import type { CachedKey } from "../keys/cache.ts";
import type { KeyLookup, KeyService } from "../keys/service.ts";
import type { LimitDecision, SlidingWindowLimiter } from "../quotas/limiter.ts";
import { type Budget, counterIds, type QuotaPolicies } from "../quotas/policies.ts";
import type { Access } from "./route.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The API key that authorised this request, when one did. */
    apiKey: CachedKey | undefined;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

export interface GuardDeps {
  keys: KeyService;
  limiter: SlidingWindowLimiter;
  policies: QuotaPolicies;
  publicReads: Config["publicReads"];
  onRejected?: (request: FastifyRequest, reason: string) => void;
}

const KEY_HEADER = "api-key";

type Resolved = CachedKey | "missing" | "invalid";

function setBudgetHeaders(reply: FastifyReply, decision: LimitDecision) {
  reply.header(RATE_LIMIT_HEADERS.limit, decision.limit);
  reply.header(RATE_LIMIT_HEADERS.remaining, decision.remaining);
  reply.header(RATE_LIMIT_HEADERS.reset, decision.resetSeconds);
}

/**
 * The one place that applies credentials and budgets, before any body is
 * read. Each surface gets its rules from its document:
 *
 * - market: 401 for a missing, malformed or unknown key; 429 with the real
 *   budget state when a bucket is spent or the client has used up its failed
 *   key attempts.
 * - classic and predict: a missing key, an invalid key and a spent budget give
 *   one identical 429, headers included, so the answer reveals nothing about
 *   the key: its headers carry the route class's base budget as exhausted and
 *   Retry-After the whole window.
 *
 * It is a callback-style hook that finishes synchronously when the key is in
 * the cache: the hot path allocates no promise.
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

  const toResolved = (request: FastifyRequest, lookup: KeyLookup): Resolved => {
    if (lookup.status === "valid") return lookup.key;
    limiter.take(counterIds.failedAttempts(request.ip), failed.limit, failed.windowMs);
    return "invalid";
  };

  /** The presented key, synchronously when cached. Unknown keys count as failed attempts of the client IP. */
  const resolveKey = (request: FastifyRequest): Resolved | Promise<Resolved> => {
    const header = request.headers[KEY_HEADER];
    const presented = Array.isArray(header) ? header[0] : header;
    if (!presented) return "missing";
    if (failuresExhausted(request.ip)) return "invalid";
    const lookup = keys.authenticate(presented);
    return lookup instanceof Promise
      ? lookup.then((result) => toResolved(request, result))
      : toResolved(request, lookup);
  };

  const charge = (reply: FastifyReply, id: string, budget: Budget, multiplier: number) => {
    const decision = limiter.take(id, budget.limit * multiplier, budget.windowMs);
    if (decision.allowed) setBudgetHeaders(reply, decision);
    return decision;
  };

  /** Runs `then` on the resolved key, synchronously when it is. */
  const withKey = (request: FastifyRequest, then: (key: Resolved) => void): void | Promise<void> => {
    const key = resolveKey(request);
    return key instanceof Promise ? key.then(then) : then(key);
  };

  const check = (request: FastifyRequest, reply: FastifyReply): void | Promise<void> => {
    const access = request.routeOptions.config.access;
    if (!access || access.kind === "none" || access.kind === "key-holder") return;
    const ip = request.ip;
    const reject = (reason: string, error: Error): never => {
      onRejected?.(request, reason);
      throw error;
    };

    switch (access.kind) {
      case "market": {
        const bucket = access.bucket === "query" ? bucketFromQuery(request) : access.bucket;
        const budget = policies.market[bucket];
        // The first-party proxy holds no per-user key: it spends the first-party
        // budget, per end-user IP, at the market's rates.
        if (request.routeOptions.config.surface === "app") {
          const decision = charge(reply, `app:${bucket}:ip:${ip}`, budget, 1);
          if (!decision.allowed)
            reject("quota", quotaExceeded(decision, "request budget exhausted; retry later"));
          return;
        }
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
        return withKey(request, (key) => {
          if (key === "missing")
            reject("missing_key", unauthorized("API key missing: send it in the API-KEY header"));
          if (key === "invalid") reject("invalid_key", unauthorized("API key malformed or invalid"));
          const valid = key as CachedKey;
          const decision = charge(reply, counterIds.marketKey(bucket, valid.id), budget, valid.multiplier);
          if (!decision.allowed) reject("quota", quotaExceeded(decision));
          request.apiKey = valid;
        });
      }
      case "classic": {
        const budget = policies.classic[access.class];
        if (!access.key) {
          if (!charge(reply, `classic:${access.class}:ip:${ip}`, budget, 1).allowed) {
            reject("quota", opaqueRefusal(budget, "quota"));
          }
          return;
        }
        return withKey(request, (key) => {
          if (key === "missing" || key === "invalid") {
            reject(`${key}_key`, opaqueRefusal(budget, `${key}_key`));
          }
          const valid = key as CachedKey;
          const id = `classic:${access.class}:key:${valid.id}:ip:${ip}`;
          if (!charge(reply, id, budget, valid.multiplier).allowed)
            reject("quota", opaqueRefusal(budget, "quota"));
          request.apiKey = valid;
        });
      }
      case "predict": {
        const budget = policies.predict.all;
        return withKey(request, (key) => {
          if (key === "missing" || key === "invalid") {
            reject(`${key}_key`, opaqueRefusal(budget, `${key}_key`));
          }
          const valid = key as CachedKey;
          const id = `predict:key:${valid.id}:ip:${ip}`;
          if (!charge(reply, id, budget, valid.multiplier).allowed)
            reject("quota", opaqueRefusal(budget, "quota"));
          request.apiKey = valid;
        });
      }
      case "key-creation": {
        const decision = charge(reply, `keys:create:ip:${ip}`, policies.keyCreation, 1);
        if (!decision.allowed)
          reject("quota", quotaExceeded(decision, "too many keys created from this client"));
        return;
      }
    }
  };

  return function guard(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    let pending: void | Promise<void>;
    try {
      pending = check(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending instanceof Promise) pending.then(() => done(), done);
    else done();
  };
}

function bucketFromQuery(request: FastifyRequest): MarketBucket {
  const bucket = marketBucketSchema.safeParse(
    (request.query as Record<string, unknown> | undefined)?.["bucket"],
  );
  if (bucket.success) return bucket.data;
  throw badRequest(`bucket is required and must be one of ${MARKET_BUCKETS.join(", ")}`);
}

function quotaExceeded(decision: LimitDecision, message = "API key budget exhausted for this bucket") {
  return new RateLimitedError("quota", message, {
    retryAfterSeconds: decision.retryAfterSeconds,
    rateLimit: { limit: decision.limit, remaining: decision.remaining, resetSeconds: decision.resetSeconds },
  });
}

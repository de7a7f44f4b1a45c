import {
  LIVE_RATE_LIMIT_HEADERS,
  MARKET_BUCKETS,
  type MarketBucket,
  RATE_LIMIT_HEADERS,
} from "@mkt/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config/index.ts";
import { badRequest, RateLimitedError, unauthorized } from "../errors.ts";
import type { CachedKey } from "../keys/cache.ts";
import type { KeyLookup, KeyService } from "../keys/service.ts";
import { clientGroup } from "../quotas/client-group.ts";
import { type Clock, type LimitDecision, type SlidingWindowLimiter, systemClock } from "../quotas/limiter.ts";
import { type Budget, counterIds, type QuotaPolicies } from "../quotas/policies.ts";
import { repeatedParameter } from "./query-names.ts";
import type { Access } from "./route.ts";
import { liveResetAt, type SurfaceName } from "./surfaces.ts";

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
  /** The limiter's clock: `x-ratelimit-reset` is a time, not a number of seconds. */
  clock?: Clock;
  onRejected?: (surface: SurfaceName, reason: string) => void;
}

/** A route's compiled access check: synchronous when the key is cached, so the hot path allocates no promise. */
export type AccessCheck = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

const KEY_HEADER = "api-key";

type Resolved = CachedKey | "missing" | "invalid";

/**
 * The client group of a request (`clientGroup` of its client address),
 * worked out once per connection: the address is a function of the socket's
 * peer and, behind a trusted proxy, of `X-Forwarded-For`, so it is worked out
 * again only when that header differs from the one the connection last
 * carried (a load balancer's kept-alive connection carries many clients).
 */
function createClientGroups() {
  const byConnection = new WeakMap<object, { forwardedFor: string | string[] | undefined; group: string }>();
  return (request: FastifyRequest): string => {
    const socket = request.raw.socket;
    const forwardedFor = request.headers["x-forwarded-for"];
    const known = byConnection.get(socket);
    if (known !== undefined && known.forwardedFor === forwardedFor) return known.group;
    const group = clientGroup(request.ip);
    // A header given twice arrives as an array, new on every request: never remembered.
    if (socket && !Array.isArray(forwardedFor)) byConnection.set(socket, { forwardedFor, group });
    return group;
  };
}

/** The budget headers' names as the reply stores them (lowercase: `reply.header` then makes no new string). */
const BUDGET_HEADERS = {
  limit: RATE_LIMIT_HEADERS.limit.toLowerCase(),
  remaining: RATE_LIMIT_HEADERS.remaining.toLowerCase(),
  reset: RATE_LIMIT_HEADERS.reset.toLowerCase(),
};

function setBudgetHeaders(reply: FastifyReply, decision: LimitDecision) {
  reply.header(BUDGET_HEADERS.limit, decision.limit);
  reply.header(BUDGET_HEADERS.remaining, decision.remaining);
  reply.header(BUDGET_HEADERS.reset, decision.resetSeconds);
}

/** The classic surface's budget headers in the live service's names (`liveRateLimitHeaders`). */
function setLiveBudgetHeaders(reply: FastifyReply, decision: LimitDecision, nowMs: number) {
  reply.header(LIVE_RATE_LIMIT_HEADERS.limit, decision.limit);
  reply.header(LIVE_RATE_LIMIT_HEADERS.remaining, decision.remaining);
  reply.header(LIVE_RATE_LIMIT_HEADERS.reset, liveResetAt(nowMs, decision.resetSeconds));
}

export interface Guard {
  /**
   * The access checks of one route of one surface, built once when the route
   * is mounted: what runs before the route's session check, and what runs
   * after it (the proxy's per-account budget).
   */
  compile(surface: SurfaceName, access: Access, options?: { session?: boolean }): CompiledAccess;
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
export function createGuard({
  keys,
  limiter,
  policies,
  publicReads,
  clock = systemClock,
  onRejected,
}: GuardDeps): Guard {
  const failed = policies.failedKeyAttempts;
  const groupOf = createClientGroups();
  // The failed-attempts counter id of the client group asked last: a client's requests in a row
  // (the group string is the one its connection remembers) build it once.
  let lastGroup: string | undefined;
  let lastFailedId = "";
  const failedAttemptsId = (group: string) => {
    if (group !== lastGroup) {
      lastGroup = group;
      lastFailedId = counterIds.failedAttempts(group);
    }
    return lastFailedId;
  };
  const failuresExhausted = (group: string) =>
    !limiter.allows(failedAttemptsId(group), failed.limit, failed.windowMs);
  const countFailure = (group: string) => {
    limiter.take(counterIds.failedAttempts(group), failed.limit, failed.windowMs);
  };

  /** The undifferentiated 429 of the classic and predict surfaces. */
  const opaqueRefusal = (budget: Budget, reason: "missing_key" | "invalid_key" | "quota") => {
    const windowSeconds = Math.ceil(budget.windowMs / 1000);
    return new RateLimitedError(reason, "API key missing or invalid, or rate limit exceeded", {
      retryAfterSeconds: windowSeconds,
      rateLimit: { limit: budget.limit, remaining: 0, resetSeconds: windowSeconds },
    });
  };

  /** The market's 429 once a client group has used up its failed attempts. */
  const failedAttemptsRefusal = (group: string, message: string) => {
    const state = limiter.peek(counterIds.failedAttempts(group), failed.limit, failed.windowMs);
    return new RateLimitedError("failed_attempts", message, { retryAfterSeconds: state.retryAfterSeconds });
  };

  const toResolved = (group: string, lookup: KeyLookup): Resolved => {
    if (lookup.status === "valid") return lookup.key;
    countFailure(group);
    return "invalid";
  };

  /**
   * The presented key, synchronously when cached. Unknown keys count as failed
   * attempts of the client group. The key's hash is memoised per connection
   * inside the key service.
   */
  const resolveKey = (
    request: FastifyRequest,
    group: string,
    failuresChecked: boolean,
  ): Resolved | Promise<Resolved> => {
    const header = request.headers[KEY_HEADER];
    const presented = Array.isArray(header) ? header[0] : header;
    if (!presented) return "missing";
    if (!failuresChecked && failuresExhausted(group)) return "invalid";
    const lookup = keys.authenticate(presented, request.raw.socket);
    return lookup instanceof Promise
      ? lookup.then((result) => toResolved(group, result))
      : toResolved(group, lookup);
  };

  /** Charges one request; `live`: a classic route, whose answers also carry `x-ratelimit-*`. */
  const charge = (reply: FastifyReply, id: string, budget: Budget, multiplier: number, live = false) => {
    const decision = limiter.take(id, budget.limit * multiplier, budget.windowMs);
    if (decision.allowed) {
      setBudgetHeaders(reply, decision);
      if (live) setLiveBudgetHeaders(reply, decision, clock.now());
    }
    return decision;
  };

  /**
   * Runs `then` on the resolved key, synchronously when it is. `failuresChecked`:
   * the caller has already refused a client group out of failed attempts.
   */
  const withKey = (
    request: FastifyRequest,
    group: string,
    then: (key: Resolved) => void,
    failuresChecked = false,
  ): void | Promise<void> => {
    const key = resolveKey(request, group, failuresChecked);
    return key instanceof Promise ? key.then(then) : then(key);
  };

  type Reject = (reason: string, error: Error) => never;

  /** The market's 401 for a key that is missing or not valid (`invalid`: its message); the key otherwise. */
  const keyOr401 = (key: Resolved, reject: Reject, invalid: string): CachedKey => {
    if (key === "missing")
      reject("missing_key", unauthorized("API key missing: send it in the API-KEY header"));
    if (key === "invalid") reject("invalid_key", unauthorized(invalid));
    return key as CachedKey;
  };

  /**
   * The first-party proxy holds no per-user key, and headers cannot tell a
   * browser from a script: its budgets are the guard. Signed-in traffic (routes
   * that need a session) spends the market's rates per account, charged once
   * the session is known; everything else spends the small anonymous budget per
   * client group. Session tokens that fail count as failed attempts of the
   * client group, like bad API keys.
   */
  const compileProxy = (
    access: Extract<Access, { kind: "market" }>,
    session: boolean,
    reject: Reject,
  ): CompiledAccess => {
    const fixed = access.bucket === "query" ? undefined : access.bucket;
    if (!session) {
      return {
        beforeSession: (request, reply) => {
          const bucket = fixed ?? bucketFromQuery(request);
          const decision = charge(
            reply,
            `app:${bucket}:ip:${groupOf(request)}`,
            policies.proxyAnonymous[bucket],
            1,
          );
          if (!decision.allowed)
            reject("quota", quotaExceeded(decision, "request budget exhausted; retry later"));
        },
      };
    }
    return {
      beforeSession: (request) => {
        const group = groupOf(request);
        if (failuresExhausted(group))
          reject(
            "failed_attempts",
            failedAttemptsRefusal(group, "too many failed sign-in attempts from this client"),
          );
      },
      afterSession: (request, reply) => {
        const bucket = fixed ?? bucketFromQuery(request);
        const account = request.session?.accountId ?? request.session?.id ?? "";
        const decision = charge(reply, `app:${bucket}:account:${account}`, policies.market[bucket], 1);
        if (!decision.allowed)
          reject("quota", quotaExceeded(decision, "request budget exhausted; retry later"));
      },
      sessionFailed: (request) => countFailure(groupOf(request)),
    };
  };

  const compileMarket = (access: Extract<Access, { kind: "market" }>, reject: Reject): AccessCheck => {
    const fixed = access.bucket === "query" ? undefined : access.bucket;
    return (request, reply) => {
      const bucket = fixed ?? bucketFromQuery(request);
      const budget = policies.market[bucket];
      const group = groupOf(request);
      const header = request.headers[KEY_HEADER];
      if (!header && access.publicRead && publicReads === "open") {
        const decision = charge(reply, `market:${bucket}:ip:${group}`, budget, 1);
        if (!decision.allowed) reject("quota", quotaExceeded(decision));
        return;
      }
      if (header && failuresExhausted(group))
        reject(
          "failed_attempts",
          failedAttemptsRefusal(group, "too many failed API key attempts from this client"),
        );
      return withKey(
        request,
        group,
        (key) => {
          const valid = keyOr401(key, reject, "API key malformed or invalid");
          const decision = charge(reply, valid.counters.market[bucket], budget, valid.multiplier);
          if (!decision.allowed) reject("quota", quotaExceeded(decision));
          request.apiKey = valid;
        },
        true,
      );
    };
  };

  /**
   * A key-gated route of the classic or predict surface: one opaque 429 for
   * every refusal, whose headers state `refusal`'s budget. Each of `budgets`
   * is charged per key per client group, in order; the first spent one
   * refuses (the ones before it stay charged: the request was made).
   */
  const compileOpaque = (
    budgets: readonly { prefix: string; budget: Budget }[],
    refusal: Budget,
    reject: Reject,
    live = false,
  ): AccessCheck => {
    // The counter ids of the key and client group a connection presented last, built once for
    // the run of requests they make on it.
    const idsByConnection = new WeakMap<object, { keyId: string; group: string; ids: string[] }>();
    const counterIdsOf = (request: FastifyRequest, keyId: string, group: string) => {
      const socket = request.raw.socket;
      const known = socket ? idsByConnection.get(socket) : undefined;
      if (known !== undefined && known.keyId === keyId && known.group === group) return known.ids;
      const ids = budgets.map(({ prefix }) => `${prefix}:key:${keyId}:ip:${group}`);
      if (socket) idsByConnection.set(socket, { keyId, group, ids });
      return ids;
    };
    return (request, reply) => {
      const group = groupOf(request);
      return withKey(request, group, (key) => {
        if (key === "missing" || key === "invalid")
          reject(`${key}_key`, opaqueRefusal(refusal, `${key}_key`));
        const valid = key as CachedKey;
        const ids = counterIdsOf(request, valid.id, group);
        for (let i = 0; i < budgets.length; i++) {
          if (!charge(reply, ids[i]!, budgets[i]!.budget, valid.multiplier, live).allowed)
            reject("quota", opaqueRefusal(refusal, "quota"));
        }
        request.apiKey = valid;
      });
    };
  };

  /**
   * Routes that act on the key they are sent (self-revocation): the failed
   * attempts and a small per-group budget are checked before the key is looked
   * up, and an unknown key counts as a failed attempt, so guessing keys here
   * costs what it costs anywhere else. No key budget is charged.
   */
  const compileKeyHolder = (reject: Reject): AccessCheck => {
    return (request, reply) => {
      const group = groupOf(request);
      if (failuresExhausted(group))
        reject(
          "failed_attempts",
          failedAttemptsRefusal(group, "too many failed API key attempts from this client"),
        );
      const decision = charge(reply, `keys:revoke:ip:${group}`, policies.keyRevocation, 1);
      if (!decision.allowed)
        reject("quota", quotaExceeded(decision, "too many key revocations from this client"));
      return withKey(
        request,
        group,
        (key) => {
          request.apiKey = keyOr401(key, reject, "API key missing, malformed or invalid");
        },
        true,
      );
    };
  };

  return {
    compile(
      surface: SurfaceName,
      access: Access,
      { session = false }: { session?: boolean } = {},
    ): CompiledAccess {
      const reject: Reject = (reason, error) => {
        onRejected?.(surface, reason);
        throw error;
      };
      switch (access.kind) {
        case "none":
          return {};
        case "key-holder":
          return { beforeSession: compileKeyHolder(reject) };
        case "market":
          return surface === "app"
            ? compileProxy(access, session, reject)
            : { beforeSession: compileMarket(access, reject) };
        case "classic": {
          const budget = policies.classic[access.class];
          if (!access.key) {
            return {
              beforeSession: (request, reply) => {
                if (!charge(reply, `classic:${access.class}:ip:${groupOf(request)}`, budget, 1, true).allowed)
                  reject("quota", opaqueRefusal(budget, "quota"));
              },
            };
          }
          return {
            beforeSession: compileOpaque(
              [{ prefix: `classic:${access.class}`, budget }],
              budget,
              reject,
              true,
            ),
          };
        }
        case "predict": {
          // The feed's limits: every request counts against the key's per-IP budget, a stream
          // open included; opening a stream also charges the stream budget (the market's).
          const all = { prefix: "predict", budget: policies.predict.all };
          return {
            beforeSession:
              access.class === "stream"
                ? compileOpaque(
                    [all, { prefix: "predict:stream", budget: policies.predict.stream }],
                    policies.predict.stream,
                    reject,
                  )
                : compileOpaque([all], policies.predict.all, reject),
          };
        }
        case "key-creation":
          return {
            beforeSession: (request, reply) => {
              const decision = charge(reply, `keys:create:ip:${groupOf(request)}`, policies.keyCreation, 1);
              if (!decision.allowed)
                reject("quota", quotaExceeded(decision, "too many keys created from this client"));
            },
          };
      }
    },
  };
}

/** A route's compiled access rule, in the order the pipeline runs it around the session check. */
export interface CompiledAccess {
  beforeSession?: AccessCheck;
  afterSession?: AccessCheck;
  /** Called when the route's session check refused the request (the proxy counts it as a failed attempt). */
  sessionFailed?: (request: FastifyRequest) => void;
}

const BUCKETS: ReadonlySet<unknown> = new Set(MARKET_BUCKETS);

function bucketFromQuery(request: FastifyRequest): MarketBucket {
  const bucket = (request.query as Record<string, unknown> | undefined)?.["bucket"];
  if (BUCKETS.has(bucket)) return bucket as MarketBucket;
  if (Array.isArray(bucket)) throw repeatedParameter("bucket");
  throw badRequest(`bucket is required and must be one of ${MARKET_BUCKETS.join(", ")}`);
}

function quotaExceeded(decision: LimitDecision, message = "API key budget exhausted for this bucket") {
  return new RateLimitedError("quota", message, {
    retryAfterSeconds: decision.retryAfterSeconds,
    rateLimit: { limit: decision.limit, remaining: decision.remaining, resetSeconds: decision.resetSeconds },
  });
}

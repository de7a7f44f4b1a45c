import { randomBytes } from "node:crypto";
import type { AnySessionKind } from "@mkt/protocol";
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  onSendHookHandler,
} from "fastify";
import type { Logger } from "pino";
import { z } from "zod";
import type { Config } from "../config/index.ts";
import { AppError, notFound, RateLimitedError } from "../errors.ts";
import type { Idempotency } from "../idempotency/index.ts";
import type { Metrics } from "../metrics/index.ts";
import type { CorsPolicy } from "./cors.ts";
import { errorHandlerFor, sendError } from "./error-handler.ts";
import { surfaceOfPath } from "./framework-errors.ts";
import type { Guard } from "./guard.ts";
import { validatorCompiler } from "./input-text.ts";
import { compileQueryNames } from "./query-names.ts";
import { type ReadCache, type Revisions, strongEtag } from "./read-cache.ts";
import { type CachePolicy, cacheControlFor, type RouteDefinition, type RouteGate } from "./route.ts";
import { EVERY_ANSWER_HEADERS } from "./security-headers.ts";
import type { Surface } from "./surfaces.ts";
import { toAppError } from "./to-app-error.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Whether the request holds an admission slot (released when it is answered or aborted). */
    admitted: boolean;
    /** Where a shared-cache route's answer is stored once built (read cache miss). */
    readCacheSlot: { key: string; built: number[]; settle?: () => void } | undefined;
  }
}

/** A caller's `X-Request-Id` the server adopts; anything else gets a generated id. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SLOW_REQUEST_MS = 1_000;
const JSON_TYPE = "application/json; charset=utf-8";

export interface PipelineDeps {
  logger: Logger;
  metrics: Metrics;
  cors: CorsPolicy;
  guard: Guard;
  idempotency: Idempotency;
  readCache: ReadCache;
  revisions: Revisions;
  /** Requests in flight per replica before 429 (admission cap). */
  maxInFlight: number;
  /** Whether the market's public reads answer without a key: decides which answers shared caches may keep. */
  publicReads: Config["publicReads"];
  /** Authenticates a route's session kind (market sessions, the classic bearer). */
  sessionAuth?: (kind: AnySessionKind) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Whether a request presents a credential of a session kind (routes whose session is optional). */
  sessionPresented?: (kind: AnySessionKind) => (request: FastifyRequest) => boolean;
  /** The first-party proxy's origin check, before anything else on its routes. */
  proxyOriginCheck?: (request: FastifyRequest) => void;
  /** The product gates routes declare (`gate`), each a check that throws its refusal. */
  gates?: Partial<Record<RouteGate, (request: FastifyRequest) => void | Promise<void>>>;
}

/** One step of a route's request check: synchronous unless it must wait (a key or session lookup). */
type Step = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

/** Runs the steps in order, synchronously as long as every step is; stops once one has answered. */
function sequence(steps: Step[]): Step | undefined {
  if (steps.length === 0) return undefined;
  if (steps.length === 1) return steps[0];
  const from = (index: number, request: FastifyRequest, reply: FastifyReply): void | Promise<void> => {
    for (let i = index; i < steps.length; i++) {
      if (reply.sent) return;
      const pending = steps[i]!(request, reply);
      if (pending instanceof Promise) return pending.then(() => from(i + 1, request, reply));
    }
  };
  return (request, reply) => from(0, request, reply);
}

/**
 * Request ids: a random per-process prefix and a counter. Unique across
 * replicas and restarts for practical purposes, and far cheaper than a UUID
 * per request.
 */
export function createRequestIds() {
  const prefix = randomBytes(6).toString("hex");
  let next = 0;
  return () => `${prefix}-${(next++).toString(36)}`;
}

export function requestIdOf(header: string | string[] | undefined, next: () => string): string {
  return typeof header === "string" && REQUEST_ID.test(header) ? header : next();
}

/**
 * The JSON Schema a 2xx body is serialised with (fast-json-stringify,
 * compiled once per route by Fastify): the output side of the route's zod
 * schema, every subschema inline.
 */
function serializationSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io: "output",
    target: "draft-07",
    unrepresentable: "any",
    metadata: z.registry(),
    cycles: "ref",
    // An exact integer (a uint256 token id, `bigint` in code) is written as JSON digits.
    override: (context) => {
      if (context.zodSchema._zod.def.type === "bigint") context.jsonSchema["type"] = "integer";
    },
  }) as Record<string, unknown>;
  delete json["$schema"];
  return json;
}

/** The normalised query of a request: keys sorted, so `?a=1&b=2` and `?b=2&a=1` share a cache entry. */
function normalisedQuery(query: unknown): string {
  if (query === null || typeof query !== "object") return "";
  const entries = Object.entries(query as Record<string, unknown>);
  if (entries.length === 0) return "";
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/**
 * The request pipeline every route goes through. What a route needs is
 * decided once, when the route is mounted, from its declaration in its
 * surface's route table, and compiled into two hooks of its own:
 *
 * - `onRequest`: request id, CORS headers, `Cache-Control`, admission (a cap
 *   on requests in flight per replica), then the route's checks in order: the
 *   proxy's origin check, the access rule (key and budget), the session, the
 *   route's gate (a product switch, `gate`), the query's parameter names
 *   (only those the route declares, each once: `query-names.ts`), and the
 *   read cache (a hit answers here, after it was charged). A route whose
 *   session is optional compiles both paths and takes, per request, the
 *   signed-in one (private, no read cache) when a credential is presented.
 * - once the response is finished (or the connection closed under it): the
 *   admission slot back, the request's metrics (a recorder bound to the route)
 *   and its log line.
 *
 * Every 2xx JSON body is serialised by a serializer Fastify compiles once from
 * the route's response schema. Nothing is special-cased per route: a speed-up
 * belongs here, where every route gets it.
 */
export function createPipeline(deps: PipelineDeps) {
  const { logger, metrics, cors, guard, idempotency, readCache, revisions } = deps;
  let inFlight = 0;
  const newRequestId = createRequestIds();

  /**
   * The log line of an answered request. Refused, failed and slow requests
   * are logged at info; successful ones at debug (LOG_LEVEL=debug gives a
   * full access log): at thousands of budget checks a second, an info line
   * each would be most of the work, and the metrics count them anyway.
   */
  const logAnswered = (request: FastifyRequest, route: string, status: number, ms: number) => {
    const level = status >= 400 || ms >= SLOW_REQUEST_MS ? "info" : "debug";
    if (logger.isLevelEnabled(level)) {
      const url = request.url;
      const query = url.indexOf("?");
      logger[level]({
        msg: "request",
        reqId: request.id,
        method: request.method,
        route,
        path: query === -1 ? url : url.slice(0, query),
        status,
        ms: Math.round(ms * 100) / 100,
      });
    }
  };

  const release = (request: FastifyRequest) => {
    if (request.admitted) {
      request.admitted = false;
      inFlight -= 1;
    }
  };

  /**
   * Request id, CORS, `X-Content-Type-Options` and admission: what every request gets, matched
   * or not.
   * `answered` runs once the response is finished or the connection closed
   * under it (one `close` listener: it fires in both cases), to release the
   * admission slot and record the request.
   */
  const open = (
    request: FastifyRequest,
    reply: FastifyReply,
    surface: Surface["name"],
    answered: (request: FastifyRequest, reply: FastifyReply, ms: number) => void,
  ): RateLimitedError | undefined => {
    const started = performance.now();
    reply.raw.on("close", () => {
      request.readCacheSlot?.settle?.();
      release(request);
      answered(request, reply, performance.now() - started);
    });
    reply.header("X-Request-Id", request.id);
    reply.headers(cors.headersFor(request.headers.origin, request.url));
    // Here rather than in an onSend hook: streams take the response over and skip onSend.
    reply.headers(EVERY_ANSWER_HEADERS);
    inFlight += 1;
    request.admitted = true;
    if (inFlight > deps.maxInFlight) {
      metrics.quotaRejections.inc({ surface, reason: "admission" });
      return new RateLimitedError("admission", "the service is at capacity; retry shortly", {
        retryAfterSeconds: 1,
      });
    }
    return undefined;
  };

  /** Bodies being built, by read-cache key: the requests that miss meanwhile wait for them. */
  const building = new Map<string, Promise<void>>();

  const compileReadCache = (
    surface: Surface,
    route: RouteDefinition,
    policy: Extract<CachePolicy, { kind: "shared" }>,
  ) => {
    const counters = revisions.counters(policy.sources);
    const vary = (policy.vary ?? []).map((name) => name.toLowerCase());
    const prefix = `${surface.name} ${route.method} ${route.path}\u0000`;
    // A route without parameters, query or varying headers answers one body: its key is built once.
    const fixedKey =
      !/[:*]/.test(route.path) &&
      route.request?.params === undefined &&
      route.request?.query === undefined &&
      vary.length === 0
        ? `${prefix}\u0000`
        : undefined;
    const keyOf = (request: FastifyRequest) => {
      if (fixedKey !== undefined) return fixedKey;
      // Path parameters first: `/releases/:releaseId` answers one body per id.
      let key = `${prefix}${normalisedQuery(request.params)}\u0000${normalisedQuery(request.query)}`;
      for (const name of vary) key += `\u0000${request.headers[name] ?? ""}`;
      return key;
    };
    /** Answers from a cached entry: its ETag, a 304 when the client has it, else the bytes. */
    const answer = (
      request: FastifyRequest,
      reply: FastifyReply,
      entry: NonNullable<ReturnType<ReadCache["get"]>>,
    ) => {
      reply.header("ETag", entry.etag);
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
      reply.header("ETag", etag);
      if (request.headers["if-none-match"] === etag) {
        reply.code(304);
        done(null, "");
        return;
      }
      done(null, payload);
    };
    return { lookup, store, vary: policy.vary ?? [] };
  };

  /** A stream route's handler: the request leaves the in-flight count once its checks have passed. */
  const streamHandler =
    (handler: RouteDefinition["handler"]): RouteDefinition["handler"] =>
    (request, reply) => {
      release(request);
      return handler(request, reply);
    };

  /** The route's own hooks and Fastify options, compiled once. */
  const compileRoute = (surface: Surface, route: RouteDefinition) => {
    const url = `${surface.prefix}${route.path}`;
    const record = metrics.routeRecorder(surface.name, url, route.method);
    const cached = route.cache.kind === "shared" ? compileReadCache(surface, route, route.cache) : undefined;
    const sessionKind = route.session;
    const gate = route.gate === undefined ? undefined : deps.gates?.[route.gate];
    if (route.gate !== undefined && gate === undefined)
      throw new Error(`${url} declares the ${route.gate} gate but no such gate is set up`);
    const authenticate = (kind: AnySessionKind) => {
      if (!deps.sessionAuth)
        throw new Error(`${url} needs a ${kind} session but no session authentication is set up`);
      return deps.sessionAuth(kind);
    };
    const checkQueryNames = compileQueryNames(route.request?.query);
    const queryNames: Step = (request) => {
      const refused = checkQueryNames(request.query);
      if (refused) throw refused;
    };
    /** The route's checks in order, for a request with a session (`kind`) or without one. */
    const stepsFor = (kind: AnySessionKind | undefined): Step[] => {
      const steps: Step[] = [];
      if (surface.name === "app" && deps.proxyOriginCheck) steps.push(deps.proxyOriginCheck);
      const access = guard.compile(surface.name, route.access, { session: kind !== undefined });
      if (access.beforeSession) steps.push(access.beforeSession);
      if (kind !== undefined) {
        const check = authenticate(kind);
        const failed = access.sessionFailed;
        steps.push(
          failed === undefined
            ? check
            : (request, reply) =>
                check(request, reply).catch((error: unknown) => {
                  // A refused session token counts against the client; a request that sent none does not.
                  if (error instanceof AppError && error.kind === "unauthorized" && request.headers.cookie)
                    failed(request);
                  throw error;
                }),
        );
      }
      if (access.afterSession) steps.push(access.afterSession);
      // Before the read cache: a gated request is refused even when its answer is cached.
      if (gate) steps.push(gate);
      // Who asks first (a keyless request gets the surface's own key refusal whatever its query
      // says), then what: before the read cache, which keys on the query.
      steps.push(queryNames);
      // Session answers never come from the read cache (declareRoutes keeps required sessions off it).
      if (cached && kind === undefined) steps.push(cached.lookup);
      return steps;
    };
    let check: Step | undefined;
    if (sessionKind !== undefined && route.sessionOptional) {
      // One route, two paths chosen per request by the credential it presents:
      // anonymous through the route's cache policy, signed in privately.
      if (!deps.sessionPresented)
        throw new Error(`${url} takes an optional ${sessionKind} session but no session check is set up`);
      const presented = deps.sessionPresented(sessionKind);
      const anonymous = sequence(stepsFor(undefined));
      const signedIn = sequence([
        // Before anything can refuse: a refusal of a credential is as private as the answer.
        (_request, reply) => {
          reply.header("Cache-Control", "private, no-store");
        },
        ...stepsFor(sessionKind),
      ]);
      check = (request, reply) =>
        presented(request) ? signedIn?.(request, reply) : anonymous?.(request, reply);
    } else {
      check = sequence(stepsFor(sessionKind));
    }
    // Errors replace it with `no-store` (the surface's error renderer).
    const cacheControl = cacheControlFor(route, deps.publicReads);
    const varyOn = [
      ...(cached?.vary ?? []),
      // What the session is read from: an HTTP cache must never hand an anonymous answer to a signed-in caller.
      ...(route.sessionOptional ? ["Authorization", "Cookie"] : []),
    ];
    const vary = varyOn.length > 0 ? varyOn.join(", ") : undefined;

    const answered = (request: FastifyRequest, reply: FastifyReply, ms: number) => {
      record(reply.statusCode, ms / 1000);
      logAnswered(request, url, reply.statusCode, ms);
    };
    const onRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const refused = open(request, reply, surface.name, answered);
      if (refused) {
        done(refused);
        return;
      }
      reply.header("Cache-Control", cacheControl);
      if (vary !== undefined) reply.header("Vary", `Origin, ${vary}`);
      if (check === undefined) {
        done();
        return;
      }
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
    const response: Record<number, Record<string, unknown>> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      const code = Number(status);
      if (
        code >= 200 &&
        code < 300 &&
        spec.schema &&
        (spec.contentType ?? "application/json") === "application/json"
      ) {
        response[code] = serializationSchema(spec.schema);
      }
    }
    const onSend: onSendHookHandler[] = [];
    if (route.idempotent)
      onSend.push(idempotency.onSendWithholding(route.idempotent === true ? [] : route.idempotent.withheld));
    if (cached) onSend.push(cached.store);
    return {
      method: route.method,
      url: route.path,
      schema: {
        ...(route.request?.query ? { querystring: route.request.query } : {}),
        ...(route.request?.params ? { params: route.request.params } : {}),
        ...(route.request?.body ? { body: route.request.body } : {}),
        ...(route.request?.headers ? { headers: route.request.headers } : {}),
        ...(Object.keys(response).length > 0 ? { response } : {}),
      },
      config: { surface: surface.name, ...(route.gate ? { gate: route.gate } : {}) },
      onRequest: onRequest as onRequestHookHandler,
      ...(route.idempotent ? { preHandler: idempotency.preHandler } : {}),
      ...(onSend.length > 0 ? { onSend } : {}),
      handler: route.stream ? streamHandler(route.handler) : route.handler,
    };
  };

  return {
    inFlight: () => inFlight,

    /** A request id for Fastify's `genReqId`: the caller's `X-Request-Id` when well-formed, else a new one. */
    requestId: (request: { headers: Record<string, string | string[] | undefined> }) =>
      requestIdOf(request.headers["x-request-id"], newRequestId),

    /**
     * Mounts one API surface: its routes under its prefix, each through the
     * pipeline, with the surface's own error body for every error (validation,
     * 404 and 5xx included).
     */
    mount(app: FastifyInstance, surface: Surface, routes: readonly RouteDefinition[]) {
      app.register(
        async (scope) => {
          scope.setValidatorCompiler(validatorCompiler);
          scope.setErrorHandler(errorHandlerFor(surface, logger));
          if (surface.prefix !== "") scope.setNotFoundHandler(notFoundHandler(surface));
          for (const route of routes) scope.route(compileRoute(surface, route));
        },
        { prefix: surface.prefix },
      );
    },

    /**
     * The answer to a request no route matched, in the surface's error body,
     * with the headers, admission, metrics and log line every request gets.
     */
    notFoundHandler,

    /**
     * Fastify's `frameworkErrors`: the router's refusals before any route is
     * matched (a path that does not decode, 400; a path parameter over
     * `MAX_PATH_PARAMETER_LENGTH`, 414), in the error body of the surface the
     * path belongs to, with the headers, admission, metrics and log line every
     * request gets.
     */
    frameworkErrorHandler(surfaces: readonly Surface[], fallback: Surface) {
      const fallbackAnswered = unmatchedAnswered(fallback);
      const answered = new Map(surfaces.map((surface) => [surface, unmatchedAnswered(surface)]));
      return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        const surface = surfaceOfPath(surfaces, request.url, fallback);
        const refused = open(request, reply, surface.name, answered.get(surface) ?? fallbackAnswered);
        void sendError(surface, refused ?? toAppError(error).error, reply);
      };
    },

    /** The hooks of a route outside the route tables (CORS preflight): id, CORS, admission, metrics, log. */
    plainHooks(surface: Surface["name"], url: string, method: string) {
      const record = metrics.routeRecorder(surface, url, method);
      const answered = (request: FastifyRequest, reply: FastifyReply, ms: number) => {
        record(reply.statusCode, ms / 1000);
        logAnswered(request, url, reply.statusCode, ms);
      };
      return {
        onRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
          done(open(request, reply, surface, answered));
        },
      };
    },
  };

  /** Records and logs a request no route took, under the route label `unmatched`. */
  function unmatchedAnswered(surface: Surface) {
    const record = metrics.routeRecorder(surface.name, "unmatched", "ANY");
    return (request: FastifyRequest, reply: FastifyReply, ms: number) => {
      record(reply.statusCode, ms / 1000);
      logAnswered(request, "unmatched", reply.statusCode, ms);
    };
  }

  function notFoundHandler(surface: Surface) {
    const answered = unmatchedAnswered(surface);
    return (request: FastifyRequest, reply: FastifyReply) => {
      const refused = open(request, reply, surface.name, answered);
      return sendError(
        surface,
        refused ?? notFound(`no route ${request.method} ${request.url.split("?")[0]}`),
        reply,
      );
    };
  }
}

export type Pipeline = ReturnType<typeof createPipeline>;

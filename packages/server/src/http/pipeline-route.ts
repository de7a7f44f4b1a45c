import type { AnySessionKind } from "@mkt/protocol";
import type {
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  onSendHookHandler,
} from "fastify";
import { z } from "zod";
import type { Config } from "../config/index.ts";
import { AppError } from "../errors.ts";
import type { Idempotency } from "../idempotency/index.ts";
import type { Guard } from "./guard.ts";
import { compileIndexedHead, type IndexedHeads, indexedSourceOf } from "./indexed-head.ts";
import type { RequestLifecycle } from "./pipeline-lifecycle.ts";
import type { CompileReadCache } from "./pipeline-read-cache.ts";
import { type Step, sequence } from "./pipeline-steps.ts";
import { compileQueryNames } from "./query-names.ts";
import { cacheControlFor, type RouteDefinition, type RouteGate, requestSchemasOf } from "./route.ts";
import type { Surface } from "./surfaces.ts";

export interface RouteCompilerDeps {
  guard: Guard;
  idempotency: Idempotency;
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
  /** The indexer heads answers built from an indexed projection describe (`Indexed-*` headers). */
  indexedHeads?: IndexedHeads;
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

/**
 * Compiles each route's declaration, once when it is mounted, into its own
 * `onRequest` hook (the route's checks in order), its serializers and its
 * `onSend` hooks (idempotency, read cache).
 */
export function createRouteCompiler(
  deps: RouteCompilerDeps,
  lifecycle: RequestLifecycle,
  compileReadCache: CompileReadCache,
) {
  const { guard, idempotency } = deps;

  /** A stream route's handler: the request leaves the in-flight count once its checks have passed. */
  const streamHandler =
    (handler: RouteDefinition["handler"]): RouteDefinition["handler"] =>
    (request, reply) => {
      lifecycle.release(request);
      return handler(request, reply);
    };

  /** The route's own hooks and Fastify options, compiled once. */
  const compileRoute = (surface: Surface, route: RouteDefinition) => {
    const url = `${surface.prefix}${route.path}`;
    const answered = lifecycle.answeredAs(surface.name, url, route.method);
    const cached = route.cache.kind === "shared" ? compileReadCache(surface, route, route.cache) : undefined;
    const sessionKind = route.session;
    const gate = route.gate === undefined ? undefined : deps.gates?.[route.gate];
    const indexedSource = indexedSourceOf(route);
    const indexed =
      deps.indexedHeads && indexedSource !== undefined
        ? compileIndexedHead(deps.indexedHeads, indexedSource)
        : undefined;
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
      // Before the read cache: a hit is answered with the head it was built from, or a newer one.
      if (indexed) steps.push(indexed.refresh);
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
    const varyHeader = vary === undefined ? undefined : `Origin, ${vary}`;

    const onRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const refused = lifecycle.open(request, reply, surface.name, answered);
      if (refused) {
        done(refused);
        return;
      }
      // Names as the reply stores them (lowercase), so no new string is made per request.
      reply.header("cache-control", cacheControl);
      if (varyHeader !== undefined) reply.header("vary", varyHeader);
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
    // After the read cache's hook, which may turn the answer into a 304.
    if (indexed) onSend.push(indexed.write);
    return {
      method: route.method,
      url: route.path,
      schema: {
        ...requestSchemasOf(route),
        ...(Object.keys(response).length > 0 ? { response } : {}),
      },
      config: { surface: surface.name, ...(route.gate ? { gate: route.gate } : {}) },
      onRequest: onRequest as onRequestHookHandler,
      ...(route.idempotent ? { preHandler: idempotency.preHandler } : {}),
      ...(onSend.length > 0 ? { onSend } : {}),
      handler: route.stream ? streamHandler(route.handler) : route.handler,
    };
  };

  return compileRoute;
}

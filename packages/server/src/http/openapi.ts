import { isDeepStrictEqual } from "node:util";
import { type AnySessionKind, RATE_LIMIT_HEADERS, type SessionKind } from "@mkt/protocol";
import { z } from "zod";
import type { Config } from "../config/index.ts";
import { REQUEST_ID } from "./pipeline.ts";
import { cacheControlFor, type RouteDefinition } from "./route.ts";
import type { Surface } from "./surfaces.ts";

type JsonObject = Record<string, unknown>;

export interface OpenApiOptions {
  publicUrl: string;
  /** Whether the market's public reads answer without a key: which answers shared caches may keep. */
  publicReads: Config["publicReads"];
  /** Extra text appended to `info.description`: policies decided where the API document is silent. */
  notes?: string;
}

/** Routes published under one prefix. */
export interface OpenApiGroup {
  prefix: string;
  routes: RouteDefinition[];
  /**
   * These are the first-party website proxy's copies of routes published
   * elsewhere in the document (CONTRACT.md: the same routes beneath
   * `/app/api`): no API key, the proxy's origin check, and each session
   * kind in its cookie (`cookies`) instead of a token.
   */
  proxy?: { cookies: Readonly<Record<SessionKind, string>>; of: string };
  /** The surface whose error body these routes answer with, when not the document's (`POST /keys`: the market's). */
  errors?: Surface;
}

const toPath = (prefix: string, path: string) =>
  `${prefix}${path}`.replace(/:([A-Za-z0-9_]+)/g, "{$1}") || "/";

/** A path with every parameter name erased: two paths equal under it are one path to every generator. */
const pathShape = (path: string) => path.replace(/\{[^}]+\}/g, "{}");

/** OpenAPI ignores header parameters with these names: the body, the content negotiation and `securitySchemes` say them. */
const RESERVED_HEADER_PARAMETERS = new Set(["accept", "content-type", "authorization"]);

/**
 * Builds one surface's OpenAPI 3.1 document from its route definitions, with
 * every schema taken from the zod schemas the server validates with, so the
 * document cannot drift from what is served.
 */
export function buildOpenApiDocument(surface: Surface, groups: OpenApiGroup[], options: OpenApiOptions) {
  const schemas = createSchemaComponents();
  const proxyCookies = groups.find((group) => group.proxy)?.proxy?.cookies;

  const rateLimitHeaders = {
    [RATE_LIMIT_HEADERS.limit]: { $ref: "#/components/headers/RateLimitLimit" },
    [RATE_LIMIT_HEADERS.remaining]: { $ref: "#/components/headers/RateLimitRemaining" },
    [RATE_LIMIT_HEADERS.reset]: { $ref: "#/components/headers/RateLimitReset" },
  };

  const paths: Record<string, Record<string, JsonObject>> = {};
  const operationIds = new Set<string>();
  /** Each path's shape (parameter names erased) and the path that has it. */
  const shapes = new Map<string, string>();
  for (const { prefix, route, proxy, of, errors } of groups.flatMap((group) =>
    group.routes.map((route) => ({
      prefix: group.prefix,
      route,
      proxy: group.proxy,
      of: group.proxy?.of,
      errors: group.errors ?? surface,
    })),
  )) {
    const path = toPath(prefix, route.path);
    const method = route.method.toLowerCase();
    const where = `${route.method} ${path}`;
    const operationId = proxy ? `${route.operationId}ViaProxy` : route.operationId;
    if (operationIds.has(operationId))
      throw new Error(`OpenAPI: operationId "${operationId}" of ${where} is used twice`);
    operationIds.add(operationId);
    if (paths[path]?.[method]) throw new Error(`OpenAPI: ${where} is defined twice`);
    const sameShape = shapes.get(pathShape(path));
    if (sameShape !== undefined && sameShape !== path)
      throw new Error(
        `OpenAPI: ${path} and ${sameShape} differ only by parameter names; give the parameter at each position one name`,
      );
    shapes.set(pathShape(path), path);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
    const declared = Object.keys(route.request?.params?.shape ?? {}).sort();
    if (templated.join() !== declared.join())
      throw new Error(
        `OpenAPI: ${where} declares path parameters [${declared}], its path has [${templated}]`,
      );

    const parameters: JsonObject[] = [];
    const addParameters = (location: "query" | "path" | "header", schema: z.ZodObject | undefined) => {
      if (!schema) return;
      for (const [name, field] of Object.entries(schema.shape)) {
        if (location === "header" && RESERVED_HEADER_PARAMETERS.has(name.toLowerCase()))
          throw new Error(`OpenAPI: ${where} declares the header parameter ${name}, which OpenAPI ignores`);
        const fieldSchema = field as z.ZodType;
        const json = schemas.convert(fieldSchema, "input", where);
        const optional = fieldSchema.safeParse(undefined).success;
        parameters.push({
          name,
          in: location,
          required: location === "path" ? true : !optional,
          ...(typeof json["description"] === "string" ? { description: json["description"] } : {}),
          schema: json,
        });
      }
    };
    addParameters("path", route.request?.params);
    addParameters("query", route.request?.query);
    addParameters("header", route.request?.headers);
    const named = new Set(parameters.map((parameter) => String(parameter["name"]).toLowerCase()));
    for (const parameter of declaredHeaders(route, proxy !== undefined))
      if (!named.has(parameter.name.toLowerCase())) parameters.push(parameter.json);

    const responses: Record<string, JsonObject> = {};
    for (const [status, response] of Object.entries(
      withDeclaredErrors(route.responses, errorResponses(route, proxy !== undefined), proxy !== undefined),
    )) {
      if (!/^[1-5][0-9][0-9]$/.test(status)) throw new Error(`OpenAPI: ${where} has a response ${status}`);
      for (const name of Object.keys(response.headers ?? {}))
        if (name.toLowerCase() === "content-type")
          throw new Error(`OpenAPI: ${where} declares a Content-Type response header, which OpenAPI ignores`);
      const limited = limitedRoute(route);
      const headers: JsonObject = {
        ...(limited ? rateLimitHeaders : {}),
        ...(status === "429" || status === "503"
          ? { "Retry-After": { $ref: "#/components/headers/RetryAfter" } }
          : {}),
        ...(Number(status) >= 400 ? { "Cache-Control": { $ref: "#/components/headers/NoStore" } } : {}),
        ...Object.fromEntries(
          Object.entries(response.headers ?? {}).map(([name, header]) => [
            name,
            header as unknown as JsonObject,
          ]),
        ),
      };
      if (status.startsWith("2")) {
        headers["Cache-Control"] = {
          description: route.sessionOptional
            ? `\`${cacheControlFor(route, options.publicReads)}\` without a session credential, \`private, no-store\` with one.`
            : `Always \`${cacheControlFor(route, options.publicReads)}\` on this route.`,
          schema: { type: "string" },
        };
        if (route.cache.kind === "shared") headers["ETag"] = { $ref: "#/components/headers/ETag" };
      }
      const schema =
        response.schema ??
        (status === "429" ? (errors.rateLimitedSchema ?? errors.errorSchema) : undefined) ??
        (Number(status) >= 400 ? errors.errorSchema : undefined);
      responses[status] = {
        description: response.description,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(schema
          ? {
              content: {
                [response.contentType ?? "application/json"]: {
                  schema: schemas.convert(schema, "output", where),
                },
              },
            }
          : {}),
      };
    }
    if (Object.keys(responses).length === 0) throw new Error(`OpenAPI: ${where} documents no response`);
    if (route.cache.kind === "shared" && responses["304"] === undefined) {
      responses["304"] = {
        description:
          "`If-None-Match` named the current `ETag`: the body has not changed. Charged like a 200.",
        headers: {
          ETag: { $ref: "#/components/headers/ETag" },
          ...(limitedRoute(route) ? rateLimitHeaders : {}),
        },
      };
    }
    const description = proxy
      ? `The first-party website's copy of \`${route.method} ${toPath(of ?? "", route.path)}\` (operation \`${route.operationId}\`), with the same parameters, body and answers: no API key, the proxy's origin check (\`Origin\` or \`Sec-Fetch-Site\`), the session in its cookie instead of a token, and the proxy's own budgets.`
      : [route.description, publicReadNote(route)].filter(Boolean).join("\n\n");
    paths[path] ??= {};
    paths[path][method] = {
      operationId,
      summary: route.summary,
      ...(description ? { description } : {}),
      tags: proxy ? ["First-party proxy"] : route.tags,
      ...(route.deprecated ? { deprecated: true } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.request?.body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: schemas.convert(route.documentedBody ?? route.request.body, "input", where),
                },
              },
            },
          }
        : {}),
      responses,
      security: securityOf(route, proxy !== undefined),
    };
  }

  return schemas.resolve({
    openapi: "3.1.0",
    info: {
      title: surface.title,
      version: surface.version,
      description: [surface.description, options.notes].filter(Boolean).join("\n\n"),
    },
    servers: [{ url: options.publicUrl }],
    paths,
    components: {
      schemas: {} as Record<string, JsonObject>,
      securitySchemes: securitySchemesOf(paths, proxyCookies),
      parameters: {
        RequestId: {
          name: "X-Request-Id",
          in: "header",
          required: false,
          description:
            "Your id for this request (1 to 128 of `A-Z a-z 0-9 . _ : -`), echoed in the `X-Request-Id` response header and written in the server's log line; without one (or with a malformed one) the server makes one.",
          schema: { type: "string", pattern: REQUEST_ID.source },
        },
        IfNoneMatch: {
          name: "If-None-Match",
          in: "header",
          required: false,
          description:
            "The `ETag` of an earlier answer: while the body has not changed, the answer is 304 without a body (still charged to the budget).",
          schema: { type: "string" },
        },
        LastEventId: {
          name: "Last-Event-ID",
          in: "header",
          required: false,
          description:
            "The id of the last event received: the stream replays every event after it that is still in the log's window, else starts with `resync`.",
          schema: { type: "string", maxLength: 64 },
        },
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "Makes a retried write safe (IETF draft-ietf-httpapi-idempotency-key-header). The same key with the same body within 24 hours returns the first response again, marked `Idempotent-Replayed: true`, without doing the work twice; the same key with another body is refused with 422; a retry while the first request is still running gets 409. 1 to 255 printable ASCII characters, optionally as a quoted string.",
          schema: { type: "string", minLength: 1, maxLength: 257 },
        },
      },
      headers: {
        RateLimitLimit: {
          description:
            "Requests the budget charged by this route admits per window (base budget times the key's multiplier).",
          schema: { type: "integer" },
        },
        RateLimitRemaining: {
          description: "Requests left in the current sliding window.",
          schema: { type: "integer" },
        },
        RateLimitReset: {
          description:
            "Seconds until the oldest request counted in the window leaves it and frees one request.",
          schema: { type: "integer" },
        },
        ETag: {
          description:
            "Strong validator of the body. Send it back in `If-None-Match`: while the data the answer is built from has not changed, the answer is 304 with no body (still charged to the budget).",
          schema: { type: "string" },
        },
        RetryAfter: { description: "Whole seconds to wait before retrying.", schema: { type: "integer" } },
        NoStore: {
          description:
            "Always `no-store` on an error answer, whatever the route: no cache, shared or the client's own, may keep an error.",
          schema: { type: "string", const: "no-store" },
        },
      },
    },
  });
}

const limitedRoute = (route: RouteDefinition) => route.access.kind !== "none";

type Responses = RouteDefinition["responses"];

/**
 * A route's own responses with every error status its declaration can answer
 * (`errorResponses`). A status the route documents keeps its description (its
 * specific causes), except on the proxy's copies, whose credentials differ:
 * there the 401 is the proxy's, and the proxy's own 403 is added to the route's.
 */
function withDeclaredErrors(own: Responses, declared: Record<number, string>, proxied: boolean): Responses {
  const responses: Responses = { ...own };
  for (const [key, description] of Object.entries(declared)) {
    const status = Number(key);
    const documented = own[status];
    if (documented === undefined) responses[status] = { description };
    else if (proxied && status === 401) responses[status] = { ...documented, description };
    else if (proxied && status === 403)
      responses[status] = { ...documented, description: `${documented.description} Or: ${description}` };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** Whether the route needs the `API-KEY` header (by the default `PUBLIC_READS=key` on public reads). */
const needsKey = (route: RouteDefinition) =>
  route.access.kind === "market" ||
  route.access.kind === "predict" ||
  route.access.kind === "key-holder" ||
  (route.access.kind === "classic" && route.access.key);

/** The security scheme of each session kind presented directly, and through the proxy (its cookie). */
const SESSION_SCHEMES: Record<AnySessionKind, string> = {
  account: "AccountSession",
  chat: "ChatSession",
  access: "AccessSession",
  classic: "ClassicBearer",
};
const COOKIE_SCHEMES: Record<SessionKind, string> = {
  account: "AccountSessionCookie",
  chat: "ChatSessionCookie",
  access: "AccessSessionCookie",
};

/**
 * The security requirements of one route, from its declaration: within one
 * requirement object every scheme is needed (AND), between objects any one
 * suffices (OR). An optional session is two alternatives: with the session
 * and without it (the key alone, or nothing through the proxy, which takes no
 * key). Public reads are published with the default `PUBLIC_READS=key`.
 */
function securityOf(route: RouteDefinition, proxied: boolean): Array<Record<string, string[]>> {
  const base: Record<string, string[]> = !proxied && needsKey(route) ? { ApiKey: [] } : {};
  const session = route.session;
  if (session === undefined) return Object.keys(base).length > 0 ? [base] : [];
  const scheme = proxied && session !== "classic" ? COOKIE_SCHEMES[session] : SESSION_SCHEMES[session];
  const signedIn = { ...base, [scheme]: [] };
  return route.sessionOptional ? [signedIn, base] : [signedIn];
}

/** The schemes the document's operations name, each described once. */
function securitySchemesOf(
  paths: Record<string, Record<string, JsonObject>>,
  cookies: Readonly<Record<SessionKind, string>> | undefined,
): JsonObject {
  const direct =
    "Sent as `Authorization: Bearer <token>` with `Origin` equal to the origin the wallet signed and `X-MKT-Wallet` equal to the session's wallet (market-api.md, Sessions); never in a URL. Every route that takes it needs `API-KEY` too.";
  const viaProxy = (kind: SessionKind, scheme: string) =>
    `Through the first-party website proxy (\`/app/api\`) the ${kind} session is the \`${cookies?.[kind]}\` cookie (HttpOnly, SameSite=Strict, Path=/app/api) the proxy's sign-in set, in place of the ${scheme} token; no API key.`;
  const all: Record<string, JsonObject> = {
    ApiKey: {
      type: "apiKey",
      in: "header",
      name: "API-KEY",
      description: "The API key of `POST /keys`, in the `API-KEY` header.",
    },
    AccountSession: {
      type: "http",
      scheme: "bearer",
      description: `An account session token (\`mkts_…\`, \`POST /market/account/session\`). ${direct}`,
    },
    ChatSession: {
      type: "http",
      scheme: "bearer",
      description: `A chat session token (\`mktc_…\`, \`POST /market/chat/session\`): room and follow-write routes only. ${direct}`,
    },
    AccessSession: {
      type: "apiKey",
      in: "header",
      name: "X-MKT-Session",
      description:
        "An invite-only access session token (`mkta_…`, `POST /market/access/session`), in the `X-MKT-Session` header. Every route that takes it needs `API-KEY` too.",
    },
    ClassicBearer: {
      type: "http",
      scheme: "bearer",
      description:
        "The access token of `POST /classic/auth/sign-in` (24 hours), as `Authorization: Bearer <accessToken>`. Where a route lists API-KEY and ClassicBearer both are needed; a bearer never replaces the key.",
    },
    ...(cookies
      ? Object.fromEntries(
          (Object.keys(COOKIE_SCHEMES) as SessionKind[]).map((kind) => [
            COOKIE_SCHEMES[kind],
            {
              type: "apiKey",
              in: "cookie",
              name: cookies[kind],
              description: viaProxy(kind, SESSION_SCHEMES[kind]),
            },
          ]),
        )
      : {}),
  };
  const used = new Set(["ApiKey"]);
  for (const item of Object.values(paths))
    for (const operation of Object.values(item))
      for (const requirement of (operation["security"] ?? []) as Array<Record<string, unknown>>)
        for (const name of Object.keys(requirement)) used.add(name);
  for (const name of used)
    if (!all[name]) throw new Error(`OpenAPI: the security scheme ${name} is used but not described`);
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}

const publicReadNote = (route: RouteDefinition) =>
  route.access.kind === "market" && route.access.publicRead
    ? "A public read: it needs `API-KEY` by default (`PUBLIC_READS=key`). A deployment with `PUBLIC_READS=open` also answers it without a key, budgeted per client IP at the read rate (the document's description says which this deployment runs)."
    : undefined;

const header = (
  name: string,
  required: boolean,
  description: string,
  schema: JsonObject = { type: "string" },
) => ({
  name,
  json: { name, in: "header", required, description, schema } as JsonObject,
});

/**
 * The request headers a route reads besides its credentials (those are its
 * security requirements), from its declaration. A header the route declares
 * itself (with its own schema) is published as declared.
 */
function declaredHeaders(
  route: RouteDefinition,
  proxied: boolean,
): Array<{ name: string; json: JsonObject }> {
  const headers = [
    {
      name: "X-Request-Id",
      json: { $ref: "#/components/parameters/RequestId" } as JsonObject,
    },
  ];
  const session = route.session;
  if (session === "account" || session === "chat") {
    const optional = route.sessionOptional === true;
    const when = (text: string) =>
      optional
        ? `Required with the session (when its credential is sent): ${text}`
        : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
    headers.push(
      header(
        "X-MKT-Wallet",
        !optional,
        when(
          `the session's wallet address (any case). A session acts only as the wallet that signed in: another wallet is a 401, and after a wallet switch the client signs in again.`,
        ),
        { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" },
      ),
    );
    if (!proxied)
      headers.push(
        header(
          "Origin",
          !optional,
          when("the origin the wallet signed in for (browsers send it themselves); another origin is a 401."),
        ),
      );
  }
  if (proxied) {
    headers.push(
      header(
        "Origin",
        route.method !== "GET",
        "An origin of the first-party website (`ALLOWED_ORIGINS`); any other origin is a 403. Required on writes; a read may send `Sec-Fetch-Site: same-origin` instead.",
      ),
      header(
        "Sec-Fetch-Site",
        false,
        "`same-origin` lets a read through without `Origin` (browsers send no `Origin` on same-origin GETs).",
      ),
    );
  }
  if (route.idempotent)
    headers.push({ name: "Idempotency-Key", json: { $ref: "#/components/parameters/IdempotencyKey" } });
  if (route.stream)
    headers.push({ name: "Last-Event-ID", json: { $ref: "#/components/parameters/LastEventId" } });
  if (route.cache.kind === "shared")
    headers.push({ name: "If-None-Match", json: { $ref: "#/components/parameters/IfNoneMatch" } });
  return headers;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every error status a route can answer, from its declaration, with a
 * generic description; a route's own description of a status (its specific
 * causes) takes precedence. The body is the surface's error schema.
 */
function errorResponses(route: RouteDefinition, proxied: boolean): Record<number, string> {
  const session = route.session;
  const marketSession = session !== undefined && session !== "classic";
  // The market's key check answers 401; the classic and prediction surfaces answer an opaque 429.
  const directKey401 = !proxied && (route.access.kind === "market" || route.access.kind === "key-holder");
  const unauthorized = [
    directKey401 ? "`API-KEY` is missing, malformed or not a valid key" : undefined,
    session === "classic"
      ? "the bearer token is missing, malformed, not a Classic API access token, expired or signed out"
      : undefined,
    marketSession
      ? `the session ${proxied ? "cookie" : "token"} is ${route.sessionOptional ? "presented but " : "missing, "}malformed, expired or signed out${session !== "access" ? `, or \`X-MKT-Wallet\`${proxied ? "" : " or `Origin`"} does not match it` : ""}`
      : undefined,
  ].filter((reason) => reason !== undefined);
  const forbidden = [
    marketSession ? "a session of another kind was presented (the message names the right one)" : undefined,
    proxied
      ? "the first-party proxy refused the request: `Origin` is not a first-party origin, or it is missing (a write; a read may send `Sec-Fetch-Site: same-origin` instead)"
      : undefined,
  ].filter((reason) => reason !== undefined);
  const sentence = (reasons: string[]) => {
    const text = reasons.join("; or ");
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  const body = route.request?.body !== undefined || BODY_METHODS.has(route.method);
  const statuses: Record<number, string | undefined> = {
    400: "The request is malformed: a path parameter, query parameter, header or body field fails its schema, or the query names a parameter the route does not take.",
    ...(unauthorized.length > 0 ? { 401: sentence(unauthorized) } : {}),
    ...(forbidden.length > 0 ? { 403: sentence(forbidden) } : {}),
    ...(route.idempotent
      ? {
          409: "A request with this `Idempotency-Key` is still being processed; retry once it has been answered.",
          422: "This `Idempotency-Key` was already used with another body.",
        }
      : {}),
    ...(body
      ? {
          413: "The request body is larger than the server accepts (1 MiB).",
          415: "The request has a body that is not `application/json`.",
        }
      : {}),
    408: "The request did not arrive in time; the connection is closed (`Connection: close`).",
    414: "The request target is too long: a path parameter is longer than the route accepts.",
    429: "Too many requests: the route's budget is spent, or this replica is at its cap of requests in flight. `Retry-After` says when to retry.",
    431: "The request line and headers together are larger than the server accepts (32 KiB); the connection is closed.",
    503: "The service cannot answer now: a dependency (the database) is unavailable, or the server is shutting down. Retry later, after `Retry-After` when given.",
  };
  return Object.fromEntries(
    Object.entries(statuses).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

type Io = "input" | "output";

/** What `components.schemas` names may look like (OpenAPI 3.1, section 4.8.7.1). */
const COMPONENT_NAME = /^[a-zA-Z0-9._-]+$/;
/** Stands for a component's final name until every schema of the document is known. */
const PENDING = "#/$pending/";

/**
 * The named schemas of one document. zod converts each route schema on its
 * own and moves every schema that carries `.meta({ id })`, at any depth, into
 * that conversion's `$defs`; each id becomes one entry of `components.schemas`.
 *
 * One id may document differently as input and as output (a field with a
 * default is optional on input; output objects are closed). Then the output
 * keeps the id and the input is published as `<id>Input`; a schema that
 * refers to a split one splits too. Two different schemas that claim the same
 * id stop the build: one of them would silently document the other.
 */
function createSchemaComponents() {
  /** Each id's JSON Schema as input and as output, with the route that first used it. */
  const claimed = new Map<string, Partial<Record<Io, { json: JsonObject; where: string }>>>();

  const claim = (id: string, io: Io, json: JsonObject, where: string) => {
    if (!COMPONENT_NAME.test(id))
      throw new Error(
        `OpenAPI: schema id "${id}" (${where}) is not a valid component name (${COMPONENT_NAME})`,
      );
    const variants = claimed.get(id) ?? {};
    claimed.set(id, variants);
    const known = variants[io];
    if (!known) variants[io] = { json, where };
    else if (!isDeepStrictEqual(known.json, json))
      throw new Error(
        `OpenAPI: two different schemas claim the id "${id}" (as ${io}): one in ${known.where}, another in ${where}`,
      );
  };

  /** The JSON Schema of `schema` for one route (`where`), its named parts claimed as components. */
  const convert = (schema: z.ZodType, io: Io, where: string): JsonObject => {
    const { $defs, ...root } = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      unrepresentable: "any",
      reused: "inline",
      override: ({ jsonSchema }) => {
        delete (jsonSchema as JsonObject)["$schema"];
      },
    }) as JsonObject;
    delete root["$schema"];
    const pending = (ref: string) => {
      if (!ref.startsWith("#/$defs/"))
        throw new Error(`OpenAPI: unexpected reference ${ref}; a recursive schema needs .meta({ id })`);
      const id = decodePointerSegment(ref.slice("#/$defs/".length));
      if (id.startsWith("__schema"))
        throw new Error("OpenAPI: a schema used twice in a cycle has no id; give it .meta({ id })");
      return `${PENDING}${io}/${id}`;
    };
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonObject>))
      claim(id, io, mapRefs(def, pending), where);
    return mapRefs(root, pending);
  };

  const idOf = (ref: string) => ref.slice(PENDING.length).split("/").slice(1).join("/");
  const refsOf = (json: unknown) => {
    const ids: string[] = [];
    mapRefs(json, (ref) => {
      if (ref.startsWith(PENDING)) ids.push(idOf(ref));
      return ref;
    });
    return ids;
  };
  const withoutIo = (json: JsonObject) => mapRefs(json, (ref) => (ref.startsWith(PENDING) ? idOf(ref) : ref));

  /** Names every component and points every reference of the document at it. */
  const resolve = <T extends { components: { schemas: Record<string, JsonObject> } }>(document: T): T => {
    const split = new Set<string>();
    for (const [id, { input, output }] of claimed)
      if (input && output && !isDeepStrictEqual(withoutIo(input.json), withoutIo(output.json))) split.add(id);
    for (let grown = true; grown; ) {
      grown = false;
      for (const [id, { input, output }] of claimed) {
        if (split.has(id) || !input || !output) continue;
        if ([...refsOf(input.json), ...refsOf(output.json)].some((ref) => split.has(ref))) {
          split.add(id);
          grown = true;
        }
      }
    }
    const nameOf = (id: string, io: Io) => (io === "input" && split.has(id) ? `${id}Input` : id);
    for (const id of split)
      if (claimed.has(nameOf(id, "input")))
        throw new Error(
          `OpenAPI: the input form of "${id}" would take the name of the schema "${nameOf(id, "input")}"`,
        );
    const resolveRef = (ref: string) => {
      if (!ref.startsWith(PENDING)) return ref;
      const [io, ...id] = ref.slice(PENDING.length).split("/");
      return `#/components/schemas/${nameOf(id.join("/"), io as Io)}`;
    };
    const schemas: Record<string, JsonObject> = {};
    for (const [id, variants] of claimed)
      for (const io of ["output", "input"] as const) {
        const variant = variants[io];
        const name = nameOf(id, io);
        if (variant && !schemas[name]) schemas[name] = mapRefs(variant.json, resolveRef);
      }
    const resolved = mapRefs(document, resolveRef);
    resolved.components.schemas = schemas;
    return resolved;
  };

  return { convert, resolve };
}

/** A copy of `value` with every `$ref` passed through `map`. */
function mapRefs<T>(value: T, map: (ref: string) => string): T {
  if (Array.isArray(value)) return value.map((item) => mapRefs(item, map)) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === "$ref" && typeof item === "string" ? map(item) : mapRefs(item, map),
    ]),
  ) as T;
}

const decodePointerSegment = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~");

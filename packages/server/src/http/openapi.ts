import { isDeepStrictEqual } from "node:util";
import { RATE_LIMIT_HEADERS } from "@mkt/protocol";
import { z } from "zod";
import type { Config } from "../config/index.ts";
import { type Access, cacheControlFor, type RouteDefinition } from "./route.ts";
import type { Surface } from "./surfaces.ts";

type JsonObject = Record<string, unknown>;

export interface OpenApiOptions {
  publicUrl: string;
  /** Whether the market's public reads answer without a key: which answers shared caches may keep. */
  publicReads: Config["publicReads"];
  /** Extra text appended to `info.description`: policies decided where the API document is silent. */
  notes?: string;
}

const toPath = (prefix: string, path: string) =>
  `${prefix}${path}`.replace(/:([A-Za-z0-9_]+)/g, "{$1}") || "/";

/** OpenAPI ignores header parameters with these names: the body, the content negotiation and `securitySchemes` say them. */
const RESERVED_HEADER_PARAMETERS = new Set(["accept", "content-type", "authorization"]);

/**
 * Builds one surface's OpenAPI 3.1 document from its route definitions, with
 * every schema taken from the zod schemas the server validates with, so the
 * document cannot drift from what is served.
 */
export function buildOpenApiDocument(
  surface: Surface,
  groups: Array<{ prefix: string; routes: RouteDefinition[] }>,
  options: OpenApiOptions,
) {
  const schemas = createSchemaComponents();

  const rateLimitHeaders = {
    [RATE_LIMIT_HEADERS.limit]: { $ref: "#/components/headers/RateLimitLimit" },
    [RATE_LIMIT_HEADERS.remaining]: { $ref: "#/components/headers/RateLimitRemaining" },
    [RATE_LIMIT_HEADERS.reset]: { $ref: "#/components/headers/RateLimitReset" },
  };

  const paths: Record<string, Record<string, JsonObject>> = {};
  const operationIds = new Set<string>();
  for (const { prefix, route } of groups.flatMap((group) =>
    group.routes.map((route) => ({ prefix: group.prefix, route })),
  )) {
    const path = toPath(prefix, route.path);
    const method = route.method.toLowerCase();
    const where = `${route.method} ${path}`;
    if (operationIds.has(route.operationId))
      throw new Error(`OpenAPI: operationId "${route.operationId}" of ${where} is used twice`);
    operationIds.add(route.operationId);
    if (paths[path]?.[method]) throw new Error(`OpenAPI: ${where} is defined twice`);
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
    if (route.idempotent) parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });

    const responses: Record<string, JsonObject> = {};
    for (const [status, response] of Object.entries(route.responses)) {
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
      const schema = response.schema ?? (Number(status) >= 400 ? surface.errorSchema : undefined);
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
    paths[path] ??= {};
    paths[path][method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
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
      ...security(route.access, route.session),
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
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "API-KEY" },
        ...(surface.name === "classic"
          ? {
              ClassicBearer: {
                type: "http",
                scheme: "bearer",
                description:
                  "The access token of `POST /classic/auth/sign-in` (24 hours). Where a route lists API-KEY and ClassicBearer both are needed; a bearer never replaces the key.",
              },
            }
          : {}),
      },
      parameters: {
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

function security(access: Access, session: RouteDefinition["session"]): JsonObject {
  if (access.kind === "classic" && session === "classic") {
    // One requirement object: every scheme in it is needed (API-KEY and bearer), or the bearer alone.
    return { security: [access.key ? { ApiKey: [], ClassicBearer: [] } : { ClassicBearer: [] }] };
  }
  switch (access.kind) {
    case "none":
    case "key-creation":
      return { security: [] };
    case "market":
      return { security: access.publicRead ? [{ ApiKey: [] }, {}] : [{ ApiKey: [] }] };
    case "classic":
      return { security: access.key ? [{ ApiKey: [] }] : [] };
    default:
      return { security: [{ ApiKey: [] }] };
  }
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

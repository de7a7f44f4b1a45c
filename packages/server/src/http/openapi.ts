import { RATE_LIMIT_HEADERS } from "@mkt/protocol";
import { z } from "zod";
import type { Access, RouteDefinition } from "./route.ts";
import type { Surface } from "./surfaces.ts";

type JsonObject = Record<string, unknown>;

export interface OpenApiOptions {
  publicUrl: string;
  /** Extra text appended to `info.description`: policies decided where the API document is silent. */
  notes?: string;
}

const toPath = (prefix: string, path: string) =>
  `${prefix}${path}`.replace(/:([A-Za-z0-9_]+)/g, "{$1}") || "/";

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
  const components: Record<string, JsonObject> = {};
  const schemaOf = (schema: z.ZodType, io: "input" | "output"): JsonObject => {
    const json = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      unrepresentable: "any",
      reused: "inline",
      override: ({ jsonSchema }) => {
        delete (jsonSchema as JsonObject)["$schema"];
      },
    }) as JsonObject;
    delete json["$schema"];
    const defs = json["$defs"] as Record<string, JsonObject> | undefined;
    if (defs) {
      for (const [name, def] of Object.entries(defs)) components[name] = def;
      delete json["$defs"];
    }
    const id = json["id"];
    if (typeof id === "string") {
      delete json["id"];
      components[id] = json;
      return { $ref: `#/components/schemas/${id}` };
    }
    return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/'));
  };

  const rateLimitHeaders = {
    [RATE_LIMIT_HEADERS.limit]: { $ref: "#/components/headers/RateLimitLimit" },
    [RATE_LIMIT_HEADERS.remaining]: { $ref: "#/components/headers/RateLimitRemaining" },
    [RATE_LIMIT_HEADERS.reset]: { $ref: "#/components/headers/RateLimitReset" },
  };

  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const { prefix, route } of groups.flatMap((group) =>
    group.routes.map((route) => ({ prefix: group.prefix, route })),
  )) {
    const parameters: JsonObject[] = [];
    const addParameters = (where: "query" | "path" | "header", schema: z.ZodObject | undefined) => {
      if (!schema) return;
      for (const [name, field] of Object.entries(schema.shape)) {
        const fieldSchema = field as z.ZodType;
        const json = schemaOf(fieldSchema, "input");
        const optional = fieldSchema.safeParse(undefined).success;
        parameters.push({
          name,
          in: where,
          required: where === "path" ? true : !optional,
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
      const limited = route.access.kind !== "none" && route.access.kind !== "key-holder";
      const headers: JsonObject = {
        ...(limited ? rateLimitHeaders : {}),
        ...(status === "429" || status === "503"
          ? { "Retry-After": { $ref: "#/components/headers/RetryAfter" } }
          : {}),
        ...Object.fromEntries(
          Object.entries(response.headers ?? {}).map(([name, header]) => [
            name,
            header as unknown as JsonObject,
          ]),
        ),
      };
      const schema = response.schema ?? (Number(status) >= 400 ? surface.errorSchema : undefined);
      responses[status] = {
        description: response.description,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(schema
          ? {
              content: {
                [response.contentType ?? "application/json"]: { schema: schemaOf(schema, "output") },
              },
            }
          : {}),
      };
    }
    const path = toPath(prefix, route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.request?.body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": { schema: schemaOf(route.documentedBody ?? route.request.body, "input") },
              },
            },
          }
        : {}),
      responses,
      ...security(route.access),
    };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: surface.title,
      version: surface.version,
      description: [surface.description, options.notes].filter(Boolean).join("\n\n"),
    },
    servers: [{ url: options.publicUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "API-KEY" } },
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
        RetryAfter: { description: "Whole seconds to wait before retrying.", schema: { type: "integer" } },
      },
    },
  };
}

function security(access: Access): JsonObject {
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

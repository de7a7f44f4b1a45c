import type { z } from "zod";
import type { Config } from "../config/index.ts";
import { indexedSourceOf } from "./indexed-head.ts";
import { errorResponses, withDeclaredErrors } from "./openapi-errors.ts";
import {
  declaredHeaders,
  INDEXED_HEADER_REFS,
  LIVE_RATE_LIMIT_HEADER_REFS,
  RATE_LIMIT_HEADER_REFS,
  RESERVED_HEADER_PARAMETERS,
} from "./openapi-headers.ts";
import type { JsonObject, SchemaComponents } from "./openapi-schemas.ts";
import { securityOf } from "./openapi-security.ts";
import { cacheControlFor, type RouteDefinition } from "./route.ts";
import type { Surface } from "./surfaces.ts";

/** One route as a document publishes it. */
export interface PublishedRoute {
  route: RouteDefinition;
  /** `METHOD /path` as the document writes it: how a build error names the route. */
  where: string;
  operationId: string;
  /** On the first-party proxy's copy of a route: the path of the route it copies. */
  copyOf: string | undefined;
  /** The surface whose error body the route answers with. */
  errors: Surface;
}

/**
 * The operation object of one route: its parameters, request body, answers
 * and security requirements, every schema converted through the document's
 * components (parameters first, then answers, then the body).
 */
export function buildOperation(
  { route, where, operationId, copyOf, errors }: PublishedRoute,
  schemas: SchemaComponents,
  publicReads: Config["publicReads"],
): JsonObject {
  const proxied = copyOf !== undefined;
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
  for (const parameter of declaredHeaders(route, proxied))
    if (!named.has(parameter.name.toLowerCase())) parameters.push(parameter.json);

  const indexed = indexedSourceOf(route) !== undefined;
  const responses: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(
    withDeclaredErrors(route.responses, errorResponses(route, proxied), proxied),
  )) {
    if (!/^[1-5][0-9][0-9]$/.test(status)) throw new Error(`OpenAPI: ${where} has a response ${status}`);
    for (const name of Object.keys(response.headers ?? {}))
      if (name.toLowerCase() === "content-type")
        throw new Error(`OpenAPI: ${where} declares a Content-Type response header, which OpenAPI ignores`);
    const limited = limitedRoute(route);
    const headers: JsonObject = {
      ...(limited ? budgetHeaderRefs(route) : {}),
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
          ? `\`${cacheControlFor(route, publicReads)}\` without a session credential, \`private, no-store\` with one.`
          : `Always \`${cacheControlFor(route, publicReads)}\` on this route.`,
        schema: { type: "string" },
      };
      if (route.cache.kind === "shared") headers["ETag"] = { $ref: "#/components/headers/ETag" };
      if (indexed) Object.assign(headers, INDEXED_HEADER_REFS);
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
      description: "`If-None-Match` named the current `ETag`: the body has not changed. Charged like a 200.",
      headers: {
        ETag: { $ref: "#/components/headers/ETag" },
        ...(limitedRoute(route) ? budgetHeaderRefs(route) : {}),
        ...(indexed ? INDEXED_HEADER_REFS : {}),
      },
    };
  }
  // A multipart route reads its body itself: only its documented form describes it.
  const bodySchema = route.multipart
    ? route.documentedBody
    : route.request?.body && (route.documentedBody ?? route.request.body);
  const description = copyOf
    ? `The first-party website's copy of \`${route.method} ${copyOf}\` (operation \`${route.operationId}\`), with the same parameters, body and answers: no API key, the proxy's origin check (\`Origin\` or \`Sec-Fetch-Site\`), the session in its cookie instead of a token, and the proxy's own budgets.`
    : [route.description, publicReadNote(route)].filter(Boolean).join("\n\n");
  return {
    operationId,
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: copyOf ? ["First-party proxy"] : route.tags,
    ...(route.deprecated ? { deprecated: true } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(bodySchema
      ? {
          requestBody: {
            required: true,
            content: {
              [route.multipart ? "multipart/form-data" : "application/json"]: {
                schema: schemas.convert(bodySchema, "input", where),
              },
            },
          },
        }
      : {}),
    responses,
    security: securityOf(route, proxied),
  };
}

const limitedRoute = (route: RouteDefinition) => route.access.kind !== "none";

/** The budget headers of a limited route: `RateLimit-*`, and on classic routes the live service's `x-ratelimit-*` too. */
const budgetHeaderRefs = (route: RouteDefinition) =>
  route.access.kind === "classic"
    ? { ...RATE_LIMIT_HEADER_REFS, ...LIVE_RATE_LIMIT_HEADER_REFS }
    : RATE_LIMIT_HEADER_REFS;

const publicReadNote = (route: RouteDefinition) =>
  route.access.kind === "market" && route.access.publicRead
    ? "A public read: it needs `API-KEY` by default (`PUBLIC_READS=key`). A deployment with `PUBLIC_READS=open` also answers it without a key, budgeted per client IP at the read rate (the document's description says which this deployment runs)."
    : undefined;

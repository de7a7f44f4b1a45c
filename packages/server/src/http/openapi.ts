import type { SessionKind } from "@mkt/protocol";
import type { Config } from "../config/index.ts";
import { HEADER_COMPONENTS, PARAMETER_COMPONENTS } from "./openapi-headers.ts";
import { buildOperation } from "./openapi-operation.ts";
import { createSchemaComponents, type JsonObject } from "./openapi-schemas.ts";
import { securitySchemesOf } from "./openapi-security.ts";
import type { RouteDefinition } from "./route.ts";
import type { Surface } from "./surfaces.ts";

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

/**
 * Builds one surface's OpenAPI 3.1 document from its route definitions, with
 * every schema taken from the zod schemas the server validates with, so the
 * document cannot drift from what is served.
 */
export function buildOpenApiDocument(surface: Surface, groups: OpenApiGroup[], options: OpenApiOptions) {
  const schemas = createSchemaComponents();
  const proxyCookies = groups.find((group) => group.proxy)?.proxy?.cookies;

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

    paths[path] ??= {};
    paths[path][method] = buildOperation(
      {
        route,
        where,
        operationId,
        copyOf: proxy ? toPath(of ?? "", route.path) : undefined,
        errors,
      },
      schemas,
      options.publicReads,
    );
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
      parameters: PARAMETER_COMPONENTS,
      headers: HEADER_COMPONENTS,
    },
  });
}

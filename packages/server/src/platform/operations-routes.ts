import { healthSchema, type Landing, landingSchema, readinessSchema } from "@mkt/protocol";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { Database } from "../db/index.ts";
import { isMigrated } from "../db/index.ts";
import { notFound, UnavailableError } from "../errors.ts";
import { renderDocsIndex, renderLanding, renderReferencePage } from "../http/docs-page.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";
import { referencePagePolicy } from "../http/security-headers.ts";
import { acceptsGzip, REFERENCE_ASSETS_PREFIX, type ReferenceAssets } from "./reference-assets.ts";

export interface PublishedDocument {
  name: "market" | "classic" | "predict";
  title: string;
  /** The API's mount point (`/market`). */
  prefix: string;
  build(): Record<string, unknown>;
}

// Whether an `Accept` header prefers JSON to HTML (RFC 9110, Accept): each is weighed
// by the most specific range that names it (`application/json` before `application/*` before
// `*/*`), and HTML wins a tie, so browsers and a bare `*/*` get the page and
// `Accept: application/json` the JSON.
export function prefersJson(accept: string | undefined): boolean {
  const ranges = (accept ?? "").split(",").flatMap((part) => {
    const [range = "", ...parameters] = part.split(";").map((item) => item.trim().toLowerCase());
    if (!range.includes("/")) return [];
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return Number.isFinite(weight) ? [{ range, weight }] : [];
  });
  const weightOf = (type: string) => {
    const [major] = type.split("/");
    for (const candidate of [type, `${major}/*`, "*/*"]) {
      const found = ranges.find(({ range }) => range === candidate);
      if (found) return found.weight;
    }
    return 0;
  };
  return weightOf("application/json") > weightOf("text/html");
}

/** Health, readiness, the landing page and documentation: outside the three namespaces, so they need no key. */
export function operationsRoutes({
  db,
  documents,
  proxy,
  publicUrl,
  referenceAssets,
  chainNotReady,
}: {
  db: Database;
  /**
   * READYZ_REQUIRE_CHAIN: why this replica's chains make it not ready (an unreachable RPC), or
   * undefined; absent, `/readyz` looks at the database only.
   */
  chainNotReady?: () => string | undefined;
  documents: PublishedDocument[];
  /** The first-party website proxy: its mount point and title; its routes are in the market document. */
  proxy: { prefix: string; title: string };
  /** The server the documents name (`servers`), which the reference pages' try-it calls. */
  publicUrl: string;
  /** The reference UI's files (`reference-assets.ts`), loaded on first use. */
  referenceAssets: () => Promise<ReferenceAssets>;
}): RouteSpec[] {
  let migrated = false;
  const cache = new Map<string, Record<string, unknown>>();
  const documentOf = (doc: PublishedDocument) => {
    let built = cache.get(doc.name);
    if (!built) {
      built = doc.build();
      cache.set(doc.name, built);
    }
    return built;
  };
  /** Each API document with its mount point, reference page and OpenAPI document. */
  const apis = documents.map((doc) => ({
    name: doc.name,
    title: doc.title,
    basePath: doc.prefix,
    docsPath: `/docs/${doc.name}`,
    openapiPath: `/openapi/${doc.name}.json`,
  }));
  const landing: Landing = landingSchema.parse({
    name: "mkt",
    description:
      "Backend for onchain card-pack marketplaces and their prediction feed: three HTTP APIs and one API key for all three.",
    apis: [
      ...apis,
      {
        name: "app",
        title: proxy.title,
        basePath: proxy.prefix,
        docsPath: "/docs/market",
        openapiPath: "/openapi/market.json",
      },
    ],
    keys: "/keys",
    docs: "/docs",
    health: "/healthz",
    readiness: "/readyz",
  });
  // Both pages are made once: they depend only on the documents.
  const landingPage = renderLanding(landing);
  const docsIndexPage = renderDocsIndex(apis);
  const referencePolicy = referencePagePolicy(publicUrl);
  const docsIndex = (_request: unknown, reply: FastifyReply) =>
    reply.type("text/html; charset=utf-8").send(docsIndexPage);
  return [
    defineRoute({
      method: "GET",
      path: "/",
      operationId: "landing",
      summary: "What this server serves, with links to its APIs, docs and OpenAPI documents",
      description:
        "An HTML page for browsers; JSON (`Landing`) when `Accept` prefers `application/json` to `text/html`. Every link is a path on this server. No key needed.",
      tags: ["Documentation"],
      responses: {
        200: {
          description: "The landing page (`text/html`) or its JSON form (`application/json`).",
          schema: landingSchema,
        },
      },
      handler: (request, reply) => {
        // The answer depends on Accept: HTTP caches must key it on that too.
        const vary = reply.getHeader("vary");
        reply.header("Vary", vary ? `${String(vary)}, Accept` : "Accept");
        if (prefersJson(request.headers.accept)) return landing;
        return reply.type("text/html; charset=utf-8").send(landingPage);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/healthz",
      operationId: "health",
      summary: "Liveness: 200 while the process lives",
      tags: ["Operations"],
      responses: {
        200: { description: "The process is alive.", schema: healthSchema },
      },
      handler: () => ({ status: "ok" }),
    }),
    defineRoute({
      method: "GET",
      path: "/readyz",
      operationId: "ready",
      summary: "Readiness: 200 when the database answers and migrations are applied",
      description:
        "With `READYZ_REQUIRE_CHAIN=1` on the server, also 503 while the server's probe of a chain's JSON-RPC fails (a load balancer then takes the replica out); by default the chains play no part.",
      tags: ["Operations"],
      responses: {
        200: { description: "Ready to serve.", schema: readinessSchema },
        503: {
          description:
            "The database does not answer or migrations are pending (or, with `READYZ_REQUIRE_CHAIN=1`, a chain's RPC is unreachable).",
        },
      },
      handler: async () => {
        try {
          await db.ping();
          migrated ||= await isMigrated(db);
        } catch (error) {
          throw new UnavailableError("the database does not answer", { cause: error });
        }
        if (!migrated) throw new UnavailableError("database migrations are not applied yet");
        const chainDown = chainNotReady?.();
        if (chainDown !== undefined) throw new UnavailableError(chainDown, { retryAfterSeconds: 5 });
        return { status: "ready" };
      },
    }),
    ...documents.map((doc) =>
      defineRoute({
        method: "GET",
        path: `/openapi/${doc.name}.json`,
        operationId: `openapi_${doc.name}`,
        summary: `OpenAPI 3.1 document of the ${doc.title}`,
        tags: ["Documentation"],
        responses: { 200: { description: "The OpenAPI document." } },
        handler: () => documentOf(doc),
      }),
    ),
    ...documents.map((doc) =>
      defineRoute({
        method: "GET",
        path: `/docs/${doc.name}`,
        operationId: `docs_${doc.name}`,
        summary: `Interactive reference of the ${doc.title}`,
        description:
          "The OpenAPI document rendered by the reference UI this server serves (search, linked schemas, code samples, try-it with an `API-KEY`); it loads nothing from other hosts.",
        tags: ["Documentation"],
        responses: { 200: { description: "HTML page.", contentType: "text/html" } },
        handler: async (_request, reply) => {
          const { script } = await referenceAssets();
          return reply
            .type("text/html; charset=utf-8")
            .header("Content-Security-Policy", referencePolicy)
            .send(
              renderReferencePage({
                title: doc.title,
                openapiPath: `/openapi/${doc.name}.json`,
                scriptPath: `${REFERENCE_ASSETS_PREFIX}${script.name}`,
              }),
            );
        },
      }),
    ),
    defineRoute({
      method: "GET",
      path: `${REFERENCE_ASSETS_PREFIX}:file`,
      operationId: "docsAsset",
      summary: "A file of the reference UI, under a name that changes with its content",
      description:
        "Sent gzip-compressed when `Accept-Encoding` admits gzip. Any name the reference pages do not link is a 404.",
      tags: ["Documentation"],
      request: { params: z.object({ file: z.string() }) },
      responses: {
        200: { description: "The file (`text/javascript`).", contentType: "text/javascript" },
        404: { description: "No reference file has this name." },
      },
      handler: async (request, reply) => {
        const asset = (await referenceAssets()).byName.get(request.params.file);
        if (!asset) throw notFound("no such documentation file");
        // The body depends on Accept-Encoding: HTTP caches must key it on that too.
        const vary = reply.getHeader("vary");
        reply.header("Vary", vary ? `${String(vary)}, Accept-Encoding` : "Accept-Encoding");
        reply.type(asset.contentType);
        if (!acceptsGzip(request.headers["accept-encoding"])) return reply.send(asset.body);
        return reply.header("Content-Encoding", "gzip").send(asset.gzipped);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/docs",
      operationId: "docs",
      summary: "Links to the three API references",
      tags: ["Documentation"],
      responses: { 200: { description: "HTML page.", contentType: "text/html" } },
      handler: docsIndex,
    }),
    // The index with a trailing slash, as browsers and people type it: the same page.
    defineRoute({
      method: "GET",
      path: "/docs/",
      operationId: "docsSlash",
      summary: "Links to the three API references (`/docs` with a trailing slash)",
      tags: ["Documentation"],
      responses: { 200: { description: "HTML page.", contentType: "text/html" } },
      handler: docsIndex,
    }),
  ];
}

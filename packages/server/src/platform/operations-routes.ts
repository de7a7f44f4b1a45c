import { healthSchema, readinessSchema } from "@mkt/protocol";
import type { Database } from "../db/index.ts";
import { isMigrated } from "../db/index.ts";
import { UnavailableError } from "../errors.ts";
import { renderDocsIndex, renderDocsPage } from "../http/docs-page.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";

export interface PublishedDocument {
  name: string;
  title: string;
  build(): Record<string, unknown>;
}

/** Health, readiness and documentation: outside the three namespaces, so they need no key. */
export function operationsRoutes({
  db,
  documents,
}: {
  db: Database;
  documents: PublishedDocument[];
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
  const none = { kind: "none" } as const;
  return [
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
      tags: ["Operations"],
      responses: {
        200: { description: "Ready to serve.", schema: readinessSchema },
        503: { description: "The database does not answer or migrations are pending." },
      },
      handler: async () => {
        try {
          await db.ping();
          migrated ||= await isMigrated(db);
        } catch (error) {
          throw new UnavailableError("the database does not answer", { cause: error });
        }
        if (!migrated) throw new UnavailableError("database migrations are not applied yet");
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
        summary: `Reference page of the ${doc.title}`,
        tags: ["Documentation"],
        responses: { 200: { description: "HTML page.", contentType: "text/html" } },
        handler: (_request, reply) =>
          reply
            .type("text/html; charset=utf-8")
            .send(renderDocsPage(documentOf(doc), { openapiPath: `/openapi/${doc.name}.json` })),
      }),
    ),
    defineRoute({
      method: "GET",
      path: "/docs",
      operationId: "docs",
      summary: "Links to the three API references",
      tags: ["Documentation"],
      responses: { 200: { description: "HTML page.", contentType: "text/html" } },
      handler: (_request, reply) =>
        reply.type("text/html; charset=utf-8").send(
          renderDocsIndex(
            documents.map((doc) => ({
              title: doc.title,
              docsPath: `/docs/${doc.name}`,
              openapiPath: `/openapi/${doc.name}.json`,
            })),
          ),
        ),
    }),
  ];
}

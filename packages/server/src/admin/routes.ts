import {
  adminIndexerHandOffRequestSchema,
  adminIndexerHandOffsSchema,
  adminIndexerSchema,
  adminIndexerScopeParamsSchema,
  adminKeyListQuerySchema,
  adminKeyListSchema,
  adminKeyParamsSchema,
  adminKeyPatchSchema,
  adminKeySchema,
} from "@mkt/protocol";
import type { z } from "zod";
import { conflict, notFound } from "../errors.ts";
import { OPERATOR_TAG } from "../http/operator-routes.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";
import type { IndexerService } from "../indexer/service.ts";
import { HANDOFF_HOLD_OFF_MS } from "../indexer/writer-lock.ts";
import type { KeyService } from "../keys/service.ts";
import type { Metrics } from "../metrics/index.ts";

export interface AdminRoutesDeps {
  keys: KeyService;
  metrics: Metrics;
  indexer?: IndexerService | undefined;
  /** This replica's id (`Config.replicaId`), named in the indexer's answers. */
  replicaId: string;
}

// A hand-off may come with no body at all: every field of its body has a default.
const handOffBody = adminIndexerHandOffRequestSchema.nullish();
const holdOffOf = (body: z.output<typeof handOffBody>) =>
  body?.holdOffSeconds === undefined ? HANDOFF_HOLD_OFF_MS : body.holdOffSeconds * 1000;

/** The operator listener's own routes: metrics, key administration and the indexer's writers. */
export function adminRoutes({ keys, metrics, indexer, replicaId }: AdminRoutesDeps): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/metrics",
      operationId: "adminMetrics",
      summary: "This replica's metrics, in the Prometheus text format",
      tags: [OPERATOR_TAG],
      responses: { 200: { description: "The metrics.", contentType: metrics.registry.contentType } },
      handler: async (_request, reply) => {
        reply.type(metrics.registry.contentType);
        return metrics.registry.metrics();
      },
    }),
    defineRoute({
      method: "GET",
      path: "/admin/keys",
      operationId: "adminKeysList",
      summary: "Every API key, in creation order, one page at a time",
      tags: [OPERATOR_TAG],
      request: { query: adminKeyListQuerySchema },
      responses: { 200: { description: "One page of keys.", schema: adminKeyListSchema } },
      handler: async (request) => {
        const { limit, cursor } = request.query;
        return adminKeyListSchema.parse(await keys.list({ limit, after: cursor }));
      },
    }),
    defineRoute({
      method: "PATCH",
      path: "/admin/keys/:id",
      operationId: "adminKeyUpdate",
      summary: "Changes a key: its quota multiplier, its first-party mark, its revocation",
      tags: [OPERATOR_TAG],
      request: { params: adminKeyParamsSchema, body: adminKeyPatchSchema },
      responses: { 200: { description: "The key as changed.", schema: adminKeySchema } },
      handler: async (request) => {
        const { id } = request.params;
        return adminKeySchema.parse(await keys.update(id, request.body));
      },
    }),
    defineRoute({
      method: "GET",
      path: "/admin/indexer",
      operationId: "adminIndexer",
      summary: "This replica's indexer scopes: the block indexed and who writes each",
      tags: [OPERATOR_TAG],
      responses: { 200: { description: "The scopes.", schema: adminIndexerSchema } },
      handler: async () => {
        if (!indexer) return adminIndexerSchema.parse({ replica: replicaId, indexing: false, scopes: [] });
        return adminIndexerSchema.parse({
          replica: replicaId,
          indexing: indexer.indexing(),
          scopes: await indexer.heads(),
        });
      },
    }),
    defineRoute({
      method: "POST",
      path: "/admin/indexer/handoff",
      operationId: "adminIndexerHandOffAll",
      summary: "Hands over every scope this replica writes",
      description:
        "Every scope this replica writes is released and held off for `holdOffSeconds`; the others are listed with `released: false`.",
      tags: [OPERATOR_TAG],
      request: { body: handOffBody },
      responses: { 200: { description: "Each scope's hand-off.", schema: adminIndexerHandOffsSchema } },
      handler: async (request) => {
        const holdOffMs = holdOffOf(request.body);
        const scopes = indexer?.scopes.map((scope) => scope.id) ?? [];
        const handOffs = await Promise.all(scopes.map((scope) => indexer!.handOff(scope, holdOffMs)));
        return adminIndexerHandOffsSchema.parse({ replica: replicaId, handOffs });
      },
    }),
    defineRoute({
      method: "POST",
      path: "/admin/indexer/:scope/handoff",
      operationId: "adminIndexerHandOff",
      summary: "Hands over one scope this replica writes",
      description:
        "404 for a scope this replica does not index; 409 when this replica does not hold the scope's writer lock (the answer names who does).",
      tags: [OPERATOR_TAG],
      request: { params: adminIndexerScopeParamsSchema, body: handOffBody },
      responses: { 200: { description: "The scope's hand-off.", schema: adminIndexerHandOffsSchema } },
      handler: async (request) => {
        const { scope } = request.params;
        if (!indexer?.indexerOf(scope)) throw notFound(`no indexer scope ${scope}`);
        const handOff = await indexer.handOff(scope, holdOffOf(request.body));
        if (!handOff.released) {
          throw conflict(
            `replica ${replicaId} does not hold the writer lock of ${scope}; ${handOff.writer === null ? "no replica holds it" : `replica ${handOff.writer} does`}`,
          );
        }
        return adminIndexerHandOffsSchema.parse({ replica: replicaId, handOffs: [handOff] });
      },
    }),
  ];
}

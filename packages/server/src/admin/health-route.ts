import { adminHealthSchema } from "@mkt/protocol";
import type { HealthReport } from "../health/index.ts";
import { OPERATOR_TAG } from "../http/operator-routes.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";

/**
 * `GET /admin/health`: this replica's dependencies beyond the database, per
 * chain (its RPC as this replica's probe sees it), per indexer scope (the
 * indexed block against the chain head, and how long ago the scope's writer
 * last observed its chain) and the ETH/USD price source. Always 200: the
 * answer says what is wrong (`status: degraded`); `/readyz` is what a load
 * balancer reads.
 */
export function healthRoutes(health: HealthReport): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/admin/health",
      operationId: "adminHealth",
      summary: "This replica's dependencies: chains, indexer scopes, the price source",
      tags: [OPERATOR_TAG],
      responses: { 200: { description: "The report.", schema: adminHealthSchema } },
      handler: async () => adminHealthSchema.parse(await health.report()),
    }),
  ];
}

import { adminHealthSchema } from "@mkt/protocol";
import type { FastifyInstance } from "fastify";
import type { HealthReport } from "../health/index.ts";

/**
 * `GET /admin/health`: this replica's dependencies beyond the database, per
 * chain (its RPC as this replica's probe sees it), per indexer scope (the
 * indexed block against the chain head, and how long ago the scope's writer
 * last observed its chain) and the ETH/USD price source. Always 200: the
 * answer says what is wrong (`status: degraded`); `/readyz` is what a load
 * balancer reads.
 */
export function registerHealthRoute(app: FastifyInstance, health: HealthReport): void {
  app.get("/admin/health", async () => adminHealthSchema.parse(await health.report()));
}

import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createLogCapture } from "../_test/app.ts";
import { setupDatabase } from "../_test/database.ts";
import { setupDevChain } from "../_test/dev-chain.ts";
import { expectProjectionMatchesChain, snapshotProjection } from "../_test/projection-check.ts";
import type { Database } from "../db/index.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";
import { createIndexerService } from "./service.ts";

describe("a reorg deeper than the finality depth", () => {
  it("is detected, logged as an error, counted in mkt_indexer_reorgs_total, and repaired to equal a fresh index", async () => {
    // The database first: the chain's first requests then follow its deployment without an idle
    // gap (a keep-alive connection idle past the dev chain's timeout can be reset under load).
    const database = await setupDatabase();
    const chain = await setupDevChain(8453, { finalityDepth: 2 });
    const logs = createLogCapture();
    const registry = new Registry();
    const serviceOn = (db: Database, destination = createLogCapture().stream, metrics = new Registry()) =>
      createIndexerService({
        db,
        logger: createLogger({ level: "info", destination }),
        clock: systemClock,
        deployments: [chain.deployment],
        registry: metrics,
      });
    const service = serviceOn(database.db, logs.stream, registry);
    const syncAll = async () => {
      for (const indexer of service.indexers) await indexer.syncOnce();
    };
    try {
      await chain.simulate(10);
      await syncAll();
      const snapshot = await chain.snapshot();
      // Ten blocks past the fork are indexed, far past the finality depth of 2: their hashes are
      // no longer stored, only the last two.
      await chain.simulate(10, 5n);
      await syncAll();
      const before = await snapshotProjection(database.db);
      await chain.revert(snapshot);
      await chain.simulate(8, 6n);
      await chain.mine(6);
      await syncAll();

      const scopes = service.scopes.map((scope) => scope.id).sort();
      expect(scopes).toHaveLength(2);
      const reorgs = (await registry.getSingleMetric("mkt_indexer_reorgs_total")!.get()).values;
      expect(reorgs.map(({ labels, value }) => [labels["scope"], labels["kind"], value]).sort()).toEqual(
        scopes.map((scope) => [scope, "deep", 1]),
      );
      const reported = logs.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => String(line["msg"]).startsWith("reorg deeper than the finality depth"));
      expect(reported.map((line) => [line["scope"], line["level"], line["finalityDepth"]]).sort()).toEqual(
        scopes.map((scope) => [scope, 50, 2]),
      );
      expect(logs.text()).not.toContain("rolled back to the fork block");

      // Repaired: the projection is the new branch's, as a fresh index of it and as the chain says.
      const after = await snapshotProjection(database.db);
      expect(after).not.toEqual(before);
      await expectProjectionMatchesChain(database.db, chain);
      const fresh = await setupDatabase();
      try {
        const freshService = serviceOn(fresh.db);
        for (const indexer of freshService.indexers) await indexer.syncOnce();
        await freshService.stop();
        expect(await snapshotProjection(fresh.db)).toEqual(after);
      } finally {
        await fresh.close();
      }
    } finally {
      await service.stop();
      await database.close();
      await chain.close();
    }
  }, 180_000);
});

// Run as a child process by the SIGKILL test: indexes every scope of a deployment into DATABASE_URL until caught up.
import { parseChainDeployment } from "@mkt/chain";
import { migrate, openDatabase } from "../db/index.ts";
import { createScopeIndexer } from "../indexer/engine.ts";
import { scopesOf } from "../indexer/projections.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";

const url = process.env["DATABASE_URL"];
const deploymentJson = process.env["MKT_TEST_DEPLOYMENT"];
if (!url || !deploymentJson) throw new Error("DATABASE_URL and MKT_TEST_DEPLOYMENT are required");
const deployment = parseChainDeployment(JSON.parse(deploymentJson));
const db = await openDatabase({ kind: "postgres", url });
await migrate(db);
const logger = createLogger({ level: "silent" });
for (const scope of scopesOf([deployment])) {
  // Small ranges: many commits, so a kill lands between and inside them.
  const indexer = createScopeIndexer({
    db,
    logger,
    clock: systemClock,
    scope,
    rpcUrl: deployment.rpcUrl,
    initialRange: 2,
    maxRange: 2,
  });
  await indexer.syncOnce();
  await indexer.stop();
}
await db.close();
process.stdout.write("done\n");

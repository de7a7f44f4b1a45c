// Run as a child process by the SIGKILL test: indexes every scope of a deployment into DATABASE_URL until caught up.
import { createScopeIndexer } from "../indexer/engine.ts";
import { scopesOf } from "../indexer/projections.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";
import { openProcessDeployment } from "./process-env.ts";

const { db, deployment } = await openProcessDeployment();
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

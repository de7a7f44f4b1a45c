// Run as a child process by the writer-takeover fault test: one replica's indexer (every scope of a
// deployment, through the indexer service the app runs) into DATABASE_URL, until killed.
import { Registry } from "prom-client";
import { createIndexerService } from "../indexer/service.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";
import { openProcessDeployment } from "./process-env.ts";

const { db, deployment } = await openProcessDeployment();
const indexer = createIndexerService({
  db,
  logger: createLogger({ level: "silent" }),
  clock: systemClock,
  deployments: [deployment],
  registry: new Registry(),
  pollIntervalMs: 100,
});
indexer.start();
process.stdout.write("started\n");
process.once("SIGTERM", () => {
  void indexer
    .stop()
    .then(() => db.close())
    .then(() => process.exit(0));
});

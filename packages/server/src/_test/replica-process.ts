// Run as a child process by the writer-takeover fault test: one replica's indexer (every scope of a
// deployment, through the indexer service the app runs) into DATABASE_URL, until killed.
import { parseChainDeployment } from "@mkt/chain";
import { Registry } from "prom-client";
import { migrate, openDatabase } from "../db/index.ts";
import { createIndexerService } from "../indexer/service.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";

const url = process.env["DATABASE_URL"];
const deploymentJson = process.env["MKT_TEST_DEPLOYMENT"];
if (!url || !deploymentJson) throw new Error("DATABASE_URL and MKT_TEST_DEPLOYMENT are required");
const deployment = parseChainDeployment(JSON.parse(deploymentJson));
const db = await openDatabase({ kind: "postgres", url });
await migrate(db);
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

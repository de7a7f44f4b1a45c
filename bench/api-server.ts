// The API server alone (no dev chains, no indexer), as the API-key benchmark loads it: the
// production composition root on in-memory PGlite, logging to stdout at LOG_LEVEL.
import { createApp } from "../packages/server/src/app.ts";
import { loadConfig } from "../packages/server/src/config/index.ts";
import { migrate, openDatabase } from "../packages/server/src/db/index.ts";
import { createLogger } from "../packages/server/src/logging/index.ts";

const config = loadConfig(process.env);
const db = await openDatabase({ kind: "pglite" });
await migrate(db);
const app = await createApp({ config, db, logger: createLogger({ level: config.logLevel }) });
const { publicUrl, adminUrl } = await app.listen();
process.stdout.write(`listening on ${publicUrl}\noperator ${adminUrl}\n`);
process.on("SIGTERM", () => {
  void app
    .close()
    .then(() => db.close())
    .then(() => process.exit(0));
});

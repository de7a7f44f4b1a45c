// The API server alone (no dev chains, no indexer), as the benchmarks load it: the production
// composition root, logging to stdout at LOG_LEVEL, on a PostgreSQL database when DATABASE_URL
// names one (migrated here, as `npm start` does), else on in-memory PGlite. BENCH_SEED_CLAIMS=1
// seeds a market runtime and its claims (claims-seed.ts), BENCH_SEED_CLASSIC=1 classic games and
// packs (classic-seed.ts), BENCH_SEED_PREDICT=1 prediction markets (predict-seed.ts), served without indexing.
// BENCH_FLOOR=1 also starts the framework's floor in this process (floor-server.ts).
// BENCH_SCALE_SURFACE=<id> serves the deployment of that scale surface (scale/surfaces.ts) over a
// database the scale benchmark loaded, and runs the surface's `serve` work beside it.
import { createApp } from "../packages/server/src/app.ts";
import { loadConfig } from "../packages/server/src/config/index.ts";
import { migrate, openDatabase } from "../packages/server/src/db/index.ts";
import { createLogger } from "../packages/server/src/logging/index.ts";
import { seedClaims } from "./claims-seed.ts";
import { seedClassic } from "./classic-seed.ts";
import { startFloorServer } from "./floor-server.ts";
import { keepPredictHeadFresh, seedPredict } from "./predict-seed.ts";

const config = loadConfig(process.env);
const db = await openDatabase(config.database.kind === "postgres" ? config.database : { kind: "pglite" });
await migrate(db);
const predict = process.env["BENCH_SEED_PREDICT"] === "1" ? await seedPredict(db) : undefined;
if (predict) keepPredictHeadFresh(db, predict);
const scaleSurfaceId = process.env["BENCH_SCALE_SURFACE"];
const scaleSurface = scaleSurfaceId
  ? (await import("./scale/surfaces.ts")).SCALE_SURFACES.find((surface) => surface.id === scaleSurfaceId)
  : undefined;
if (scaleSurfaceId && !scaleSurface) throw new Error(`no scale surface ${scaleSurfaceId}`);
const stopScaleServing = scaleSurface?.serve?.(db);
const deployments = [
  ...(scaleSurface ? [scaleSurface.deployment] : []),
  ...(process.env["BENCH_SEED_CLAIMS"] === "1" ? [await seedClaims(db)] : []),
  ...(process.env["BENCH_SEED_CLASSIC"] === "1" ? [await seedClassic(db)] : []),
  ...(predict ? [predict] : []),
];
const app = await createApp({
  config,
  db,
  logger: createLogger({ level: config.logLevel }),
  deployments: deployments.length > 0 ? deployments : undefined,
  indexing: false,
});
const { publicUrl, adminUrl } = await app.listen();
// BENCH_FLOOR=1: an empty Fastify route beside the app, in this process (floor-server.ts).
const floorUrl = process.env["BENCH_FLOOR"] === "1" ? await startFloorServer() : undefined;
process.stdout.write(
  `${floorUrl ? `floor ${floorUrl}\n` : ""}listening on ${publicUrl}\noperator ${adminUrl}\n`,
);
process.on("SIGTERM", () => {
  stopScaleServing?.();
  void app
    .close()
    .then(() => db.close())
    .then(() => process.exit(0));
});

import { DEV_ACCOUNT_ROLES, deriveDevAccounts } from "@mkt/chain";
import type { Logger } from "pino";
import { type App, createApp } from "./app.ts";
import { type Chains, chainRoles, MARKET_CHAIN_ID, redactUrl, startChains } from "./chains/index.ts";
import { type Config, ConfigError, DEV_ETH_USD_PRICE, loadConfig } from "./config/index.ts";
import { type Database, migrate, openDatabase } from "./db/index.ts";
import {
  DEMO_CLASSIC_ACTIVITY_STEP_MS,
  DEMO_RELEASE_STEP_MS,
  type DemoClassic,
  type DemoClassicActivityRun,
  type DemoReleases,
  startDemoClassicActivity,
  startDemoClassicMetadata,
  startDemoReleases,
} from "./demo/index.ts";
import { INDEXER_CHANNEL } from "./indexer/head-store.ts";
import type { KeyService } from "./keys/service.ts";
import { createLogger } from "./logging/index.ts";
import { stopOnSignals } from "./shutdown.ts";

/**
 * `npm start`: parse the environment, open and migrate the database, serve
 * the public and operator listeners, and shut down cleanly on SIGINT/SIGTERM.
 */
async function main() {
  let config: Config;
  try {
    config = loadConfig(process.env, { stdoutIsTerminal: process.stdout.isTTY === true });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`mkt: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat,
    replica: config.replicaId,
  });
  const db = await openDatabase(
    config.database.kind === "postgres"
      ? config.database
      : { kind: "pglite", dataDir: config.database.dataDir },
  );
  const applied = await migrate(db);
  if (applied.length > 0) logger.info({ msg: "migrations applied", migrations: applied });
  const chains = await startChains({ config, logger });
  const app = await createApp({
    config,
    db,
    logger,
    deployments: chains.deployments,
    devChainIds: chains.devChains.map((chain) => chain.chainId),
    ...(chains.indexerPollIntervalMs !== undefined
      ? { indexerPollIntervalMs: chains.indexerPollIntervalMs }
      : {}),
  });
  const { publicUrl, adminUrl } = await app.listen();
  if (config.priceSource === undefined)
    logger.warn({
      msg: "no ETH/USD price source: priced classic routes answer 503 PRICE_UNAVAILABLE on this replica; set ETH_USD_PRICE or ETH_USD_PRICE_URL (the same on every replica)",
      variables: ["ETH_USD_PRICE", "ETH_USD_PRICE_URL"],
    });
  // The indexer follows an in-process dev chain block by block instead of polling for its blocks.
  const { indexer } = app.services;
  const unfollow = indexer
    ? chains.devChains.map((chain) => chain.onBlock(() => indexer.newBlock(chain.chainId)))
    : [];
  const demoReleases = await startReleaseDemo(config, chains.devChains, app, publicUrl, logger);
  // Creator metadata and featured flags for the simulator's classic games (chain 8453 on a dev
  // chain), published as the indexer commits them.
  const classicScope = chainRoles(chains.deployments).classic?.scope;
  const demoClassic: DemoClassic | undefined =
    config.demo && classicScope && chains.devChains.some((chain) => chain.chainId === MARKET_CHAIN_ID)
      ? startDemoClassicMetadata({
          metadata: app.services.classic.metadata,
          publicUrl: config.publicUrl,
          chainId: MARKET_CHAIN_ID,
          logger,
          commits: (onCommit) => scopeCommits(db, classicScope, onCommit),
        })
      : undefined;
  const demoClassicActivity = await startClassicActivityDemo(config, chains, app, publicUrl, logger);

  // The banner goes to stdout directly, never through the logger, because it
  // may carry the generated operator token.
  const base = config.publicUrl;
  const lines = [
    "",
    "mkt is running",
    `  replica         ${config.replicaId}${config.indexing ? "" : "   (indexing off: MKT_INDEXER=0)"}`,
    `  database        ${config.database.kind === "postgres" ? "PostgreSQL" : config.database.dataDir ? `PGlite in ${config.database.dataDir}` : "PGlite in memory"}`,
    `  listening on    ${publicUrl}`,
    `  market API      ${base}/market        docs ${base}/docs/market    OpenAPI ${base}/openapi/market.json`,
    `  classic API     ${base}/classic       docs ${base}/docs/classic   OpenAPI ${base}/openapi/classic.json`,
    `  prediction feed ${base}/predict/v9    docs ${base}/docs/predict   OpenAPI ${base}/openapi/predict.json`,
    `  API keys        POST ${base}/keys`,
    `  operator        ${adminUrl}  (GET /admin/keys, PATCH /admin/keys/{id}, GET /admin/indexer, POST /admin/indexer/handoff, GET /metrics)`,
    ...chains.deployments.map(
      (deployment) =>
        `  chain ${deployment.chainId}      ${chains.devChains.some((chain) => chain.chainId === deployment.chainId) ? `dev chain ${deployment.rpcUrl}` : `RPC ${redactUrl(deployment.rpcUrl)}`}`,
    ),
    ...(chains.configPath ? [`  chain config    ${chains.configPath}`] : []),
    `  ETH/USD price   ${priceLine(config)}`,
    `  demo activity   ${chains.devChains.length > 0 && config.demo ? `on${demoReleases ? ", with demo releases" : ""}${demoClassicActivity ? ", with the classic creator and chat demo" : ""}${config.demoRate === 1 ? "" : ` at ${config.demoRate} times its usual rate`} (MKT_DEMO=0 turns it off)` : "off"}`,
    config.admin.token
      ? "  admin token     (from ADMIN_TOKEN)"
      : `  admin token     ${app.adminToken}   (generated; set ADMIN_TOKEN to keep one across restarts)`,
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

  stopOnSignals(logger, async () => {
    await demoReleases?.stop();
    await demoClassicActivity?.stop();
    await demoClassic?.stop();
    for (const stop of unfollow) stop();
    await app.close();
    await chains.close();
    await db.close();
  });
}

/**
 * Where the classic ETH/USD price comes from, for the banner. A replica without a source answers
 * its priced routes 503 where another replica with one answers 200: the banner says so loudly.
 */
function priceLine(config: Config): string {
  const source = config.priceSource;
  if (source === undefined)
    return "NONE: priced classic routes answer 503 PRICE_UNAVAILABLE (set ETH_USD_PRICE or ETH_USD_PRICE_URL, the same on every replica)";
  if (source.kind === "fixed")
    return `fixed ${source.usdPerEth}${config.rpcUrls[MARKET_CHAIN_ID] === undefined && config.configFile === undefined && source.usdPerEth === DEV_ETH_USD_PRICE ? " (the dev chain's default; ETH_USD_PRICE sets another)" : " (ETH_USD_PRICE)"}`;
  return `from ${redactUrl(source.url)} (ETH_USD_PRICE_URL)`;
}

/** Calls `onCommit` after every commit of an indexer scope, on whichever replica indexes it. */
function scopeCommits(db: Database, scope: string, onCommit: () => void) {
  return db.listen(INDEXER_CHANNEL, {
    onNotify: (payload) => {
      if (payload === scope) onCommit();
    },
    // Commits may have been missed while the connection was down.
    onReconnect: onCommit,
  });
}

/**
 * The API keys the demo parts make for themselves. At `MKT_DEMO_RATE` above 1
 * they send that many times the requests, so each key gets that multiple of
 * the budgets (the key multiplier, rounded up), as an operator would grant a
 * heavier client; otherwise the demo would only measure its own 429s.
 */
function demoKeys(app: App, rate: number): Pick<KeyService, "create" | "revokeSelf"> {
  const { keys } = app.services;
  return {
    async create(input) {
      const created = await keys.create(input);
      if (rate <= 1) return created;
      const { multiplier } = await keys.update(created.id, { multiplier: Math.ceil(rate) });
      return { ...created, multiplier };
    },
    revokeSelf: (presented) => keys.revokeSelf(presented),
  };
}

/**
 * The demo release catalog runs with the demo activity when the market chain
 * is a dev chain: dev wallets sign release actions sent through the SDK to
 * this process's own listener, as any client would send them.
 */
async function startReleaseDemo(
  config: Config,
  devChains: ReadonlyArray<{ chainId: number }>,
  app: App,
  publicUrl: string,
  logger: Logger,
): Promise<DemoReleases | undefined> {
  if (!config.demo || !devChains.some((chain) => chain.chainId === MARKET_CHAIN_ID)) return undefined;
  const first = DEV_ACCOUNT_ROLES.firstUser;
  try {
    return await startDemoReleases({
      baseUrl: publicUrl,
      keys: demoKeys(app, config.demoRate),
      wallets: deriveDevAccounts().slice(first, first + 4),
      intervalMs: DEMO_RELEASE_STEP_MS / config.demoRate,
      logger,
    });
  } catch (error) {
    logger.warn({
      msg: "demo releases not started",
      err: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}

/**
 * The classic write side's demo runs with the demo activity when the classic
 * chain is a dev chain: demo wallets sign in, one drafts, deploys and
 * confirms a game, and they chat and react, through the SDK against this
 * process's own listener. It goes on in the background; failures are logged.
 */
async function startClassicActivityDemo(
  config: Config,
  chains: Chains,
  app: App,
  publicUrl: string,
  logger: Logger,
): Promise<DemoClassicActivityRun | undefined> {
  const deployment = chains.deployments.find(
    (candidate) =>
      candidate.contracts["DropFactory"] !== undefined &&
      chains.devChains.some((chain) => chain.chainId === candidate.chainId),
  );
  if (!config.demo || !deployment) return undefined;
  try {
    return await startDemoClassicActivity({
      baseUrl: publicUrl,
      keys: demoKeys(app, config.demoRate),
      deployment,
      publicUrl: config.publicUrl,
      intervalMs: DEMO_CLASSIC_ACTIVITY_STEP_MS / config.demoRate,
      logger,
    });
  } catch (error) {
    logger.warn({
      msg: "demo classic activity not started",
      err: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}

main().catch((error) => {
  process.stderr.write(
    `mkt: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

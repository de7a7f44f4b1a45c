import { resolve } from "node:path";
import { startChains } from "./chains/index.ts";
import { type Config, ConfigError, DEV_ETH_USD_PRICE, loadConfig } from "./config/index.ts";
import { createLogger } from "./logging/index.ts";
import { stopOnSignals } from "./shutdown.ts";

/**
 * `npm run chain` (and `mkt chain`): the dev chains `npm start` runs, on
 * their own, for several replicas to share. The same code starts them
 * (`startChains`): the same chain ids on DEVNET_PORT_8453 and
 * DEVNET_PORT_4663, the reference contracts deployed the same way, the
 * simulated activity unless MKT_DEMO=0, and the deployment written to
 * `<MKT_DATA_DIR>/chains.json`, which replicas read through MKT_CONFIG.
 * Runs until SIGINT/SIGTERM.
 */
async function main() {
  let config: Config;
  try {
    config = loadConfig(process.env, { stdoutIsTerminal: process.stdout.isTTY === true });
    // Real chains are a replica's business: this command only ever starts dev chains.
    const real = [
      ...Object.entries(config.rpcUrls)
        .filter(([, url]) => url !== undefined)
        .map(([chainId]) => `RPC_URL_${chainId}`),
      ...(config.configFile !== undefined ? ["MKT_CONFIG"] : []),
    ];
    if (real.length > 0)
      throw new ConfigError(
        `${real.join(" and ")} ${real.length > 1 ? "are" : "is"} set: the standalone chain starts dev chains only; unset ${real.length > 1 ? "them" : "it"} (replicas take MKT_CONFIG, not this command)`,
      );
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`mkt chain: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const chains = await startChains({ config, logger });
  const configPath = resolve(chains.configPath ?? "");

  // The banner goes to stdout directly, like `npm start`'s: what an operator copies into each replica.
  const lines = [
    "",
    "mkt dev chains are running",
    ...chains.devChains.map((chain) => `  chain ${chain.chainId}      dev chain ${chain.rpcUrl}`),
    `  chain config    ${configPath}`,
    `  demo activity   ${config.demo ? `on${config.demoRate === 1 ? "" : ` at ${config.demoRate} times its usual rate`} (simulated chain activity; MKT_DEMO=0 turns it off)` : "off"}`,
    `  replicas        MKT_CONFIG=${configPath} ETH_USD_PRICE=${DEV_ETH_USD_PRICE} npm start`,
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

  stopOnSignals(logger, () => chains.close());
}

main().catch((error) => {
  process.stderr.write(
    `mkt chain: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

// The two dev chains `npm start` runs, with their demo simulator at MKT_DEMO_RATE, alone in a process
// of their own: the soak's `BENCH_SOAK_CHAINS=process` runs them here and the server follows them
// through the chain config this writes (MKT_CONFIG), so each process's resident memory is measured
// apart. Prints `chain config <path>` once the contracts are deployed; runs until SIGINT or SIGTERM.
import { startChains } from "../packages/server/src/chains/index.ts";
import { loadConfig } from "../packages/server/src/config/index.ts";
import { createLogger } from "../packages/server/src/logging/index.ts";

const config = loadConfig(process.env, { stdoutIsTerminal: false });
const logger = createLogger({ level: config.logLevel, format: config.logFormat });
const chains = await startChains({ config, logger });
console.log(`chain config ${chains.configPath}`);
const stop = async () => {
  await chains.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

// The two dev chains `npm start` runs (chain ids 8453 and 4663, a block a second), alone: no database,
// server or indexer. `bench/idle.ts --chains-only` measures it to tell the chains' idle share from the
// server's. Runs until SIGINT or SIGTERM.
import { startDevChain } from "@mkt/chain";

const chains = await Promise.all(
  [8453, 4663].map((chainId) =>
    startDevChain({ chainId, port: Number(process.env[`DEVNET_PORT_${chainId}`] ?? 0), intervalMs: 1_000 }),
  ),
);
console.log(`chains running: ${chains.map((chain) => `${chain.chainId} ${chain.rpcUrl}`).join(", ")}`);
const stop = async () => {
  for (const chain of chains) await chain.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

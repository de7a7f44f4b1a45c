export type { Eip1193Provider } from "./hardhat-network.ts";
export type { DevChain, DevChainOptions } from "./start-dev-chain.ts";
export { startDevChain } from "./start-dev-chain.ts";

export type { ChainProbeOptions, ChainProbeState, ChainProbes } from "./chain-probe.ts";
export {
  CHAIN_PROBE_INTERVAL_MS,
  CHAIN_PROBE_TIMEOUT_MS,
  createChainProbes,
  failureClass,
} from "./chain-probe.ts";
export type { HealthReport, HealthReportOptions, PriceHealthSource } from "./report.ts";
export { createHealthReport } from "./report.ts";

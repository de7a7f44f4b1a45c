import { z } from "zod";

/** `GET /predict/v9/runtime`: read at startup; a client goes on only when both flags are true. */
export const predictRuntimeSchema = z
  .object({
    enabled: z.boolean().describe("The feed runs on this deployment."),
    publicEnabled: z
      .boolean()
      .describe("The feed is open to third-party integrators. A client stops unless both flags are true."),
    chainId: z.number().int(),
    version: z.string(),
    contracts: z.record(z.string(), z.string()).describe("Contract addresses by name (WETH, MarketFactory)."),
    startBlock: z.number().int(),
    scope: z.string().describe("The indexer scope of the feed's projection."),
  })
  .meta({ id: "PredictRuntime" });

export type PredictRuntime = z.output<typeof predictRuntimeSchema>;

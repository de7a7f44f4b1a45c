import { z } from "zod";

export const marketRuntimeSchema = z
  .object({
    id: z
      .string()
      .describe("The runtime id clients put in `{version}` paths. Never infer the newest from a name."),
    version: z.number().int().describe("Onchain version number of the runtime; higher is newer."),
    chainId: z.number().int(),
    contracts: z.record(z.string(), z.string()).describe("Contract addresses of the runtime, by name."),
    startBlock: z.number().int().describe("First block the indexer reads for this runtime."),
    scope: z.string().describe("The indexer scope whose `head` runtime-versioned reads report."),
    current: z.boolean().describe("True for the newest runtime of its chain."),
  })
  .meta({ id: "MarketRuntime" });

/** `GET /market/runtime`: newest first. */
export const marketRuntimeListSchema = z
  .object({ runtimes: z.array(marketRuntimeSchema) })
  .meta({ id: "MarketRuntimeList" });

export type MarketRuntime = z.output<typeof marketRuntimeSchema>;
export type MarketRuntimeList = z.output<typeof marketRuntimeListSchema>;

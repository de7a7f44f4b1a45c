import { z } from "zod";
import { predictBlockSchema } from "./markets.ts";

/**
 * Freshness bounds of the prediction feed's projection. Past any
 * of them every read route answers 503 `PROJECTION_STALE` (not cacheable)
 * and nothing is rebuilt from the chain:
 * - the indexer has not observed the chain for `maxObservationAgeSeconds`;
 * - the newest finalized block the projection holds is older than
 *   `maxBlockAgeSeconds` by the server's wall clock;
 * - the projection is more than `maxLagBlocks` blocks behind the chain beyond
 *   the finality depth (`lagBlocks > finalityDepth + maxLagBlocks`).
 */
export const PREDICT_FRESHNESS_BOUNDS = {
  maxObservationAgeSeconds: 30,
  maxBlockAgeSeconds: 120,
  maxLagBlocks: 60,
} as const;

/** Why the projection is stale; null while it is fresh. */
export const PREDICT_STALE_REASONS = [
  /** The projection holds no finalized block yet (or its time is unknown after a rollback). */
  "NOT_INDEXED",
  /** The indexer has not observed the chain within the bound. */
  "NOT_OBSERVED",
  /** The newest finalized block is older than the bound. */
  "BLOCK_TOO_OLD",
  /** The projection is too many blocks behind the chain. */
  "TOO_FAR_BEHIND",
] as const;
export type PredictStaleReason = (typeof PREDICT_STALE_REASONS)[number];

export const predictFreshnessSchema = z
  .object({
    block: predictBlockSchema
      .nullable()
      .describe("The newest finalized block the projection holds: every read reflects the chain at its end."),
    observedHead: z
      .string()
      .regex(/^(0|[1-9][0-9]*)$/)
      .nullable()
      .describe("The chain's newest block the indexer last saw."),
    observedAt: z.string().nullable().describe("When the indexer last saw the chain, ISO 8601 (UTC)."),
    lagBlocks: z
      .number()
      .int()
      .nullable()
      .describe("`observedHead` minus `block.number`: the finality depth while caught up."),
    blockAgeSeconds: z
      .number()
      .int()
      .nullable()
      .describe("Seconds between `block.timestamp` and the server's clock when answering."),
    stale: z.boolean().describe("Past a bound: every read route but /runtime answers 503 PROJECTION_STALE."),
    reason: z.enum(PREDICT_STALE_REASONS).nullable(),
    bounds: z
      .object({
        maxObservationAgeSeconds: z.number().int(),
        maxBlockAgeSeconds: z.number().int(),
        maxLagBlocks: z.number().int().describe("Blocks behind the chain beyond the finality depth."),
      })
      .describe("The bounds this deployment applies."),
  })
  .meta({ id: "PredictFreshness" });
export type PredictFreshness = z.output<typeof predictFreshnessSchema>;

/** `GET /predict/v9/runtime`: read at startup; a client goes on only when both flags are true. */
export const predictRuntimeSchema = z
  .object({
    enabled: z.boolean().describe("The feed runs on this deployment (operator switch)."),
    publicEnabled: z
      .boolean()
      .describe(
        "The feed is open to third-party integrators (operator switch); while false only first-party keys are served. A client stops unless both flags are true.",
      ),
    chainId: z.number().int(),
    version: z.string(),
    contracts: z.record(z.string(), z.string()).describe("Contract addresses by name (WETH, MarketFactory)."),
    startBlock: z.number().int(),
    scope: z.string().describe("The indexer scope of the feed's projection."),
    finalityDepth: z
      .number()
      .int()
      .describe(
        "Blocks below the chain's newest block at which a block is final: the projection stops there.",
      ),
    freshness: predictFreshnessSchema,
  })
  .meta({ id: "PredictRuntime" });
export type PredictRuntime = z.output<typeof predictRuntimeSchema>;

/** `GET /predict/v9/health`: 200 only while the feed serves (it is gated like every read). */
export const predictHealthSchema = z
  .object({
    status: z.literal("ok"),
    freshness: predictFreshnessSchema,
  })
  .meta({ id: "PredictHealth" });
export type PredictHealth = z.output<typeof predictHealthSchema>;

/** `PUT /admin/predict/runtime` on the operator listener: either switch or both. */
export const adminPredictRuntimePatchSchema = z
  .object({ enabled: z.boolean().optional(), publicEnabled: z.boolean().optional() })
  .strict()
  .refine((value) => value.enabled !== undefined || value.publicEnabled !== undefined, {
    message: "give enabled, publicEnabled or both",
  });
export type AdminPredictRuntimePatch = z.output<typeof adminPredictRuntimePatchSchema>;

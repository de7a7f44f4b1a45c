import { z } from "zod";

/** `info.version` of the market OpenAPI document (a date-like string). */
export const MARKET_API_VERSION = "2026-09-10";

/** The per-minute budgets of a market API key; every route charges one of them. */
export const marketBucketSchema = z.enum(["read", "write", "stream"]);
export type MarketBucket = z.infer<typeof marketBucketSchema>;
export const MARKET_BUCKETS = marketBucketSchema.options;

export const apiKeyCheckQuerySchema = z.object({
  bucket: marketBucketSchema.describe("The per-minute budget to charge one request to."),
});

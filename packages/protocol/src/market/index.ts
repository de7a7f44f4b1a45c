import { z } from "zod";

/** `info.version` of the market OpenAPI document (market-api.md section 9). */
export const MARKET_API_VERSION = "2026-09-10";

export const marketBucketSchema = z.enum(["read", "write", "stream"]);
export type MarketBucket = z.infer<typeof marketBucketSchema>;

export const apiKeyCheckQuerySchema = z.object({
  bucket: marketBucketSchema.describe("The per-minute budget to charge one request to."),
});

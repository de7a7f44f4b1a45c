import { z } from "zod";

/** Error body of the current marketplace API (market-api.md section 7) and of `POST /keys`. */
export const marketErrorSchema = z
  .object({ error: z.string().describe("What went wrong, in words meant for the integrator.") })
  .meta({ id: "MarketError" });

/** Error body of the Classic API (classic-api.md section 7). Clients branch on the status, never on `message`. */
export const classicErrorSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error: z.string().optional().describe("A stable upper-case code such as VALIDATION_ERROR or NOT_FOUND."),
  })
  .meta({ id: "ClassicError" });

export const PREDICT_RATE_LIMIT_CODE = "API_KEY_REQUIRED_OR_RATE_LIMITED";

/** The one 429 body of the prediction feed (predict-api.md section 2). */
export const predictRateLimitSchema = z
  .object({ error: z.literal(PREDICT_RATE_LIMIT_CODE), docs: z.string() })
  .meta({ id: "PredictRateLimited" });

/** Every other error body of the prediction feed: a stable code and a human-readable message. */
export const predictErrorSchema = z
  .object({
    error: z
      .string()
      .describe("A stable upper-case code such as INVALID_INPUT, NOT_FOUND, CONFLICT or UNAVAILABLE."),
    message: z.string(),
  })
  .meta({ id: "PredictError" });

export type MarketError = z.infer<typeof marketErrorSchema>;
export type ClassicError = z.infer<typeof classicErrorSchema>;
export type PredictError = z.infer<typeof predictErrorSchema>;
export type PredictRateLimited = z.infer<typeof predictRateLimitSchema>;

import { z } from "zod";

/** Error body of the current marketplace API and of `POST /keys`. */
export const marketErrorSchema = z
  .object({ error: z.string().describe("What went wrong, in words meant for the integrator.") })
  .meta({ id: "MarketError" });

/** Error body of the Classic API. Clients branch on the status, never on `message`. */
export const classicErrorSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error: z.string().optional().describe("A stable upper-case code such as VALIDATION_ERROR or NOT_FOUND."),
  })
  .meta({ id: "ClassicError" });

export const PREDICT_RATE_LIMIT_CODE = "API_KEY_REQUIRED_OR_RATE_LIMITED";

/** The one 429 body of the prediction feed: missing key, invalid key and spent budget alike. */
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

/**
 * The stable error code of each HTTP status, where a surface's body carries none of its own: the
 * prediction feed's `error` for an answer without a more precise code, and the code an SDK gives
 * a market or platform answer, whose `{error}` body is words only. One code per status, so the
 * same refusal has the same code whichever surface answered.
 */
export const ERROR_CODE_OF_STATUS = {
  400: "INVALID_INPUT",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  408: "REQUEST_TIMEOUT",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  414: "URI_TOO_LONG",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE",
  429: "RATE_LIMITED",
  431: "HEADER_TOO_LARGE",
  500: "INTERNAL_ERROR",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
} as const satisfies Record<number, string>;

/** The code of `status` (`ERROR_CODE_OF_STATUS`); `HTTP_<status>` for a status the APIs never answer. */
export const errorCodeOfStatus = (status: number): string =>
  (ERROR_CODE_OF_STATUS as Record<number, string>)[status] ?? `HTTP_${status}`;

export type MarketError = z.infer<typeof marketErrorSchema>;
export type ClassicError = z.infer<typeof classicErrorSchema>;
export type PredictError = z.infer<typeof predictErrorSchema>;
export type PredictRateLimited = z.infer<typeof predictRateLimitSchema>;

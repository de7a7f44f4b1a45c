import {
  classicErrorSchema,
  errorCodeOfStatus,
  LIVE_RATE_LIMIT_HEADERS,
  MARKET_API_VERSION,
  marketErrorSchema,
  PREDICT_API_VERSION,
  PREDICT_RATE_LIMIT_CODE,
  predictErrorSchema,
  predictRateLimitSchema,
  RATE_LIMIT_HEADERS,
} from "@mkt/protocol";
import type { z } from "zod";
import { type AppError, type ErrorKind, statusOfKind } from "../errors.ts";
import { type Clock, systemClock } from "../quotas/limiter.ts";

export type SurfaceName = "market" | "classic" | "predict" | "platform" | "app";

export interface RenderedError {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface Surface {
  name: SurfaceName;
  /** Mount point (CONTRACT.md); "" for platform routes such as `POST /keys`. */
  prefix: string;
  title: string;
  version: string;
  description: string;
  errorSchema: z.ZodType;
  /** The body of every 429, when it is not `errorSchema` (the prediction feed's one 429). */
  rateLimitedSchema?: z.ZodType;
  renderError(error: AppError): RenderedError;
}

/** The code of a kind without a more precise one: the status's code, the same one the SDK gives a market answer. */
const codeOfKind = (kind: ErrorKind): string => errorCodeOfStatus(statusOfKind[kind]);

/**
 * Headers every error carries whatever the surface: the budget state when known, Retry-After,
 * and `Cache-Control: no-store`. No error answer is ever cacheable, whatever the route's cache
 * policy: a refusal (401, 429) is about the caller who got it, a 400 or 404 may stop being one
 * at the next write, and a transient failure (503) must not outlive itself in any cache. This
 * replaces the route's own `Cache-Control`, which the pipeline set before its checks ran.
 */
function commonHeaders(error: AppError): Record<string, string> {
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (error.rateLimit) {
    headers[RATE_LIMIT_HEADERS.limit] = String(error.rateLimit.limit);
    headers[RATE_LIMIT_HEADERS.remaining] = String(error.rateLimit.remaining);
    headers[RATE_LIMIT_HEADERS.reset] = String(error.rateLimit.resetSeconds);
  }
  if (error.retryAfterSeconds !== undefined) headers["Retry-After"] = String(error.retryAfterSeconds);
  return headers;
}

/**
 * The live Classic service's `x-ratelimit-reset`: the Unix time in whole seconds at which the
 * window has room again (rounded up), from `RateLimit-Reset`'s seconds from now.
 */
export const liveResetAt = (nowMs: number, resetSeconds: number) => Math.ceil(nowMs / 1000) + resetSeconds;

/**
 * The classic surface's budget headers in the live service's names, beside `RateLimit-*`: the
 * same limit and remaining, the reset as a Unix time. One rule for every classic answer that
 * carries a budget: the key guard's charges (`http/guard.ts`) and every error with a budget state.
 */
export function liveRateLimitHeaders(
  rateLimit: { limit: number; remaining: number; resetSeconds: number },
  nowMs: number,
): Record<string, string> {
  return {
    [LIVE_RATE_LIMIT_HEADERS.limit]: String(rateLimit.limit),
    [LIVE_RATE_LIMIT_HEADERS.remaining]: String(rateLimit.remaining),
    [LIVE_RATE_LIMIT_HEADERS.reset]: String(liveResetAt(nowMs, rateLimit.resetSeconds)),
  };
}

/** Internal failures never show their cause to the client. */
const publicMessage = (error: AppError) =>
  error.kind === "internal" ? "the server could not complete the operation" : error.message;

export function marketSurface(): Surface {
  return {
    name: "market",
    prefix: "/market",
    title: "mkt Market API",
    version: MARKET_API_VERSION,
    description:
      "The current marketplace: API keys and quotas, wallet-signed sessions and indexed runtime reads.",
    errorSchema: marketErrorSchema,
    renderError: (error) => ({
      status: statusOfKind[error.kind],
      body: { error: publicMessage(error) },
      headers: commonHeaders(error),
    }),
  };
}

/** `POST /keys` and the other platform routes answer in the market's `{error}` shape. */
export function platformSurface(): Surface {
  return { ...marketSurface(), name: "platform", prefix: "" };
}

/**
 * The first-party website proxy of the market API (`/app/api`): the market's
 * routes and error body, cookie sessions, no API key from the page.
 */
export function appProxySurface(): Surface {
  return { ...marketSurface(), name: "app", prefix: "/app/api", title: "mkt first-party website proxy" };
}

/** `clock`: the one the limiter counts with, so `x-ratelimit-reset` agrees with `RateLimit-Reset`. */
export function classicSurface(clock: Clock = systemClock): Surface {
  return {
    name: "classic",
    prefix: "/classic",
    title: "mkt Classic Booster-Box API",
    version: "classic-1",
    description: "The Classic generation: games, packs, holdings, activity, creator drafts and allowlists.",
    errorSchema: classicErrorSchema,
    renderError: (error) => ({
      status: statusOfKind[error.kind],
      // The key guard's refusals are one identical 429; a service's own limit (a duplicate
      // report, the report, refresh and chat limits) carries its code and says which.
      body:
        error.kind === "rate_limited" && error.code === undefined
          ? {
              success: false,
              message: "API key missing or invalid, or rate limit exceeded",
              error: "RATE_LIMITED",
            }
          : {
              success: false,
              message: publicMessage(error),
              error:
                error.code ?? (error.kind === "bad_request" ? "VALIDATION_ERROR" : codeOfKind(error.kind)),
            },
      headers: error.rateLimit
        ? { ...commonHeaders(error), ...liveRateLimitHeaders(error.rateLimit, clock.now()) }
        : commonHeaders(error),
    }),
  };
}

export function predictSurface(publicUrl: string): Surface {
  const docs = `${publicUrl}/docs/predict`;
  return {
    name: "predict",
    prefix: "/predict/v9",
    title: "mkt Prediction-Market Feed API",
    version: PREDICT_API_VERSION,
    description: "The prediction-market feed V9: runtime, markets, block-pinned quotes and live updates.",
    errorSchema: predictErrorSchema,
    rateLimitedSchema: predictRateLimitSchema,
    renderError: (error) => ({
      status: statusOfKind[error.kind],
      body:
        error.kind === "rate_limited"
          ? { error: PREDICT_RATE_LIMIT_CODE, docs }
          : { error: error.code ?? codeOfKind(error.kind), message: publicMessage(error) },
      headers: commonHeaders(error),
    }),
  };
}

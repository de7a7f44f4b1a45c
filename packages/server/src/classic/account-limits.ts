import { AppError } from "../errors.ts";

/**
 * A per-account limit over a sliding window, reached (reports, refreshes,
 * chat posts; each counted in the database): 429 with the limit's code and
 * `Retry-After` until the oldest counted action leaves the window.
 * `rateLimitHeaders` also sends the `RateLimit-*` headers of this limit.
 */
export function accountLimitReached({
  message,
  code,
  oldestMs,
  windowMs,
  now,
  rateLimitHeaders,
}: {
  message: string;
  code: string;
  oldestMs: number;
  windowMs: number;
  now: number;
  rateLimitHeaders?: { limit: number };
}): AppError {
  const resetSeconds = Math.max(1, Math.ceil((oldestMs + windowMs - now) / 1000));
  return new AppError("rate_limited", message, {
    code,
    retryAfterSeconds: resetSeconds,
    ...(rateLimitHeaders ? { rateLimit: { limit: rateLimitHeaders.limit, remaining: 0, resetSeconds } } : {}),
  });
}

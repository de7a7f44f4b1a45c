import { z } from "zod";

/** Header names of every rate-limited response, on every surface. */
export const RATE_LIMIT_HEADERS = {
  limit: "RateLimit-Limit",
  remaining: "RateLimit-Remaining",
  reset: "RateLimit-Reset",
} as const;

/**
 * The live Classic service's budget headers, sent by the classic surface beside
 * `RATE_LIMIT_HEADERS` (same limit and remaining); `reset` is the Unix time in
 * seconds at which the window has room again, not a number of seconds.
 */
export const LIVE_RATE_LIMIT_HEADERS = {
  limit: "x-ratelimit-limit",
  remaining: "x-ratelimit-remaining",
  reset: "x-ratelimit-reset",
} as const;

/** A budget's state, as the RateLimit headers carry it. */
export const rateLimitSchema = z.object({
  limit: z.number().int().min(0).describe("The budget: its base times the key's multiplier."),
  remaining: z.number().int().min(0),
  resetSeconds: z
    .number()
    .int()
    .min(0)
    .describe("Seconds until the oldest counted request leaves the window."),
});

export type RateLimit = z.output<typeof rateLimitSchema>;

const numberOf = (value: string | null) =>
  value === null || value.trim() === "" ? undefined : Number(value);

/** Reads the RateLimit headers of a response; throws when one is missing or not a whole number. */
export function readRateLimit(headers: { get(name: string): string | null }): RateLimit {
  return rateLimitSchema.parse({
    limit: numberOf(headers.get(RATE_LIMIT_HEADERS.limit)),
    remaining: numberOf(headers.get(RATE_LIMIT_HEADERS.remaining)),
    resetSeconds: numberOf(headers.get(RATE_LIMIT_HEADERS.reset)),
  });
}

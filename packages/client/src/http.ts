import { MktApiError } from "./errors.ts";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** First backoff when the server gives no Retry-After, doubled each time, with full jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
  /** Injected for tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface RequestOptions {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Send the API key (default true when one is configured). */
  authenticated?: boolean;
  /** Extra headers (session credentials, Origin, X-MKT-Wallet). */
  headers?: Record<string, string>;
  /**
   * Error codes (the body's `error`) of answers that are final, not a signal
   * to back off: a duplicate report's 429 is never retried.
   */
  finalCodes?: readonly string[];
}

const RETRYABLE = new Set([429, 502, 503, 504]);

/**
 * The one place requests are sent. Retries 429 and 503-class answers with
 * exponential backoff and full jitter, honouring Retry-After. A write is
 * retried only with the same Idempotency-Key, generated once per call, so a
 * retry never does the work twice.
 */
export function createTransport(options: TransportOptions) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const policy: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 10_000, ...options.retry };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  return async function request<T>(
    req: RequestOptions,
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const url = new URL(`${baseUrl}${req.path}`);
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: "application/json", ...req.headers };
    if (options.apiKey && req.authenticated !== false) headers["API-KEY"] = options.apiKey;
    if (req.body !== undefined) headers["content-type"] = "application/json";
    if (req.method === "POST") headers["Idempotency-Key"] = crypto.randomUUID();

    for (let attempt = 1; ; attempt++) {
      const response = await fetchImpl(url, {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      });
      const text = await response.text();
      const body =
        text.length > 0 && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
      if (response.ok) return { status: response.status, body: body as T, headers: response.headers };
      const retryAfter = Number(response.headers.get("retry-after"));
      const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
      const code = (body as { error?: unknown } | undefined)?.error;
      const final = typeof code === "string" && req.finalCodes?.includes(code) === true;
      if (!RETRYABLE.has(response.status) || final || attempt >= policy.attempts) {
        throw new MktApiError(
          response.status,
          body,
          retryAfterSeconds,
          response.headers.get("x-request-id") ?? undefined,
        );
      }
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)) * random();
      await sleep(Math.max(backoff, (retryAfterSeconds ?? 0) * 1000));
    }
  };
}

export type Transport = ReturnType<typeof createTransport>;

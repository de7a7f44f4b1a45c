import { CLASSIC_ERROR_CODES, PREDICT_RATE_LIMIT_CODE } from "@mkt/protocol";
import { MktApiError, parseBody, surfaceOfPath } from "./errors.ts";

/**
 * When a failed request is sent again. Only answers a retry can change are
 * retried: a 429 from a real rate limit and a 503, each with `Retry-After`
 * (waited, never shortened), and a network failure of an idempotent request
 * (backed off). Never a 4xx that will not change, never a request refused for
 * a missing or revoked key.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 4; 1 turns retries off). */
  attempts: number;
  /** First backoff after a network failure, doubled each time up to `maxDelayMs`, with full jitter (default 250). */
  baseDelayMs: number;
  /** The longest backoff after a network failure (default 10 000). */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` the client waits through (default 10). A longer
   * one (a feed switched off, a budget window) is the caller's to wait: the
   * error is thrown at once, with `retryAfterSeconds`.
   */
  maxRetryAfterSeconds: number;
}

export interface TransportOptions {
  /** Where the server is, e.g. `http://127.0.0.1:8080` (a trailing slash is fine). */
  baseUrl: string;
  /**
   * The API key, sent in the `API-KEY` header (never in a URL). Without one, a
   * route that needs a key fails at once with `MktApiError.apiKeyMissing`.
   */
  apiKey?: string | undefined;
  /** The fetch to use (default `globalThis.fetch`). */
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
  /** A multipart/form-data body instead of JSON (`fetch` writes its Content-Type, with the boundary). */
  form?: FormData;
  /** Send the API key (default true: the route needs one). False for public routes and bearer-only ones. */
  authenticated?: boolean;
  /** Extra headers (session credentials, Origin, X-MKT-Wallet). */
  headers?: Record<string, string>;
  /**
   * A POST the server makes safe to send twice with one `Idempotency-Key`
   * (it replays the first answer): retried after a network failure like a
   * GET. Other POSTs (signed actions, sign-ins) are never resent after one.
   */
  idempotent?: boolean;
  /**
   * Error codes (the body's `error`) of answers that are final, not a signal
   * to back off: a duplicate report's 429 is never retried.
   */
  finalCodes?: readonly string[];
}

/** Methods that a network failure lets the client send again: HTTP's idempotent ones. */
const IDEMPOTENT_METHODS = new Set(["GET", "PUT", "DELETE"]);

/**
 * The 429 the classic and prediction surfaces give a key-gated route for every
 * refusal (missing key, invalid or revoked key, spent budget), identical by
 * design: it cannot be told from a revoked key, so it is never retried.
 */
const isOpaqueRefusal = (error: MktApiError) =>
  error.status === 429 &&
  ((error.surface === "classic" && error.code === CLASSIC_ERROR_CODES.rateLimited) ||
    (error.surface === "predict" && error.code === PREDICT_RATE_LIMIT_CODE));

/**
 * Milliseconds to wait before sending a refused request again, or `undefined`
 * when a retry cannot help.
 */
function retryDelayMs(
  error: MktApiError,
  replayed: boolean,
  req: RequestOptions,
  policy: RetryPolicy,
): number | undefined {
  const wait = error.retryAfterSeconds;
  if (wait === undefined || wait > policy.maxRetryAfterSeconds) return undefined;
  // A replayed answer is stored: the same Idempotency-Key gets it again.
  if (error.apiKeyMissing || replayed) return undefined;
  if (error.status === 503) return wait * 1000;
  if (error.status !== 429 || req.finalCodes?.includes(error.code)) return undefined;
  if (req.authenticated !== false && isOpaqueRefusal(error)) return undefined;
  return wait * 1000;
}

/** A 2xx answer: its status, its parsed body and its headers. */
export interface TransportResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Sends one request, retrying as `RetryPolicy` says: the 2xx answer, else
 * throws `MktApiError` (or the network failure).
 */
export type Transport = <T>(req: RequestOptions) => Promise<TransportResponse<T>>;

/**
 * The one place requests are sent. See `RetryPolicy` for what is retried. A
 * POST carries an Idempotency-Key generated once per call, so a retry of a
 * route that honours it never does the work twice.
 */
export function createTransport(options: TransportOptions): Transport {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const policy: RetryPolicy = {
    attempts: 4,
    baseDelayMs: 250,
    maxDelayMs: 10_000,
    maxRetryAfterSeconds: 10,
    ...options.retry,
  };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  return async function request<T>(req: RequestOptions): Promise<TransportResponse<T>> {
    const url = new URL(`${baseUrl}${req.path}`);
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const needsKey = req.authenticated !== false;
    const headers: Record<string, string> = { accept: "application/json", ...req.headers };
    if (options.apiKey && needsKey) headers["API-KEY"] = options.apiKey;
    if (req.body !== undefined) headers["content-type"] = "application/json";
    if (req.method === "POST") headers["Idempotency-Key"] = crypto.randomUUID();
    const resendable = IDEMPOTENT_METHODS.has(req.method) || req.idempotent === true;
    const surface = surfaceOfPath(req.path);

    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: req.method,
          headers,
          ...(req.form !== undefined
            ? { body: req.form }
            : req.body !== undefined
              ? { body: JSON.stringify(req.body) }
              : {}),
        });
      } catch (failure) {
        // No answer: the request may or may not have been done.
        if (!resendable || attempt >= policy.attempts || isAbort(failure)) throw failure;
        await sleep(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)) * random());
        continue;
      }
      const body = parseBody(await response.text(), response.headers.get("content-type"));
      if (response.ok) return { status: response.status, body: body as T, headers: response.headers };
      const error = MktApiError.fromResponse(response, body, {
        surface,
        apiKeyMissing: needsKey && !options.apiKey && (response.status === 401 || response.status === 429),
      });
      const replayed = response.headers.get("idempotent-replayed") === "true";
      const delay = attempt < policy.attempts ? retryDelayMs(error, replayed, req, policy) : undefined;
      if (delay === undefined) throw error;
      await sleep(delay);
    }
  };
}

const isAbort = (failure: unknown) => failure instanceof Error && failure.name === "AbortError";

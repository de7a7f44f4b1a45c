import { ApiError, CommandError } from "./errors.ts";

/** How long one request may take before the command gives up on it. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface CallOptions {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** One listener (the public API or the operator listener), its base URL and the headers every call sends. */
export interface Endpoint {
  baseUrl: string;
  /** Credentials sent with every call (API-KEY, or the operator's Authorization). */
  headers: Record<string, string>;
}

/** The words of an error body, whichever surface answered: `message` (classic, prediction feed), else `error`. */
export function errorWords(body: unknown): { message: string | undefined; code: string | undefined } {
  if (typeof body === "string") return { message: body.trim().slice(0, 300) || undefined, code: undefined };
  if (body === null || typeof body !== "object") return { message: undefined, code: undefined };
  const { message, error } = body as { message?: unknown; error?: unknown };
  const code = typeof error === "string" && /^[A-Z][A-Z0-9_]+$/.test(error) ? error : undefined;
  if (typeof message === "string") return { message, code };
  if (typeof error === "string") return { message: error, code };
  return { message: undefined, code };
}

export function retryAfterOf(headers: Headers): number | undefined {
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** The `ApiError` of a refused request: `METHOD path answered status: words (code)`. */
export function refusal(method: string, path: string, status: number, body: unknown, headers: Headers) {
  const { message, code } = errorWords(body);
  const retryAfter = retryAfterOf(headers);
  const requestId = headers.get("x-request-id");
  const parts = [`${method} ${path} answered ${status}`];
  if (message !== undefined) parts[0] += `: ${message}`;
  if (code !== undefined && code !== message) parts.push(`code ${code}`);
  if (retryAfter !== undefined) parts.push(`retry after ${retryAfter} s`);
  if (requestId) parts.push(`request ${requestId}`);
  const text = parts.length > 1 ? `${parts[0]} (${parts.slice(1).join(", ")})` : parts[0]!;
  return new ApiError(text, status, code, retryAfter);
}

/** Why a request never got an answer, in words (the cause's code: ECONNREFUSED, ENOTFOUND, …). */
export function unreachable(baseUrl: string, error: unknown): CommandError {
  if (error instanceof Error && error.name === "TimeoutError")
    return new CommandError(`${baseUrl} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const reason =
    typeof cause?.code === "string"
      ? cause.code
      : typeof cause?.message === "string"
        ? cause.message
        : error instanceof Error
          ? error.message
          : String(error);
  return new CommandError(`cannot reach ${baseUrl} (${reason})`);
}

/** Sends one request and answers its parsed body; a non-2xx answer throws its `ApiError`. */
export async function call(
  fetchImpl: typeof fetch,
  endpoint: Endpoint,
  options: CallOptions,
  signal: AbortSignal,
): Promise<Answer> {
  const url = new URL(`${endpoint.baseUrl.replace(/\/+$/, "")}${options.path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = {
    accept: "application/json",
    ...endpoint.headers,
    ...options.headers,
  };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: options.method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
  } catch (error) {
    throw unreachable(endpoint.baseUrl, error);
  }
  const text = await response.text();
  let body: unknown = text;
  if (text.length > 0 && response.headers.get("content-type")?.includes("json")) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new CommandError(
        `${options.method} ${options.path} answered ${response.status} with malformed JSON`,
      );
    }
  }
  if (!response.ok) throw refusal(options.method, options.path, response.status, body, response.headers);
  return { status: response.status, body, headers: response.headers };
}

/** The answer parsed with its protocol schema; an answer of another shape is a failure, not a crash. */
export function shaped<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  body: unknown,
  what: string,
): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new CommandError(`the server's answer to ${what} is not the documented shape`);
  return result.data;
}

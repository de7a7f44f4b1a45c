import {
  classicErrorSchema,
  errorCodeOfStatus,
  marketErrorSchema,
  predictErrorSchema,
  predictRateLimitSchema,
} from "@mkt/protocol";

/**
 * The API that answered: `market` (`/market`), `classic` (`/classic`), `predict`
 * (`/predict/v9`), or `platform` (`/keys` and the other unprefixed routes, which
 * answer in the market's body).
 */
export type MktSurface = "market" | "classic" | "predict" | "platform";

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The surface a request path belongs to, by its mount point. */
export function surfaceOfPath(path: string): MktSurface {
  if (under(path, "/classic")) return "classic";
  if (under(path, "/predict")) return "predict";
  if (under(path, "/market")) return "market";
  return "platform";
}

/**
 * The code and words of an error body, read with the answering surface's own
 * body schema: classic `{success: false, message, error}`, prediction feed
 * `{error, message}` or its one 429 `{error, docs}`, market and platform
 * `{error}` (words only: the code is the status's). A body that is not the
 * surface's (a proxy's error page, an empty answer) gets the status's code.
 */
function readErrorBody(surface: MktSurface, status: number, body: unknown): { code: string; text: string } {
  if (surface === "classic") {
    const classic = classicErrorSchema.safeParse(body);
    if (classic.success)
      return { code: classic.data.error ?? errorCodeOfStatus(status), text: classic.data.message };
  } else if (surface === "predict") {
    const limited = predictRateLimitSchema.safeParse(body);
    if (limited.success)
      return {
        code: limited.data.error,
        text: `API key missing or invalid, or rate limit exceeded (see ${limited.data.docs})`,
      };
    const predict = predictErrorSchema.safeParse(body);
    if (predict.success) return { code: predict.data.error, text: predict.data.message };
  } else {
    const market = marketErrorSchema.safeParse(body);
    if (market.success) return { code: errorCodeOfStatus(status), text: market.data.error };
  }
  const text = typeof body === "string" ? body.trim().slice(0, 200) : "";
  return { code: errorCodeOfStatus(status), text: text === "" ? `HTTP ${status}` : text };
}

/**
 * Seconds to wait from a `Retry-After` header: delay-seconds or an HTTP date;
 * `undefined` when the server sent none (or one that is neither).
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (!Number.isNaN(seconds)) return Number.isInteger(seconds) && seconds >= 0 ? seconds : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const NO_KEY_HINT =
  "this client has no API key: create one with client.keys.create() (POST /keys) and pass it as apiKey to createMktClient";

/**
 * An HTTP error answered by an mkt API, the same on every surface.
 *
 * - `status`: the HTTP status.
 * - `code`: always set, stable and upper-case. The classic and prediction
 *   bodies carry their own (`GAME_NOT_FOUND`, `MARKET_NOT_FOUND`,
 *   `API_KEY_REQUIRED_OR_RATE_LIMITED`, …); a market or platform body carries
 *   words only, so its code is the status's (`ERROR_CODE_OF_STATUS` of
 *   `@mkt/protocol`: 401 `UNAUTHORIZED`, 404 `NOT_FOUND`, 409 `CONFLICT`,
 *   429 `RATE_LIMITED`, …). Branch on `status` and `code`, never on `message`.
 * - `message`: `HTTP <status> <code>: <the server's words>`.
 * - `retryAfterSeconds`: the server's `Retry-After` in seconds; `undefined`
 *   when it sent none.
 * - `requestId`: the answer's `X-Request-Id`, to quote to the operator.
 * - `apiKeyMissing`: the client has no API key and the route refused the
 *   request for it (a 401, or a 429, which the classic and prediction surfaces
 *   answer to a missing key). Thrown at once, never retried.
 * - `body`: the parsed body as the server sent it.
 *
 * @example
 * ```ts
 * try {
 *   await client.classic.games.get("no-such-game");
 * } catch (error) {
 *   if (error instanceof MktApiError && error.code === "GAME_NOT_FOUND") return undefined;
 *   throw error;
 * }
 * ```
 */
export class MktApiError extends Error {
  override readonly name = "MktApiError";
  readonly status: number;
  readonly code: string;
  readonly surface: MktSurface;
  readonly body: unknown;
  readonly retryAfterSeconds: number | undefined;
  readonly requestId: string | undefined;
  readonly apiKeyMissing: boolean;

  constructor(init: {
    status: number;
    surface: MktSurface;
    body: unknown;
    retryAfterSeconds?: number | undefined;
    requestId?: string | undefined;
    apiKeyMissing?: boolean;
  }) {
    const { code, text } = readErrorBody(init.surface, init.status, init.body);
    super(`HTTP ${init.status} ${code}: ${text}${init.apiKeyMissing ? ` (${NO_KEY_HINT})` : ""}`);
    this.status = init.status;
    this.code = code;
    this.surface = init.surface;
    this.body = init.body;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.requestId = init.requestId;
    this.apiKeyMissing = init.apiKeyMissing ?? false;
  }

  /** The error of a failed answer whose body has been read. */
  static fromResponse(
    response: Response,
    body: unknown,
    { surface, apiKeyMissing = false }: { surface: MktSurface; apiKeyMissing?: boolean },
  ): MktApiError {
    return new MktApiError({
      status: response.status,
      surface,
      body,
      retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
      requestId: response.headers.get("x-request-id") ?? undefined,
      apiKeyMissing,
    });
  }
}

/** A body as read from an answer: JSON when it says so (and parses), the text otherwise. */
export function parseBody(text: string, contentType: string | null): unknown {
  if (text.length === 0) return text;
  if (contentType?.includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

import type { RateLimit } from "@mkt/protocol";
/**
 * Errors services throw. Each carries a semantic kind; every API surface maps
 * kinds to its own documented status and body in one error handler, so no
 * service knows about HTTP and no handler builds an error response itself.
 */
export type ErrorKind =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  /** A path parameter longer than the server reads (414). */
  | "uri_too_long"
  /** The request line and headers together exceed what the server reads (431). */
  | "header_too_large"
  /** The request did not arrive in time (408). */
  | "request_timeout"
  | "unprocessable"
  | "rate_limited"
  | "unavailable"
  /** A host the server fetched from on the caller's behalf answered wrongly (502). */
  | "bad_gateway"
  /** That host did not answer in time (504). */
  | "gateway_timeout"
  | "internal";

export class AppError extends Error {
  override readonly name: string = "AppError";
  constructor(
    readonly kind: ErrorKind,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number; rateLimit?: RateLimit; code?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.rateLimit = options.rateLimit;
    this.code = options.code;
  }
  /**
   * A stable machine-readable code more precise than the kind (`GAME_NOT_FOUND`),
   * for the surfaces whose error body carries one (classic `error`); others ignore it.
   */
  readonly code: string | undefined;
  /** Whole seconds a client should wait before retrying (429, 503). */
  readonly retryAfterSeconds: number | undefined;
  /** The budget state behind a 429, for the surfaces that may reveal it. */
  readonly rateLimit: RateLimit | undefined;
}

export const badRequest = (message: string, code?: string) =>
  new AppError("bad_request", message, code === undefined ? {} : { code });
export const notFound = (message: string, code?: string) =>
  new AppError("not_found", message, code === undefined ? {} : { code });
export const unauthorized = (message: string) => new AppError("unauthorized", message);
export const forbidden = (message: string) => new AppError("forbidden", message);
export const conflict = (message: string) => new AppError("conflict", message);

/** Why a request was refused with 429; surfaces that must not reveal it ignore it. */
export type RateLimitReason =
  | "quota"
  | "failed_attempts"
  | "admission"
  | "missing_key"
  | "invalid_key"
  /** The key's cap of open live-update streams. */
  | "streams";

export class RateLimitedError extends AppError {
  override readonly name = "RateLimitedError";
  constructor(
    readonly reason: RateLimitReason,
    message: string,
    options: { retryAfterSeconds: number; rateLimit?: RateLimit },
  ) {
    super("rate_limited", message, options);
  }
}

/** A dependency (database, key lookup, RPC) cannot answer; the service fails closed. */
export class UnavailableError extends AppError {
  override readonly name = "UnavailableError";
  constructor(message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super("unavailable", message, {
      retryAfterSeconds: options.retryAfterSeconds ?? 1,
      cause: options.cause,
    });
  }
}

export const statusOfKind: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  uri_too_long: 414,
  header_too_large: 431,
  request_timeout: 408,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  bad_gateway: 502,
  gateway_timeout: 504,
  internal: 500,
};

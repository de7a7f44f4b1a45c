import type { FastifyError } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { DatabaseError } from "../db/index.ts";
import { AppError, type ErrorKind, UnavailableError } from "../errors.ts";
import { RpcUnavailableError } from "../indexer/rpc.ts";
import { MAX_PATH_PARAMETER_LENGTH } from "./framework-errors.ts";

const kindOfStatus: Record<number, ErrorKind> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  408: "request_timeout",
  409: "conflict",
  413: "payload_too_large",
  414: "uri_too_long",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "rate_limited",
  431: "header_too_large",
  503: "unavailable",
};

/**
 * Fastify's own refusals of a request, in words a client can act on (Fastify's
 * messages may quote the whole path back).
 */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "the request body is not valid JSON",
  FST_ERR_CTP_EMPTY_JSON_BODY: "the request body is empty; send a JSON object",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported Content-Type; send application/json",
  FST_ERR_CTP_BODY_TOO_LARGE: "the request body is too large",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "the request body's size does not match its Content-Length",
  FST_ERR_BAD_URL: "the path is not a valid URL: a percent escape in it does not decode",
  FST_ERR_MAX_PARAM_LENGTH: `a path segment is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`,
};

/**
 * Turns anything a route or hook threw into an AppError. Returns the error
 * and whether it is unexpected (to be logged with its stack).
 */
export function toAppError(error: unknown): { error: AppError; unexpected: boolean } {
  if (error instanceof AppError) return { error, unexpected: false };
  if (error instanceof DatabaseError) {
    return error.retryable
      ? {
          error: new UnavailableError("the database is unavailable; try again shortly", { cause: error }),
          unexpected: false,
        }
      : { error: new AppError("internal", error.message, { cause: error }), unexpected: true };
  }
  // The chain's RPC (a transaction's receipt, a block, a contract view) could not answer: as with the
  // database, the request may succeed later.
  if (error instanceof RpcUnavailableError) {
    return {
      error: new UnavailableError("the chain's RPC is unavailable; try again shortly", { cause: error }),
      unexpected: false,
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext ?? "request";
    const where = context === "querystring" ? "query" : context;
    const details = error.validation.map((issue) => {
      const path = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
      return `${where}${path ? `.${path}` : ""}: ${issue.message}`;
    });
    return { error: new AppError("bad_request", details.join("; "), { cause: error }), unexpected: false };
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    const kind = kindOfStatus[status] ?? "bad_request";
    const code = error instanceof SyntaxError ? "FST_ERR_CTP_INVALID_JSON_BODY" : (fastifyError.code ?? "");
    const message = FRAMEWORK_MESSAGES[code] ?? fastifyError.message ?? "bad request";
    return { error: new AppError(kind, message, { cause: error }), unexpected: false };
  }
  return {
    error: new AppError("internal", error instanceof Error ? error.message : String(error), { cause: error }),
    unexpected: true,
  };
}

import type { FastifyError } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { DatabaseError } from "../db/index.ts";
import { AppError, type ErrorKind, UnavailableError } from "../errors.ts";

const kindOfStatus: Record<number, ErrorKind> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "rate_limited",
  503: "unavailable",
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
    const message =
      fastifyError.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError
        ? "the request body is not valid JSON"
        : fastifyError.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
          ? "the request body is empty; send a JSON object"
          : fastifyError.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
            ? "unsupported Content-Type; send application/json"
            : fastifyError.code === "FST_ERR_CTP_BODY_TOO_LARGE"
              ? "the request body is too large"
              : (fastifyError.message ?? "bad request");
    return { error: new AppError(kind, message, { cause: error }), unexpected: false };
  }
  return {
    error: new AppError("internal", error instanceof Error ? error.message : String(error), { cause: error }),
    unexpected: true,
  };
}

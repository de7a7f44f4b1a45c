/**
 * Database errors translated once, at the driver boundary, into classes that
 * say whether retrying can help. Nothing above this layer inspects driver
 * error codes.
 */
export class DatabaseError extends Error {
  override readonly name: string = "DatabaseError";
  constructor(
    message: string,
    /** True when the same operation may succeed if tried again. */
    readonly retryable: boolean,
    /** SQLSTATE or socket error code, when known. */
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The database cannot be reached or is shutting down; retry later. */
export class DatabaseUnavailableError extends DatabaseError {
  override readonly name = "DatabaseUnavailableError";
}

/** Serialization failure, deadlock or lock timeout; retry the transaction. */
export class TransactionConflictError extends DatabaseError {
  override readonly name = "TransactionConflictError";
}

/** A unique, foreign-key, check or not-null rule refused the write; retrying cannot help. */
export class ConstraintViolationError extends DatabaseError {
  override readonly name = "ConstraintViolationError";
  constructor(
    message: string,
    code: string | undefined,
    readonly constraint: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, false, code, options);
  }
}

const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
]);

/** Maps any error thrown by pg or PGlite to a `DatabaseError`. Idempotent. */
export function translateDatabaseError(error: unknown): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const record = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
    constraint?: unknown;
  };
  const code = typeof record.code === "string" ? record.code : undefined;
  const message = typeof record.message === "string" ? record.message : String(error);
  const options = { cause: error };
  if (code === undefined) {
    // Socket loss, a closed pool, and a pool that found no free connection in time (pg-pool's
    // "timeout exceeded when trying to connect"): all transient.
    if (
      /Connection terminated|not queryable|closed|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
        message,
      )
    ) {
      return new DatabaseUnavailableError(message, true, code, options);
    }
    return new DatabaseError(message, false, code, options);
  }
  if (
    socketCodes.has(code) ||
    code.startsWith("08") ||
    code === "57P01" ||
    code === "57P02" ||
    code === "57P03"
  ) {
    return new DatabaseUnavailableError(message, true, code, options);
  }
  if (code === "53300" || code === "53400") return new DatabaseUnavailableError(message, true, code, options);
  if (code === "40001" || code === "40P01" || code === "55P03") {
    return new TransactionConflictError(message, true, code, options);
  }
  if (code.startsWith("23")) {
    const constraint = typeof record.constraint === "string" ? record.constraint : undefined;
    return new ConstraintViolationError(message, code, constraint, options);
  }
  return new DatabaseError(message, false, code, options);
}

export function isUniqueViolation(error: unknown): error is ConstraintViolationError {
  return error instanceof ConstraintViolationError && error.code === "23505";
}

/** A command line the CLI cannot run as given (a missing or malformed flag or value): exit code 2. */
export class UsageError extends Error {
  override readonly name: string = "UsageError";
}

/** The command was run and failed (the server refused it, or could not be reached): exit code 1. */
export class CommandError extends Error {
  override readonly name: string = "CommandError";
}

/** A refusal from the server: its status, its error code when the body names one, and its words. */
export class ApiError extends CommandError {
  override readonly name: string = "ApiError";
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
  }
}

/** Exit statuses; 130 is the shells' convention for a command ended by SIGINT. */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

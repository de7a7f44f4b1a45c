/** An HTTP error answered by an mkt API, with the surface's own body. */
export class MktApiError extends Error {
  override readonly name = "MktApiError";
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Seconds the server asked to wait (Retry-After), when it did. */
    readonly retryAfterSeconds: number | undefined,
    readonly requestId: string | undefined,
  ) {
    super(MktApiError.describe(status, body));
  }

  private static describe(status: number, body: unknown): string {
    if (body && typeof body === "object") {
      const record = body as Record<string, unknown>;
      const text = record["message"] ?? record["error"];
      if (typeof text === "string") return `HTTP ${status}: ${text}`;
    }
    return `HTTP ${status}`;
  }
}

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

  /**
   * The answer's stable machine-readable code, when its surface has one: the
   * classic body's `error` (`GAME_NOT_FOUND`, `PRICE_UNAVAILABLE`, …) and the
   * prediction feed's `error`. Branch on `status` and this, never on the message.
   */
  get code(): string | undefined {
    if (this.body && typeof this.body === "object") {
      const code = (this.body as Record<string, unknown>)["error"];
      if (typeof code === "string" && /^[A-Z][A-Z0-9_]*$/.test(code)) return code;
    }
    return undefined;
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

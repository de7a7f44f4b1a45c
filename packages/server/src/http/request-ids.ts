import { randomBytes } from "node:crypto";

/** A caller's `X-Request-Id` the server adopts; anything else gets a generated id. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request ids: a random per-process prefix and a counter. Unique across
 * replicas and restarts for practical purposes, and far cheaper than a UUID
 * per request.
 */
export function createRequestIds() {
  const prefix = randomBytes(6).toString("hex");
  let next = 0;
  return () => `${prefix}-${(next++).toString(36)}`;
}

export function requestIdOf(header: string | string[] | undefined, next: () => string): string {
  return typeof header === "string" && REQUEST_ID.test(header) ? header : next();
}

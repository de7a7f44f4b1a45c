import { LIVE_RATE_LIMIT_HEADERS, RATE_LIMIT_HEADERS } from "@mkt/protocol";
import type { JsonObject } from "./openapi-schemas.ts";
import { REQUEST_ID } from "./request-ids.ts";
import type { RouteDefinition } from "./route.ts";

/** OpenAPI ignores header parameters with these names: the body, the content negotiation and `securitySchemes` say them. */
export const RESERVED_HEADER_PARAMETERS = new Set(["accept", "content-type", "authorization"]);

const header = (
  name: string,
  required: boolean,
  description: string,
  schema: JsonObject = { type: "string" },
) => ({
  name,
  json: { name, in: "header", required, description, schema } as JsonObject,
});

/**
 * The request headers a route reads besides its credentials (those are its
 * security requirements), from its declaration. A header the route declares
 * itself (with its own schema) is published as declared.
 */
export function declaredHeaders(
  route: RouteDefinition,
  proxied: boolean,
): Array<{ name: string; json: JsonObject }> {
  const headers = [
    {
      name: "X-Request-Id",
      json: { $ref: "#/components/parameters/RequestId" } as JsonObject,
    },
  ];
  const session = route.session;
  if (session === "account" || session === "chat") {
    const optional = route.sessionOptional === true;
    const when = (text: string) =>
      optional
        ? `Required with the session (when its credential is sent): ${text}`
        : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
    headers.push(
      header(
        "X-MKT-Wallet",
        !optional,
        when(
          `the session's wallet address (any case). A session acts only as the wallet that signed in: another wallet is a 401, and after a wallet switch the client signs in again.`,
        ),
        { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" },
      ),
    );
    if (!proxied)
      headers.push(
        header(
          "Origin",
          !optional,
          when("the origin the wallet signed in for (browsers send it themselves); another origin is a 401."),
        ),
      );
  }
  if (proxied) {
    headers.push(
      header(
        "Origin",
        route.method !== "GET",
        "An origin of the first-party website (`ALLOWED_ORIGINS`); any other origin is a 403. Required on writes; a read may send `Sec-Fetch-Site: same-origin` instead.",
      ),
      header(
        "Sec-Fetch-Site",
        false,
        "`same-origin` lets a read through without `Origin` (browsers send no `Origin` on same-origin GETs).",
      ),
    );
  }
  if (route.idempotent)
    headers.push({ name: "Idempotency-Key", json: { $ref: "#/components/parameters/IdempotencyKey" } });
  if (route.stream)
    headers.push({ name: "Last-Event-ID", json: { $ref: "#/components/parameters/LastEventId" } });
  if (route.cache.kind === "shared")
    headers.push({ name: "If-None-Match", json: { $ref: "#/components/parameters/IfNoneMatch" } });
  return headers;
}

/** The `Indexed-*` headers of every successful answer of a route built from an indexed projection. */
export const INDEXED_HEADER_REFS = {
  "Indexed-Block": { $ref: "#/components/headers/IndexedBlock" },
  "Indexed-Lag": { $ref: "#/components/headers/IndexedLag" },
  "Indexed-Age": { $ref: "#/components/headers/IndexedAge" },
};

/** The `RateLimit-*` headers of every answer of a route that charges a budget. */
export const RATE_LIMIT_HEADER_REFS = {
  [RATE_LIMIT_HEADERS.limit]: { $ref: "#/components/headers/RateLimitLimit" },
  [RATE_LIMIT_HEADERS.remaining]: { $ref: "#/components/headers/RateLimitRemaining" },
  [RATE_LIMIT_HEADERS.reset]: { $ref: "#/components/headers/RateLimitReset" },
};

/**
 * The live Classic service's budget headers, on every answer of a classic route that charges a
 * budget, beside `RateLimit-*` (the same budget).
 */
export const LIVE_RATE_LIMIT_HEADER_REFS = {
  [LIVE_RATE_LIMIT_HEADERS.limit]: { $ref: "#/components/headers/XRateLimitLimit" },
  [LIVE_RATE_LIMIT_HEADERS.remaining]: { $ref: "#/components/headers/XRateLimitRemaining" },
  [LIVE_RATE_LIMIT_HEADERS.reset]: { $ref: "#/components/headers/XRateLimitReset" },
};

/** The request headers every document describes once (`components.parameters`), named by the operations. */
export const PARAMETER_COMPONENTS = {
  RequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description:
      "Your id for this request (1 to 128 of `A-Z a-z 0-9 . _ : -`), echoed in the `X-Request-Id` response header and written in the server's log line; without one (or with a malformed one) the server makes one.",
    schema: { type: "string", pattern: REQUEST_ID.source },
  },
  IfNoneMatch: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description:
      "The `ETag` of an earlier answer: while the body has not changed, the answer is 304 without a body (still charged to the budget).",
    schema: { type: "string" },
  },
  LastEventId: {
    name: "Last-Event-ID",
    in: "header",
    required: false,
    description:
      "The id of the last event received: the stream replays every event after it that is still in the log's window, else starts with `resync`.",
    schema: { type: "string", maxLength: 64 },
  },
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a retried write safe (IETF draft-ietf-httpapi-idempotency-key-header). The same key with the same body within 24 hours returns the first response again, marked `Idempotent-Replayed: true`, without doing the work twice; the same key with another body is refused with 422; a retry while the first request is still running gets 409. 1 to 255 printable ASCII characters, optionally as a quoted string.",
    schema: { type: "string", minLength: 1, maxLength: 257 },
  },
};

/** The response headers every document describes once (`components.headers`), named by the answers. */
export const HEADER_COMPONENTS = {
  RateLimitLimit: {
    description:
      "Requests the budget charged by this route admits per window (base budget times the key's multiplier).",
    schema: { type: "integer" },
  },
  RateLimitRemaining: {
    description: "Requests left in the current sliding window.",
    schema: { type: "integer" },
  },
  RateLimitReset: {
    description: "Seconds until the oldest request counted in the window leaves it and frees one request.",
    schema: { type: "integer" },
  },
  XRateLimitLimit: {
    description:
      "The live Classic service's name for `RateLimit-Limit` (classic routes): the same number, for clients written for that service.",
    schema: { type: "integer" },
  },
  XRateLimitRemaining: {
    description:
      "The live Classic service's name for `RateLimit-Remaining` (classic routes): the same number.",
    schema: { type: "integer" },
  },
  XRateLimitReset: {
    description:
      "When the window has room again, as the live Classic service states it (classic routes): Unix time in whole seconds, rounded up (the server's clock now plus `RateLimit-Reset`).",
    schema: { type: "integer" },
  },
  ETag: {
    description:
      "Strong validator of the body. Send it back in `If-None-Match`: while the data the answer is built from has not changed, the answer is 304 with no body (still charged to the budget).",
    schema: { type: "string" },
  },
  RetryAfter: { description: "Whole seconds to wait before retrying.", schema: { type: "integer" } },
  IndexedBlock: {
    description:
      "The newest block of the chain the indexed projection behind this answer holds (decimal). Absent before the indexer wrote its first block.",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
  IndexedLag: {
    description:
      "Blocks between the chain head the indexer last saw and `Indexed-Block`: 0 when caught up (a projection of finalized blocks only stays its finality depth behind). Absent before the indexer first saw the chain.",
    schema: { type: "integer", minimum: 0 },
  },
  IndexedAge: {
    description:
      "Whole seconds since the indexer last saw the chain head. A healthy indexer looks at least every 5 seconds, so it stays below about 7; it grows while the chain's RPC is down or slow, or the indexer is stopped, and the answer keeps being served from the projection as it stands. Absent before the indexer first saw the chain.",
    schema: { type: "integer", minimum: 0 },
  },
  NoStore: {
    description:
      "Always `no-store` on an error answer, whatever the route: no cache, shared or the client's own, may keep an error.",
    schema: { type: "string", const: "no-store" },
  },
};

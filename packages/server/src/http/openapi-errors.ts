import type { RouteDefinition } from "./route.ts";

type Responses = RouteDefinition["responses"];

/**
 * A route's own responses with every error status its declaration can answer
 * (`errorResponses`). A status the route documents keeps its description (its
 * specific causes), except on the proxy's copies, whose credentials differ:
 * there the 401 is the proxy's, and the proxy's own 403 is added to the route's.
 */
export function withDeclaredErrors(
  own: Responses,
  declared: Record<number, string>,
  proxied: boolean,
): Responses {
  const responses: Responses = { ...own };
  for (const [key, description] of Object.entries(declared)) {
    const status = Number(key);
    const documented = own[status];
    if (documented === undefined) responses[status] = { description };
    else if (proxied && status === 401) responses[status] = { ...documented, description };
    else if (proxied && status === 403)
      responses[status] = { ...documented, description: `${documented.description} Or: ${description}` };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every error status a route can answer, from its declaration, with a
 * generic description; a route's own description of a status (its specific
 * causes) takes precedence. The body is the surface's error schema.
 */
export function errorResponses(route: RouteDefinition, proxied: boolean): Record<number, string> {
  const session = route.session;
  const marketSession = session !== undefined && session !== "classic";
  // The market's key check answers 401; the classic and prediction surfaces answer an opaque 429.
  const directKey401 = !proxied && (route.access.kind === "market" || route.access.kind === "key-holder");
  const unauthorized = [
    directKey401 ? "`API-KEY` is missing, malformed or not a valid key" : undefined,
    session === "classic"
      ? "the bearer token is missing, malformed, not a Classic API access token, expired or signed out"
      : undefined,
    marketSession
      ? `the session ${proxied ? "cookie" : "token"} is ${route.sessionOptional ? "presented but " : "missing, "}malformed, expired or signed out${session !== "access" ? `, or \`X-MKT-Wallet\`${proxied ? "" : " or `Origin`"} does not match it` : ""}`
      : undefined,
  ].filter((reason) => reason !== undefined);
  const forbidden = [
    marketSession ? "a session of another kind was presented (the message names the right one)" : undefined,
    proxied
      ? "the first-party proxy refused the request: `Origin` is not a first-party origin, or it is missing (a write; a read may send `Sec-Fetch-Site: same-origin` instead)"
      : undefined,
  ].filter((reason) => reason !== undefined);
  const sentence = (reasons: string[]) => {
    const text = reasons.join("; or ");
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  const body = route.request?.body !== undefined || BODY_METHODS.has(route.method);
  const statuses: Record<number, string | undefined> = {
    400: "The request is malformed: a path parameter, query parameter, header or body field fails its schema, or the query names a parameter the route does not take.",
    ...(unauthorized.length > 0 ? { 401: sentence(unauthorized) } : {}),
    ...(forbidden.length > 0 ? { 403: sentence(forbidden) } : {}),
    ...(route.idempotent
      ? {
          409: "A request with this `Idempotency-Key` is still being processed; retry once it has been answered.",
          422: "This `Idempotency-Key` was already used with another body.",
        }
      : {}),
    ...(body
      ? {
          413: "The request body is larger than the server accepts (1 MiB).",
          415: "The request has a body that is not `application/json`.",
        }
      : {}),
    408: "The request did not arrive in time; the connection is closed (`Connection: close`).",
    414: "The request target is too long: a path parameter is longer than the route accepts.",
    429: "Too many requests: the route's budget is spent, or this replica is at its cap of requests in flight. `Retry-After` says when to retry.",
    431: "The request line and headers together are larger than the server accepts (32 KiB); the connection is closed.",
    503: "The service cannot answer now: the database is unavailable (restarting or failing over; `Retry-After: 1`), or the server is shutting down. Retry after `Retry-After` when given, with jitter. A write answered 503 may or may not have been applied: retry it, with the same `Idempotency-Key` where the route takes one.",
  };
  return Object.fromEntries(
    Object.entries(statuses).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

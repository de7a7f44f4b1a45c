import type { Config } from "../config/index.ts";
import { MAX_PATH_PARAMETER_LENGTH, MAX_REQUEST_HEAD_BYTES } from "./framework-errors.ts";

/**
 * Policies mkt decided where the API documents are silent or in conflict,
 * published in each OpenAPI document's description.
 */
const shared = `Keys: create one with POST /keys ({description, email}); it works at once at multiplier 1 on all three APIs and is stored only as a hash. At most 10 keys per hour per client. Revoke it with DELETE /keys/current and the key in the API-KEY header (10 attempts per minute per client, checked before the key is looked up; an unknown key counts as a failed key attempt).

Clients: every per-IP budget and counter (key creation, key revocation, failed key attempts, the per-IP budgets of the classic and prediction APIs and of the first-party proxy) counts a client as its IPv4 address, an IPv4-mapped IPv6 address as that IPv4 address, and an IPv6 address by its /64 prefix, since one host usually holds a whole /64.

Budgets are sliding windows counted per replica: no rolling window of the stated length ever admits more than the budget, so there is no boundary at which a client can spend twice. Every limited response carries RateLimit-Limit (the budget: base times the key's multiplier), RateLimit-Remaining and RateLimit-Reset (seconds until the oldest counted request leaves the window). 429 and 503 carry Retry-After in whole seconds; honour it and back off with jitter.

Idempotency: POST routes that create something accept an Idempotency-Key header. The same key with the same body within 24 hours returns the first response (marked Idempotent-Replayed: true) without doing the work again; with another body, 422; while the first is still running, 409. A secret is never replayed: a replayed POST /keys answers the key it created without its secret (ReplayedKey: id, multiplier, createdAt), which is shown only once and never stored.

CORS: any origin may call the APIs without credentials (Access-Control-Allow-Origin: *); the first-party website origins (ALLOWED_ORIGINS) get their origin echoed with credentials. Preflight never needs a key. The first-party proxy /app/api answers first-party origins only.

Every response carries X-Request-Id (yours when you send a valid one, else a generated one). Quote it when you report a problem.

Query parameters: a route takes only the query parameters it documents, each at most once. Any other parameter, or one given twice (?limit=1&limit=2), is a 400 that names it, after the key and session checks (a keyless request still gets this API's key refusal). Integer parameters, in the query and in the path, are decimal digits in canonical form: no sign, exponent, hexadecimal prefix, fraction, spaces or leading zero (limit=20, never 20.0, 2e1, 0x14, +20 or 020); anything else is a 400 naming the parameter.

Limits before any route: a path parameter over ${MAX_PATH_PARAMETER_LENGTH} characters is a 414, and a request line and headers together over ${MAX_REQUEST_HEAD_BYTES / 1024} KiB a 431; a JSON body over 1 MiB is a 413 and a body of another Content-Type a 415. A request the HTTP parser cannot read is a 400, and one that does not arrive in time a 408, both answered with Connection: close. Each is in this API's own error body.`;

export function surfaceNotes(surface: "market" | "classic" | "predict", config: Config): string {
  switch (surface) {
    case "market":
      return `${shared}

Market quotas (section 8): read 100, write 25 and stream 10 requests per minute per key per replica, times the key's multiplier. Every market route charges its bucket. 401 {error} for a missing, malformed or invalid API-KEY. 429 with Retry-After when the bucket is spent, when this client IP has made 20 failed key attempts within a minute (every key-gated request from it is then refused until the window frees), or when the replica is at its in-flight request cap. 503 when the key lookup or another dependency is unavailable: the service fails closed, never open.

Public reads (section 5 leaves a conflict open): this deployment runs with PUBLIC_READS=${config.publicReads}. With "key" (the default, the API description's rule) every route needs API-KEY. With "open" (the authentication guide's rule) the public runtime, catalog, release, room and follow-list reads answer without a key and are then budgeted per client IP at the read rate; a key, when sent, is still checked and charged.

Accounts and sessions (sections 3 and 5). An account has one or more wallets, each proven by its own signature; signing in with a wallet no account holds creates one. A session is bound to the wallet that signed in and acts only as that wallet. Three session kinds, told apart by their token prefix: account sessions (mkts_, from POST /market/account/session; 30 days), chat sessions (mktc_, from POST /market/chat/session; 24 hours; room and follow-write routes only) and invite-only access sessions (mkta_, from POST /market/access/session; 7 days; X-MKT-Session header). A session of the wrong kind is refused with 403 naming the right one; an unknown, expired or signed-out session with 401. Account and chat tokens go in Authorization: Bearer with Origin equal to the signed origin and X-MKT-Wallet equal to the session's wallet; tokens are never read from URLs and are stored only as SHA-256 hashes. Every session route still needs API-KEY.

First-party website proxy: the routes the first-party website needs (each opts in; never GET /market/api-key nor key-only reads such as the X profile lookup) are served under ${config.publicUrl}/app/api for the first-party website (ALLOWED_ORIGINS) with cookie sessions instead of tokens: mkt-session, mkt-chat and mkt-access, each HttpOnly, SameSite=Strict, Path=/app/api, Secure when PUBLIC_URL is https. The proxy checks Origin itself: writes need an allowlisted Origin; reads need one or Sec-Fetch-Site: same-origin; anything else is 403. Headers cannot tell a browser from a script: any client can send that Origin, so the proxy's budgets are the guard. Pages send no API key. Without a session (sign-in, public reads) the proxy allows 30 reads, 10 writes and 5 streams per minute per client, well below a key's budget; routes that need a session are budgeted per account at the market's rates (100, 25, 10) once the session cookie is checked, and a refused session cookie counts as a failed attempt of the client (20 per minute, then 429). It never forwards a first-party session to another site.`;
    case "classic":
      return `${shared}

Classic quotas (section 8): 100 requests per minute for key-gated reads, 25 per minute for search and API-key writes, 2,000 per minute for the public marketplace-standard metadata routes, 10 per hour for reports, times the key's multiplier. Each key's budget is counted per client IP, so several applications behind one address do not share a budget. A missing key, an invalid key and an exhausted budget give one identical 429 {success:false, message, error:"RATE_LIMITED"}, headers included: RateLimit-Limit is the route class's base budget, RateLimit-Remaining 0, RateLimit-Reset and Retry-After the whole window, whatever the key.`;
    case "predict":
      return `${shared}

Prediction-feed quotas (section 8): every route under /predict/v9 needs the API-KEY header, health and stream included; 100 requests per minute per client IP and key, times the key's multiplier. A missing key, an invalid key and an exhausted budget give one identical 429 {error:"API_KEY_REQUIRED_OR_RATE_LIMITED", docs}, headers included (RateLimit-Limit 100, RateLimit-Remaining 0, RateLimit-Reset and Retry-After 60). Other errors are {error: CODE, message} with the codes INVALID_INPUT (400), NOT_FOUND (404), REQUEST_TIMEOUT (408), CONFLICT (409), PAYLOAD_TOO_LARGE (413), URI_TOO_LONG (414), HEADER_TOO_LARGE (431) and SERVICE_UNAVAILABLE (503, never cacheable).`;
  }
}

import type { Config } from "../config/index.ts";
import { MAX_PATH_PARAMETER_LENGTH, MAX_REQUEST_HEAD_BYTES } from "./framework-errors.ts";

/**
 * Policies mkt decided where the API documents are silent or in conflict, published in each
 * OpenAPI document's description as Markdown sections (`## Title`), each short and on one topic:
 * reference UIs list the headings as a table of contents beside the operations (Scalar nests
 * them under "Introduction"), and every heading is a link target.
 */
export interface NoteSection {
  title: string;
  /** Markdown; `###` subsections at most. */
  body: string;
}

const keys: NoteSection = {
  title: "API keys",
  body: `Create a key with \`POST /keys\` and \`{description, email}\`. It works at once at multiplier 1 on all three APIs and is stored only as a hash. At most 10 keys per hour per client.

Send it in the \`API-KEY\` header. Revoke it with \`DELETE /keys/current\` and the key in the \`API-KEY\` header (10 attempts per minute per client, checked before the key is looked up; an unknown key counts as a failed key attempt).`,
};

const budgets = `### Budgets

Budgets are sliding windows counted per replica: no rolling window of the stated length ever admits more than the budget, so there is no boundary at which a client can spend twice.

- Every limited response carries \`RateLimit-Limit\` (the budget: base times the key's multiplier), \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the oldest counted request leaves the window).
- 429 and 503 carry \`Retry-After\` in whole seconds; honour it and back off with jitter.

### Clients

Every per-IP budget and counter (key creation, key revocation, failed key attempts, the per-IP budgets of the classic and prediction APIs and of the first-party proxy) counts a client as its IPv4 address, an IPv4-mapped IPv6 address as that IPv4 address, and an IPv6 address by its /64 prefix, since one host usually holds a whole /64.`;

const idempotency: NoteSection = {
  title: "Idempotency",
  body: `POST routes that create something accept an \`Idempotency-Key\` header. The same key with the same body within 24 hours returns the first response (marked \`Idempotent-Replayed: true\`) without doing the work again; with another body, 422; while the first is still running, 409.

A secret is never replayed: a replayed \`POST /keys\` answers the key it created without its secret (\`ReplayedKey\`: id, multiplier, createdAt), which is shown only once and never stored.`,
};

const cors: NoteSection = {
  title: "CORS",
  body: `Any origin may call the APIs without credentials (\`Access-Control-Allow-Origin: *\`); the first-party website origins (\`ALLOWED_ORIGINS\`) get their origin echoed with credentials. The first-party proxy \`/app/api\` answers first-party origins only.

- Preflight never needs a key. It allows every request header a route reads: \`API-KEY\`, \`Authorization\`, \`X-MKT-Wallet\`, \`X-MKT-Session\`, \`Content-Type\`, \`Idempotency-Key\`, \`Last-Event-ID\`, \`If-None-Match\`, \`X-Request-Id\`, \`X-Bypass-Image-Proxy\` and every header a route declares.
- Responses expose \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`, the classic API's \`x-ratelimit-limit\`, \`x-ratelimit-remaining\` and \`x-ratelimit-reset\`, \`Retry-After\`, \`ETag\`, \`X-Request-Id\`, \`Idempotent-Replayed\`, \`Indexed-Block\`, \`Indexed-Lag\` and \`Indexed-Age\`.`,
};

const caching: NoteSection = {
  title: "Caching",
  body: `No error is ever cacheable: every 4xx and 5xx answer carries \`Cache-Control: no-store\`, whatever the route. Each operation's 200 response states its \`Cache-Control\`.

- A successful answer that needed an API key or a session is private: \`Cache-Control: private, max-age=N\` on cacheable reads (your own client may keep it; a shared cache such as a CDN or a proxy may not, since it would hand it out without the server checking or charging the key), \`private, no-store\` on per-caller answers.
- Only answers that need no credential may be \`public, max-age=N\`: documentation, images and art, the classic marketplace-standard metadata, and the market's public reads when \`PUBLIC_READS=open\`.
- Cacheable reads carry a strong \`ETag\`; \`If-None-Match\` with it answers 304 with the same \`Cache-Control\`, charged like a 200.`,
};

const outages: NoteSection = {
  title: "Outages and indexed data",
  body: `Reads of chain data are answered from this server's indexed projection of the chain, never from the chain itself. Every successful answer built from it (each such operation lists the headers on its 200) says how current it is:

- \`Indexed-Block\`: the newest block the projection holds;
- \`Indexed-Lag\`: blocks between the chain head the indexer last saw and \`Indexed-Block\` (a projection of finalized blocks only, like the prediction feed's, stays its finality depth behind);
- \`Indexed-Age\`: seconds since the indexer last saw the chain head; a healthy indexer keeps it below about 7.

While the chain's RPC is down or slow, those reads keep being answered from the projection as it stands, and \`Indexed-Age\` grows: decide from it how stale an answer you accept. The prediction feed instead refuses its gated reads with 503 \`PROJECTION_STALE\` once its projection passes a freshness bound (its runtime record's \`freshness\` says which). Once the RPC answers again the indexer resumes where it stopped: no block is skipped or applied twice.

When the server's database is unavailable (restarting, failing over), every request that needs it is refused with 503 in this API's error body, with \`Retry-After\` (1 second) and \`Cache-Control: no-store\`; an answer held in the server's read cache may still be served. A write answered with 2xx is stored; a write answered 503 may or may not have been stored, so retry it with the same \`Idempotency-Key\` where the route takes one.`,
};

const securityHeaders: NoteSection = {
  title: "Security headers",
  body: `Every response carries \`X-Content-Type-Options: nosniff\`. HTML pages carry a \`Content-Security-Policy\` with \`frame-ancestors 'none'\` (never framed) and \`Referrer-Policy: no-referrer\`: the landing page and the \`/docs\` index run no script and load no external resource; the reference pages (\`/docs/market\`, \`/docs/classic\`, \`/docs/predict\`) run only the reference UI's script from this server (no inline script, no \`eval\`) and send requests only to this server. Other answers that are not JSON (SVG art, images) carry a \`Content-Security-Policy\` under which nothing runs or loads.`,
};

const requests: NoteSection = {
  title: "Request rules",
  body: `### Text

One rule for all text: no string of a request (a value or property name anywhere in the body, a query or path parameter), on any route, may contain U+0000 (NUL), an unpaired UTF-16 surrogate (a JSON escape such as "\\ud800" alone) or a bidirectional embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069). Such a request is refused with 400 in this API's error body, naming the field and the character (for example "body.bio: must not contain U+0000 (NUL)"), before anything is stored.

NUL cannot be stored, and an unpaired surrogate would be stored as U+FFFD, not as sent. The bidirectional controls make text display in another order than its characters (a name or message that reads as something else) and no field needs them; they are refused in every field rather than only in names, titles, bios and messages, so that text nested anywhere is covered. Right-to-left text needs none of them; the direction marks U+200E, U+200F and U+061C are accepted.

### Query parameters

A route takes only the query parameters it documents, each at most once. Any other parameter, or one given twice (\`?limit=1&limit=2\`), is a 400 that names it, after the key and session checks (a keyless request still gets this API's key refusal).

Integer parameters, in the query and in the path, are decimal digits in canonical form: no sign, exponent, hexadecimal prefix, fraction, spaces or leading zero (\`limit=20\`, never \`20.0\`, \`2e1\`, \`0x14\`, \`+20\` or \`020\`); anything else is a 400 naming the parameter.

### Limits before any route

Each is answered in this API's own error body:

- a path parameter over ${MAX_PATH_PARAMETER_LENGTH} characters is a 414, and a request line and headers together over ${MAX_REQUEST_HEAD_BYTES / 1024} KiB a 431;
- a JSON body over 1 MiB is a 413 and a body of another \`Content-Type\` a 415;
- a request the HTTP parser cannot read is a 400, and one that does not arrive in time a 408, both answered with \`Connection: close\`.

### Request ids

Every response carries \`X-Request-Id\` (yours when you send a valid one, else a generated one). Quote it when you report a problem.`,
};

function marketSections(config: Config): NoteSection[] {
  return [
    keys,
    {
      title: "Rate limits",
      body: `### Market quotas

Read 100, write 25 and stream 10 requests per minute per key per replica, times the key's multiplier. Every market route charges its bucket.

- 401 \`{error}\` for a missing, malformed or invalid \`API-KEY\`.
- 429 with \`Retry-After\` when the bucket is spent, when this client IP has made 20 failed key attempts within a minute (every key-gated request from it is then refused until the window frees), or when the replica is at its in-flight request cap.
- 503 when the key lookup or another dependency is unavailable: the service fails closed, never open.

${budgets}`,
    },
    {
      title: "Public reads",
      body: `The market API description says every route needs \`API-KEY\`; its authentication guide lists reads that need none, and leaves the conflict open. The \`PUBLIC_READS\` setting decides; this deployment runs with \`PUBLIC_READS=${config.publicReads}\`.

- With \`key\` (the default, the API description's rule) every route needs \`API-KEY\`.
- With \`open\` (the authentication guide's rule) the public runtime, catalog, release, room and follow-list reads answer without a key and are then budgeted per client IP at the read rate; a key, when sent, is still checked and charged.`,
    },
    {
      title: "Accounts and sessions",
      body: `An account has one or more wallets, each proven by its own signature; signing in with a wallet no account holds creates one. A session is bound to the wallet that signed in and acts only as that wallet.

Three session kinds, told apart by their token prefix:

- account sessions (\`mkts_\`, from \`POST /market/account/session\`; 30 days),
- chat sessions (\`mktc_\`, from \`POST /market/chat/session\`; 24 hours; room and follow-write routes only),
- invite-only access sessions (\`mkta_\`, from \`POST /market/access/session\`; 7 days; \`X-MKT-Session\` header).

A session of the wrong kind is refused with 403 naming the right one; an unknown, expired or signed-out session with 401. Account and chat tokens go in \`Authorization: Bearer\` with \`Origin\` equal to the signed origin and \`X-MKT-Wallet\` equal to the session's wallet; tokens are never read from URLs and are stored only as SHA-256 hashes. Every session route still needs \`API-KEY\`.`,
    },
    {
      title: "First-party website proxy",
      body: `The routes the first-party website needs (each opts in; never \`GET /market/api-key\` nor key-only reads such as the X profile lookup) are served under ${config.publicUrl}/app/api for the first-party website (\`ALLOWED_ORIGINS\`) with cookie sessions instead of tokens: \`mkt-session\`, \`mkt-chat\` and \`mkt-access\`, each \`HttpOnly\`, \`SameSite=Strict\`, \`Path=/app/api\`, \`Secure\` when \`PUBLIC_URL\` is https. Pages send no API key.

- The proxy checks \`Origin\` itself: writes need an allowlisted \`Origin\`; reads need one or \`Sec-Fetch-Site: same-origin\`; anything else is 403. Headers cannot tell a browser from a script: any client can send that \`Origin\`, so the proxy's budgets are the guard.
- Without a session (sign-in, public reads) the proxy allows 30 reads, 10 writes and 5 streams per minute per client, well below a key's budget. Routes that need a session are budgeted per account at the market's rates (100, 25, 10) once the session cookie is checked, and a refused session cookie counts as a failed attempt of the client (20 per minute, then 429).
- It never forwards a first-party session to another site.`,
    },
  ];
}

function classicSections(): NoteSection[] {
  return [
    keys,
    {
      title: "Rate limits",
      body: `### Classic quotas

Times the key's multiplier:

- 100 requests per minute for key-gated reads,
- 25 per minute for search and API-key writes,
- 2,000 per minute for the public marketplace-standard metadata routes,
- 10 per hour for reports.

Each key's budget is counted per client IP, so several applications behind one address do not share a budget.

A missing key, an invalid key and an exhausted budget give one identical 429 \`{success:false, message, error:"RATE_LIMITED"}\`, headers included: \`RateLimit-Limit\` is the route class's base budget, \`RateLimit-Remaining\` 0, \`RateLimit-Reset\` and \`Retry-After\` the whole window, whatever the key.

Every classic answer that charges a budget also carries the live service's names: \`x-ratelimit-limit\` and \`x-ratelimit-remaining\` (the same numbers as \`RateLimit-Limit\` and \`RateLimit-Remaining\`) and \`x-ratelimit-reset\`, the Unix time in seconds at which the window has room again.

${budgets}`,
    },
    {
      title: "Clients of the live service",
      body: `A client written for the live Classic service (\`/vibe/boosterbox\`, \`/vibe/auth\`) works here by changing its base URL to \`/classic\` and \`/classic/auth\`. Every operation such a client calls carries the tag \`Live-compatible\` and says in its description which live request it serves. The Classic document stays the contract where it speaks; where it is silent these routes answer as the live service does.

- **Two views of \`/owner/{address}\` and \`/recent\`.** A request with \`contractAddress\` or \`rarityGreaterThan\` (the filters only live clients send) gets the live \`{success, boxes, pagination}\`; without them \`/owner\` answers \`boosterBoxes\` and \`/recent\` the activity feed, as before. Each answer carries one array, never both.
- **Packs** carry \`_id\` (a stable 24-hex id) and, with \`includeMetadata=true\`, the live image fields (\`imageUrl\`, \`originalImageUrl\`, \`unopenedImageUrl\`) and \`foil\` and \`wear\`. Token ids above 2^53 lose digits in a JSON number parser: read \`tokenIdString\`.
- **Sign-in:** \`GET /classic/auth/message/{address}\`, sign the \`message\` as given (personal_sign), \`POST /classic/auth/verify-signature {address, signature}\`. The token is the one \`POST /classic/auth/sign-in\` issues: 24 hours, not the live 30 days.
- **Creator flow:** \`POST /classic/generate-slug\`, \`POST /classic/image/upload\` (multipart \`files\`, one still PNG, JPEG or WebP, at most 5 MiB), \`POST /classic/metadata/draft\` with the live body (its answer's \`createGame\` is what to deploy, with \`DropFactory.createDropWithExtensions\`), \`POST /classic/metadata/confirm\`, then \`GET /classic/contractAddress/{address}/ready\`. Draft ids are 24 hex digits (the document's pattern), not the live \`draft_<ms>_<rand>\`.
- **Money:** every \`…Usd\` field is written as the live service writes it (\`"$4,743.63"\`, rounded down to the cent); \`GET /classic/eth-price\` gives the rate behind them.
- **Headers:** \`x-ratelimit-limit\`, \`x-ratelimit-remaining\` and \`x-ratelimit-reset\` beside \`RateLimit-*\` (see Rate limits); the \`API-KEY\` header is read in any letter case.`,
    },
  ];
}

function predictSections(): NoteSection[] {
  return [
    keys,
    {
      title: "Rate limits",
      body: `### Prediction-feed quotas

Every route under \`/predict/v9\` needs the \`API-KEY\` header, health and stream included; 100 requests per minute per client IP and key, times the key's multiplier.

A missing key, an invalid key and an exhausted budget give one identical 429 \`{error:"API_KEY_REQUIRED_OR_RATE_LIMITED", docs}\`, headers included (\`RateLimit-Limit\` 100, \`RateLimit-Remaining\` 0, \`RateLimit-Reset\` and \`Retry-After\` 60).

${budgets}`,
    },
    {
      title: "Errors",
      body: `Other errors are \`{error: CODE, message}\` with the codes:

- INVALID_INPUT (400), NOT_FOUND (404), REQUEST_TIMEOUT (408), CONFLICT (409),
- PAYLOAD_TOO_LARGE (413), URI_TOO_LONG (414), HEADER_TOO_LARGE (431),
- SERVICE_UNAVAILABLE (503, never cacheable).`,
    },
  ];
}

/** Every section of one API's notes, in the order its reference shows them. */
export function surfaceNoteSections(
  surface: "market" | "classic" | "predict",
  config: Config,
): NoteSection[] {
  const own =
    surface === "market"
      ? marketSections(config)
      : surface === "classic"
        ? classicSections()
        : predictSections();
  return [...own, idempotency, cors, caching, outages, securityHeaders, requests];
}

/** One API's notes as the Markdown of its OpenAPI document's description, after the API's summary. */
export function surfaceNotes(surface: "market" | "classic" | "predict", config: Config): string {
  const references = (["market", "classic", "predict"] as const)
    .map((name) => `[${name}](${config.publicUrl}/docs/${name})`)
    .join(" · ");
  return [
    `One API key works on all three APIs of this server; the sections below say how keys, budgets and the rules every route shares work. Interactive references: ${references}.`,
    ...surfaceNoteSections(surface, config).map(({ title, body }) => `## ${title}\n\n${body}`),
  ].join("\n\n");
}

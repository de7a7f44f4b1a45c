import type { ResponseSpec } from "../http/route.ts";

/** The one 429 of every key-gated classic route: missing key, invalid key and spent budget alike. */
export const keyRefused: ResponseSpec = {
  description: "API key missing or invalid, or quota exhausted (one identical response).",
};

const bearerRules =
  '`Authorization: Bearer <accessToken>` from `POST /classic/auth/sign-in`, read from that header only (never from a URL or a cookie); a missing, malformed, expired, signed-out or unknown token, or a token of another kind (a market session), is 401 `{success:false, message, error:"UNAUTHORIZED"}`.';

/** The access paragraph of every route that lists "API-KEY and bearer": the key first, then the token. */
export const keyAndBearerAccess = `Access: API-KEY and bearer: both headers; the key is checked first (the classic 429 without a valid key, whatever the token; a bearer never replaces the key), then the token: ${bearerRules}`;

/** The access paragraph of every "bearer only" route: no key, the per-client write budget. */
export const bearerOnlyAccess = `Access: bearer only: no API key; the request spends the per-client budget of API-key writes. ${bearerRules}`;

/**
 * The OpenAPI tag of every route a client of the live Classic service calls:
 * such a client works against mkt by changing its base URL, and the tag lists what it relies on.
 */
export const LIVE_COMPATIBLE = "Live-compatible";

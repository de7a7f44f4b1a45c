import {
  CLASSIC_ACCESS_TOKEN_LIFETIME_MS,
  CLASSIC_LIVE_CHALLENGE_LIFETIME_MS,
  CLASSIC_LIVE_CHALLENGES_PER_ADDRESS,
  CLASSIC_SIGN_IN_CONSENT,
  CLASSIC_SIGN_IN_LIMITS,
  classicLiveMessageParamsSchema,
  classicLiveMessageSchema,
  classicNonceQuerySchema,
  classicNonceSchema,
  classicSessionSchema,
  classicSignInRequestSchema,
  classicSignInResponseSchema,
  classicSignOutSchema,
  classicVerifySignatureRequestSchema,
  classicVerifySignatureResponseSchema,
  MAX_SIGNATURE_BYTES,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import {
  defaultFailedVerificationBudgets,
  MAX_SIGNATURE_WINDOW_MS,
  NONCE_RULE,
  signedInAccount,
  VERIFICATION_GAS_LIMIT,
} from "../../identity/index.ts";
import { bearerOnlyAccess, keyAndBearerAccess, keyRefused, LIVE_COMPATIBLE } from "../responses.ts";
import type { ClassicAuthService } from "./service.ts";

const HOURS = CLASSIC_ACCESS_TOKEN_LIFETIME_MS / 3_600_000;
const { perAddress, perClientGroup } = defaultFailedVerificationBudgets;

const iso = (ms: number) => new Date(ms).toISOString();

const signInDescription = `Exchanges a wallet signature for an access token that identifies the wallet's account (the market's accounts: one account, several wallets, each linked by that wallet's own signature; a wallet no account holds gets a new account). Classic routes that list bearer take it as \`Authorization: Bearer <accessToken>\`. The token lasts ${HOURS} hours (no refresh: sign in again), is stored only as its SHA-256 and is revoked at once by \`POST /classic/auth/sign-out\`, by unlinking the signing wallet from the account, or by deleting the account.

The message is \`classicSignInMessage\` from \`@mkt/protocol\` (or the \`message\` of \`GET /classic/auth/nonce\`), lines in order, the Website line only when \`origin\` is given, no trailing newline:

    mkt Classic API: sign in
    Website: <origin>
    Wallet: <lowercase address>
    Chain ID: <chainId>
    Nonce: <nonce>
    Expires: <expires>

    ${CLASSIC_SIGN_IN_CONSENT}

    ${CLASSIC_SIGN_IN_LIMITS}

Rules, each refused as stated:
- \`chainId\` must be the classic chain (400 otherwise); a signature over another chain id, wallet, nonce or expiry is not a signature of this message (401);
- \`origin\`, when given, must equal the request's \`Origin\` header (403): a browser application names itself and the token is bound to the page that asked. Backends and scripts leave it out. Unlike the market's first-party sign-in, any integrator may sign its users in here;
- \`nonce\` must be ${NONCE_RULE}; it is spent only after the signature verifies, so nobody can burn another wallet's nonce;
- \`expires\` must be in the future (401) and at most ${MAX_SIGNATURE_WINDOW_MS / 60_000} minutes ahead (400);
- the signature must be the wallet's (401; 503 when the chain cannot be asked), at most ${MAX_SIGNATURE_BYTES} bytes (400). As on the market: a 65-byte EOA signature is checked locally; only otherwise, for an address with code or an ERC-6492 wrapped signature, the chain's ERC-6492 universal validator is asked (ERC-1271 and counterfactual wallets), capped at ${VERIFICATION_GAS_LIMIT} gas;
- failed verifications are budgeted with the market's: ${perAddress.limit} per signing address and ${perClientGroup.limit} per client network in ${perAddress.windowMs / 60_000} minutes, then 429 for signatures that do not recover locally.

Access: API-KEY (the search and API-key write budget; the classic 429 without a valid key).`;

const errors = {
  400: {
    description:
      "A field is missing or malformed, `chainId` is not the classic chain, `expires` is too far ahead.",
  },
  401: { description: "Bearer token missing, malformed, expired, signed out or invalid (`UNAUTHORIZED`)." },
  429: keyRefused,
  503: { description: "The database is unavailable (`SERVICE_UNAVAILABLE`)." },
};

const LIVE_MINUTES = CLASSIC_LIVE_CHALLENGE_LIFETIME_MS / 60_000;

const liveMessageDescription = `Serves the live Classic service's \`GET /vibe/auth/message/{address}\` (a client of it works here by changing its base URL to \`/classic/auth\`). Issues a sign-in challenge for \`address\`: \`{success, message, nonce, expiresAt}\` (plus \`address\` and \`chainId\`). \`message\` is the exact text to sign with personal_sign, three lines, no trailing newline (\`classicLiveSignInMessage\` in \`@mkt/protocol\`):

    Sign in to the mkt Classic API as wallet <lowercase address> on chain <classic chain id>.
    Nonce: <64 lowercase hex digits>
    Expires: <ISO 8601 time, UTC, milliseconds>

The challenge is valid ${LIVE_MINUTES} minutes and single use; post its signature to \`POST /classic/auth/verify-signature\`. The server keeps the challenge (in its database, so any replica verifies it): at most ${CLASSIC_LIVE_CHALLENGES_PER_ADDRESS} unexpired challenges per wallet, issuing one more drops the oldest (a signature of a dropped challenge is then refused). Anyone with an API key may ask for a wallet's challenge: it grants nothing without that wallet's signature. Access: API-KEY (the read budget).`;

const verifyDescription = `Serves the live Classic service's \`POST /vibe/auth/verify-signature\`. Body \`{address, signature}\` (the live service's documented \`chainId\` and \`type\` are accepted too: \`chainId\`, when given, must be the classic chain, 400 otherwise; \`type\` is ignored), \`signature\` the personal_sign of a \`message\` from \`GET /classic/auth/message/{address}\`. The server tries the wallet's unexpired challenges, newest first, and spends the one signed in the transaction that issues the token: the same access token, account model and rules as \`POST /classic/auth/sign-in\` (${HOURS} hours, stored only hashed, revoked by sign-out, by unlinking the wallet or deleting the account; note the live service's tokens last 30 days, ours ${HOURS} hours: sign in again). Answers the sign-in's fields (\`accessToken\`, \`tokenType\`, \`expiresAt\`, \`address\`, \`account\`) plus \`userId\` (the account id) and \`user\` (\`id\`, \`primaryAddress\`, \`wallets\` and the shared market profile's \`username\`, \`displayName\`, \`profileImage\`).

Refusals, in the classic body \`{success:false, message, error}\`:
- 401 \`UNAUTHORIZED\`: no unexpired challenge for the wallet (never asked, expired after ${LIVE_MINUTES} minutes, already spent: a replay, or dropped by newer ones), or a signature that is not the wallet's over any of them; \`message\` says which;
- 400: a malformed address or signature, a signature over ${MAX_SIGNATURE_BYTES} bytes, an unknown field, another \`chainId\`;
- 429: the API key's refusal, or the failed verifications of this wallet or client network spent (${perAddress.limit} per wallet and ${perClientGroup.limit} per client network in ${perAddress.windowMs / 60_000} minutes, shared with \`POST /classic/auth/sign-in\`; one request counts once however many challenges it was tried against). As on sign-in, a 65-byte EOA signature is checked locally, and contract wallets (ERC-1271, ERC-6492 counterfactual) on the classic chain, capped at ${VERIFICATION_GAS_LIMIT} gas.

Access: API-KEY (the search and API-key write budget).`;

/** The Classic API's bearer sign-in: nonce, sign-in, the signed-in session, sign-out; and the live flow. */
export function classicAuthRoutes({ auth }: { auth: ClassicAuthService }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/auth/nonce",
      operationId: "classicSignInNonce",
      summary: "A nonce and the exact message to sign",
      description: `Answers a fresh nonce, an expiry ${MAX_SIGNATURE_WINDOW_MS / 60_000} minutes ahead and the \`classicSignInMessage\` of these fields for \`address\` (and \`origin\`, when given): the wallet signs \`message\` and posts the fields to \`POST /classic/auth/sign-in\`. The server keeps nothing: the nonce is spent at sign-in, so a client may also make its own UUID v4 and build the message with \`@mkt/protocol\`. API-KEY required.`,
      tags: ["Authentication"],
      request: { query: classicNonceQuerySchema },
      responses: {
        200: { description: "The fields and the message to sign.", schema: classicNonceSchema },
        400: errors[400],
        429: errors[429],
      },
      handler: (request) => ({ success: true, ...auth.nonce(request.query) }),
    }),
    defineRoute({
      method: "POST",
      path: "/auth/sign-in",
      operationId: "classicSignIn",
      summary: "Sign in with a wallet signature for a bearer token",
      description: signInDescription,
      tags: ["Authentication"],
      request: { body: classicSignInRequestSchema },
      responses: {
        200: { description: "Signed in: the access token, shown once.", schema: classicSignInResponseSchema },
        400: errors[400],
        401: {
          description: "Expired message, reused nonce, or a signature not by this wallet over this message.",
        },
        403: { description: "`origin` given and the request's Origin header is not it." },
        429: {
          description:
            "API key missing or invalid, quota exhausted, or the failed signature verifications of this wallet or client network spent (Retry-After).",
        },
        503: { description: "The database or the chain RPC (contract wallets) is unavailable." },
      },
      handler: async (request) => {
        const origin = request.headers.origin;
        const signedIn = await auth.signIn(request.body, {
          origin: Array.isArray(origin) ? origin[0] : origin,
          ip: request.ip,
        });
        return {
          success: true,
          accessToken: signedIn.accessToken,
          tokenType: "Bearer",
          expiresAt: iso(signedIn.expiresAt),
          address: signedIn.address,
          account: signedIn.account,
        };
      },
    }),
    // The live-compatible sign-in: the challenge the server keeps, and its signature for the same token.
    defineRoute({
      method: "GET",
      path: "/auth/message/:address",
      operationId: "classicLiveSignInMessage",
      summary: "A sign-in challenge to sign (live-compatible)",
      description: liveMessageDescription,
      tags: ["Authentication", LIVE_COMPATIBLE],
      request: { params: classicLiveMessageParamsSchema },
      responses: {
        200: { description: "The challenge and the exact text to sign.", schema: classicLiveMessageSchema },
        400: { description: "`address` is not a 0x-prefixed 20-byte address." },
        429: errors[429],
        503: errors[503],
      },
      handler: async (request) => ({
        success: true,
        ...(await auth.liveMessage(request.params.address)),
      }),
    }),
    defineRoute({
      method: "POST",
      path: "/auth/verify-signature",
      operationId: "classicVerifySignature",
      summary: "Exchange a signed challenge for a bearer token (live-compatible)",
      description: verifyDescription,
      tags: ["Authentication", LIVE_COMPATIBLE],
      request: { body: classicVerifySignatureRequestSchema },
      responses: {
        200: {
          description: "Signed in: the access token, shown once.",
          schema: classicVerifySignatureResponseSchema,
        },
        400: { description: "A missing or malformed field, an unknown field, or another `chainId`." },
        401: {
          description:
            "No unexpired challenge for the wallet (expired, spent, replaced), or the signature is not the wallet's over any of them.",
        },
        429: {
          description:
            "API key missing or invalid, quota exhausted, or the failed signature verifications of this wallet or client network spent (Retry-After).",
        },
        503: { description: "The database or the chain RPC (contract wallets) is unavailable." },
      },
      handler: async (request) => {
        const signedIn = await auth.verifySignature(request.body, { origin: undefined, ip: request.ip });
        return {
          success: true,
          accessToken: signedIn.accessToken,
          tokenType: "Bearer",
          expiresAt: iso(signedIn.expiresAt),
          address: signedIn.address,
          account: signedIn.account,
          userId: signedIn.account.id,
          user: signedIn.user,
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/auth/session",
      operationId: "classicSession",
      summary: "The signed-in account and its wallets",
      description: `The account the access token signed in, every wallet linked to it now (creator writes act for these wallets), and the token's times. ${keyAndBearerAccess}`,
      tags: ["Authentication"],
      responses: {
        200: { description: "The token is valid.", schema: classicSessionSchema },
        401: errors[401],
        429: errors[429],
        503: errors[503],
      },
      handler: (request) => {
        const account = signedInAccount(request);
        return {
          success: true,
          address: account.address,
          account: { id: account.id, wallets: [...account.wallets] },
          createdAt: iso(account.createdAt),
          expiresAt: iso(account.expiresAt),
        };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/auth/sign-out",
      operationId: "classicSignOut",
      summary: "Revoke the access token",
      description: `Revokes the access token at once, on every replica; later requests with it get 401. The token is the credential. ${bearerOnlyAccess}`,
      tags: ["Authentication"],
      responses: {
        200: { description: "Signed out.", schema: classicSignOutSchema },
        401: errors[401],
        429: { description: "Too many requests from this client (the classic 429)." },
        503: errors[503],
      },
      handler: async (request) => {
        await auth.signOut(signedInAccount(request));
        return { success: true, message: "signed out" };
      },
    }),
  ];
}

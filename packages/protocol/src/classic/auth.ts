import { z } from "zod";
import { addressSchema, MAX_ACCOUNT_WALLETS, MAX_SIGNATURE_BYTES, nonceSchema } from "../account/schemas.ts";
import { integerParam } from "../params/index.ts";
import { CLASSIC_DEFAULT_CHAIN_ID, isoDateTime } from "./common.ts";

/**
 * The Classic API's bearer sign-in (docs/classic.md, Bearer sign-in).
 *
 * A wallet signs `classicSignInMessage`; `POST /classic/auth/sign-in` verifies
 * it and answers an access token for `Authorization: Bearer`. The token
 * identifies the wallet's market account (one account, several wallets, each
 * link proven by that wallet's own signature) and lasts
 * `CLASSIC_ACCESS_TOKEN_LIFETIME_MS`. The server verifies exactly what this
 * builder writes, and the SDK signs with it, so the two never disagree.
 */

/** How long a Classic access token lasts: 24 hours, no refresh (sign in again). */
export const CLASSIC_ACCESS_TOKEN_LIFETIME_MS = 24 * 3_600_000;

/** The first paragraph of the classic sign-in message. */
export const CLASSIC_SIGN_IN_CONSENT =
  "By signing, you let the application that asked sign in to the mkt Classic API for up to 24 hours as the account this wallet belongs to, with every wallet linked to it: creator drafts, allowlists, metadata, event recovery, reactions, reports and refreshes.";

/** The second paragraph of the classic sign-in message. */
export const CLASSIC_SIGN_IN_LIMITS =
  "This signature cannot spend tokens, grant allowances, transfer assets or send transactions. Signing out ends the access at once.";

/** What a classic sign-in message states. */
export interface ClassicSignInFields {
  /** The website that asks, when a browser asks: then the request's Origin must equal it. */
  origin?: string | undefined;
  address: string;
  /** The chain the wallet signs for (the classic chain, 8453). */
  chainId: number;
  nonce: string;
  /** Unix milliseconds. */
  expires: number;
}

/**
 * The exact text a wallet signs for a Classic access token
 * (`POST /classic/auth/sign-in`): lines in this order, the `Website` line only
 * when an origin is given, no trailing newline.
 *
 * @example
 * ```ts
 * const message = classicSignInMessage({ address, chainId: 8453, nonce: crypto.randomUUID(), expires: Date.now() + 120_000 });
 * const signature = await account.signMessage({ message });
 * ```
 */
export function classicSignInMessage({
  origin,
  address,
  chainId,
  nonce,
  expires,
}: ClassicSignInFields): string {
  if (!Number.isSafeInteger(expires)) throw new TypeError("expires must be an integer of Unix milliseconds");
  if (!Number.isSafeInteger(chainId) || chainId < 1)
    throw new TypeError("chainId must be a positive integer");
  return [
    "mkt Classic API: sign in",
    ...(origin === undefined ? [] : [`Website: ${origin}`]),
    `Wallet: ${address.toLowerCase()}`,
    `Chain ID: ${chainId}`,
    `Nonce: ${nonce}`,
    `Expires: ${expires}`,
    "",
    CLASSIC_SIGN_IN_CONSENT,
    "",
    CLASSIC_SIGN_IN_LIMITS,
  ].join("\n");
}

const signInNonceSchema = nonceSchema.describe(
  "A UUID v4, used once: from `GET /classic/auth/nonce` or made by the client. Either letter case; the signed message states it exactly as sent (the server changes no letter of it), and a UUID is spent once whatever its case.",
);

const chainIdSchema = z
  .number()
  .int("chainId must be an integer")
  .min(1, "chainId must be at least 1")
  .describe(`The chain in the signed message; the classic chain (${CLASSIC_DEFAULT_CHAIN_ID}).`);

/** `POST /classic/auth/sign-in`. */
export const classicSignInRequestSchema = z
  .object({
    address: addressSchema.describe("The signing wallet."),
    chainId: chainIdSchema,
    nonce: signInNonceSchema,
    expires: z
      .number()
      .int("expires must be an integer of Unix milliseconds")
      .positive()
      .describe("Unix milliseconds; in the future and at most five minutes ahead."),
    origin: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "The website origin in the signed message, when a browser application asks; the request's Origin header must then equal it. Absent for a backend or script (no Website line).",
      ),
    signature: z
      .string()
      .regex(/^0x([0-9a-fA-F]{2})+$/, "signature must be 0x-prefixed hex")
      .max(2 + 2 * MAX_SIGNATURE_BYTES, `signature is longer than ${MAX_SIGNATURE_BYTES} bytes`)
      .describe(
        `EIP-191 personal_sign signature over \`classicSignInMessage\`: 65 bytes from an EOA, an ERC-1271 signature of a deployed contract wallet, or an ERC-6492 wrapped one of a counterfactual wallet; at most ${MAX_SIGNATURE_BYTES} bytes.`,
      ),
  })
  .strict()
  .meta({ id: "ClassicSignInRequest" });

export type ClassicSignInRequest = z.input<typeof classicSignInRequestSchema>;

/** `GET /classic/auth/nonce`. */
export const classicNonceQuerySchema = z
  .object({
    address: addressSchema.describe("The wallet that will sign."),
    chainId: integerParam("chainId", { min: 1, default: CLASSIC_DEFAULT_CHAIN_ID }).describe(
      `Chain id; default ${CLASSIC_DEFAULT_CHAIN_ID}.`,
    ),
    origin: z.string().min(1).max(200).optional().describe("The website to name in the message, if any."),
  })
  .strict();

export const classicNonceSchema = z
  .object({
    success: z.literal(true),
    address: z.string().describe("The wallet (lowercase)."),
    chainId: z.number().int(),
    nonce: z.string().describe("A fresh UUID v4. The server keeps nothing: it is spent at sign-in."),
    expires: z.number().int().describe("Unix milliseconds, five minutes ahead: sign before then."),
    message: z.string().describe("`classicSignInMessage` of these fields: the exact text to sign."),
  })
  .meta({ id: "ClassicSignInNonce" });

export type ClassicNonce = z.output<typeof classicNonceSchema>;

/** The signed-in account as the Classic API shows it. */
export const classicAccountSchema = z
  .object({
    id: z.string().describe("The account id (shared with the market API)."),
    wallets: z
      .array(z.string())
      .max(MAX_ACCOUNT_WALLETS)
      .describe(
        `Every wallet linked to the account, each proven by its own signature, in link order (at most ${MAX_ACCOUNT_WALLETS}). Creator writes act for these wallets.`,
      ),
  })
  .meta({ id: "ClassicAccount" });

export type ClassicAccount = z.output<typeof classicAccountSchema>;

export const classicSignInResponseSchema = z
  .object({
    success: z.literal(true),
    accessToken: z
      .string()
      .describe(
        "The access token (`mktb_` + 43 characters), shown once. Send it as `Authorization: Bearer <accessToken>` with the API key; never in a URL or a log.",
      ),
    tokenType: z.literal("Bearer"),
    expiresAt: isoDateTime("When the token stops working, 24 hours after sign-in."),
    address: z.string().describe("The wallet that signed in (lowercase)."),
    account: classicAccountSchema,
  })
  .meta({ id: "ClassicSignIn" });

export type ClassicSignIn = z.output<typeof classicSignInResponseSchema>;

export const classicSessionSchema = z
  .object({
    success: z.literal(true),
    address: z.string().describe("The wallet that signed in (lowercase)."),
    account: classicAccountSchema,
    createdAt: isoDateTime("When the token was issued."),
    expiresAt: isoDateTime("When the token stops working."),
  })
  .meta({ id: "ClassicSession" });

export type ClassicSession = z.output<typeof classicSessionSchema>;

export const classicSignOutSchema = z
  .object({ success: z.literal(true), message: z.string() })
  .meta({ id: "ClassicSignOut" });

/**
 * The live-compatible sign-in (`GET /classic/auth/message/{address}`, then
 * `POST /classic/auth/verify-signature`): the flow clients of the live
 * Classic service already implement. The server issues the challenge and
 * keeps it, because the verify request names only the wallet and the
 * signature; it issues the same access token as `POST /classic/auth/sign-in`.
 */

/** How long a live sign-in challenge can be signed and verified: 10 minutes. */
export const CLASSIC_LIVE_CHALLENGE_LIFETIME_MS = 10 * 60_000;
/** Unexpired challenges kept per wallet; issuing one more drops the oldest. */
export const CLASSIC_LIVE_CHALLENGES_PER_ADDRESS = 5;
/** A live challenge's nonce: 64 lowercase hex digits (32 random bytes). */
export const CLASSIC_LIVE_NONCE = /^[0-9a-f]{64}$/;

/** What a live sign-in challenge states. */
export interface ClassicLiveSignInFields {
  address: string;
  /** The classic chain. */
  chainId: number;
  /** 64 lowercase hex digits. */
  nonce: string;
  /** ISO 8601 date-time (UTC, milliseconds), as the server answered it. */
  expiresAt: string;
}

/**
 * The exact text of a live sign-in challenge: three lines, no trailing newline.
 * The first names the API, the wallet (lowercase) and the chain; distinct from
 * `classicSignInMessage` and the market's, so no signature serves two of them.
 *
 * @example
 * ```ts
 * const { message } = await (await fetch(`${base}/classic/auth/message/${address}`, { headers })).json();
 * const signature = await account.signMessage({ message });
 * ```
 */
export function classicLiveSignInMessage({
  address,
  chainId,
  nonce,
  expiresAt,
}: ClassicLiveSignInFields): string {
  if (!Number.isSafeInteger(chainId) || chainId < 1)
    throw new TypeError("chainId must be a positive integer");
  return [
    `Sign in to the mkt Classic API as wallet ${address.toLowerCase()} on chain ${chainId}.`,
    `Nonce: ${nonce}`,
    `Expires: ${expiresAt}`,
  ].join("\n");
}

/** `GET /classic/auth/message/{address}`. */
export const classicLiveMessageParamsSchema = z.object({
  address: addressSchema.describe("The wallet that will sign (any case)."),
});

export const classicLiveMessageSchema = z
  .object({
    success: z.literal(true),
    message: z
      .string()
      .describe(
        "The exact text to sign (personal_sign), three lines: a sentence naming the mkt Classic API, the wallet and the chain id; `Nonce: <64 hex>`; `Expires: <ISO time>`.",
      ),
    nonce: z.string().regex(CLASSIC_LIVE_NONCE).describe("64 lowercase hex digits, random, single use."),
    expiresAt: isoDateTime("When the challenge stops being accepted, 10 minutes after it was issued."),
    address: z.string().describe("The wallet (lowercase)."),
    chainId: z.number().int().describe("The classic chain the message names."),
  })
  .meta({ id: "ClassicLiveSignInMessage" });
export type ClassicLiveMessage = z.output<typeof classicLiveMessageSchema>;

/** `POST /classic/auth/verify-signature`. */
export const classicVerifySignatureRequestSchema = z
  .object({
    address: addressSchema.describe("The wallet the challenge was issued for (any case)."),
    signature: z
      .string()
      .regex(/^0x([0-9a-fA-F]{2})+$/, "signature must be 0x-prefixed hex")
      .max(2 + 2 * MAX_SIGNATURE_BYTES, `signature is longer than ${MAX_SIGNATURE_BYTES} bytes`)
      .describe(
        `personal_sign of the challenge's \`message\`: 65 bytes from an EOA, an ERC-1271 signature of a deployed contract wallet or an ERC-6492 wrapped one of a counterfactual wallet; at most ${MAX_SIGNATURE_BYTES} bytes.`,
      ),
    chainId: z
      .number()
      .int("chainId must be an integer")
      .min(1, "chainId must be at least 1")
      .optional()
      .describe(
        "Optional (the live service's documented body has it): when given, the classic chain (400 otherwise).",
      ),
    type: z
      .string()
      .max(32)
      .optional()
      .describe(
        "Optional and ignored: the live service's documented body names a wallet type; this server tells wallets apart itself (EOA, ERC-1271, ERC-6492).",
      ),
  })
  .strict()
  .meta({ id: "ClassicVerifySignatureRequest" });
export type ClassicVerifySignatureRequest = z.input<typeof classicVerifySignatureRequestSchema>;

/** The signed-in account as the live-compatible answer shows it. */
export const classicLiveUserSchema = z
  .object({
    id: z.string().describe("The account id (= `userId`)."),
    primaryAddress: z
      .string()
      .describe("The account's primary wallet (lowercase): the first it signed in with."),
    wallets: classicAccountSchema.shape.wallets,
    username: z.string().describe("The shared market profile's username; empty when none is set."),
    displayName: z.string().describe("The username, else the verified X username, else empty."),
    profileImage: z.string().nullable().describe("The profile picture's URL, null when none."),
  })
  .meta({ id: "ClassicLiveUser" });

export const classicVerifySignatureResponseSchema = classicSignInResponseSchema
  .extend({
    userId: z.string().describe("The account id (= `account.id`)."),
    user: classicLiveUserSchema,
  })
  .meta({ id: "ClassicVerifySignature" });
export type ClassicVerifySignature = z.output<typeof classicVerifySignatureResponseSchema>;

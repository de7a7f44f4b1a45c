import { z } from "zod";

/** A lowercase or checksummed 0x address; the server lowercases it. */
export const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address")
  .transform((value) => value.toLowerCase());

/**
 * The kinds of session (docs/market.md, Accounts, sessions and messages); each has its own token
 * prefix and cookie.
 */
export const sessionKindSchema = z.enum(["account", "chat", "access"]);

export type SessionKind = z.infer<typeof sessionKindSchema>;

/**
 * Every kind of session token the server issues: the market's session kinds
 * and the Classic API's access tokens (`classic`, the bearer sign-in), which only the
 * classic routes accept.
 */
export type AnySessionKind = SessionKind | "classic";

/**
 * The longest signature accepted, in bytes. An EOA signs 65 bytes; a
 * contract wallet's ERC-1271 signature or a counterfactual wallet's ERC-6492
 * wrapper (factory, its calldata, the inner signature, the 32-byte suffix)
 * fits in well under this. Longer signatures are refused with 400.
 */
export const MAX_SIGNATURE_BYTES = 4_096;

/** The most wallets one account holds: its primary wallet and the ones linked to it (409 beyond). */
export const MAX_ACCOUNT_WALLETS = 10;

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The nonce of every signed message (sign-in, deletion, wallet links, release
 * actions, pack edits, classic sign-in): a UUID v4 in either letter case.
 * It is never rewritten: the server rebuilds the message with the nonce
 * exactly as posted, so a client that signs an uppercase UUID (Swift's
 * `uuidString`, .NET's `"D"` upper) verifies like any other. A UUID is one
 * value whatever its case, so it is spent once: the used-nonce store keys it
 * case-insensitively.
 */
export const nonceSchema = z
  .string()
  .regex(uuidV4, "nonce must be a fresh UUID v4")
  .describe(
    "A fresh UUID v4, used once. Either letter case; the signed message states it exactly as sent (the server changes no letter of it), and a UUID is spent once whatever its case.",
  );

/**
 * What a wallet signed, as posted: the fields of the signed message
 * and the signature. Used for sign-in, deletion and wallet links.
 */
export const signedEnvelopeSchema = z
  .object({
    address: addressSchema.describe("The signing wallet."),
    origin: z.string().min(1).max(200).describe("The website origin in the signed message."),
    nonce: nonceSchema,
    expires: z
      .number()
      .int("expires must be an integer of Unix milliseconds")
      .positive()
      .describe("Unix milliseconds; in the future and at most five minutes ahead."),
    signature: z
      .string()
      .regex(/^0x([0-9a-fA-F]{2})+$/, "signature must be 0x-prefixed hex")
      .max(2 + 2 * MAX_SIGNATURE_BYTES, `signature is longer than ${MAX_SIGNATURE_BYTES} bytes`)
      .describe(
        `EIP-191 personal_sign signature over the message: 65 bytes (r, s, v with v 27/28 or 0/1) from an EOA, an ERC-1271 signature of a deployed contract wallet, or an ERC-6492 wrapped signature of a counterfactual one; at most ${MAX_SIGNATURE_BYTES} bytes.`,
      ),
  })
  .strict()
  .meta({ id: "SignedEnvelope" });

export type SignedEnvelope = z.input<typeof signedEnvelopeSchema>;

/**
 * The body of a route that takes one signed action (CONTRACT.md):
 * `{address, nonce, expires, action, signature}`, the envelope's own field
 * schemas around the route's action schema.
 */
export function signedActionRequestSchema<A extends z.ZodType>(action: A, signatureDescription: string) {
  const envelope = signedEnvelopeSchema.shape;
  return z
    .object({
      address: envelope.address,
      nonce: envelope.nonce,
      expires: envelope.expires,
      action,
      signature: envelope.signature.describe(signatureDescription),
    })
    .strict();
}

export const sessionCreatedSchema = z
  .object({
    address: z.string().describe("The wallet the session is bound to (lowercase)."),
    token: z
      .string()
      .describe(
        "The session token (`mkts_` + 43 characters). Send it as `Authorization: Bearer <token>`; never put it in a URL or a log.",
      ),
    expiresAt: z.number().int().describe("Unix milliseconds; 30 days after sign-in."),
  })
  .meta({ id: "SessionCreated" });

export const proxySessionCreatedSchema = z
  .object({
    address: z.string(),
    expiresAt: z.number().int(),
  })
  .meta({ id: "ProxySessionCreated" });

export const sessionStateSchema = z
  .object({
    active: z.literal(true),
    kind: sessionKindSchema,
    address: z.string().nullable().describe("The wallet the session is bound to; null for access sessions."),
    accountId: z.string().nullable(),
    wallets: z
      .array(z.string())
      .max(MAX_ACCOUNT_WALLETS)
      .describe(
        `Every wallet of the account (each proven by its own signature), in the order they were linked: at most ${MAX_ACCOUNT_WALLETS}, the cap on wallets per account, so the list is bounded. Empty for access sessions.`,
      ),
    createdAt: z.number().int(),
    expiresAt: z.number().int(),
  })
  .meta({ id: "SessionState" });

/** `POST /market/account/session`: with the token directly, without it through the first-party proxy (cookie). */
export const signInResponseSchema = z.union([sessionCreatedSchema, proxySessionCreatedSchema]);

export const chatSessionCreatedSchema = z
  .object({
    address: z.string(),
    token: z
      .string()
      .optional()
      .describe(
        "The chat session token (`mktc_` + 43 characters), sent as a bearer token. Absent through the first-party proxy, which sets the `mkt-chat` cookie instead.",
      ),
    expiresAt: z.number().int().describe("Unix milliseconds: 24 hours, never past the account session."),
  })
  .meta({ id: "ChatSessionCreated" });

export const accessSessionRequestSchema = z
  .object({
    code: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, "code must be an invite code (8 to 64 letters, digits, - or _)"),
  })
  .strict()
  .meta({ id: "AccessSessionRequest" });

export const accessSessionCreatedSchema = z
  .object({
    token: z
      .string()
      .optional()
      .describe(
        "The access session token (`mkta_` + 43 characters), sent in the `X-MKT-Session` header. Absent through the first-party proxy, which sets the `mkt-access` cookie instead.",
      ),
    expiresAt: z.number().int(),
    invitedBy: z.string().nullable().describe("Address of the inviting account; null for operator invites."),
  })
  .meta({ id: "AccessSessionCreated" });

/** The deletion request: the deletion message's fields and signature, by the session's wallet. */
export const deletionRequestSchema = signedEnvelopeSchema.meta({ id: "DeletionRequest" });

export const deletionResultSchema = z
  .object({
    deleted: z.literal(true),
    accountId: z.string(),
    sessionsRevoked: z.number().int().describe("Sessions signed out on every device, this one included."),
  })
  .meta({ id: "DeletionResult" });

export type SessionCreated = z.output<typeof sessionCreatedSchema>;
export type SessionState = z.output<typeof sessionStateSchema>;
export type DeletionResult = z.output<typeof deletionResultSchema>;

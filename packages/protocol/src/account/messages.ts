/**
 * The texts a wallet signs for the market's account sessions. The server
 * verifies exactly what these functions build, and the SDK builds what it asks
 * a wallet to sign with the same functions, so the two can never disagree.
 *
 * Both follow the published format: lines in this order, line breaks
 * preserved, no trailing newline. The paragraphs below are the published
 * wording (the docs page of the market API quotes them).
 */

import type { SignedEnvelope } from "./schemas.ts";

export const MARKETPLACE_NAME = "mkt";

/** The first consent paragraph of the sign-in message. */
export const SIGN_IN_CONSENT =
  "By signing, you let this browser stay signed in to mkt for up to 30 days, for its offchain account areas only: release announcements and artwork edits, chat, direct messages, follows, access and referrals, profile and social-account connection, safety settings and reports, drafts and wishlists.";

/** The second paragraph of the sign-in message. */
export const SIGN_IN_LIMITS =
  "This signature cannot spend tokens, grant allowances, transfer assets or send transactions. Disconnecting your wallet or signing out ends the session.";

/** The paragraph of the deletion message. */
export const DELETION_CONSENT =
  "By signing, you ask mkt to delete the account hosted for this wallet: its profile, messages, follows, uploads and settings, and to sign out every device. Public blockchain history, published asset metadata and minimal moderation and revocation records remain.";

/** The second paragraph of the deletion message. */
export const DELETION_LIMITS =
  "This signature cannot spend tokens, grant allowances, transfer assets or send transactions, and it cannot remove a wallet from any chain.";

/** What a signed message states: the envelope (`signedEnvelopeSchema`) without its signature. */
export type SignedEnvelopeFields = Omit<SignedEnvelope, "signature">;

function envelopeLines(title: string, { origin, address, nonce, expires }: SignedEnvelopeFields) {
  if (!Number.isSafeInteger(expires)) throw new TypeError("expires must be an integer of Unix milliseconds");
  return [
    title,
    `Website: ${origin}`,
    `Wallet: ${address.toLowerCase()}`,
    `Nonce: ${nonce}`,
    `Expires: ${expires}`,
  ];
}

/** The exact text a wallet signs to start an account session (`POST /market/account/session`). */
export function signInMessage(fields: SignedEnvelopeFields): string {
  return [
    ...envelopeLines(`${MARKETPLACE_NAME} marketplace: sign in`, fields),
    "",
    SIGN_IN_CONSENT,
    "",
    SIGN_IN_LIMITS,
  ].join("\n");
}

/** The exact text a wallet signs to delete its hosted account (`POST /market/account/delete`). */
export function deletionMessage(fields: SignedEnvelopeFields): string {
  return [
    ...envelopeLines(`${MARKETPLACE_NAME} marketplace: delete account`, fields),
    "",
    DELETION_CONSENT,
    "",
    DELETION_LIMITS,
  ].join("\n");
}

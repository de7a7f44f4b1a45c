/**
 * Identity: accounts, their wallets and links, signed envelopes and wallet
 * signature checks, sessions of every kind (market bearer, proxy cookie,
 * chat, access, classic bearer), invite codes, shared profiles and account
 * deletion. Every surface signs people in through this module.
 */

export type { ClassicAccountContext } from "./classic-bearer.ts";
export {
  createClassicBearerAuth,
  signedInAccount,
} from "./classic-bearer.ts";
export type { EnvelopeChecks } from "./envelopes.ts";
export {
  createEnvelopeChecks,
  defaultFailedVerificationBudgets,
  MAX_SIGNATURE_WINDOW_MS,
  NONCE_RULE,
} from "./envelopes.ts";
export type { InviteStatus } from "./invite-codes.ts";
export { inviteStatus, isLiveInvite, redeemInvite } from "./invite-codes.ts";
export type { ProfileReader } from "./profiles.ts";
export { createProfileReader, IMAGE_ROUTE } from "./profiles.ts";
export {
  clearedSessionCookie,
  createProxyOriginCheck,
  createSessionAuth,
  onProxy,
  SESSION_COOKIES,
  sessionCookie,
  sessionPresented,
} from "./session-auth.ts";
export type { Session, SessionService } from "./sessions.ts";
export { createSessionService } from "./sessions.ts";
export { newId } from "./tokens.ts";
export type { WalletSignatureVerifier } from "./wallet-signatures.ts";
export {
  createWalletVerifier,
  ERC6492_MAGIC_SUFFIX,
  recoverSigner,
  VERIFICATION_GAS_LIMIT,
} from "./wallet-signatures.ts";
export { accountForSignIn, accountOfWallet } from "./wallets.ts";

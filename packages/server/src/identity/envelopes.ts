import type { SignedEnvelope, SignedEnvelopeFields } from "@mkt/protocol";
import type { Database, Executor } from "../db/index.ts";
import { badRequest, forbidden, RateLimitedError, unauthorized } from "../errors.ts";
import { clientGroup } from "../quotas/client-group.ts";
import type { Clock, SlidingWindowLimiter } from "../quotas/limiter.ts";
import type { Budget } from "../quotas/policies.ts";
import type { WalletSignatureVerifier } from "./wallet-signatures.ts";

/** A signed envelope's `expires` is at most five minutes ahead. */
export const MAX_SIGNATURE_WINDOW_MS = 5 * 60_000;

/** The refusal of a signed envelope whose nonce was already spent. */
export const nonceUsed = () =>
  unauthorized("this nonce was already used; sign a new message with a fresh nonce");

/**
 * The nonce rule of every signed message, as the route documents state it. The
 * protocol's `nonceSchema` rewrites no letter of a nonce, so the text the server
 * verifies is the text the client signed whatever the case of its UUID; the
 * used-nonce column is a `uuid`, which compares case-insensitively.
 */
export const NONCE_RULE =
  "a UUID v4 (400 otherwise) never used before (401), in either letter case: the server rebuilds the signed text with the nonce exactly as sent (it changes no letter), and a UUID is spent once whatever its case";

/** What a nonce was spent on, kept with it. */
export type NoncePurpose =
  | "sign-in"
  | "deletion"
  | "wallet-link"
  | "release-action"
  | "pack-edit"
  | "classic-sign-in";

/** What every signed message states besides its text: the wallet, a single-use nonce, an expiry, the signature. */
export interface SignedFields {
  address: string;
  nonce: string;
  /** Unix milliseconds. */
  expires: number;
  signature: string;
}

/**
 * Failed signature verifications allowed before further attempts that need
 * more than local recovery are refused with 429: per signing address and per
 * client group (an IPv4 address, or an IPv6 /64). A signature that recovers
 * locally to its address is accepted even then, so nobody can lock an EOA out.
 */
export interface FailedVerificationBudgets {
  perAddress: Budget;
  perClientGroup: Budget;
}

export const defaultFailedVerificationBudgets: FailedVerificationBudgets = {
  perAddress: { limit: 10, windowMs: 10 * 60_000 },
  perClientGroup: { limit: 30, windowMs: 10 * 60_000 },
};

/** Who presented an envelope, as plain values taken from the request. */
export interface EnvelopeRequest {
  /** The request's `Origin` header. */
  origin: string | undefined;
  /** The client IP as the server resolved it (TRUST_PROXY applied). */
  ip: string;
}

export interface EnvelopeCheckOptions {
  db: Database;
  clock: Clock;
  verifier: WalletSignatureVerifier;
  /** The first-party website origins; only they may have a wallet sign anything. */
  allowedOrigins: readonly string[];
  limiter: SlidingWindowLimiter;
  failedVerifications?: FailedVerificationBudgets;
}

export interface EnvelopeChecks {
  /**
   * The checks every signed envelope passes, cheapest first and the nonce
   * last: origin, time window, then the signature over `message`. A
   * signature that does not recover locally to its address is charged to
   * the failed-verification budgets, which are checked before the chain is
   * asked and before a failure is answered (429 once spent).
   */
  verify(
    envelope: SignedEnvelope,
    options: EnvelopeRequest,
    message: (fields: SignedEnvelopeFields) => string,
  ): Promise<void>;
  /**
   * The checks of a per-action signature (release actions), whose text
   * names no origin: the same time window, signature verification and
   * failed-verification budgets as an envelope, over `text`.
   */
  verifyAction(signed: SignedFields, options: Pick<EnvelopeRequest, "ip">, text: string): Promise<void>;
  /**
   * The checks of a signature over one of the challenges the server issued
   * and keeps (their expiry is the caller's: it passes only unexpired
   * ones): the same signature verification and failed-verification budgets,
   * one failure charged when the signature matches none of `texts`. Answers
   * the index of the text signed.
   */
  verifyChallenge(
    signed: Pick<SignedFields, "address" | "signature">,
    options: Pick<EnvelopeRequest, "ip">,
    texts: readonly string[],
  ): Promise<number>;
  /**
   * Marks a verified envelope's nonce used, in the caller's transaction; a
   * second use is refused. The `uuid` column makes `ABC…` and `abc…` one
   * nonce: a UUID is one value whatever its letter case.
   */
  consumeNonce(
    tx: Executor,
    envelope: Pick<SignedFields, "nonce" | "expires">,
    purpose: NoncePurpose,
  ): Promise<void>;
  /** Drops nonces whose signatures can no longer be replayed anyway. */
  sweepNonces(): Promise<void>;
}

/**
 * Signed envelopes (sign-in, deletion, wallet-link proofs) and their nonces,
 * following docs/market.md, Accounts, sessions and messages. A caller verifies an envelope first and
 * consumes its nonce in the transaction that acts on it, so nobody can burn
 * another wallet's nonce and a nonce is spent only with the change it allows.
 */
export function createEnvelopeChecks({
  db,
  clock,
  verifier,
  allowedOrigins,
  limiter,
  failedVerifications = defaultFailedVerificationBudgets,
}: EnvelopeCheckOptions): EnvelopeChecks {
  const allowed = new Set(allowedOrigins);
  const { perAddress, perClientGroup } = failedVerifications;
  const counters = (address: string, ip: string) => [
    { id: `sigfail:address:${address.toLowerCase()}`, budget: perAddress },
    { id: `sigfail:group:${clientGroup(ip)}`, budget: perClientGroup },
  ];

  /** Refuses with 429 once the address or the client group has spent its failed verifications. */
  const refuseWhenSpent = (address: string, ip: string) => {
    for (const { id, budget } of counters(address, ip)) {
      const state = limiter.peek(id, budget.limit, budget.windowMs);
      if (!state.allowed) {
        throw new RateLimitedError(
          "failed_attempts",
          "too many failed signature verifications for this wallet or from this network; retry later",
          { retryAfterSeconds: state.retryAfterSeconds },
        );
      }
    }
  };
  const chargeFailure = (address: string, ip: string) => {
    for (const { id, budget } of counters(address, ip)) limiter.take(id, budget.limit, budget.windowMs);
  };

  /**
   * Which of `texts` the signature is the address's signature of (its index),
   * charging one failure to the budgets when it is none of them (401).
   */
  const verifySignature = async (
    signed: Pick<SignedFields, "address" | "signature">,
    ip: string,
    texts: readonly string[],
  ): Promise<number> => {
    const index = await verifier.verifyAny(
      { address: signed.address, messages: texts, signature: signed.signature },
      { beforeChain: () => refuseWhenSpent(signed.address, ip) },
    );
    if (index < 0) {
      refuseWhenSpent(signed.address, ip);
      chargeFailure(signed.address, ip);
      throw unauthorized("the signature is not valid for this wallet and message");
    }
    return index;
  };

  /** Time window, then the signature over `text`, charging a failure to the budgets. */
  const verifySigned = async (signed: SignedFields, ip: string, text: string): Promise<void> => {
    const now = clock.now();
    if (signed.expires <= now) throw unauthorized("the signed message has expired; sign a new one");
    if (signed.expires > now + MAX_SIGNATURE_WINDOW_MS) {
      throw badRequest("expires must be at most five minutes ahead");
    }
    await verifySignature(signed, ip, [text]);
  };

  return {
    async verify(
      envelope: SignedEnvelope,
      { origin: requestOrigin, ip }: EnvelopeRequest,
      message: (fields: SignedEnvelopeFields) => string,
    ): Promise<void> {
      if (requestOrigin === undefined) throw forbidden("the Origin header is required to sign in");
      if (!allowed.has(requestOrigin)) {
        throw forbidden(`origin ${requestOrigin} may not sign in; only the first-party website origins may`);
      }
      if (envelope.origin !== requestOrigin) {
        throw forbidden("the request Origin does not equal the origin in the signed message");
      }
      await verifySigned(
        envelope,
        ip,
        message({
          origin: envelope.origin,
          address: envelope.address,
          nonce: envelope.nonce,
          expires: envelope.expires,
        }),
      );
    },

    verifyAction: (signed: SignedFields, { ip }: Pick<EnvelopeRequest, "ip">, text: string) =>
      verifySigned(signed, ip, text),

    verifyChallenge: (
      signed: Pick<SignedFields, "address" | "signature">,
      { ip }: Pick<EnvelopeRequest, "ip">,
      texts: readonly string[],
    ) => verifySignature(signed, ip, texts),

    async consumeNonce(
      tx: Executor,
      envelope: Pick<SignedFields, "nonce" | "expires">,
      purpose: NoncePurpose,
    ): Promise<void> {
      const inserted = await tx
        .insertInto("used_nonces")
        .values({
          nonce: envelope.nonce,
          purpose,
          expires_at: new Date(envelope.expires + MAX_SIGNATURE_WINDOW_MS),
        })
        .onConflict((oc) => oc.column("nonce").doNothing())
        .returning("nonce")
        .executeTakeFirst();
      if (!inserted) {
        throw nonceUsed();
      }
    },

    async sweepNonces(): Promise<void> {
      await db.kysely.deleteFrom("used_nonces").where("expires_at", "<", new Date(clock.now())).execute();
    },
  };
}

import { randomUUID } from "node:crypto";
import {
  CLASSIC_ACCESS_TOKEN_LIFETIME_MS,
  type ClassicAccount,
  type ClassicLiveMessage,
  type ClassicNonce,
  classicLiveSignInMessage,
  classicSignInMessage,
  type classicSignInRequestSchema,
  type classicVerifySignatureRequestSchema,
} from "@mkt/protocol";
import type { z } from "zod";
import type { Database, Executor } from "../../db/index.ts";
import { badRequest, forbidden, unauthorized } from "../../errors.ts";
import {
  accountForSignIn,
  type ClassicAccountContext,
  MAX_SIGNATURE_WINDOW_MS,
  type ProfileReader,
  type SessionService,
} from "../../identity/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { classicProfileFields } from "../user-data.ts";
import { createSignInChallenges, type SignInChallenge } from "./challenges.ts";

/** Who sent a sign-in, as plain values taken from the request. */
export interface ClassicSignInSender {
  /** The request's `Origin` header, when a browser sent one. */
  origin: string | undefined;
  /** The client IP as the server resolved it (TRUST_PROXY applied). */
  ip: string;
}

export interface ClassicAuthDeps {
  db: Database;
  clock: Clock;
  sessions: SessionService;
  /** The chain a sign-in names: the classic chain, whose RPC verifies contract wallets. */
  chainId: number;
  /** Shared market profiles: the live answer's `user`. */
  profiles: ProfileReader;
}

/** The signed-in account as the live-compatible answer shows it. */
export interface ClassicLiveUser {
  id: string;
  primaryAddress: string;
  wallets: string[];
  username: string;
  displayName: string;
  profileImage: string | null;
}

/** A bearer token just issued, with the account it acts for. */
export interface ClassicTokenIssued {
  /** The access token (`mktb_…`), shown once. */
  accessToken: string;
  /** Unix milliseconds when the token stops working. */
  expiresAt: number;
  /** The wallet that signed in (lowercase). */
  address: string;
  account: ClassicAccount;
}

export interface ClassicAuthService {
  /** The classic chain every sign-in must name. */
  chainId: number;
  /**
   * `GET /classic/auth/nonce`: a fresh nonce and the message to sign. Nothing
   * is stored: the nonce is spent at sign-in, so a client may equally make
   * its own UUID v4.
   */
  nonce(query: { address: string; chainId: number; origin?: string }): Omit<ClassicNonce, "success">;
  /**
   * `POST /classic/auth/sign-in`: the chain, the Origin binding, then the
   * signature (the envelope checks of the market), and only then the nonce,
   * in the transaction that issues the token, so nobody burns another
   * wallet's nonce. A wallet no account holds gets a new account.
   */
  signIn(
    signed: z.output<typeof classicSignInRequestSchema>,
    sender: ClassicSignInSender,
  ): Promise<ClassicTokenIssued>;
  /**
   * `GET /classic/auth/message/{address}` (the live flow): a challenge the
   * server keeps, valid 10 minutes, and its text.
   */
  liveMessage(address: string): Promise<Omit<ClassicLiveMessage, "success">>;
  /**
   * `POST /classic/auth/verify-signature` (the live flow): the address's
   * unexpired challenges, newest first, are tried against the signature
   * (the envelope checks' verification and failed-verification budgets,
   * one failure per request), and the challenge it signed is spent in the
   * transaction that issues the same token as `signIn`.
   */
  verifySignature(
    signed: z.output<typeof classicVerifySignatureRequestSchema>,
    sender: ClassicSignInSender,
  ): Promise<ClassicTokenIssued & { user: ClassicLiveUser }>;
  /** `POST /classic/auth/sign-out`: revokes the token at once, on every replica. */
  signOut(account: Pick<ClassicAccountContext, "sessionId">): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Classic API bearer tokens (docs/classic.md, Bearer sign-in), built on the
 * market's account model: the same accounts and wallet links, the same signed
 * envelope checks (time window, EOA then ERC-1271/6492 verification,
 * failed-verification budgets, single-use nonces) and the same session table,
 * as the session kind `classic` (`mktb_` tokens, stored only as SHA-256).
 * Sign-out, unlinking the signing wallet and deleting the account revoke a
 * token at once, on every replica.
 */
export function createClassicAuthService({
  db,
  clock,
  sessions,
  chainId,
  profiles,
}: ClassicAuthDeps): ClassicAuthService {
  const { envelopes } = sessions;
  const challenges = createSignInChallenges({ db, clock });
  const liveMessage = (challenge: SignInChallenge) =>
    classicLiveSignInMessage({
      address: challenge.address,
      chainId,
      nonce: challenge.nonce,
      expiresAt: iso(challenge.expiresAt),
    });

  /**
   * The one token issuance of both sign-ins: `spend` spends the signed
   * single-use value (a nonce, a challenge) in the transaction that issues the
   * token, so a value is spent only with the token it bought. A wallet no
   * account holds gets a new account.
   */
  const issue = async (
    address: string,
    origin: string | null,
    spend: (tx: Executor) => Promise<void>,
  ): Promise<ClassicTokenIssued> => {
    const issued = await db.kysely.transaction().execute(async (tx) => {
      await spend(tx);
      const accountId = await accountForSignIn(tx, address);
      const session = await sessions.open(tx, {
        kind: "classic",
        accountId,
        wallet: address,
        origin,
        expiresAt: clock.now() + CLASSIC_ACCESS_TOKEN_LIFETIME_MS,
      });
      return { ...session, accountId };
    });
    return {
      accessToken: issued.token,
      expiresAt: issued.expiresAt,
      address,
      account: { id: issued.accountId, wallets: await sessions.wallets.of(issued.accountId) },
    };
  };

  /** The account with its shared market profile (two reads; the profile may be empty). */
  const liveUser = async (account: { id: string; wallets: string[] }): Promise<ClassicLiveUser> => {
    const profile = await profiles.ofAccount(account.id);
    return {
      id: account.id,
      primaryAddress: profile?.address ?? account.wallets[0] ?? "",
      wallets: account.wallets,
      ...(profile ? classicProfileFields(profile) : { username: "", displayName: "", profileImage: null }),
    };
  };

  return {
    chainId,

    nonce({ address, chainId: asked, origin }: { address: string; chainId: number; origin?: string }) {
      if (asked !== chainId) throw badRequest(`chainId must be ${chainId}, the classic chain`);
      const fields = {
        address,
        chainId,
        nonce: randomUUID(),
        expires: clock.now() + MAX_SIGNATURE_WINDOW_MS,
      };
      return { ...fields, message: classicSignInMessage({ ...fields, origin }) };
    },

    async signIn(signed: z.output<typeof classicSignInRequestSchema>, sender: ClassicSignInSender) {
      if (signed.chainId !== chainId) throw badRequest(`chainId must be ${chainId}, the classic chain`);
      if (signed.origin !== undefined && signed.origin !== sender.origin) {
        throw forbidden("the request Origin does not equal the origin in the signed message");
      }
      await envelopes.verifyAction(signed, sender, classicSignInMessage(signed));
      return issue(signed.address, signed.origin ?? null, (tx) =>
        envelopes.consumeNonce(tx, signed, "classic-sign-in"),
      );
    },

    async liveMessage(address: string) {
      const challenge = await challenges.issue(address);
      return {
        message: liveMessage(challenge),
        nonce: challenge.nonce,
        expiresAt: iso(challenge.expiresAt),
        address,
        chainId,
      };
    },

    async verifySignature(
      signed: z.output<typeof classicVerifySignatureRequestSchema>,
      sender: ClassicSignInSender,
    ) {
      if (signed.chainId !== undefined && signed.chainId !== chainId)
        throw badRequest(`chainId must be ${chainId}, the classic chain`);
      const open = await challenges.unexpired(signed.address);
      if (open.length === 0)
        throw unauthorized(
          "no unexpired sign-in message for this wallet: get one from GET /classic/auth/message/{address} and sign it",
        );
      const index = await envelopes.verifyChallenge(signed, sender, open.map(liveMessage));
      const challenge = open[index] as SignInChallenge;
      const signedIn = await issue(signed.address, null, async (tx) => {
        if (!(await challenges.consume(tx, challenge)))
          throw unauthorized("this sign-in message was already used or has expired; get a new one");
      });
      return { ...signedIn, user: await liveUser(signedIn.account) };
    },

    signOut: (account: Pick<ClassicAccountContext, "sessionId">) =>
      sessions.signOut({ id: account.sessionId }),
  };
}

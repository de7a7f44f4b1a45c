import { randomUUID } from "node:crypto";
import {
  CLASSIC_ACCESS_TOKEN_LIFETIME_MS,
  classicSignInMessage,
  type classicSignInRequestSchema,
} from "@mkt/protocol";
import type { z } from "zod";
import type { Database } from "../../db/index.ts";
import { badRequest, forbidden } from "../../errors.ts";
import {
  accountForSignIn,
  type ClassicAccountContext,
  MAX_SIGNATURE_WINDOW_MS,
  type SessionService,
} from "../../identity/index.ts";
import type { Clock } from "../../quotas/limiter.ts";

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
}

/**
 * Classic API bearer tokens (classic-api.md section 5, issue 14), built on the
 * market's account model: the same accounts and wallet links, the same signed
 * envelope checks (time window, EOA then ERC-1271/6492 verification,
 * failed-verification budgets, single-use nonces) and the same session table,
 * as the session kind `classic` (`mktb_` tokens, stored only as SHA-256).
 * Sign-out, unlinking the signing wallet and deleting the account revoke a
 * token at once, on every replica.
 */
export function createClassicAuthService({ db, clock, sessions, chainId }: ClassicAuthDeps) {
  const { envelopes } = sessions;

  return {
    chainId,

    /**
     * `GET /classic/auth/nonce`: a fresh nonce and the message to sign. Nothing
     * is stored: the nonce is spent at sign-in, so a client may equally make
     * its own UUID v4.
     */
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

    /**
     * `POST /classic/auth/sign-in`: the chain, the Origin binding, then the
     * signature (the envelope checks of the market), and only then the nonce,
     * in the transaction that issues the token, so nobody burns another
     * wallet's nonce. A wallet no account holds gets a new account.
     */
    async signIn(signed: z.output<typeof classicSignInRequestSchema>, sender: ClassicSignInSender) {
      if (signed.chainId !== chainId) throw badRequest(`chainId must be ${chainId}, the classic chain`);
      if (signed.origin !== undefined && signed.origin !== sender.origin) {
        throw forbidden("the request Origin does not equal the origin in the signed message");
      }
      await envelopes.verifyAction(signed, sender, classicSignInMessage(signed));
      const issued = await db.kysely.transaction().execute(async (tx) => {
        await envelopes.consumeNonce(tx, signed, "classic-sign-in");
        const accountId = await accountForSignIn(tx, signed.address);
        const session = await sessions.open(tx, {
          kind: "classic",
          accountId,
          wallet: signed.address,
          origin: signed.origin ?? null,
          expiresAt: clock.now() + CLASSIC_ACCESS_TOKEN_LIFETIME_MS,
        });
        return { ...session, accountId };
      });
      return {
        accessToken: issued.token,
        expiresAt: issued.expiresAt,
        address: signed.address,
        account: { id: issued.accountId, wallets: await sessions.wallets.of(issued.accountId) },
      };
    },

    /** `POST /classic/auth/sign-out`: revokes the token at once, on every replica. */
    signOut: (account: Pick<ClassicAccountContext, "sessionId">) =>
      sessions.signOut({ id: account.sessionId }),
  };
}

export type ClassicAuthService = ReturnType<typeof createClassicAuthService>;

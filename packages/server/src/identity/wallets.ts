import {
  type AccountActionResult,
  MAX_ACCOUNT_WALLETS,
  type SignedEnvelope,
  signInMessage,
} from "@mkt/protocol";
import type { Executor } from "../db/index.ts";
import { AppError, forbidden } from "../errors.ts";
import type { EnvelopeRequest } from "./envelopes.ts";
import type { AccountServiceDeps, Session } from "./session-types.ts";
import { newId } from "./tokens.ts";

/** The account a wallet belongs to, or undefined when no account holds it. */
export async function accountOfWallet(tx: Executor, address: string): Promise<string | undefined> {
  const row = await tx
    .selectFrom("account_wallets")
    .select("account_id")
    .where("address", "=", address)
    .executeTakeFirst();
  return row?.account_id;
}

/**
 * The account a wallet signs in to: the one holding it, or, for a wallet no
 * account holds, a new account whose primary wallet it is. Race-free across
 * concurrent first requests of one wallet (sign-ins, releases, on any
 * replica): the wallet's row is inserted `ON CONFLICT DO NOTHING`, which waits
 * for a concurrent transaction holding the same address; when that one won,
 * the account opened here is removed again and the winner's is answered.
 */
export async function accountForSignIn(tx: Executor, address: string): Promise<string> {
  const existing = await accountOfWallet(tx, address);
  if (existing !== undefined) return existing;
  const accountId = newId("acct");
  await tx
    .insertInto("accounts")
    .values({ id: accountId, primary_address: address, username: null, referred_by: null })
    .execute();
  const held = await tx
    .insertInto("account_wallets")
    .values({ address, account_id: accountId })
    .onConflict((conflict) => conflict.column("address").doNothing())
    .returning("account_id")
    .executeTakeFirst();
  if (held !== undefined) return accountId;
  await tx.deleteFrom("accounts").where("id", "=", accountId).execute();
  const winner = await accountOfWallet(tx, address);
  if (winner === undefined) throw new AppError("internal", "a wallet's concurrent account vanished");
  return winner;
}

export interface WalletService {
  /** Every wallet of the account (at most MAX_ACCOUNT_WALLETS), in the order they were linked. */
  of(accountId: string): Promise<string[]>;
  /**
   * Links another wallet to the session's account, proven by that wallet's
   * own sign-in signature; 409 when the account holds MAX_ACCOUNT_WALLETS.
   */
  link(
    session: Session,
    proof: SignedEnvelope,
    request: EnvelopeRequest,
  ): Promise<AccountActionResult<"wallet-link">>;
  /** Removes a wallet from the account and signs out its sessions; the primary wallet stays. */
  unlink(session: Session, address: string): Promise<AccountActionResult<"wallet-unlink">>;
}

/**
 * An account's wallets. An account has one or more wallets, each proven by
 * its own signature: the first by signing in, the others by `wallet-link`
 * with a sign-in message the added wallet signed. A wallet belongs to one
 * account at most, and an account holds at most MAX_ACCOUNT_WALLETS, so
 * every answer that lists them is bounded.
 */
export function createWalletService({ db, envelopes, revocations }: AccountServiceDeps): WalletService {
  return {
    async of(accountId: string): Promise<string[]> {
      const rows = await db.kysely
        .selectFrom("account_wallets")
        .select("address")
        .where("account_id", "=", accountId)
        .orderBy("linked_at")
        .orderBy("address")
        .limit(MAX_ACCOUNT_WALLETS)
        .execute();
      return rows.map((row) => row.address);
    },

    async link(session: Session, proof: SignedEnvelope, request: EnvelopeRequest) {
      if (session.accountId === null) throw forbidden("only an account session can link wallets");
      if (proof.origin !== session.origin) {
        throw forbidden("the wallet proof must be signed for the same origin as this session");
      }
      await envelopes.verify(proof, request, signInMessage);
      const accountId = session.accountId;
      return db.kysely.transaction().execute(async (tx) => {
        await envelopes.consumeNonce(tx, proof, "wallet-link");
        const owner = await accountOfWallet(tx, proof.address);
        if (owner === accountId) return { address: proof.address, linked: true as const };
        if (owner !== undefined) {
          throw new AppError("conflict", "this wallet belongs to another account; delete that account first");
        }
        // The account row is locked so that concurrent links count one after the other.
        await tx.selectFrom("accounts").select("id").where("id", "=", accountId).forUpdate().execute();
        const held = await tx
          .selectFrom("account_wallets")
          .select((eb) => eb.fn.countAll<string>().as("count"))
          .where("account_id", "=", accountId)
          .executeTakeFirstOrThrow();
        if (Number(held.count) >= MAX_ACCOUNT_WALLETS) {
          throw new AppError(
            "conflict",
            `an account holds at most ${MAX_ACCOUNT_WALLETS} wallets; unlink one before linking another`,
          );
        }
        await tx
          .insertInto("account_wallets")
          .values({ address: proof.address, account_id: accountId })
          .execute();
        return { address: proof.address, linked: true as const };
      });
    },

    async unlink(session: Session, address: string) {
      if (session.accountId === null) throw forbidden("only an account session can unlink wallets");
      const accountId = session.accountId;
      const revoked = await db.kysely.transaction().execute(async (tx) => {
        const account = await tx
          .selectFrom("accounts")
          .select("primary_address")
          .where("id", "=", accountId)
          .executeTakeFirstOrThrow();
        if (account.primary_address === address) {
          throw new AppError("conflict", "the account's primary wallet cannot be unlinked");
        }
        const removed = await tx
          .deleteFrom("account_wallets")
          .where("address", "=", address)
          .where("account_id", "=", accountId)
          .returning("address")
          .executeTakeFirst();
        if (!removed) throw new AppError("not_found", "this wallet is not linked to the account");
        return revocations.revoke(tx, { accountId, wallet: address }, "wallet-unlinked");
      });
      await revocations.announce(revoked);
      return { address, unlinked: true as const, sessionsRevoked: revoked.length };
    },
  };
}

import { createHash } from "node:crypto";
import { type DeletionResult, deletionMessage, type SignedEnvelope } from "@mkt/protocol";
import { forbidden } from "../errors.ts";
import type { EnvelopeRequest } from "./envelopes.ts";
import type { AccountServiceDeps, Session } from "./session-types.ts";

const addressHash = (address: string) => createHash("sha256").update(address).digest("hex");

export interface AccountDeletion {
  /** Deletes the session's account once its holder signed the deletion message, signing out every session of it. */
  deleteAccount(
    session: Session,
    envelope: SignedEnvelope,
    request: EnvelopeRequest,
  ): Promise<DeletionResult>;
}

/**
 * `POST /market/account/delete`: a fresh deletion signature by the session's
 * own wallet. Removes the account's hosted data (the foreign keys cascade),
 * signs out every device, and keeps the minimal records that prevent
 * reuse of deleted sessions: revoked session hashes and a deletion audit row without
 * addresses.
 */
export function createAccountDeletion({ db, envelopes, revocations }: AccountServiceDeps): AccountDeletion {
  return {
    async deleteAccount(session: Session, envelope: SignedEnvelope, request: EnvelopeRequest) {
      if (session.kind !== "account" || session.accountId === null) {
        throw forbidden("only an account session can delete an account");
      }
      if (envelope.address !== session.wallet) {
        throw forbidden("the deletion must be signed by the session's wallet");
      }
      await envelopes.verify(envelope, request, deletionMessage);
      const accountId = session.accountId;
      const revoked = await db.kysely.transaction().execute(async (tx) => {
        await envelopes.consumeNonce(tx, envelope, "deletion");
        const wallets = await tx
          .selectFrom("account_wallets")
          .select("address")
          .where("account_id", "=", accountId)
          .execute();
        const revoked = await revocations.revoke(tx, { accountId }, "account-deleted");
        // Revocation records keep no personal data.
        await tx
          .updateTable("sessions")
          .set({ wallet: null, origin: null })
          .where("account_id", "=", accountId)
          .execute();
        await tx
          .insertInto("account_deletions")
          .values({
            account_id: accountId,
            wallet_hashes: wallets.map((wallet) => addressHash(wallet.address)),
            sessions_revoked: revoked.length,
          })
          .execute();
        await tx.deleteFrom("accounts").where("id", "=", accountId).execute();
        return revoked;
      });
      await revocations.announce(revoked);
      return { deleted: true as const, accountId, sessionsRevoked: revoked.length };
    },
  };
}

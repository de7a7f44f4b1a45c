import type { ExpressionBuilder } from "kysely";
import type { DB, Executor } from "../db/index.ts";
import { AppError } from "../errors.ts";
import { hashSecret } from "../keys/secrets.ts";

export type InviteStatus = "live" | "used-up" | "revoked";

/**
 * An invite's status, as SQL: the one place the rule is written. An invite is
 * live while it is not revoked and has uses left; revocation wins over use.
 */
export const inviteStatus = (eb: ExpressionBuilder<DB, "invites">) =>
  eb
    .case()
    .when("revoked_at", "is not", null)
    .then(eb.val<InviteStatus>("revoked"))
    .when("uses", ">=", eb.ref("max_uses"))
    .then(eb.val<InviteStatus>("used-up"))
    .else(eb.val<InviteStatus>("live"))
    .end();

export const isLiveInvite = (eb: ExpressionBuilder<DB, "invites">) => eb(inviteStatus(eb), "=", "live");

/**
 * Spends one use of a live invite in the caller's transaction, for an access
 * session (`POST /market/access/session`). Answers the invite and the address
 * of the account that made it (null for an operator invite); a code that is
 * unknown, revoked or used up is a 403.
 */
export async function redeemInvite(tx: Executor, code: string) {
  const invite = await tx
    .updateTable("invites")
    .set((eb) => ({ uses: eb("uses", "+", 1) }))
    .where("code_hash", "=", hashSecret(code))
    .where(isLiveInvite)
    .returning(["id", "created_by"])
    .executeTakeFirst();
  if (!invite) throw new AppError("forbidden", "the invite code is unknown, revoked or used up");
  const creator =
    invite.created_by === null
      ? undefined
      : await tx
          .selectFrom("accounts")
          .select("primary_address")
          .where("id", "=", invite.created_by)
          .executeTakeFirst();
  return { inviteId: invite.id, invitedBy: creator?.primary_address ?? null };
}

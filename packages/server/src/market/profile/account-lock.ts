import type { Transaction } from "kysely";
import type { DB } from "../../db/index.ts";

/**
 * Locks the account's row for the rest of the transaction, so per-account
 * limits (wishlist size, artwork count, live invites) hold under concurrent
 * requests on any replica.
 */
export async function lockAccount(tx: Transaction<DB>, accountId: string): Promise<void> {
  await tx
    .selectFrom("accounts")
    .select("id")
    .where("id", "=", accountId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

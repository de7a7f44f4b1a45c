import { PROFILE_LIMITS } from "@mkt/protocol";
import type { Database } from "../../db/index.ts";
import { conflict } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { ActionHandlers } from "../accounts/actions.ts";
import { lockAccount } from "./account-lock.ts";

/** The release ids on an account's private wishlist, oldest first (the release list's `wishlist`). */
export async function readWishlist(db: Database, accountId: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom("wishlists")
    .select("release_id")
    .where("account_id", "=", accountId)
    .orderBy("created_at")
    .orderBy("release_id")
    // Bounded by the cap on wishlists (wishlist-add refuses beyond it).
    .limit(PROFILE_LIMITS.wishlist)
    .execute();
  return rows.map((row) => row.release_id);
}

/**
 * An account's private wishlist of release ids. Ids are not checked against
 * the catalog (a release may be announced later or withdrawn); the release
 * list resolves the ones that exist.
 */
export function createWishlists({ db, clock }: { db: Database; clock: Clock }) {
  return {
    /** Adds a release once; at most `PROFILE_LIMITS.wishlist` ids (409 beyond). */
    async add(accountId: string, releaseId: string) {
      return db.kysely.transaction().execute(async (tx) => {
        await lockAccount(tx, accountId);
        const present = await tx
          .selectFrom("wishlists")
          .select((eb) => [
            eb.fn.countAll<string>().as("count"),
            eb.fn.countAll<string>().filterWhere("release_id", "=", releaseId).as("this"),
          ])
          .where("account_id", "=", accountId)
          .executeTakeFirstOrThrow();
        if (Number(present.this) === 0) {
          if (Number(present.count) >= PROFILE_LIMITS.wishlist) {
            throw conflict(`the wishlist is full (${PROFILE_LIMITS.wishlist} releases); remove one first`);
          }
          await tx
            .insertInto("wishlists")
            .values({ account_id: accountId, release_id: releaseId, created_at: new Date(clock.now()) })
            .execute();
        }
        return { releaseId, wishlisted: true as const };
      });
    },

    /** Removes a release; `removed` is false when it was not listed. */
    async remove(accountId: string, releaseId: string) {
      const removed = await db.kysely
        .deleteFrom("wishlists")
        .where("account_id", "=", accountId)
        .where("release_id", "=", releaseId)
        .returning("release_id")
        .executeTakeFirst();
      return { releaseId, wishlisted: false as const, removed: removed !== undefined };
    },

    list: (accountId: string) => readWishlist(db, accountId),
  };
}

export type Wishlists = ReturnType<typeof createWishlists>;

/** `wishlist-add`, `wishlist-remove`, `wishlist-list`: the caller's private wishlist. */
export function wishlistActions(
  wishlists: Wishlists,
): Pick<ActionHandlers, "wishlist-add" | "wishlist-remove" | "wishlist-list"> {
  return {
    "wishlist-add": async ({ session }, { releaseId }) => wishlists.add(session.accountId, releaseId),
    "wishlist-remove": async ({ session }, { releaseId }) => wishlists.remove(session.accountId, releaseId),
    "wishlist-list": async ({ session }) => ({ wishlist: await wishlists.list(session.accountId) }),
  };
}

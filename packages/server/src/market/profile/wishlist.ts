import { type AccountActionResult, PROFILE_LIMITS } from "@mkt/protocol";
import type { Database } from "../../db/index.ts";
import { conflict, notFound } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { ActionHandlers } from "../accounts/actions.ts";
import { visibleTo } from "../releases/index.ts";
import { lockAccount } from "./account-lock.ts";

/**
 * The release ids on an account's private wishlist that it may see, oldest
 * wish first (the order of the release list's `wishlist`).
 */
export async function readWishlist(db: Database, accountId: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom("wishlists")
    .innerJoin("releases", "releases.id", "wishlists.release_id")
    .select("wishlists.release_id")
    .where("wishlists.account_id", "=", accountId)
    .where(visibleTo(accountId))
    .orderBy("wishlists.created_at")
    .orderBy("wishlists.seq")
    // Bounded by the cap on wishlists (wishlist-add refuses beyond it).
    .limit(PROFILE_LIMITS.wishlist)
    .execute();
  return rows.map((row) => row.release_id);
}

export interface Wishlists {
  /** Adds a release once; at most `PROFILE_LIMITS.wishlist` ids (409 beyond). */
  add(accountId: string, releaseId: string): Promise<AccountActionResult<"wishlist-add">>;
  /** Removes a release; `removed` is false when it was not listed (an unknown id included). */
  remove(accountId: string, releaseId: string): Promise<AccountActionResult<"wishlist-remove">>;
  /** The account's wishlisted release ids, oldest first. */
  list(accountId: string): Promise<string[]>;
}

/**
 * An account's private wishlist of releases. Only a release the account may
 * see can be added (a public one or its own draft; anything else is a 404,
 * like an unknown id, so another owner's draft stays unknown). A release that
 * is deleted leaves every wishlist (foreign key, ON DELETE CASCADE), as do
 * the rows of a deleted account.
 */
export function createWishlists({ db, clock }: { db: Database; clock: Clock }): Wishlists {
  return {
    async add(accountId: string, releaseId: string) {
      return db.kysely.transaction().execute(async (tx) => {
        await lockAccount(tx, accountId);
        // FOR SHARE: the release cannot be deleted before this transaction ends.
        const release = await tx
          .selectFrom("releases")
          .select("releases.id")
          .where("releases.id", "=", releaseId)
          .where(visibleTo(accountId))
          .forShare()
          .executeTakeFirst();
        if (!release) throw notFound(`release ${releaseId} does not exist`);
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

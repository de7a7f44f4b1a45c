import type { FollowList, FollowState } from "@mkt/protocol";
import { badRequest, forbidden } from "../../errors.ts";
import { type PagedServiceDeps, type PageRequest, timeCursor, toPage } from "../../paging/index.ts";
import { type Actor, blocksBetween, requireAccount } from "./directory.ts";

export interface FollowService {
  /** The `follow` action and `PUT /follows/{address}`; following again changes nothing. */
  follow(follower: Actor, wallet: string): Promise<FollowState>;
  /** The `unfollow` action and `DELETE /follows/{address}`; unfollowing twice changes nothing. */
  unfollow(follower: Actor, wallet: string): Promise<FollowState>;
  /** `GET /accounts/{address}/followers`. */
  followers(wallet: string, page: PageRequest): Promise<FollowList>;
  /** `GET /accounts/{address}/following`. */
  following(wallet: string, page: PageRequest): Promise<FollowList>;
}

/**
 * Follows between accounts. Following is public (the follower lists are
 * public reads) and decides who may message an account whose `dmPolicy` is
 * `following`. A block in either direction forbids following; blocking
 * removes the follows both ways (see the safety service).
 */
export function createFollowService({ db, clock, cursors }: PagedServiceDeps): FollowService {
  const k = db.kysely;

  /**
   * One side of the follow graph, newest first. `created_at` is always written
   * from the clock in whole milliseconds, so the cursor's time compares exactly.
   */
  const list = async (
    wallet: string,
    side: "followers" | "following",
    { cursor, limit }: PageRequest,
  ): Promise<FollowList> => {
    const account = await requireAccount(k, wallet);
    const listCursor = timeCursor.for(cursors, side, account.id);
    const after = cursor === undefined ? undefined : listCursor.decode(cursor);
    const [own, other] =
      side === "followers"
        ? (["f.followee_id", "f.follower_id"] as const)
        : (["f.follower_id", "f.followee_id"] as const);
    let query = k
      .selectFrom("follows as f")
      // Each listed account looked up by its key, for the page's rows only (a lateral lookup, never a
      // join the planner may turn into reading every account).
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom("accounts")
            .select(["accounts.id", "accounts.primary_address", "accounts.username"])
            .whereRef("accounts.id", "=", other)
            .limit(1)
            .as("a"),
        (join) => join.onTrue(),
      )
      .select(["a.id", "a.primary_address", "a.username", "f.created_at"])
      .where(own, "=", account.id)
      .orderBy("f.created_at", "desc")
      .orderBy(other, "desc")
      .limit(limit + 1);
    if (after !== undefined) {
      const [time, id] = after;
      // A row comparison, so the page starts where the cursor points in the (account, time, other)
      // index instead of filtering every newer row of a popular account.
      query = query.where((eb) => eb(eb.refTuple("f.created_at", other), "<", eb.tuple(new Date(time), id)));
    }
    const page = toPage(
      await query.execute(),
      limit,
      (row) => ({
        address: row.primary_address,
        username: row.username,
        followedAt: row.created_at.getTime(),
      }),
      listCursor,
      (row) => [row.created_at.getTime(), row.id] as [number, string],
    );
    return { address: account.address, accounts: page.items, next: page.next };
  };

  return {
    async follow(follower: Actor, wallet: string): Promise<FollowState> {
      return k.transaction().execute(async (tx) => {
        const followee = await requireAccount(tx, wallet);
        if (followee.id === follower.accountId) throw badRequest("you cannot follow yourself");
        const blocks = await blocksBetween(tx, follower.accountId, followee.id);
        if (blocks.iBlocked) throw forbidden("you blocked this account; unblock it to follow it");
        if (blocks.blockedMe) throw forbidden("this account does not accept you as a follower");
        await tx
          .insertInto("follows")
          .values({
            follower_id: follower.accountId,
            followee_id: followee.id,
            created_at: new Date(clock.now()),
          })
          .onConflict((oc) => oc.columns(["follower_id", "followee_id"]).doNothing())
          .execute();
        return { address: followee.address, following: true };
      });
    },

    async unfollow(follower: Actor, wallet: string): Promise<FollowState> {
      const followee = await requireAccount(k, wallet);
      if (followee.id === follower.accountId) throw badRequest("you cannot unfollow yourself");
      await k
        .deleteFrom("follows")
        .where("follower_id", "=", follower.accountId)
        .where("followee_id", "=", followee.id)
        .execute();
      return { address: followee.address, following: false };
    },

    followers: (wallet: string, page: PageRequest) => list(wallet, "followers", page),
    following: (wallet: string, page: PageRequest) => list(wallet, "following", page),
  };
}

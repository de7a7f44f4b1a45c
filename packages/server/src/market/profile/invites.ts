import { randomBytes } from "node:crypto";
import { type AccountActionResult, PROFILE_LIMITS } from "@mkt/protocol";
import type { Database } from "../../db/index.ts";
import { conflict, forbidden, notFound } from "../../errors.ts";
import { inviteStatus, isLiveInvite, newId } from "../../identity/index.ts";
import { hashSecret } from "../../keys/secrets.ts";
import { type PagedServiceDeps, type PageRequest, timeCursor, toPage } from "../../paging/index.ts";
import type { ActionHandlers } from "../accounts/actions.ts";

import { lockAccount } from "./account-lock.ts";

/** 24 random bytes: 32 base64url characters, shown once and stored only as a SHA-256 hash. */
export function generateInviteCode(): string {
  return randomBytes(24).toString("base64url");
}

export interface Invites {
  /** An account's invite; at most `liveInvites` live ones (409 beyond). */
  create(accountId: string, maxUses: number): Promise<AccountActionResult<"invite-create">>;
  /** An operator invite: no creator, so it grants access but names no referrer. */
  createForOperator(maxUses: number): Promise<AccountActionResult<"invite-create">>;
  /**
   * One page of the account's invites, newest first, revoked and used-up
   * ones included (a create/revoke loop makes them without end, hence the
   * paging). `created_at` is written from the clock in whole milliseconds,
   * so the cursor's time compares exactly.
   */
  list(accountId: string, page: PageRequest): Promise<AccountActionResult<"invite-list">>;
  /** `invite-revoke`: ends one of the account's invites; its code stops granting access. */
  revoke(accountId: string, inviteId: string): Promise<AccountActionResult<"invite-revoke">>;
  /**
   * `referral-claim`: records, once, the account whose invite brought this
   * one, consuming one use of the invite.
   */
  claimReferral(accountId: string, code: string): Promise<AccountActionResult<"referral-claim">>;
}

/**
 * Invite codes: made by accounts (`invite-create`) or the operator
 * (`POST /admin/invites`), each good for `maxUses` redemptions, a use being
 * an access session (`POST /market/access/session`) or a referral
 * (`referral-claim`).
 */
export function createInvites({ db, clock, cursors }: PagedServiceDeps): Invites {
  const insert = async (
    executor: Pick<Database["kysely"], "insertInto">,
    createdBy: string | null,
    maxUses: number,
  ) => {
    const code = generateInviteCode();
    const inviteId = newId("inv");
    const createdAt = new Date(clock.now());
    await executor
      .insertInto("invites")
      .values({
        id: inviteId,
        code_hash: hashSecret(code),
        created_by: createdBy,
        max_uses: maxUses,
        created_at: createdAt,
      })
      .execute();
    return { inviteId, code, maxUses, uses: 0, status: "live" as const, createdAt: createdAt.toISOString() };
  };

  return {
    async create(accountId: string, maxUses: number) {
      return db.kysely.transaction().execute(async (tx) => {
        await lockAccount(tx, accountId);
        const { live } = await tx
          .selectFrom("invites")
          .select((eb) => eb.fn.countAll<string>().as("live"))
          .where("created_by", "=", accountId)
          .where(isLiveInvite)
          .executeTakeFirstOrThrow();
        if (Number(live) >= PROFILE_LIMITS.liveInvites) {
          throw conflict(
            `an account has at most ${PROFILE_LIMITS.liveInvites} live invites; revoke one (invite-revoke) first`,
          );
        }
        return insert(tx, accountId, maxUses);
      });
    },

    async createForOperator(maxUses: number) {
      return insert(db.kysely, null, maxUses);
    },

    async list(accountId: string, { cursor, limit }: PageRequest) {
      const listCursor = timeCursor.for(cursors, "invites", accountId);
      const after = cursor === undefined ? undefined : listCursor.decode(cursor);
      let query = db.kysely
        .selectFrom("invites")
        .select((eb) => ["id", "max_uses", "uses", "created_at", inviteStatus(eb).as("status")])
        .where("created_by", "=", accountId)
        .orderBy("created_at", "desc")
        .orderBy("id")
        .limit(limit + 1);
      if (after !== undefined) {
        const [time, id] = after;
        query = query.where((eb) =>
          eb.or([
            eb("created_at", "<", new Date(time)),
            eb.and([eb("created_at", "=", new Date(time)), eb("id", ">", id)]),
          ]),
        );
      }
      const page = toPage(
        await query.execute(),
        limit,
        (row) => ({
          inviteId: row.id,
          maxUses: row.max_uses,
          uses: row.uses,
          status: row.status,
          createdAt: row.created_at.toISOString(),
        }),
        listCursor,
        (row) => [row.created_at.getTime(), row.id] as [number, string],
      );
      return { invites: page.items, next: page.next };
    },

    async revoke(accountId: string, inviteId: string) {
      const row = await db.kysely
        .updateTable("invites")
        .set((eb) => ({ revoked_at: eb.fn.coalesce("revoked_at", eb.val(new Date(clock.now()))) }))
        .where("id", "=", inviteId)
        .where("created_by", "=", accountId)
        .returning("id")
        .executeTakeFirst();
      if (!row) throw notFound("no invite of yours has this id");
      return { inviteId, status: "revoked" as const };
    },

    async claimReferral(accountId: string, code: string) {
      return db.kysely.transaction().execute(async (tx) => {
        const me = await tx
          .selectFrom("accounts")
          .select("referred_by")
          .where("id", "=", accountId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        if (me.referred_by !== null) throw conflict("this account already has a referrer");
        const invite = await tx
          .selectFrom("invites")
          .select((eb) => ["id", "created_by", inviteStatus(eb).as("status")])
          .where("code_hash", "=", hashSecret(code))
          .forUpdate()
          .executeTakeFirst();
        if (!invite || invite.status === "revoked") throw notFound("unknown or revoked invite code");
        if (invite.created_by === null) {
          throw forbidden("an operator invite grants access but names no referrer");
        }
        if (invite.created_by === accountId) throw forbidden("an account cannot refer itself");
        if (invite.status === "used-up") throw conflict("this invite code is used up");
        const referrer = await tx
          .selectFrom("accounts")
          .select(["primary_address", "referred_by"])
          .where("id", "=", invite.created_by)
          .executeTakeFirstOrThrow();
        if (referrer.referred_by === accountId) {
          throw forbidden("the invite's creator was referred by this account; referrals cannot go both ways");
        }
        await tx
          .updateTable("invites")
          .set((eb) => ({ uses: eb("uses", "+", 1) }))
          .where("id", "=", invite.id)
          .execute();
        await tx
          .updateTable("accounts")
          .set({ referred_by: invite.created_by, updated_at: new Date(clock.now()) })
          .where("id", "=", accountId)
          .execute();
        return { referredBy: referrer.primary_address, inviteId: invite.id };
      });
    },
  };
}

export function inviteActions(
  invites: Invites,
): Pick<ActionHandlers, "invite-create" | "invite-list" | "invite-revoke" | "referral-claim"> {
  return {
    "invite-create": async ({ session }, { maxUses }) => invites.create(session.accountId, maxUses),
    "invite-list": async ({ session }, { cursor, limit }) =>
      invites.list(session.accountId, { cursor, limit }),
    "invite-revoke": async ({ session }, { inviteId }) => invites.revoke(session.accountId, inviteId),
    "referral-claim": async ({ session }, { code }) => invites.claimReferral(session.accountId, code),
  };
}

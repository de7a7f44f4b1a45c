import type { AccountAction, SocialActionResult } from "@mkt/protocol";
import type { Database } from "../../db/index.ts";
import { badRequest } from "../../errors.ts";
import { newId } from "../../identity/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { type Actor, requireAccount } from "./directory.ts";

/** Abuse reports are kept 90 days, then expire. */
export const REPORT_RETENTION_MS = 90 * 24 * 3_600_000;

type Report = Extract<AccountAction, { kind: "report" }>;

export interface SafetyService {
  /** The `safety-update` action. */
  update(
    caller: Actor,
    dmPolicy: "everyone" | "following" | "nobody",
  ): Promise<SocialActionResult<"safety-update">>;
  /**
   * The `block` action. A block forbids direct messages and follows in both
   * directions, so it also ends the follows between the two accounts.
   */
  block(caller: Actor, wallet: string): Promise<SocialActionResult<"block">>;
  /** The `unblock` action; follows ended by the block do not come back. */
  unblock(caller: Actor, wallet: string): Promise<SocialActionResult<"unblock">>;
  /** The `report` action: kept for the moderators for 90 days, then deleted at its expiry. */
  report(caller: Actor, report: Report): Promise<SocialActionResult<"report">>;
  /** Deletes the reports whose retention has passed; safe on every replica at once. */
  sweepReports(): Promise<number>;
  /** The earliest expiry of a stored report (Unix ms), if any (the expiry worker's next wake). */
  nextReportExpiry(): Promise<number | undefined>;
}

/** Safety settings, blocks and abuse reports. */
export function createSafetyService({
  db,
  clock,
  announceReport,
}: {
  db: Database;
  clock: Clock;
  /** Told of every filed report's expiry (Unix ms), after it is stored: wakes the expiry workers. */
  announceReport?: (expiresAt: number) => Promise<void>;
}): SafetyService {
  const k = db.kysely;

  return {
    async update(
      caller: Actor,
      dmPolicy: "everyone" | "following" | "nobody",
    ): Promise<SocialActionResult<"safety-update">> {
      await k
        .updateTable("accounts")
        .set({ dm_policy: dmPolicy, updated_at: new Date(clock.now()) })
        .where("id", "=", caller.accountId)
        .execute();
      return { dmPolicy };
    },

    async block(caller: Actor, wallet: string): Promise<SocialActionResult<"block">> {
      return k.transaction().execute(async (tx) => {
        const target = await requireAccount(tx, wallet);
        if (target.id === caller.accountId) throw badRequest("you cannot block yourself");
        await tx
          .insertInto("blocks")
          .values({ account_id: caller.accountId, blocked_id: target.id, created_at: new Date(clock.now()) })
          .onConflict((oc) => oc.columns(["account_id", "blocked_id"]).doNothing())
          .execute();
        await tx
          .deleteFrom("follows")
          .where((eb) =>
            eb.or([
              eb.and([eb("follower_id", "=", caller.accountId), eb("followee_id", "=", target.id)]),
              eb.and([eb("follower_id", "=", target.id), eb("followee_id", "=", caller.accountId)]),
            ]),
          )
          .execute();
        return { address: target.address, blocked: true };
      });
    },

    async unblock(caller: Actor, wallet: string): Promise<SocialActionResult<"unblock">> {
      const target = await requireAccount(k, wallet);
      await k
        .deleteFrom("blocks")
        .where("account_id", "=", caller.accountId)
        .where("blocked_id", "=", target.id)
        .execute();
      return { address: target.address, blocked: false };
    },

    async report(caller: Actor, report: Report): Promise<SocialActionResult<"report">> {
      const now = clock.now();
      const id = newId("rep");
      const expiresAt = now + REPORT_RETENTION_MS;
      await k
        .insertInto("reports")
        .values({
          id,
          reporter_id: caller.accountId,
          subject_kind: report.subject.kind,
          subject_id: report.subject.id,
          reason: report.reason,
          details: report.details ?? "",
          created_at: new Date(now),
          expires_at: new Date(expiresAt),
        })
        .execute();
      await announceReport?.(expiresAt);
      return { id, expiresAt };
    },

    async sweepReports(): Promise<number> {
      const deleted = await k
        .deleteFrom("reports")
        .where("expires_at", "<=", new Date(clock.now()))
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },

    async nextReportExpiry(): Promise<number | undefined> {
      const row = await k
        .selectFrom("reports")
        .select("expires_at")
        .orderBy("expires_at")
        .limit(1)
        .executeTakeFirst();
      return row ? new Date(row.expires_at).getTime() : undefined;
    },
  };
}

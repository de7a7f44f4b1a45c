import { type AccountActionResult, PROFILE_LIMITS } from "@mkt/protocol";
import type { Logger } from "pino";
import type { Database } from "../../db/index.ts";
import { conflict } from "../../errors.ts";
import { newId } from "../../identity/index.ts";
import { IMAGE_LIMITS, pixelate } from "../../media/index.ts";
import type { Clock } from "../../quotas/limiter.ts";

/**
 * The channel an enqueue notifies, on every replica: a worker wakes on it
 * instead of polling, so an idle process does no work. A lost notification
 * (the listening connection dropped) only delays a job until the next pass
 * of the periodic "pixel pfp queue" job.
 */
export const PIXEL_JOBS_CHANNEL = "mkt_pixel_jobs";

export interface PixelJob {
  accountId: string;
  avatarImageId: string | null;
  size: number;
  /** The claim's number: a finished job is written only by the claim that still holds it. */
  attempt: number;
}

/** Thrown inside the result transaction when the claim was taken back (stale sweep, account deleted). */
class ClaimLost extends Error {}

export interface PixelQueue {
  /** Starts the worker: a pass now and on every notification of a queued job (idempotent). */
  start(): void;
  /** Stops the worker and waits for its pass in progress to end. */
  stop(): Promise<void>;
  /** `pfp-pixelate`: queues the account's job; 409 without an avatar or while one is queued or processing. */
  enqueue(accountId: string, size: number): Promise<AccountActionResult<"pfp-pixelate">>;
  /** Takes the oldest queued job, if any, safely across replicas. */
  claim(): Promise<PixelJob | undefined>;
  /** Pixelates a claimed job's avatar and records the outcome. */
  process(job: PixelJob): Promise<"ready" | "failed" | "lost">;
  /** Queues again the jobs whose worker stopped mid-way; fails those claimed too often. */
  requeueStale(): Promise<number>;
  /** Sweeps stale claims, then claims and processes jobs until none is queued. */
  drain(): Promise<number>;
}

/**
 * The pixel pfp job queue, in `profile_pictures`: `pfp-pixelate` moves an
 * account's job to 'queued'; a worker on any replica claims it ('processing')
 * with `FOR UPDATE SKIP LOCKED`, so no two replicas take the same job, and
 * finishes it as 'ready' (the new pixel pfp appended and selected) or
 * 'failed' (with `pixel_error`). A job left 'processing' by a worker that
 * died is queued again by the sweep, at most `pixelJobAttempts` claims.
 */
export function createPixelQueue({
  db,
  clock,
  logger,
}: {
  db: Database;
  clock: Clock;
  logger: Logger;
}): PixelQueue {
  const now = () => new Date(clock.now());

  const finish = async (
    job: PixelJob,
    values: { pixel_status: "ready" | "failed"; pixel_error: string | null },
  ) =>
    db.kysely
      .updateTable("profile_pictures")
      .set({ ...values, pixel_started_at: null, updated_at: now() })
      .where("account_id", "=", job.accountId)
      .where("pixel_status", "=", "processing")
      .where("pixel_attempts", "=", job.attempt)
      .returning("account_id")
      .executeTakeFirst();

  const fail = async (job: PixelJob, reason: string) => {
    const written = await finish(job, { pixel_status: "failed", pixel_error: reason });
    if (written) logger.warn({ msg: "pixel pfp failed", accountId: job.accountId, reason });
    return written ? ("failed" as const) : ("lost" as const);
  };

  const queue = {
    async enqueue(accountId: string, size: number) {
      const at = now();
      const queued = await db.kysely
        .updateTable("profile_pictures")
        .set({
          pixel_status: "queued",
          pixel_size: size,
          pixel_requested_at: at,
          pixel_error: null,
          pixel_attempts: 0,
          pixel_started_at: null,
          updated_at: at,
        })
        .where("account_id", "=", accountId)
        .where("avatar_image_id", "is not", null)
        .where("pixel_status", "not in", ["queued", "processing"])
        .returning("account_id")
        .executeTakeFirst();
      if (!queued) {
        const state = await db.kysely
          .selectFrom("profile_pictures")
          .select(["avatar_image_id", "pixel_status"])
          .where("account_id", "=", accountId)
          .executeTakeFirst();
        if (!state?.avatar_image_id) throw conflict("upload an avatar first (avatar-upload)");
        throw conflict(`a pixel pfp is already ${state.pixel_status}; wait until it is ready or failed`);
      }
      // Every replica's worker, this one's included, wakes on the notification; if it cannot be
      // sent, this replica's worker takes the job now and the periodic pass covers the others.
      await db.notify(PIXEL_JOBS_CHANNEL, "").catch((error: unknown) => {
        logger.warn({ msg: "pixel pfp queue notification failed", err: error });
        worker.wake();
      });
      return { pixelPfpStatus: "queued" as const, size };
    },

    async claim(): Promise<PixelJob | undefined> {
      const at = now();
      const row = await db.kysely
        .updateTable("profile_pictures")
        .set((eb) => ({
          pixel_status: "processing",
          pixel_started_at: at,
          pixel_attempts: eb("pixel_attempts", "+", 1),
          updated_at: at,
        }))
        .where("account_id", "=", (eb) =>
          eb
            .selectFrom("profile_pictures")
            .select("account_id")
            .where("pixel_status", "=", "queued")
            .orderBy("pixel_requested_at")
            .orderBy("account_id")
            .limit(1)
            .forUpdate()
            .skipLocked(),
        )
        .where("pixel_status", "=", "queued")
        .returning(["account_id", "avatar_image_id", "pixel_size", "pixel_attempts"])
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        accountId: row.account_id,
        avatarImageId: row.avatar_image_id,
        size: row.pixel_size ?? 16,
        attempt: row.pixel_attempts,
      };
    },

    async process(job: PixelJob): Promise<"ready" | "failed" | "lost"> {
      const started = performance.now();
      const avatar = job.avatarImageId
        ? await db.kysely
            .selectFrom("images")
            .select("bytes")
            .where("id", "=", job.avatarImageId)
            .where("account_id", "=", job.accountId)
            .executeTakeFirst()
        : undefined;
      if (!avatar) return fail(job, "the avatar was removed before it could be pixelated");
      let png: Buffer;
      try {
        png = await pixelate(avatar.bytes, job.size);
      } catch (error) {
        logger.warn({ msg: "pixelation failed", accountId: job.accountId, err: error });
        return fail(job, "the avatar could not be pixelated");
      }
      const imageId = newId("img");
      try {
        await db.kysely.transaction().execute(async (tx) => {
          await tx
            .insertInto("images")
            .values({
              id: imageId,
              account_id: job.accountId,
              purpose: "pixel-pfp",
              draft_id: null,
              content_type: "image/png",
              bytes: png,
              width: IMAGE_LIMITS.avatarSide,
              height: IMAGE_LIMITS.avatarSide,
              created_at: now(),
            })
            .execute();
          const done = await tx
            .updateTable("profile_pictures")
            .set({
              pixel_image_id: imageId,
              pixel_status: "ready",
              pixel_error: null,
              pixel_started_at: null,
              updated_at: now(),
            })
            .where("account_id", "=", job.accountId)
            .where("pixel_status", "=", "processing")
            .where("pixel_attempts", "=", job.attempt)
            .returning("account_id")
            .executeTakeFirst();
          if (!done) throw new ClaimLost();
          // Keep the newest pixel pfps; the one just made is the newest and selected.
          const stale = await tx
            .selectFrom("images")
            .select("id")
            .where("account_id", "=", job.accountId)
            .where("purpose", "=", "pixel-pfp")
            .orderBy("created_at", "desc")
            .orderBy("id", "desc")
            .offset(PROFILE_LIMITS.pixelPfps)
            .limit(1_000)
            .execute();
          const drop = stale.map((row) => row.id).filter((id) => id !== imageId);
          if (drop.length > 0) await tx.deleteFrom("images").where("id", "in", drop).execute();
        });
      } catch (error) {
        if (error instanceof ClaimLost) return "lost";
        // The account went away with its job (a foreign key refused the image).
        const gone = await db.kysely
          .selectFrom("accounts")
          .select("id")
          .where("id", "=", job.accountId)
          .executeTakeFirst();
        if (!gone) return "lost";
        throw error;
      }
      logger.info({
        msg: "pixel pfp ready",
        accountId: job.accountId,
        size: job.size,
        ms: Math.round(performance.now() - started),
      });
      return "ready";
    },

    async requeueStale(): Promise<number> {
      const cutoff = new Date(clock.now() - PROFILE_LIMITS.pixelJobStaleMs);
      const requeued = await db.kysely
        .updateTable("profile_pictures")
        .set((eb) => ({
          pixel_status: eb
            .case()
            .when("pixel_attempts", ">=", PROFILE_LIMITS.pixelJobAttempts)
            .then("failed")
            .else("queued")
            .end(),
          pixel_error: eb
            .case()
            .when("pixel_attempts", ">=", PROFILE_LIMITS.pixelJobAttempts)
            .then("the job was interrupted too many times")
            .else(null)
            .end(),
          pixel_started_at: null,
          updated_at: now(),
        }))
        .where("pixel_status", "=", "processing")
        .where("pixel_started_at", "<", cutoff)
        .returning("account_id")
        .execute();
      if (requeued.length > 0) logger.warn({ msg: "stale pixel pfp jobs swept", count: requeued.length });
      return requeued.length;
    },

    async drain(): Promise<number> {
      await queue.requeueStale();
      let processed = 0;
      for (let job = await queue.claim(); job; job = await queue.claim()) {
        await queue.process(job);
        processed += 1;
      }
      return processed;
    },
  };

  /**
   * The background worker of one replica: drains once when started, then
   * again on every notification on `PIXEL_JOBS_CHANNEL` (and after the
   * listening connection came back, since notifications may have been lost).
   * It keeps no timer: idle, it costs nothing. A wake during a pass runs one
   * more pass after it, so a job queued after the pass's last claim is not
   * left for the periodic job.
   */
  const worker = (() => {
    let running = false;
    let current: Promise<void> | undefined;
    let again = false;
    let listening: Promise<(() => Promise<void>) | undefined> | undefined;
    const pass = () => {
      if (!running) return;
      if (current) {
        again = true;
        return;
      }
      again = false;
      current = queue
        .drain()
        .then(
          () => undefined,
          (error) => logger.warn({ msg: "pixel pfp worker pass failed", err: error }),
        )
        .finally(() => {
          current = undefined;
          if (again) pass();
        });
    };
    return {
      start() {
        if (running) return;
        running = true;
        listening = db.listen(PIXEL_JOBS_CHANNEL, { onNotify: pass, onReconnect: pass }).catch((error) => {
          logger.warn({
            msg: "pixel pfp worker cannot listen; the periodic pass takes the jobs",
            err: error,
          });
          return undefined;
        });
        pass();
      },
      wake: pass,
      async stop() {
        running = false;
        const unlisten = await listening;
        listening = undefined;
        await unlisten?.();
        while (current) await current;
      },
    };
  })();

  return { ...queue, start: worker.start, stop: worker.stop };
}

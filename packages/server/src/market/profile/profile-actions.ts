import type { AccountActionResult } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { ConstraintViolationError, isUniqueViolation } from "../../db/index.ts";
import { badRequest, conflict, notFound } from "../../errors.ts";
import { newId } from "../../identity/index.ts";
import {
  IMAGE_LIMITS,
  InvalidImageError,
  normaliseAvatar,
  readUpload,
  type UploadContentType,
} from "../../media/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { ActionHandlers } from "../accounts/actions.ts";
import { lockAccount } from "./account-lock.ts";
import type { PixelQueue } from "./pixel-queue.ts";

export interface ProfileEditorDeps {
  db: Database;
  clock: Clock;
  imageUrl: (imageId: string | null | undefined) => string;
}

export interface ProfileEditor {
  /** Sets the username (unique, case-insensitively; null clears it) and the bio; absent fields stay. */
  update(
    accountId: string,
    patch: { username?: string | null; bio?: string },
  ): Promise<AccountActionResult<"profile-update">>;
  /** Normalises an upload to the account's one avatar; an undecodable one sets pfpStatus failed (400). */
  uploadAvatar(
    accountId: string,
    upload: { contentType: UploadContentType; data: string },
  ): Promise<AccountActionResult<"avatar-upload">>;
  /** Shows one of the account's pixel pfps, or none (null). */
  selectPixelPfp(accountId: string, pixelPfpId: string | null): Promise<AccountActionResult<"pfp-select">>;
}

/** An account's own profile: username and bio, avatar, the pixel pfp it shows. */
export function createProfileEditor({ db, clock, imageUrl }: ProfileEditorDeps): ProfileEditor {
  const now = () => new Date(clock.now());

  /** Sets profile picture columns, creating the account's row on first use. */
  const setPictures = (
    executor: Pick<Database["kysely"], "insertInto">,
    accountId: string,
    values: { avatar_image_id?: string; pfp_status?: "ready" | "failed"; pixel_image_id?: string | null },
  ) =>
    executor
      .insertInto("profile_pictures")
      .values({
        account_id: accountId,
        avatar_image_id: null,
        pixel_image_id: null,
        ...values,
        updated_at: now(),
      })
      .onConflict((oc) => oc.column("account_id").doUpdateSet({ ...values, updated_at: now() }))
      .execute();

  return {
    async update(accountId: string, { username, bio }: { username?: string | null; bio?: string }) {
      if (typeof username === "string") {
        const taken = await db.kysely
          .selectFrom("accounts")
          .select("id")
          .where(sql<string>`lower(username)`, "=", username.toLowerCase())
          .where("id", "<>", accountId)
          .executeTakeFirst();
        if (taken) throw conflict("this username is taken");
      }
      const changes = {
        ...(username !== undefined ? { username } : {}),
        ...(bio !== undefined ? { bio } : {}),
      };
      let row: { username: string | null; bio: string };
      try {
        row = await db.kysely
          .updateTable("accounts")
          .set({ ...changes, updated_at: now() })
          .where("id", "=", accountId)
          .returning(["username", "bio"])
          .executeTakeFirstOrThrow();
      } catch (error) {
        // Two accounts racing for one name: the unique index decides.
        if (isUniqueViolation(error)) throw conflict("this username is taken");
        throw error;
      }
      return { username: row.username ?? "", bio: row.bio };
    },

    async uploadAvatar(
      accountId: string,
      { contentType, data }: { contentType: UploadContentType; data: string },
    ) {
      const image = await readUpload(contentType, data);
      let png: Buffer;
      try {
        png = await normaliseAvatar(image);
      } catch (error) {
        if (!(error instanceof InvalidImageError)) throw error;
        await setPictures(db.kysely, accountId, { pfp_status: "failed" });
        throw badRequest(`${error.message}; pfpStatus is now failed`);
      }
      const avatarId = newId("img");
      await db.kysely.transaction().execute(async (tx) => {
        await lockAccount(tx, accountId);
        const previous = await tx
          .selectFrom("profile_pictures")
          .select("avatar_image_id")
          .where("account_id", "=", accountId)
          .executeTakeFirst();
        await tx
          .insertInto("images")
          .values({
            id: avatarId,
            account_id: accountId,
            purpose: "avatar",
            draft_id: null,
            content_type: "image/png",
            bytes: png,
            width: IMAGE_LIMITS.avatarSide,
            height: IMAGE_LIMITS.avatarSide,
            created_at: now(),
          })
          .execute();
        await setPictures(tx, accountId, { avatar_image_id: avatarId, pfp_status: "ready" });
        // One avatar per account: the replaced one is no longer served.
        if (previous?.avatar_image_id) {
          await tx.deleteFrom("images").where("id", "=", previous.avatar_image_id).execute();
        }
      });
      return {
        avatarId,
        avatarUrl: imageUrl(avatarId),
        pfpStatus: "ready" as const,
        contentType: "image/png" as const,
        width: IMAGE_LIMITS.avatarSide,
        height: IMAGE_LIMITS.avatarSide,
        bytes: png.length,
      };
    },

    async selectPixelPfp(accountId: string, pixelPfpId: string | null) {
      if (pixelPfpId !== null) {
        const own = await db.kysely
          .selectFrom("images")
          .select("id")
          .where("id", "=", pixelPfpId)
          .where("account_id", "=", accountId)
          .where("purpose", "=", "pixel-pfp")
          .executeTakeFirst();
        if (!own) throw notFound("no pixel pfp of yours has this id");
      }
      try {
        await setPictures(db.kysely, accountId, { pixel_image_id: pixelPfpId });
      } catch (error) {
        // Pruned by the worker between the check and the write.
        if (error instanceof ConstraintViolationError && error.code === "23503") {
          throw notFound("no pixel pfp of yours has this id");
        }
        throw error;
      }
      return { pixelPfpId, pixelPfpUrl: imageUrl(pixelPfpId) };
    },
  };
}

/** `profile-update`, `avatar-upload`, `pfp-pixelate`, `pfp-select`. */
export function profileActions(
  editor: ProfileEditor,
  queue: PixelQueue,
): Pick<ActionHandlers, "profile-update" | "avatar-upload" | "pfp-pixelate" | "pfp-select"> {
  return {
    "profile-update": async ({ session }, { username, bio }) =>
      editor.update(session.accountId, { username, bio }),
    "avatar-upload": async ({ session }, { contentType, data }) =>
      editor.uploadAvatar(session.accountId, { contentType, data }),
    "pfp-pixelate": async ({ session }, { size }) => queue.enqueue(session.accountId, size),
    "pfp-select": async ({ session }, { pixelPfpId }) => editor.selectPixelPfp(session.accountId, pixelPfpId),
  };
}

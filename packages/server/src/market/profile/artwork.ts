import { type AccountActionResult, PROFILE_LIMITS } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { conflict, notFound } from "../../errors.ts";
import { newId } from "../../identity/index.ts";
import { readUpload, type UploadContentType, verifyPixels } from "../../media/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { ActionHandlers } from "../accounts/actions.ts";
import { lockAccount } from "./account-lock.ts";

export interface Artworks {
  /** Checks the upload and stores it; at most `PROFILE_LIMITS.artworks` per account (409 beyond). */
  upload(accountId: string, upload: ArtworkUpload): Promise<AccountActionResult<"artwork-upload">>;
  /** `artwork-delete`: deletes one of the account's artworks; 404 when it has none by that id. */
  delete(accountId: string, artworkId: string): Promise<AccountActionResult<"artwork-delete">>;
  /** The account's artwork, oldest first, optionally of one draft. */
  list(
    accountId: string,
    draftId: string | undefined,
  ): Promise<AccountActionResult<"artwork-list">["artworks"]>;
}

/**
 * Images an account uploads to its own drafts. Private: only the owner lists
 * or deletes them, and the public image route never serves them. The bytes
 * are kept as uploaded (after checking every pixel decodes), since they are
 * the artist's original for the release work.
 */
export function createArtworks({ db, clock }: { db: Database; clock: Clock }): Artworks {
  return {
    async upload(accountId: string, { draftId, contentType, data }: ArtworkUpload) {
      const image = await readUpload(contentType, data);
      await verifyPixels(image);
      const artworkId = newId("img");
      await db.kysely.transaction().execute(async (tx) => {
        await lockAccount(tx, accountId);
        const { count } = await tx
          .selectFrom("images")
          .select((eb) => eb.fn.countAll<string>().as("count"))
          .where("account_id", "=", accountId)
          .where("purpose", "=", "artwork")
          .executeTakeFirstOrThrow();
        if (Number(count) >= PROFILE_LIMITS.artworks) {
          throw conflict(
            `an account holds at most ${PROFILE_LIMITS.artworks} artwork images; delete some first`,
          );
        }
        await tx
          .insertInto("images")
          .values({
            id: artworkId,
            account_id: accountId,
            purpose: "artwork",
            draft_id: draftId,
            content_type: contentType,
            bytes: image.bytes,
            width: image.width,
            height: image.height,
            created_at: new Date(clock.now()),
          })
          .execute();
      });
      return {
        artworkId,
        draftId,
        contentType,
        width: image.width,
        height: image.height,
        bytes: image.bytes.length,
      };
    },

    async delete(accountId: string, artworkId: string) {
      const deleted = await db.kysely
        .deleteFrom("images")
        .where("id", "=", artworkId)
        .where("account_id", "=", accountId)
        .where("purpose", "=", "artwork")
        .returning("id")
        .executeTakeFirst();
      if (!deleted) throw notFound("no artwork of yours has this id");
      return { artworkId, deleted: true as const };
    },

    async list(accountId: string, draftId: string | undefined) {
      let query = db.kysely
        .selectFrom("images")
        .select([
          "id",
          "draft_id",
          "content_type",
          "width",
          "height",
          "created_at",
          sql<number>`octet_length(bytes)`.as("size"),
        ])
        .where("account_id", "=", accountId)
        .where("purpose", "=", "artwork");
      if (draftId !== undefined) query = query.where("draft_id", "=", draftId);
      // Bounded by the cap on artwork images per account (artwork-upload refuses beyond it).
      const rows = await query.orderBy("created_at").orderBy("id").limit(PROFILE_LIMITS.artworks).execute();
      return rows.map((row) => ({
        artworkId: row.id,
        draftId: row.draft_id ?? "",
        contentType: row.content_type,
        width: row.width ?? 0,
        height: row.height ?? 0,
        bytes: Number(row.size),
        createdAt: row.created_at.toISOString(),
      }));
    },
  };
}

export interface ArtworkUpload {
  draftId: string;
  contentType: UploadContentType;
  /** Base64 of the image bytes. */
  data: string;
}

/** `artwork-upload`, `artwork-delete`, `artwork-list`: the caller's own draft artwork. */
export function artworkActions(
  artworks: Artworks,
): Pick<ActionHandlers, "artwork-upload" | "artwork-delete" | "artwork-list"> {
  return {
    "artwork-upload": async ({ session }, { draftId, contentType, data }) =>
      artworks.upload(session.accountId, { draftId, contentType, data }),
    "artwork-delete": async ({ session }, { artworkId }) => artworks.delete(session.accountId, artworkId),
    "artwork-list": async ({ session }, { draftId }) => ({
      artworks: await artworks.list(session.accountId, draftId),
    }),
  };
}

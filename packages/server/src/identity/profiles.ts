import type { PfpStatus, PixelPfpStatus, SharedProfile } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../db/index.ts";
import { marketSurface } from "../http/surfaces.ts";

/** The path of the public image route, below PUBLIC_URL. */
export const IMAGE_ROUTE = "/support/identity/images";

/** Absolute URLs of public images, always from PUBLIC_URL (never the Host header). */
export function createImageUrls(publicUrl: string) {
  const base = `${publicUrl}${marketSurface().prefix}${IMAGE_ROUTE}/`;
  return (imageId: string | null | undefined): string => (imageId ? `${base}${imageId}` : "");
}

export interface ProfileReader {
  /** The absolute public URL of an image id, or "" for none. */
  imageUrl(imageId: string | null | undefined): string;
  /** The shared profile of an account, or undefined when no account has this id. */
  ofAccount(accountId: string): Promise<SharedProfile | undefined>;
  /** A public image (avatar or pixel pfp) by id; never an artwork upload. */
  publicImage(imageId: string): Promise<{ contentType: string; bytes: Uint8Array } | undefined>;
  /** The account whose verified X connection has this username, compared case-insensitively. */
  ofVerifiedX(username: string): Promise<SharedProfile | undefined>;
}

/**
 * Reads the shared profile of an account: one query
 * for the account, its pictures and its X connection, one for its pixel pfps.
 */
export function createProfileReader({ db, publicUrl }: { db: Database; publicUrl: string }): ProfileReader {
  const imageUrl = createImageUrls(publicUrl);

  const profileRows = () =>
    db.kysely
      .selectFrom("accounts as a")
      .leftJoin("profile_pictures as p", "p.account_id", "a.id")
      .leftJoin("social_connections as x", (join) =>
        join.onRef("x.account_id", "=", "a.id").on("x.provider", "=", "x"),
      )
      .select([
        "a.id",
        "a.primary_address",
        "a.username",
        "p.avatar_image_id",
        "p.pfp_status",
        "p.pixel_image_id",
        "p.pixel_status",
        "x.username as x_username",
        "x.avatar_url as x_avatar_url",
        "x.verified as x_verified",
      ]);

  const build = async (row: Awaited<ReturnType<ReturnType<typeof profileRows>["executeTakeFirst"]>>) => {
    if (!row) return undefined;
    const pixels = await db.kysely
      .selectFrom("images")
      .select(["id", "created_at"])
      .where("account_id", "=", row.id)
      .where("purpose", "=", "pixel-pfp")
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    const profile: SharedProfile = {
      address: row.primary_address,
      username: row.username ?? "",
      avatarUrl: imageUrl(row.avatar_image_id),
      xUsername: row.x_username ?? "",
      xAvatarUrl: row.x_avatar_url ?? "",
      xVerified: row.x_verified === true,
      pfpStatus: (row.pfp_status ?? "idle") as PfpStatus,
      pixelPfps: pixels.map((pixel) => ({
        id: pixel.id,
        url: imageUrl(pixel.id),
        createdAt: pixel.created_at.toISOString(),
      })),
      pixelPfpUrl: imageUrl(row.pixel_image_id),
      pixelPfpStatus: (row.pixel_status ?? "idle") as PixelPfpStatus,
    };
    return profile;
  };

  return {
    imageUrl,
    async ofAccount(accountId: string): Promise<SharedProfile | undefined> {
      return build(await profileRows().where("a.id", "=", accountId).executeTakeFirst());
    },
    async publicImage(imageId: string): Promise<{ contentType: string; bytes: Uint8Array } | undefined> {
      const image = await db.kysely
        .selectFrom("images")
        .select(["content_type", "bytes"])
        .where("id", "=", imageId)
        .where("purpose", "in", ["avatar", "pixel-pfp"])
        .executeTakeFirst();
      return image && { contentType: image.content_type, bytes: image.bytes };
    },
    async ofVerifiedX(username: string): Promise<SharedProfile | undefined> {
      return build(
        await profileRows()
          .where("x.verified", "=", true)
          .where(sql<string>`lower(x.username)`, "=", username.toLowerCase())
          .executeTakeFirst(),
      );
    },
  };
}

import { createHash, randomUUID } from "node:crypto";
import {
  CLASSIC_ERROR_CODES,
  CLASSIC_UPLOADS,
  type ClassicUploadResult,
  type ClassicUploadType,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import { badRequest } from "../../errors.ts";
import { asBuffer, verifyImageBytes, verifyPixels } from "../../media/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { accountLimitReached } from "../account-limits.ts";

const DAY_MS = 86_400_000;

/** What a client sent: one file part, as the route read it. */
export interface UploadedFile {
  bytes: Buffer;
  /** The part's declared type (its `Content-Type`), as sent. */
  declaredType: string;
  /** The part's file name, as sent (a base name: the multipart reader drops any path). */
  filename: string;
}

/** An upload as served. */
export interface StoredUpload {
  bytes: Buffer;
  contentType: ClassicUploadType;
  sha256: string;
}

/** The per-account limits over a rolling 24 hours (tests lower them). */
export interface ClassicUploadLimits {
  perDay: number;
  bytesPerDay: number;
}

export interface ClassicUploadsService {
  /**
   * Verifies `file` (declared type, signature, header, every pixel, still)
   * and stores it for the account, or answers the upload of the same bytes
   * the account stored before (not counted again). Throws a 400
   * `INVALID_IMAGE` for anything but a still PNG, JPEG or WebP of its declared
   * type within the pixel limits, and a 429 `UPLOAD_LIMIT` when the account's
   * rolling 24 hours are spent. Nothing is stored unless all checks pass.
   */
  upload(accountId: string, file: UploadedFile): Promise<ClassicUploadResult>;
  /** The stored image, or undefined for an unknown id. */
  get(id: string): Promise<StoredUpload | undefined>;
}

/** Declared types taken: the three image types, and `image/jpg`, which some clients send for JPEG. */
const DECLARED: Record<string, ClassicUploadType> = {
  "image/png": "image/png",
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/webp": "image/webp",
};

/** The file name as answered: no control characters, at most the documented length. */
const cleanFilename = (name: string) =>
  // Cut by code points, so a cut never leaves half a surrogate pair.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  Array.from(name.replace(/[\u0000-\u001f\u007f]/g, ""))
    .slice(0, CLASSIC_UPLOADS.maxFilename)
    .join("");

interface UploadRow {
  id: string;
  content_type: ClassicUploadType;
  sha256: string;
  size: number;
  width: number;
  height: number;
  filename: string;
  created_at: Date | string;
}

/**
 * Creator image uploads (`POST /classic/image/upload`), stored in the
 * database so every replica serves them. The rolling 24-hour limits are
 * counted from the table inside the transaction that inserts, under the
 * account's advisory lock, so they hold across replicas and concurrent
 * requests; the unique index on (account, sha256) backs the dedupe rule.
 */
export function createClassicUploads({
  db,
  clock,
  publicUrl,
  limits = { perDay: CLASSIC_UPLOADS.perDay, bytesPerDay: CLASSIC_UPLOADS.bytesPerDay },
}: {
  db: Database;
  clock: Clock;
  publicUrl: string;
  limits?: ClassicUploadLimits;
}): ClassicUploadsService {
  const resultOf = (row: UploadRow): ClassicUploadResult => ({
    id: row.id,
    filename: row.filename,
    uploaded: new Date(row.created_at).toISOString(),
    variants: [`${publicUrl}/classic/uploads/${row.id}`],
    contentType: row.content_type,
    width: row.width,
    height: row.height,
    size: row.size,
    sha256: row.sha256,
  });

  return {
    async upload(accountId, file) {
      const contentType = DECLARED[file.declaredType.trim().toLowerCase()];
      if (contentType === undefined) {
        throw badRequest(
          `the file's declared type is ${file.declaredType || "missing"}; send image/png, image/jpeg or image/webp`,
          CLASSIC_ERROR_CODES.invalidImage,
        );
      }
      const image = await verifyImageBytes(
        contentType,
        file.bytes,
        { maxBytes: CLASSIC_UPLOADS.maxBytes, still: true },
        CLASSIC_ERROR_CODES.invalidImage,
      );
      await verifyPixels(image, CLASSIC_ERROR_CODES.invalidImage);
      const sha256 = createHash("sha256").update(image.bytes).digest("hex");
      const now = clock.now();
      const row = await db.kysely.transaction().execute(async (tx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`classic-uploads:${accountId}`}))`.execute(tx);
        const same = await sql<UploadRow>`
          SELECT id, content_type, sha256, size, width, height, filename, created_at FROM classic_uploads
          WHERE account_id = ${accountId} AND sha256 = ${sha256}`.execute(tx);
        if (same.rows[0]) return same.rows[0];
        const window = await sql<{ n: number; bytes: string; oldest: Date | string | null }>`
          SELECT count(*)::int AS n, coalesce(sum(size), 0)::text AS bytes, min(created_at) AS oldest
          FROM classic_uploads
          WHERE account_id = ${accountId} AND created_at > ${new Date(now - DAY_MS).toISOString()}`.execute(
          tx,
        );
        const { n, bytes, oldest } = window.rows[0] ?? { n: 0, bytes: "0", oldest: null };
        if (n >= limits.perDay || Number(bytes) + image.bytes.length > limits.bytesPerDay) {
          throw accountLimitReached({
            message: `at most ${limits.perDay} images and ${limits.bytesPerDay / 1024 / 1024} MiB per account in any 24 hours`,
            code: CLASSIC_ERROR_CODES.uploadLimit,
            oldestMs: oldest === null ? now : new Date(oldest).getTime(),
            windowMs: DAY_MS,
            now,
            rateLimitHeaders: { limit: limits.perDay },
          });
        }
        const inserted = await sql<UploadRow>`
          INSERT INTO classic_uploads
            (id, account_id, bytes, content_type, sha256, size, width, height, filename, created_at)
          VALUES (${randomUUID()}, ${accountId}, ${image.bytes}, ${contentType}, ${sha256}, ${image.bytes.length},
                  ${image.width}, ${image.height}, ${cleanFilename(file.filename)}, ${new Date(now).toISOString()})
          RETURNING id, content_type, sha256, size, width, height, filename, created_at`.execute(tx);
        return inserted.rows[0]!;
      });
      return resultOf(row);
    },

    async get(id) {
      const { rows } = await sql<{ bytes: Uint8Array; content_type: ClassicUploadType; sha256: string }>`
        SELECT bytes, content_type, sha256 FROM classic_uploads WHERE id = ${id}`.execute(db.kysely);
      const row = rows[0];
      return row && { bytes: asBuffer(row.bytes), contentType: row.content_type, sha256: row.sha256 };
    },
  };
}

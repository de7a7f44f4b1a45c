import { z } from "zod";
import { isoDateTime } from "./common.ts";

/**
 * Creator image uploads (`POST /classic/image/upload`): the live service's
 * upload call (multipart, field `files`, one still PNG, JPEG or WebP),
 * answered in its shape. mkt stores the bytes itself and serves them from
 * `GET /classic/uploads/{id}`.
 */
export const CLASSIC_UPLOADS = {
  /** The multipart field the file travels in (the live service's name). */
  field: "files",
  /** Bytes of one file: the multipart reader stops the stream beyond it (413). */
  maxBytes: 5 * 1024 * 1024,
  /** Images an account may store per rolling 24 hours (429 `UPLOAD_LIMIT` beyond). */
  perDay: 1000,
  /** Bytes an account may store per rolling 24 hours (429 `UPLOAD_LIMIT` beyond). */
  bytesPerDay: 1024 * 1024 * 1024,
  /** The longest file name kept (longer ones are cut). */
  maxFilename: 255,
  /** The image types taken, by the part's declared type and by the bytes. */
  types: ["image/png", "image/jpeg", "image/webp"],
} as const;

export type ClassicUploadType = (typeof CLASSIC_UPLOADS.types)[number];

/** An upload's id: a UUID (lowercase). */
export const CLASSIC_UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `GET /classic/uploads/{id}` path. */
export const classicUploadParamsSchema = z.object({
  id: z
    .string()
    .regex(CLASSIC_UPLOAD_ID, "id must be an upload id (a lowercase UUID)")
    .describe("The upload's id (`image.result.id` of the upload answer)."),
});

export const classicUploadResultSchema = z
  .object({
    id: z.string().describe("The upload's id (a UUID)."),
    filename: z
      .string()
      .describe(
        `The part's file name as sent (without a path, control characters removed, at most ${CLASSIC_UPLOADS.maxFilename} characters); "" when none was sent.`,
      ),
    uploaded: isoDateTime("When the image was first stored:"),
    variants: z
      .array(z.string())
      .describe(
        "One absolute URL, `<PUBLIC_URL>/classic/uploads/<id>`: public (no key), immutable; use it as a card, pack or game image URL.",
      ),
    contentType: z.enum(CLASSIC_UPLOADS.types).describe("The image's type, as served."),
    width: z.number().int().min(1),
    height: z.number().int().min(1),
    size: z.number().int().min(1).describe("Bytes stored."),
    sha256: z.string().describe("SHA-256 of the bytes (64 lowercase hex)."),
  })
  .meta({ id: "ClassicUploadResult" });

export const classicUploadSchema = z
  .object({
    success: z.literal(true),
    image: z.object({
      success: z.literal(true),
      result: classicUploadResultSchema,
    }),
  })
  .meta({ id: "ClassicUpload" });

export type ClassicUploadResult = z.infer<typeof classicUploadResultSchema>;
export type ClassicUpload = z.infer<typeof classicUploadSchema>;

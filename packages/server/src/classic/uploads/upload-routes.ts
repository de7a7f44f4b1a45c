import {
  CLASSIC_ERROR_CODES,
  CLASSIC_UPLOADS,
  classicUploadParamsSchema,
  classicUploadSchema,
} from "@mkt/protocol";
import { z } from "zod";
import { notFound } from "../../errors.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { signedInAccount } from "../../identity/index.ts";
import { IMAGE_LIMITS } from "../../media/index.ts";
import { keyAndBearerAccess, keyRefused, LIVE_COMPATIBLE } from "../responses.ts";
import { readUploadedFile } from "./multipart.ts";
import type { ClassicUploadsService } from "./store.ts";

/** What an uploaded image may do in a browser: nothing (no script, no subresource), and no type sniffing. */
const LOCKED_DOWN = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'",
} as const;

const MIB = 1024 * 1024;

const uploadForm = z
  .object({
    [CLASSIC_UPLOADS.field]: z
      .string()
      .meta({ format: "binary" })
      .describe(
        "The image: one file part, its `Content-Type` image/png, image/jpeg (or image/jpg) or image/webp.",
      ),
  })
  .meta({ id: "ClassicUploadForm" });

const binary = z.string().meta({ format: "binary" });

/** Creator image uploads (the live service's `POST /image/upload`) and their public bytes. */
export function classicUploadRoutes({ uploads }: { uploads: ClassicUploadsService }): RouteSpec[] {
  return [
    defineRoute({
      method: "POST",
      path: "/image/upload",
      operationId: "classicImageUpload",
      summary: "Upload a card, pack or game image",
      description: `Serves the live service's \`POST /image/upload\` (its creators' image upload): the same request and answer, so a live client only changes its base URL. The body is \`multipart/form-data\` with exactly one file part in the field \`${CLASSIC_UPLOADS.field}\` and no other part.

The image must be a still PNG, JPEG or WebP: its part's declared type (\`image/jpg\` is taken for JPEG), its first bytes and its header as the decoder reads it must agree, and every pixel must decode; SVG, GIF, animated WebP and APNG are refused. At most ${CLASSIC_UPLOADS.maxBytes / MIB} MiB (the reader stops the stream there), ${IMAGE_LIMITS.side} pixels per side and ${IMAGE_LIMITS.pixels} pixels in all (a decompression-bomb guard, checked before decoding). The bytes are stored as sent (no re-encoding, metadata kept).

mkt stores the image in its database and serves it from \`variants[0]\`, \`<PUBLIC_URL>/classic/uploads/<id>\`: public, immutable, accepted as a creator image URL by drafts and revisions. The same bytes uploaded again by the same account answer the first upload (its id, file name and time) and are not counted. Uploads are kept until the account is deleted.

Limits, counted in the database so they hold across replicas: ${CLASSIC_UPLOADS.perDay} images and ${CLASSIC_UPLOADS.bytesPerDay / MIB} MiB per account in any rolling 24 hours, then 429 \`{success:false, message, error:"${CLASSIC_ERROR_CODES.uploadLimit}"}\` with \`Retry-After\` (seconds until the oldest counted upload leaves the 24 hours) and \`RateLimit-*\` / \`x-ratelimit-*\` of this limit. Nothing is stored unless every check passes. ${keyAndBearerAccess}`,
      tags: ["Images", LIVE_COMPATIBLE],
      multipart: { maxFileBytes: CLASSIC_UPLOADS.maxBytes },
      documentedBody: uploadForm,
      responses: {
        200: {
          description: "Stored (or found: the same bytes from the same account).",
          schema: classicUploadSchema,
        },
        400: {
          description: `\`${CLASSIC_ERROR_CODES.invalidImage}\`: not a still PNG, JPEG or WebP of its declared type, truncated or corrupt, or beyond the pixel limits. \`VALIDATION_ERROR\`: no file, a second file, another field, a file in another field, or a malformed multipart body.`,
        },
        401: { description: "Bearer token missing, expired or invalid (`UNAUTHORIZED`)." },
        413: {
          description: `\`${CLASSIC_ERROR_CODES.imageTooLarge}\`: the file is larger than ${CLASSIC_UPLOADS.maxBytes / MIB} MiB.`,
        },
        415: { description: "The body is not `multipart/form-data` (`UNSUPPORTED_MEDIA_TYPE`)." },
        429: {
          description: `${keyRefused.description} Or \`${CLASSIC_ERROR_CODES.uploadLimit}\`: the account's uploads of the last 24 hours are spent.`,
        },
      },
      handler: async (request) => {
        const file = await readUploadedFile(request);
        const result = await uploads.upload(signedInAccount(request).id, file);
        return { success: true as const, image: { success: true as const, result } };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/uploads/:id",
      operationId: "classicUploadedImage",
      summary: "An uploaded image",
      description: `The bytes of an upload (\`POST /classic/image/upload\`, \`variants[0]\`), with the type they were stored with. No API key (an \`<img>\` tag sends no headers): 2,000 requests per minute per client IP. Immutable: cacheable for a year by any cache. Served with \`X-Content-Type-Options: nosniff\` and \`Content-Security-Policy: default-src 'none'\`.`,
      tags: ["Images"],
      request: { params: classicUploadParamsSchema },
      responses: {
        200: { description: "The image.", contentType: "image/*", schema: binary },
        400: { description: "A malformed id (`VALIDATION_ERROR`)." },
        404: { description: `No upload has this id (\`${CLASSIC_ERROR_CODES.uploadNotFound}\`).` },
        429: { description: "More than 2,000 requests per minute from this client (`RATE_LIMITED`)." },
      },
      handler: async (request, reply) => {
        const image = await uploads.get(request.params.id);
        if (image === undefined) throw notFound("no upload has this id", CLASSIC_ERROR_CODES.uploadNotFound);
        return reply.headers(LOCKED_DOWN).type(image.contentType).send(image.bytes);
      },
    }),
  ];
}

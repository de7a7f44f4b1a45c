import {
  CLASSIC_UPLOADS,
  type ClassicUpload,
  type ClassicUploadType,
  classicUploadSchema,
} from "@mkt/protocol";
import { bearerHeaders, type ClassicCredential } from "./classic-auth.ts";
import type { Transport } from "./http.ts";

export interface UploadImageOptions {
  /** The image's type; required for bytes, else the Blob's own `type`. */
  contentType?: ClassicUploadType;
  /** The file name sent with it (default `image`); answered as `filename`. */
  filename?: string;
}

/** Uploads one image for a creator (`POST /classic/image/upload`). */
export type ClassicUploadImage = (
  image: Blob | Uint8Array,
  options?: UploadImageOptions,
) => Promise<ClassicUpload>;

/**
 * `client.classic.uploadImage`: one still PNG, JPEG or WebP through
 * `POST /classic/image/upload` (multipart, field `files`), the live service's
 * upload call. Needs a signed-in client (`client.classic.auth.signIn`).
 */
export function classicUploadImage(request: Transport, credential: ClassicCredential): ClassicUploadImage {
  /**
   * Uploads one image (at most 5 MiB, still PNG, JPEG or WebP) and answers the
   * live service's shape; `image.result.variants[0]` is the public URL to use
   * as a card, pack or game image. The same bytes sent again by the same
   * account answer the first upload. Fails with `MktApiError`: 400
   * `INVALID_IMAGE`, 413 `IMAGE_TOO_LARGE`, 429 `UPLOAD_LIMIT` (not retried:
   * `retryAfterSeconds` says when the account may upload again).
   *
   * @example
   * ```ts
   * await client.classic.auth.signIn(account);
   * const { image } = await client.classic.uploadImage(pngBytes, { contentType: "image/png", filename: "bolt.png" });
   * const imageUrl = image.result.variants[0];
   * ```
   */
  return async (image: Blob | Uint8Array, options: UploadImageOptions = {}): Promise<ClassicUpload> => {
    const type = options.contentType ?? (image instanceof Blob ? image.type : undefined);
    if (!type)
      throw new TypeError("uploadImage: give contentType for bytes (image/png, image/jpeg or image/webp)");
    const blob =
      image instanceof Blob && image.type === type
        ? image
        : new Blob([image instanceof Blob ? image : new Uint8Array(image)], { type });
    const form = new FormData();
    form.append(CLASSIC_UPLOADS.field, blob, options.filename ?? "image");
    const { body } = await request<unknown>({
      method: "POST",
      path: "/classic/image/upload",
      form,
      headers: bearerHeaders(credential),
      finalCodes: ["UPLOAD_LIMIT"],
    });
    return classicUploadSchema.parse(body);
  };
}

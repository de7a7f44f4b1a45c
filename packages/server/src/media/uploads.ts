import { ACCOUNT_LIMITS } from "@mkt/protocol";
import sharp, { type Metadata } from "sharp";
import { badRequest } from "../errors.ts";

/** The image types an upload may declare (the protocol's `contentType` enum). */
export type UploadContentType = "image/png" | "image/jpeg" | "image/webp";

export const IMAGE_LIMITS = {
  /** Decoded bytes of one upload. */
  bytes: ACCOUNT_LIMITS.imageBytes,
  /** Pixels per side: a 512 KiB file can declare a huge canvas (a decompression bomb). */
  side: 4096,
  /** width × height; decoding this many takes about a second of one core. */
  pixels: 4096 * 4096,
  /** Side of a normalised avatar and of a pixel pfp. */
  avatarSide: 256,
} as const;

const FORMAT_OF: Record<UploadContentType, "png" | "jpeg" | "webp"> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/webp": "webp",
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The file signature of each type. Checked before the bytes reach libvips, so
 * no other decoder (SVG, TIFF, HEIF, …) ever sees an upload.
 */
function hasSignature(bytes: Buffer, type: UploadContentType): boolean {
  switch (type) {
    case "image/png":
      return bytes.subarray(0, 8).equals(PNG_SIGNATURE);
    case "image/jpeg":
      return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    case "image/webp":
      return bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP";
  }
}

/** Decoder options of every upload: invalid pixel data aborts, and no canvas beyond the limit is decoded. */
const decoding = { failOn: "error", limitInputPixels: IMAGE_LIMITS.pixels } as const;

export interface VerifiedImage {
  bytes: Buffer;
  contentType: UploadContentType;
  width: number;
  height: number;
}

/** The error of an upload that is not the image it claims to be; a 400. */
export class InvalidImageError extends Error {
  override readonly name = "InvalidImageError";
}

/** What an upload's bytes are checked against beyond the declared type. */
export interface ImageRules {
  /** Bytes at most (default `IMAGE_LIMITS.bytes`). */
  maxBytes?: number;
  /** Refuse animated images (an animated WebP, an APNG): still images only. */
  still?: boolean;
}

/** Whether a PNG carries an animation control chunk (`acTL`, APNG) before its image data. */
function isAnimatedPng(bytes: Buffer): boolean {
  // Chunks after the signature: length (4), type (4), data, CRC (4).
  let at = 8;
  while (at + 8 <= bytes.length) {
    const type = bytes.toString("latin1", at + 4, at + 8);
    if (type === "acTL") return true;
    if (type === "IDAT" || type === "IEND") return false;
    at += 12 + bytes.readUInt32BE(at);
  }
  return false;
}

/**
 * Checks, before any pixel is decoded, that `bytes` really are an image of
 * the declared type within the size limits: the file signature first (so no
 * other libvips decoder, SVG, GIF, TIFF or HEIF, ever sees an upload), then
 * the header as libvips reads it. Throws a 400 for anything else (`code`:
 * the error code of the caller's surface). `verifyPixels` decodes the
 * whole image.
 */
export async function verifyImageBytes(
  contentType: UploadContentType,
  bytes: Buffer,
  rules: ImageRules = {},
  code?: string,
): Promise<VerifiedImage> {
  const maxBytes = rules.maxBytes ?? IMAGE_LIMITS.bytes;
  const refuse = (message: string) => badRequest(message, code);
  if (bytes.length === 0) throw refuse("the image is empty");
  if (bytes.length > maxBytes) {
    throw refuse(`the image is larger than ${maxBytes / 1024} KiB`);
  }
  if (!hasSignature(bytes, contentType)) {
    throw refuse(`data is not a ${FORMAT_OF[contentType].toUpperCase()} image (contentType ${contentType})`);
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { failOn: "error", limitInputPixels: false }).metadata();
  } catch {
    throw refuse(`data is not a readable ${contentType} image`);
  }
  if (metadata.format !== FORMAT_OF[contentType]) {
    throw refuse(`data is a ${metadata.format ?? "unknown"} image, not ${contentType}`);
  }
  const { width, height } = metadata;
  if (!width || !height) throw refuse("the image has no dimensions");
  if (width > IMAGE_LIMITS.side || height > IMAGE_LIMITS.side || width * height > IMAGE_LIMITS.pixels) {
    throw refuse(
      `the image is ${width}×${height}; at most ${IMAGE_LIMITS.side} pixels per side and ${IMAGE_LIMITS.pixels} pixels in all`,
    );
  }
  if (rules.still && ((metadata.pages ?? 1) > 1 || (contentType === "image/png" && isAnimatedPng(bytes)))) {
    throw refuse("the image is animated; only still images are taken");
  }
  return { bytes, contentType, width, height };
}

/**
 * Decodes a base64 upload and checks it as `verifyImageBytes` does (the
 * market's account actions carry images as base64 in JSON).
 */
export async function readUpload(contentType: UploadContentType, data: string): Promise<VerifiedImage> {
  const bytes = Buffer.from(data, "base64");
  if (bytes.length === 0) throw badRequest("data is empty");
  return verifyImageBytes(contentType, bytes);
}

/** Decodes every pixel; a truncated or corrupt image is a 400 (`code`: the caller's surface's code). */
export async function verifyPixels(image: VerifiedImage, code?: string): Promise<void> {
  try {
    await sharp(image.bytes, decoding).stats();
  } catch {
    throw badRequest(
      `data is not a complete ${image.contentType} image: its pixel data is truncated or corrupt`,
      code,
    );
  }
}

/**
 * An avatar as stored and served: oriented by its EXIF tag, cropped to the
 * centre square, 256×256 PNG, metadata (EXIF, GPS) stripped.
 * Throws `InvalidImageError` when the pixel data cannot be decoded.
 */
export async function normaliseAvatar(image: VerifiedImage): Promise<Buffer> {
  try {
    return await sharp(image.bytes, { ...decoding, autoOrient: true })
      .resize(IMAGE_LIMITS.avatarSide, IMAGE_LIMITS.avatarSide, { fit: "cover", position: "centre" })
      .png()
      .toBuffer();
  } catch (error) {
    throw new InvalidImageError("the avatar's pixel data is truncated or corrupt", { cause: error });
  }
}

/**
 * The pixel pfp of an avatar: area-averaged down to `size`×`size` (each cell
 * the alpha-weighted mean of the source pixels it covers, so transparent
 * pixels add no dark fringe), then scaled back to 256×256 with
 * nearest-neighbour so every cell is a flat block. PNG, with alpha.
 */
export async function pixelate(avatar: Uint8Array, size: number): Promise<Buffer> {
  const side = IMAGE_LIMITS.avatarSide;
  const { data } = await sharp(avatar, decoding)
    .resize(side, side, { fit: "fill" })
    .toColourspace("srgb")
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const cells = Buffer.alloc(size * size * 4);
  for (let cy = 0; cy < size; cy++) {
    const y0 = Math.floor((cy * side) / size);
    const y1 = Math.floor(((cy + 1) * side) / size);
    for (let cx = 0; cx < size; cx++) {
      const x0 = Math.floor((cx * side) / size);
      const x1 = Math.floor(((cx + 1) * side) / size);
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const at = (y * side + x) * 4;
          const alpha = data[at + 3] ?? 0;
          r += (data[at] ?? 0) * alpha;
          g += (data[at + 1] ?? 0) * alpha;
          b += (data[at + 2] ?? 0) * alpha;
          a += alpha;
        }
      }
      const out = (cy * size + cx) * 4;
      const count = (y1 - y0) * (x1 - x0);
      if (a > 0) {
        cells[out] = Math.round(r / a);
        cells[out + 1] = Math.round(g / a);
        cells[out + 2] = Math.round(b / a);
      }
      cells[out + 3] = Math.round(a / count);
    }
  }
  return sharp(cells, { raw: { width: size, height: size, channels: 4 } })
    .resize(side, side, { kernel: "nearest" })
    .png()
    .toBuffer();
}

/** A bytea value as a Buffer without copying (pg returns a Buffer, PGlite a Uint8Array). */
export function asBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError } from "../../errors.ts";
import {
  IMAGE_LIMITS,
  InvalidImageError,
  normaliseAvatar,
  pixelate,
  readUpload,
  verifyPixels,
} from "../../media/index.ts";

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

/** Left half red, right half blue. */
const halves = async (width: number, height: number) =>
  solid(width, height, "#0000ff")
    .composite([
      {
        input: await solid(width / 2, height, "#ff0000")
          .png()
          .toBuffer(),
        left: 0,
        top: 0,
      },
    ])
    .png()
    .toBuffer();

const base64 = (bytes: Buffer) => bytes.toString("base64");

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("readUpload", () => {
  it("accepts PNG, JPEG and WebP as declared, with their dimensions", async () => {
    const png = await solid(30, 20, "#00ff00").png().toBuffer();
    const jpeg = await solid(31, 21, "#00ff00").jpeg().toBuffer();
    const webp = await solid(32, 22, "#00ff00").webp().toBuffer();
    expect(await readUpload("image/png", base64(png))).toMatchObject({ width: 30, height: 20 });
    expect(await readUpload("image/jpeg", base64(jpeg))).toMatchObject({ width: 31, height: 21 });
    expect(await readUpload("image/webp", base64(webp))).toMatchObject({ width: 32, height: 22 });
  });

  it("refuses bytes that are not the declared type", async () => {
    const jpeg = await solid(10, 10, "#000").jpeg().toBuffer();
    const png = await solid(10, 10, "#000").png().toBuffer();
    const gif = await solid(10, 10, "#000").gif().toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>');
    for (const [type, bytes] of [
      ["image/png", jpeg],
      ["image/jpeg", png],
      ["image/webp", png],
      ["image/png", gif],
      ["image/png", svg],
      ["image/png", Buffer.from("not an image at all")],
    ] as const) {
      const error = await rejection(readUpload(type, base64(bytes)));
      expect(error.kind).toBe("bad_request");
    }
  });

  it("refuses a PNG signature with a corrupt header", async () => {
    const png = await solid(10, 10, "#000").png().toBuffer();
    const corrupt = Buffer.concat([png.subarray(0, 8), Buffer.alloc(40, 7)]);
    expect((await rejection(readUpload("image/png", base64(corrupt)))).message).toMatch(/not a readable/);
  });

  it("refuses more bytes than the limit, and canvases beyond the pixel limit", async () => {
    const oversize = Buffer.concat([
      await solid(10, 10, "#000").png().toBuffer(),
      Buffer.alloc(IMAGE_LIMITS.bytes),
    ]);
    expect((await rejection(readUpload("image/png", base64(oversize)))).message).toMatch(
      /larger than 512 KiB/,
    );
    // A few kilobytes that decode to 25 million pixels.
    const bomb = await solid(5000, 5000, "#000").png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(IMAGE_LIMITS.bytes);
    expect((await rejection(readUpload("image/png", base64(bomb)))).message).toMatch(/5000×5000/);
  });
});

describe("verifyPixels and normaliseAvatar", () => {
  it("refuses a truncated image whose header is fine", async () => {
    const png = await halves(300, 200);
    const truncated = png.subarray(0, Math.floor(png.length * 0.6));
    const image = await readUpload("image/png", base64(truncated));
    expect((await rejection(verifyPixels(image))).kind).toBe("bad_request");
    await expect(normaliseAvatar(image)).rejects.toBeInstanceOf(InvalidImageError);
  });

  it("normalises an avatar to a 256×256 PNG cropped to the centre, without metadata", async () => {
    const jpeg = await halves(400, 200).then((png) =>
      sharp(png)
        .jpeg()
        .withMetadata({ exif: { IFD0: { Copyright: "secret place" } } })
        .toBuffer(),
    );
    const image = await readUpload("image/jpeg", base64(jpeg));
    await verifyPixels(image);
    const avatar = await normaliseAvatar(image);
    const metadata = await sharp(avatar).metadata();
    expect(metadata).toMatchObject({ format: "png", width: 256, height: 256 });
    expect(metadata.exif).toBeUndefined();
    // The centre square of a red|blue image: red on the left edge, blue on the right.
    const { data } = await sharp(avatar).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * 256 + x) * 3, (y * 256 + x) * 3 + 3)];
    expect(at(2, 128)[0]).toBeGreaterThan(200);
    expect(at(253, 128)[2]).toBeGreaterThan(200);
  });
});

describe("pixelate", () => {
  it("makes flat size×size blocks at 256×256 with the area's mean colour", async () => {
    // A 2×2 checker of 128-pixel squares in four colours, plus one odd pixel.
    const avatar = await sharp({ create: { width: 256, height: 256, channels: 4, background: "#ff0000ff" } })
      .composite([
        { input: await solid(128, 128, "#00ff00").png().toBuffer(), left: 128, top: 0 },
        { input: await solid(128, 128, "#0000ff").png().toBuffer(), left: 0, top: 128 },
        { input: await solid(128, 128, "#ffffff").png().toBuffer(), left: 128, top: 128 },
        { input: await solid(1, 1, "#000000").png().toBuffer(), left: 5, top: 5 },
      ])
      .png()
      .toBuffer();
    const size = 8;
    const pixel = await pixelate(avatar, size);
    expect(await sharp(pixel).metadata()).toMatchObject({ format: "png", width: 256, height: 256 });
    const { data, info } = await sharp(pixel).raw().toBuffer({ resolveWithObject: true });
    const channels = info.channels;
    const at = (x: number, y: number) => [
      ...data.subarray((y * 256 + x) * channels, (y * 256 + x) * channels + 3),
    ];
    const block = 256 / size;
    for (let by = 0; by < size; by++) {
      for (let bx = 0; bx < size; bx++) {
        const first = at(bx * block, by * block);
        for (const [dx, dy] of [
          [block - 1, 0],
          [0, block - 1],
          [block - 1, block - 1],
          [block / 2, block / 2],
        ] as const) {
          expect(at(bx * block + dx, by * block + dy)).toEqual(first);
        }
      }
    }
    expect(at(200, 10)).toEqual([0, 255, 0]);
    expect(at(10, 200)).toEqual([0, 0, 255]);
    expect(at(200, 200)).toEqual([255, 255, 255]);
    // The block holding the black pixel is the mean of 1023 red and 1 black pixels.
    expect(at(0, 0)).toEqual([Math.round((255 * 1023) / 1024), 0, 0]);
    expect(at(40, 0)).toEqual([255, 0, 0]);
  });
});

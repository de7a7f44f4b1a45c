import { createHash } from "node:crypto";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { type ClassicSignedIn, signInClassic } from "../../_test/classic.ts";

const clock = createManualClock(Date.UTC(2026, 10, 25, 12, 0, 0));
let test: TestApp;
let apiKey: string;

beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(() => test.close());

const creator = (walletIndex: number) =>
  signInClassic(test.app.server, { apiKey, walletIndex, now: clock.now() });

interface Part {
  name: string;
  filename?: string;
  type?: string;
  body: Buffer | string;
}

/** A multipart/form-data body of `parts`, as a browser's FormData sends it. */
function form(parts: Part[]) {
  const boundary = `----mkt${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? "" : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ""}\r\n`,
      ),
      Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const upload = (headers: Record<string, string>, parts: Part[]) => {
  const { payload, contentType } = form(parts);
  return test.app.server.inject({
    method: "POST",
    url: "/classic/image/upload",
    headers: { ...headers, "content-type": contentType },
    payload,
  });
};

const file = (body: Buffer | string, type: string, filename = "card.png"): Part => ({
  name: "files",
  filename,
  type,
  body,
});

const image = (format: "png" | "jpeg" | "webp", width = 24, height = 16, background = "#ff3366") => {
  const base = sharp({ create: { width, height, channels: 3, background } });
  return (format === "png" ? base.png() : format === "jpeg" ? base.jpeg() : base.webp()).toBuffer();
};

const expectError = (
  response: { statusCode: number; json(): unknown },
  status: number,
  error: string,
  message?: RegExp,
) => {
  expect({ status: response.statusCode, body: response.json() }).toMatchObject({
    status,
    body: { success: false, error, ...(message ? { message: expect.stringMatching(message) } : {}) },
  });
};

const storedCount = async (accountId: string) =>
  (
    await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM classic_uploads WHERE account_id = ${accountId}`.execute(test.db.kysely)
  ).rows[0]?.n;

type UploadAnswer = {
  success: true;
  image: {
    success: true;
    result: {
      id: string;
      filename: string;
      uploaded: string;
      variants: string[];
      contentType: string;
      width: number;
      height: number;
      size: number;
      sha256: string;
    };
  };
};

describe("POST /classic/image/upload: stores and serves", () => {
  it("stores a PNG, a JPEG and a WebP and serves the same bytes publicly, in the live answer shape", async () => {
    const who = await creator(90);
    for (const [format, type] of [
      ["png", "image/png"],
      ["jpeg", "image/jpeg"],
      ["webp", "image/webp"],
    ] as const) {
      const bytes = await image(format, 30, 20);
      const response = await upload(who.headers, [file(bytes, type, `art.${format}`)]);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as UploadAnswer;
      const { result } = body.image;
      expect(body).toEqual({
        success: true,
        image: {
          success: true,
          result: {
            id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
            filename: `art.${format}`,
            uploaded: new Date(clock.now()).toISOString(),
            variants: [`https://api.mkt.test/classic/uploads/${result.id}`],
            contentType: type,
            width: 30,
            height: 20,
            size: bytes.length,
            sha256: createHash("sha256").update(bytes).digest("hex"),
          },
        },
      });
      expect(response.headers["cache-control"]).toBe("no-store");

      // Served without any credential, as an <img> tag asks.
      const served = await test.app.server.inject({
        method: "GET",
        url: new URL(result.variants[0]!).pathname,
      });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers["content-type"]).toBe(type);
      expect(served.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.headers["content-security-policy"]).toBe("default-src 'none'");
      expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
    expect(await storedCount(who.accountId)).toBe(3);
  });

  it("answers the first upload for the same bytes from the same account, without storing or counting them again", async () => {
    const who = await creator(91);
    const other = await creator(92);
    const bytes = await image("png", 12, 12, "#00aa00");
    const first = (await upload(who.headers, [file(bytes, "image/png", "one.png")])).json() as UploadAnswer;
    clock.advance(1000);
    const again = (await upload(who.headers, [file(bytes, "image/png", "two.png")])).json() as UploadAnswer;
    expect(again.image.result).toEqual(first.image.result);
    expect(await storedCount(who.accountId)).toBe(1);
    // Another account's copy is its own upload.
    const theirs = (await upload(other.headers, [file(bytes, "image/png")])).json() as UploadAnswer;
    expect(theirs.image.result.id).not.toBe(first.image.result.id);
  });

  it("answers 404 UPLOAD_NOT_FOUND for an unknown id and 400 for a malformed one", async () => {
    expectError(
      await test.app.server.inject({
        method: "GET",
        url: "/classic/uploads/00000000-0000-4000-8000-000000000000",
      }),
      404,
      "UPLOAD_NOT_FOUND",
    );
    expectError(
      await test.app.server.inject({ method: "GET", url: "/classic/uploads/not-an-id" }),
      400,
      "VALIDATION_ERROR",
    );
  });

  it("gives a URL that a draft takes as a card image", async () => {
    const who = await creator(93);
    const stored = (
      await upload(who.headers, [file(await image("webp"), "image/webp", "bolt.webp")])
    ).json() as UploadAnswer;
    const url = stored.image.result.variants[0]!;
    const draft = await test.app.server.inject({
      method: "POST",
      url: "/classic/metadata/draft/poll",
      headers: who.headers,
      payload: {
        revision: 1,
        creator: who.address,
        nftName: "Uploaded Art",
        game: { imageUrl: url },
        cards: [{ name: "Bolt", rarity: 1, startId: 1, endId: 1, imageUrl: url }],
      },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({
      applied: true,
      draft: { game: { imageUrl: url }, cards: [{ name: "Bolt", imageUrl: url }] },
    });
  });
});

describe("POST /classic/image/upload: refusals", () => {
  let who: ClassicSignedIn;
  beforeAll(async () => {
    who = await creator(94);
  });

  it("refuses what is not the still image it claims to be, storing nothing", async () => {
    const png = await image("png");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`;
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#123456" } })
      .gif()
      .toBuffer();
    const frame = (background: string) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background } })
        .png()
        .toBuffer();
    const animatedWebp = await sharp([await frame("#ff0000"), await frame("#00ff00")], {
      join: { animated: true },
    })
      .webp()
      .toBuffer();
    expect((await sharp(animatedWebp).metadata()).pages).toBe(2);
    const cases: Array<[string, Part, RegExp]> = [
      ["a PNG declared as JPEG", file(png, "image/jpeg"), /not a JPEG image/],
      ["a text file named .png", file("just some text, not pixels", "image/png", "notes.png"), /not a PNG/],
      ["an SVG", file(svg, "image/svg+xml", "art.svg"), /declared type is image\/svg\+xml/],
      ["an SVG declared as PNG", file(svg, "image/png", "art.png"), /not a PNG image/],
      ["a GIF", file(gif, "image/gif", "art.gif"), /declared type is image\/gif/],
      ["a GIF declared as WebP", file(gif, "image/webp", "art.webp"), /not a WEBP image/],
      [
        "a truncated PNG",
        file(png.subarray(0, png.length - 20), "image/png"),
        /truncated or corrupt|not a readable/,
      ],
      ["no declared type", { name: "files", filename: "x.png", body: png }, /declared type/],
      ["an animated WebP", file(animatedWebp, "image/webp"), /animated/],
    ];
    for (const [what, part, message] of cases) {
      const response = await upload(who.headers, [part]);
      expect([what, response.statusCode]).toEqual([what, 400]);
      expectError(response, 400, "INVALID_IMAGE", message);
    }
    expect(await storedCount(who.accountId)).toBe(0);
  });

  it("refuses an APNG (animated PNG)", async () => {
    const png = await image("png", 8, 8);
    // An acTL chunk before the first IDAT makes a PNG an APNG.
    const acTL = Buffer.alloc(8 + 12);
    acTL.writeUInt32BE(8, 0);
    acTL.write("acTL", 4, "latin1");
    acTL.writeUInt32BE(2, 8);
    const ihdrEnd = 8 + 12 + 13;
    const apng = Buffer.concat([png.subarray(0, ihdrEnd), acTL, png.subarray(ihdrEnd)]);
    const response = await upload(who.headers, [file(apng, "image/png")]);
    expectError(response, 400, "INVALID_IMAGE", /animated/);
  });

  it("refuses an image with more pixels than the decompression-bomb guard allows, before decoding it", async () => {
    const bomb = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: "#000" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expectError(await upload(who.headers, [file(bomb, "image/png")]), 400, "INVALID_IMAGE", /5000×5000/);
  });

  it("answers 413 IMAGE_TOO_LARGE past 5 MiB, stopping the stream at the cap", async () => {
    const huge = Buffer.concat([await image("png"), Buffer.alloc(5 * 1024 * 1024)]);
    const response = await upload(who.headers, [file(huge, "image/png")]);
    expectError(response, 413, "IMAGE_TOO_LARGE", /larger than 5 MiB/);
    expect(await storedCount(who.accountId)).toBe(0);
  });

  it("answers 400 for a file name holding text no request may hold, storing nothing", async () => {
    const png = await image("png");
    for (const name of ["card\u202egnp.exe", "a\u0000b.png"]) {
      const response = await upload(who.headers, [file(png, "image/png", name)]);
      expect([name, response.statusCode]).toEqual([name, 400]);
      expectError(response, 400, "VALIDATION_ERROR", /the file name holds/);
    }
    expect(await storedCount(who.accountId)).toBe(0);
  });

  it("answers 400 for no file, a second file, another field or another field name", async () => {
    const png = await image("png");
    const cases: Array<[string, Part[]]> = [
      ["no part", []],
      ["a second file", [file(png, "image/png"), file(await image("png", 9, 9), "image/png")]],
      ["a field beside the file", [file(png, "image/png"), { name: "metadata", body: "{}" }]],
      ["a field before the file", [{ name: "requireSignedURLs", body: "false" }, file(png, "image/png")]],
      ["the file in another field", [{ ...file(png, "image/png"), name: "file" }]],
    ];
    for (const [what, parts] of cases) {
      const response = await upload(who.headers, parts);
      expect([what, response.statusCode]).toEqual([what, 400]);
      expectError(response, 400, "VALIDATION_ERROR", /exactly one file|no file/);
    }
    expect(await storedCount(who.accountId)).toBe(0);
  });

  it("answers 415 to a body that is not multipart, and no other classic route takes multipart", async () => {
    const json = await test.app.server.inject({
      method: "POST",
      url: "/classic/image/upload",
      headers: who.headers,
      payload: { files: "aGVsbG8=" },
    });
    expectError(json, 415, "UNSUPPORTED_MEDIA_TYPE", /multipart\/form-data/);
    const empty = await test.app.server.inject({
      method: "POST",
      url: "/classic/image/upload",
      headers: who.headers,
    });
    expect(empty.statusCode).toBe(415);
    const { payload, contentType } = form([{ name: "reason", body: "spam" }]);
    const elsewhere = await test.app.server.inject({
      method: "POST",
      url: "/classic/reports",
      headers: { ...who.headers, "content-type": contentType },
      payload,
    });
    expect(elsewhere.statusCode).toBe(415);
  });

  it("answers 401 without a bearer and the classic 429 without a key, reading no body", async () => {
    const png = await image("png");
    expectError(await upload({ "api-key": apiKey }, [file(png, "image/png")]), 401, "UNAUTHORIZED");
    expectError(
      await upload({ authorization: who.headers.authorization }, [file(png, "image/png")]),
      429,
      "RATE_LIMITED",
    );
    expect(await storedCount(who.accountId)).toBe(0);
  });
});

describe("POST /classic/image/upload: the daily limit", () => {
  it("answers the 1,001st upload in 24 hours 429 UPLOAD_LIMIT with Retry-After, and takes uploads again once the oldest leaves", async () => {
    const who = await creator(95);
    const start = clock.now();
    // 1,000 uploads in the last 24 hours, the oldest 20 hours ago.
    await sql`
      INSERT INTO classic_uploads (id, account_id, bytes, content_type, sha256, size, width, height, created_at)
      SELECT gen_random_uuid()::text, ${who.accountId}, '\\x00'::bytea, 'image/png', md5(n::text), 1, 1, 1,
             ${new Date(start - 20 * 3_600_000).toISOString()}::timestamptz + (n || ' seconds')::interval
      FROM generate_series(0, 999) AS n`.execute(test.db.kysely);
    const refused = await upload(who.headers, [file(await image("png", 7, 7), "image/png")]);
    expectError(refused, 429, "UPLOAD_LIMIT", /at most 1000 images/);
    expect(refused.headers["retry-after"]).toBe(String(4 * 3600));
    expect(refused.headers["ratelimit-limit"]).toBe("1000");
    expect(refused.headers["ratelimit-remaining"]).toBe("0");
    expect(refused.headers["x-ratelimit-limit"]).toBe("1000");
    expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
    expect(refused.headers["x-ratelimit-reset"]).toBe(String(Math.ceil(start / 1000) + 4 * 3600));
    expect(await storedCount(who.accountId)).toBe(1000);

    // The oldest leaves the 24 hours: one more is taken.
    clock.advance(4 * 3_600_000 + 500);
    const taken = await upload(who.headers, [file(await image("png", 7, 7), "image/png")]);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(await storedCount(who.accountId)).toBe(1001);
  });
});

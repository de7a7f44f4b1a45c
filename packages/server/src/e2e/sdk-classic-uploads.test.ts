import { createMktClient, MktApiError } from "@mkt/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";

/**
 * `client.classic.uploadImage` against the running server: a signed-in
 * client uploads an image as multipart, the answer's URL serves the same
 * bytes without a key, and refusals arrive as `MktApiError`s with their codes.
 */
describe("SDK classic image upload over real HTTP", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  it("uploads bytes and a Blob, serves them back, and refuses a lying type with INVALID_IMAGE", async () => {
    const { key } = await t.createKey({ multiplier: 10 });
    const client = createMktClient({ baseUrl, apiKey: key, retry: { attempts: 1 } });
    await client.classic.auth.signIn(testWallet(61));

    const png = await sharp({ create: { width: 20, height: 10, channels: 4, background: "#33669980" } })
      .png()
      .toBuffer();
    const uploaded = await client.classic.uploadImage(new Uint8Array(png), {
      contentType: "image/png",
      filename: "bolt.png",
    });
    expect(uploaded).toMatchObject({
      success: true,
      image: {
        success: true,
        result: { filename: "bolt.png", contentType: "image/png", width: 20, height: 10 },
      },
    });
    const url = uploaded.image.result.variants[0]!;
    // Built from the configured public URL (the test app's), served by this listener.
    expect(url).toBe(`https://api.mkt.test/classic/uploads/${uploaded.image.result.id}`);
    const served = await fetch(`${baseUrl}${new URL(url).pathname}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    const webp = await sharp(png).webp().toBuffer();
    const fromBlob = await client.classic.uploadImage(
      new Blob([new Uint8Array(webp)], { type: "image/webp" }),
    );
    expect(fromBlob.image.result).toMatchObject({
      filename: "image",
      contentType: "image/webp",
      size: webp.length,
    });

    const refused = await client.classic
      .uploadImage(new Uint8Array(png), { contentType: "image/jpeg" })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MktApiError);
    expect({ status: (refused as MktApiError).status, code: (refused as MktApiError).code }).toEqual({
      status: 400,
      code: "INVALID_IMAGE",
    });
  });

  it("needs a signed-in client: 401 without the bearer", async () => {
    const { key } = await t.createKey();
    const client = createMktClient({ baseUrl, apiKey: key, retry: { attempts: 1 } });
    const refused = await client.classic
      .uploadImage(new Uint8Array([0x89, 0x50]), { contentType: "image/png" })
      .catch((error: unknown) => error);
    expect((refused as MktApiError).status).toBe(401);
  });
});

import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { loadConfig } from "../../config/index.ts";
import { systemClock } from "../../quotas/limiter.ts";
import { PROFILE_ACTION_RESULTS, profileFeature } from "./index.ts";
import { imageBase64, lookup, solid, uploadAvatar, verifyX } from "./test-fixtures.ts";

let test: TestApp;
let apiKey: string;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;
const IMAGE_URL = /^https:\/\/api\.mkt\.test\/market\/support\/identity\/images\/img_[a-z0-9]+$/;

beforeAll(async () => {
  test = await setupApp();
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  alice = await signIn(test, 1, { apiKey });
  bob = await signIn(test, 2, { apiKey });
  carol = await signIn(test, 3, { apiKey });
});
afterAll(() => test.close());

const update = (who: SignedIn, body: Record<string, unknown>) =>
  accountAction(test, who, { kind: "profile-update", ...body });

describe("profile-update", () => {
  it("sets, keeps and clears the username and bio", async () => {
    const set = await update(alice, { username: "Alice_1", bio: "  makes packs  " });
    expect(set.statusCode).toBe(200);
    expect(set.json().result).toEqual({ username: "Alice_1", bio: "makes packs" });
    expect((await update(alice, { bio: "new bio" })).json().result).toEqual({
      username: "Alice_1",
      bio: "new bio",
    });
    expect((await update(alice, {})).json().result).toEqual({ username: "Alice_1", bio: "new bio" });
    // Changing the case of one's own name is not a conflict.
    expect((await update(alice, { username: "alice_1" })).json().result.username).toBe("alice_1");
  });

  it("keeps usernames unique case-insensitively; a cleared name is free again", async () => {
    await update(alice, { username: "Taken" });
    const taken = await update(bob, { username: "tAKEN" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: "this username is taken" });
    expect((await update(alice, { username: null })).json().result.username).toBe("");
    expect((await update(bob, { username: "tAKEN" })).statusCode).toBe(200);
  });

  it("refuses malformed usernames and long bios", async () => {
    for (const username of ["", "has space", "sixteen_chars_xx", "émile"]) {
      expect((await update(carol, { username })).statusCode).toBe(400);
    }
    expect((await update(carol, { bio: "x".repeat(281) })).statusCode).toBe(400);
    expect((await update(carol, { nickname: "x" })).statusCode).toBe(400);
  });
});

describe("avatar-upload", () => {
  it("normalises to a 256×256 PNG served publicly and immutably", async () => {
    const response = await accountAction(test, carol, {
      kind: "avatar-upload",
      contentType: "image/jpeg",
      data: await imageBase64("jpeg", { width: 640, height: 480 }),
    });
    expect(response.statusCode).toBe(200);
    const result = response.json().result;
    expect(result).toMatchObject({
      avatarId: expect.stringMatching(/^img_/),
      avatarUrl: expect.stringMatching(IMAGE_URL),
      pfpStatus: "ready",
      contentType: "image/png",
      width: 256,
      height: 256,
    });
    // The URL comes from PUBLIC_URL, never from the Host header.
    const served = await test.app.server.inject({
      method: "GET",
      url: new URL(result.avatarUrl).pathname,
      headers: { "api-key": apiKey, host: "evil.example" },
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["cache-control"]).toMatch(/immutable/);
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: "png",
      width: 256,
      height: 256,
    });

    // A new avatar replaces the old one, which is no longer served.
    const next = await uploadAvatar(test, carol, "#00ff00");
    expect(next.avatarId).not.toBe(result.avatarId);
    const old = await test.app.server.inject({
      method: "GET",
      url: new URL(result.avatarUrl).pathname,
      headers: { "api-key": apiKey },
    });
    expect(old.statusCode).toBe(404);
  });

  it("refuses an image that is not the declared type, and records a failed decode", async () => {
    const mismatch = await accountAction(test, bob, {
      kind: "avatar-upload",
      contentType: "image/webp",
      data: await imageBase64("png"),
    });
    expect(mismatch.statusCode).toBe(400);
    expect(await pfpStatus(bob)).toBe("idle");

    const png = await solid(300, 300, "#123456")
      .composite([{ input: await solid(80, 80, "#ff00ff").png().toBuffer(), left: 5, top: 5 }])
      .png()
      .toBuffer();
    const truncated = await accountAction(test, bob, {
      kind: "avatar-upload",
      contentType: "image/png",
      data: png.subarray(0, Math.floor(png.length / 2)).toString("base64"),
    });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().error).toMatch(/pfpStatus is now failed/);
    expect(await pfpStatus(bob)).toBe("failed");
    await uploadAvatar(test, bob);
    expect(await pfpStatus(bob)).toBe("ready");
  });
});

async function pfpStatus(who: SignedIn) {
  const row = await test.db.kysely
    .selectFrom("account_wallets")
    .leftJoin("profile_pictures", "profile_pictures.account_id", "account_wallets.account_id")
    .select("profile_pictures.pfp_status")
    .where("account_wallets.address", "=", who.address)
    .executeTakeFirstOrThrow();
  return row.pfp_status ?? "idle";
}

describe("GET /market/support/identity/profiles/x/{username}", () => {
  it("answers every field of the shared profile for a verified X account", async () => {
    const dave = await signIn(test, 4, { apiKey });
    expect((await verifyX(test, { address: dave.address, username: "Dave_X" })).statusCode).toBe(200);
    const bare = await lookup(test, "dave_x", apiKey);
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toEqual({
      ok: true,
      profile: {
        address: dave.address,
        username: "",
        avatarUrl: "",
        xUsername: "Dave_X",
        xAvatarUrl: "",
        xVerified: true,
        pfpStatus: "idle",
        pixelPfps: [],
        pixelPfpUrl: "",
        pixelPfpStatus: "idle",
      },
    });

    await update(dave, { username: "dave" });
    const avatar = await uploadAvatar(test, dave);
    const full = (await lookup(test, "DAVE_X", apiKey)).json().profile;
    expect(full).toMatchObject({ username: "dave", avatarUrl: avatar.avatarUrl, pfpStatus: "ready" });
    expect(Object.keys(full).sort()).toEqual(
      [
        "address",
        "avatarUrl",
        "pfpStatus",
        "pixelPfpStatus",
        "pixelPfpUrl",
        "pixelPfps",
        "username",
        "xAvatarUrl",
        "xUsername",
        "xVerified",
      ].sort(),
    );
    for (const value of Object.values(full)) expect(value).not.toBeNull();
  });

  it("refuses a malformed username (400), a missing or bad key (401), an unknown one (404)", async () => {
    for (const username of ["sixteen_chars_xx", "bad-name", "a%20b", "%C3%A9"]) {
      const response = await lookup(test, username, apiKey);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String) });
    }
    expect((await lookup(test, "Dave_X", undefined)).statusCode).toBe(401);
    expect((await lookup(test, "Dave_X", "mkt_not-a-real-key")).statusCode).toBe(401);
    const unknown = await lookup(test, "nobody_here", apiKey);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: expect.any(String) });
  });

  it("needs a key even with PUBLIC_READS=open", async () => {
    const open = await setupApp({ env: { PUBLIC_READS: "open" } });
    try {
      expect((await lookup(open, "anyone", undefined)).statusCode).toBe(401);
      const image = await open.app.server.inject({
        method: "GET",
        url: "/market/support/identity/images/img_abc",
      });
      expect(image.statusCode).toBe(404);
    } finally {
      await open.close();
    }
  });
});

describe("GET /market/support/identity/images/{imageId}", () => {
  it("refuses malformed ids and unknown images", async () => {
    const get = (id: string, headers: Record<string, string> = { "api-key": apiKey }) =>
      test.app.server.inject({ method: "GET", url: `/market/support/identity/images/${id}`, headers });
    expect((await get("IMG_ABC")).statusCode).toBe(400);
    expect((await get("img_0123456789abcdef0123")).statusCode).toBe(404);
    expect((await get("img_0123456789abcdef0123", {})).statusCode).toBe(401);
  });
});

describe("OpenAPI", () => {
  it("documents the routes and the pfp states", async () => {
    const document = (await test.app.server.inject({ method: "GET", url: "/openapi/market.json" })).json();
    const lookupOperation = document.paths["/market/support/identity/profiles/x/{username}"].get;
    for (const state of ["idle", "queued", "processing", "ready", "failed"]) {
      expect(lookupOperation.description).toContain(`\`${state}\``);
    }
    expect(Object.keys(lookupOperation.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "404"]),
    );
    expect(
      document.paths["/market/support/identity/images/{imageId}"].get.responses["200"].content,
    ).toHaveProperty("image/png");
    expect(document.paths["/market/account/social/x/callback"].get).toBeDefined();
  });
});

describe("profileFeature", () => {
  it("serves exactly its sixteen kinds, each with a documented result", () => {
    const feature = profileFeature({
      db: test.db,
      clock: systemClock,
      logger: pino({ level: "silent" }),
      config: loadConfig({}),
      sessions: test.app.services.sessions,
      cursors: test.app.services.cursors,
    });
    const kinds = [
      "wishlist-add",
      "wishlist-remove",
      "wishlist-list",
      "artwork-upload",
      "artwork-delete",
      "artwork-list",
      "invite-create",
      "invite-list",
      "invite-revoke",
      "referral-claim",
      "profile-update",
      "avatar-upload",
      "pfp-pixelate",
      "pfp-select",
      "x-connect",
      "x-disconnect",
    ];
    expect(Object.keys(feature.actions ?? {}).sort()).toEqual([...kinds].sort());
    expect(Object.keys(PROFILE_ACTION_RESULTS).sort()).toEqual([...kinds].sort());
    expect(feature.jobs?.map((job) => job.name)).toEqual(["pixel pfp queue"]);
  });
});

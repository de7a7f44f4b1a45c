import { PROFILE_LIMITS } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, type SignedIn, signIn } from "../../_test/accounts.ts";
import { setupApp, type TestApp } from "../../_test/app.ts";
import { insertRelease } from "../../_test/releases.ts";
import { imageBase64, solid, uploadAvatar } from "./test-fixtures.ts";

let test: TestApp;
let apiKey: string;
let alice: SignedIn;
let bob: SignedIn;
const accountIdOf = async (who: SignedIn) =>
  (
    await test.db.kysely
      .selectFrom("account_wallets")
      .select("account_id")
      .where("address", "=", who.address)
      .executeTakeFirstOrThrow()
  ).account_id;

beforeAll(async () => {
  test = await setupApp();
  apiKey = (await test.createKey({ multiplier: 100 })).key;
  alice = await signIn(test, 1, { apiKey });
  bob = await signIn(test, 2, { apiKey });
});
afterAll(() => test.close());

describe("wishlist", () => {
  let carolId: string;
  beforeAll(async () => {
    const carol = await signIn(test, 3, { apiKey });
    carolId = await accountIdOf(carol);
    for (const id of ["rel-a", "rel-b"]) await insertRelease(test.db, { id, ownerId: carolId });
    await insertRelease(test.db, { id: "rel-carol-draft", ownerId: carolId, status: "draft" });
  });

  it("adds, lists in order, removes, and keeps each account's list private", async () => {
    for (const releaseId of ["rel-b", "rel-a", "rel-b"]) {
      const added = await accountAction(test, alice, { kind: "wishlist-add", releaseId });
      expect(added.statusCode).toBe(200);
      expect(added.json()).toMatchObject({
        ok: true,
        kind: "wishlist-add",
        family: "releases",
        result: { releaseId, wishlisted: true },
      });
    }
    const list = await accountAction(test, alice, { kind: "wishlist-list" });
    expect(list.json().result).toEqual({ wishlist: ["rel-b", "rel-a"] });
    expect((await accountAction(test, bob, { kind: "wishlist-list" })).json().result).toEqual({
      wishlist: [],
    });

    const removed = await accountAction(test, alice, { kind: "wishlist-remove", releaseId: "rel-b" });
    expect(removed.json().result).toEqual({ releaseId: "rel-b", wishlisted: false, removed: true });
    const again = await accountAction(test, alice, { kind: "wishlist-remove", releaseId: "rel-b" });
    expect(again.json().result).toMatchObject({ removed: false });
    expect((await accountAction(test, alice, { kind: "wishlist-list" })).json().result).toEqual({
      wishlist: ["rel-a"],
    });
  });

  it("adds only releases the caller may see: 404 for an unknown id and another owner's draft", async () => {
    const unknown = await accountAction(test, bob, { kind: "wishlist-add", releaseId: "rel-nowhere" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: expect.stringMatching(/rel-nowhere/) });
    const othersDraft = await accountAction(test, bob, {
      kind: "wishlist-add",
      releaseId: "rel-carol-draft",
    });
    expect(othersDraft.statusCode).toBe(404);
    expect(othersDraft.json().error).toBe(unknown.json().error.replace("rel-nowhere", "rel-carol-draft"));

    const bobId = await accountIdOf(bob);
    await insertRelease(test.db, { id: "rel-bob-draft", ownerId: bobId, status: "draft" });
    const ownDraft = await accountAction(test, bob, { kind: "wishlist-add", releaseId: "rel-bob-draft" });
    expect(ownDraft.statusCode).toBe(200);
    expect((await accountAction(test, bob, { kind: "wishlist-list" })).json().result).toEqual({
      wishlist: ["rel-bob-draft"],
    });
    await test.db.kysely.deleteFrom("wishlists").where("account_id", "=", bobId).execute();
  });

  it("refuses malformed release ids and a full wishlist", async () => {
    const bad = await accountAction(test, bob, { kind: "wishlist-add", releaseId: "no spaces" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/releaseId/);

    const accountId = await accountIdOf(bob);
    const ids = Array.from({ length: PROFILE_LIMITS.wishlist + 1 }, (_, i) => `rel-cap-${i}`);
    for (const id of ids) await insertRelease(test.db, { id, ownerId: carolId });
    await test.db.kysely
      .insertInto("wishlists")
      .values(ids.slice(0, PROFILE_LIMITS.wishlist).map((id) => ({ account_id: accountId, release_id: id })))
      .execute();
    const full = await accountAction(test, bob, { kind: "wishlist-add", releaseId: ids.at(-1) as string });
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toMatch(/full/);
    // Adding one already there is not growth.
    expect(
      (await accountAction(test, bob, { kind: "wishlist-add", releaseId: "rel-cap-7" })).statusCode,
    ).toBe(200);
    // One out, one in.
    expect(
      (await accountAction(test, bob, { kind: "wishlist-remove", releaseId: "rel-cap-0" })).json().result
        .removed,
    ).toBe(true);
    expect(
      (await accountAction(test, bob, { kind: "wishlist-add", releaseId: ids.at(-1) as string })).statusCode,
    ).toBe(200);
    await test.db.kysely.deleteFrom("wishlists").where("account_id", "=", accountId).execute();
  });

  it("drops a release from every wishlist when the release is deleted", async () => {
    await insertRelease(test.db, { id: "rel-gone", ownerId: carolId });
    for (const who of [alice, bob])
      expect(
        (await accountAction(test, who, { kind: "wishlist-add", releaseId: "rel-gone" })).statusCode,
      ).toBe(200);
    await test.db.kysely.deleteFrom("releases").where("id", "=", "rel-gone").execute();
    const left = await test.db.kysely
      .selectFrom("wishlists")
      .select("account_id")
      .where("release_id", "=", "rel-gone")
      .execute();
    expect(left).toEqual([]);
    expect(
      (await accountAction(test, alice, { kind: "wishlist-list" })).json().result.wishlist,
    ).not.toContain("rel-gone");
  });

  it("needs an account session", async () => {
    const response = await test.app.server.inject({
      method: "POST",
      url: "/market/account",
      headers: { "api-key": apiKey },
      payload: { kind: "wishlist-list" },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe("artwork", () => {
  it("uploads each type to a draft with its real dimensions and lists them", async () => {
    const uploaded = [];
    for (const [format, contentType, draftId] of [
      ["png", "image/png", "draft-1"],
      ["jpeg", "image/jpeg", "draft-1"],
      ["webp", "image/webp", "draft-2"],
    ] as const) {
      const data = await imageBase64(format, { width: 64, height: 48 });
      const response = await accountAction(test, alice, {
        kind: "artwork-upload",
        draftId,
        contentType,
        data,
      });
      expect(response.statusCode).toBe(200);
      const result = response.json().result;
      expect(result).toEqual({
        artworkId: expect.stringMatching(/^img_[a-z0-9]+$/),
        draftId,
        contentType,
        width: 64,
        height: 48,
        bytes: Buffer.from(data, "base64").length,
      });
      uploaded.push(result);
    }
    const stored = await test.db.kysely
      .selectFrom("images")
      .select(["purpose", "draft_id", "bytes"])
      .where("id", "=", uploaded[0].artworkId)
      .executeTakeFirstOrThrow();
    expect(stored.purpose).toBe("artwork");
    expect(stored.draft_id).toBe("draft-1");
    expect(Buffer.from(stored.bytes).length).toBe(uploaded[0].bytes);

    const all = (await accountAction(test, alice, { kind: "artwork-list" })).json().result.artworks;
    expect(all.map((artwork: { artworkId: string }) => artwork.artworkId).sort()).toEqual(
      uploaded.map((artwork) => artwork.artworkId).sort(),
    );
    expect(all[0]).toMatchObject({ width: 64, height: 48, createdAt: expect.any(String) });
    const draft2 = (await accountAction(test, alice, { kind: "artwork-list", draftId: "draft-2" })).json()
      .result.artworks;
    expect(draft2).toHaveLength(1);
    expect(draft2[0]).toMatchObject({ artworkId: uploaded[2].artworkId, contentType: "image/webp" });
    expect((await accountAction(test, bob, { kind: "artwork-list" })).json().result.artworks).toEqual([]);

    // Private: the public image route never serves artwork.
    const served = await test.app.server.inject({
      method: "GET",
      url: `/market/support/identity/images/${uploaded[0].artworkId}`,
      headers: { "api-key": apiKey },
    });
    expect(served.statusCode).toBe(404);
    expect(served.json()).toEqual({ error: expect.any(String) });
  });

  it("refuses bytes that are not the declared image, oversize data and corrupt pixels", async () => {
    const upload = (contentType: string, data: string) =>
      accountAction(test, alice, { kind: "artwork-upload", draftId: "d", contentType, data });
    const jpeg = await imageBase64("jpeg");
    const mismatch = await upload("image/png", jpeg);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toMatch(/not a PNG/);
    expect((await upload("image/webp", await imageBase64("png"))).statusCode).toBe(400);
    expect((await upload("image/gif", await imageBase64("png"))).statusCode).toBe(400);
    expect((await upload("image/png", "not base64!")).statusCode).toBe(400);

    const oversize = await upload("image/png", "A".repeat(Math.ceil((512 * 1024 * 4) / 3) + 8));
    expect(oversize.statusCode).toBe(400);
    expect(oversize.json().error).toMatch(/512 KiB/);

    const png = await solid(200, 200, "#123456")
      .composite([{ input: await solid(50, 50, "#ff0000").png().toBuffer(), left: 10, top: 10 }])
      .png()
      .toBuffer();
    const truncated = await upload(
      "image/png",
      png.subarray(0, Math.floor(png.length / 2)).toString("base64"),
    );
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().error).toMatch(/truncated or corrupt/);

    const count = await test.db.kysely
      .selectFrom("images")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("draft_id", "=", "d")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("deletes only the caller's own artwork", async () => {
    const data = await imageBase64("png");
    const { artworkId } = (
      await accountAction(test, alice, {
        kind: "artwork-upload",
        draftId: "del",
        contentType: "image/png",
        data,
      })
    ).json().result;
    const byBob = await accountAction(test, bob, { kind: "artwork-delete", artworkId });
    expect(byBob.statusCode).toBe(404);
    const avatar = await uploadAvatar(test, alice);
    expect(
      (await accountAction(test, alice, { kind: "artwork-delete", artworkId: avatar.avatarId })).statusCode,
    ).toBe(404);
    const mine = await accountAction(test, alice, { kind: "artwork-delete", artworkId });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().result).toEqual({ artworkId, deleted: true });
    expect((await accountAction(test, alice, { kind: "artwork-delete", artworkId })).statusCode).toBe(404);
    expect((await accountAction(test, alice, { kind: "artwork-delete", artworkId: "nope" })).statusCode).toBe(
      400,
    );
  });

  it("caps the artwork an account holds", async () => {
    const accountId = await accountIdOf(bob);
    await test.db.kysely
      .insertInto("images")
      .values(
        Array.from({ length: PROFILE_LIMITS.artworks }, (_, i) => ({
          id: `img_cap${i}`,
          account_id: accountId,
          purpose: "artwork" as const,
          draft_id: "cap",
          content_type: "image/png",
          bytes: Buffer.from([1]),
          width: 1,
          height: 1,
        })),
      )
      .execute();
    const data = await imageBase64("png");
    const full = await accountAction(test, bob, {
      kind: "artwork-upload",
      draftId: "cap",
      contentType: "image/png",
      data,
    });
    expect(full.statusCode).toBe(409);
  });
});

import { createMktClient } from "@mkt/client";
import { ACCOUNT_ACTION_KINDS, type AccountActionKind } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signEnvelope, TEST_ORIGIN, testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";
import { insertRelease } from "../_test/releases.ts";
import { imageBase64 } from "../market/profile/test-fixtures.ts";

/**
 * Every kind of `POST /market/account` and the DM reads, through the SDK
 * against the running server. The SDK parses each answer with the protocol's
 * schema of the kind it sent, so a schema that differs from what the server
 * answers fails here.
 */
describe("SDK account actions and DM reads over real HTTP", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  it("parses the answer of every kind with that kind's schema", async () => {
    const { key } = await t.createKey({ multiplier: 10 });
    const client = createMktClient({ baseUrl, apiKey: key });
    const signIn = (index: number) => client.market.signIn(testWallet(index), { origin: TEST_ORIGIN });
    const aliceCredentials = await signIn(20);
    const alice = client.market.session(aliceCredentials);
    const bobCredentials = await signIn(21);
    const bob = client.market.session(bobCredentials);
    const seen = new Set<AccountActionKind>();
    const done = <T extends { kind: AccountActionKind }>(answer: T) => {
      seen.add(answer.kind);
      return answer;
    };

    const { account_id: aliceId } = await t.db.kysely
      .selectFrom("account_wallets")
      .select("account_id")
      .where("address", "=", aliceCredentials.address)
      .executeTakeFirstOrThrow();
    await insertRelease(t.db, { id: "r1", ownerId: aliceId });
    expect((await alice.action({ kind: "wishlist-add", releaseId: "r1" }).then(done)).result).toEqual({
      releaseId: "r1",
      wishlisted: true,
    });
    expect((await alice.action({ kind: "wishlist-list" }).then(done)).result.wishlist).toEqual(["r1"]);
    expect((await alice.action({ kind: "wishlist-remove", releaseId: "r1" }).then(done)).result.removed).toBe(
      true,
    );

    const data = await imageBase64("png", { width: 40, height: 30 });
    const artwork = await alice
      .action({ kind: "artwork-upload", draftId: "d1", contentType: "image/png", data })
      .then(done);
    expect(artwork.result).toMatchObject({ draftId: "d1", width: 40, height: 30 });
    const artworks = await alice.action({ kind: "artwork-list", draftId: "d1" }).then(done);
    expect(artworks.result.artworks.map((entry) => entry.artworkId)).toEqual([artwork.result.artworkId]);
    await alice.action({ kind: "artwork-delete", artworkId: artwork.result.artworkId }).then(done);

    const room = await alice.action({ kind: "room-create", slug: "sdk-room", title: "SDK" }).then(done);
    const message = await alice
      .action({ kind: "chat-send", roomId: room.result.id, body: "hello room" })
      .then(done);
    expect(message.result.roomId).toBe(room.result.id);
    await alice.action({ kind: "chat-delete", messageId: message.result.id }).then(done);

    const sent = await alice.action({ kind: "dm", to: bobCredentials.address, body: "hello bob" }).then(done);
    expect(await bob.dm.unread()).toEqual({ messages: 1, threads: 1 });
    const threads = await bob.dm.threads();
    expect(threads.threads.map((thread) => thread.id)).toEqual([sent.result.threadId]);
    const messages = await bob.dm.messages({ with: aliceCredentials.address });
    expect(messages.messages.map((entry) => [entry.body, entry.fromMe])).toEqual([["hello bob", false]]);
    expect(
      (await bob.action({ kind: "dm-seen", with: aliceCredentials.address }).then(done)).result.unread,
    ).toBe(0);

    expect(
      (await bob.action({ kind: "follow", address: aliceCredentials.address }).then(done)).result.following,
    ).toBe(true);
    await bob.action({ kind: "unfollow", address: aliceCredentials.address }).then(done);

    const invite = await alice.action({ kind: "invite-create", maxUses: 2 }).then(done);
    expect(
      (await bob.action({ kind: "referral-claim", code: invite.result.code }).then(done)).result,
    ).toEqual({
      referredBy: aliceCredentials.address,
      inviteId: invite.result.inviteId,
    });
    const invites = await alice.action({ kind: "invite-list" }).then(done);
    expect(invites.result.invites.map((entry) => [entry.inviteId, entry.uses])).toEqual([
      [invite.result.inviteId, 1],
    ]);
    await alice.action({ kind: "invite-revoke", inviteId: invite.result.inviteId }).then(done);

    expect(
      (await alice.action({ kind: "profile-update", username: "sdk_alice" }).then(done)).result.username,
    ).toBe("sdk_alice");
    const avatar = await alice
      .action({
        kind: "avatar-upload",
        contentType: "image/png",
        data: await imageBase64("png", { width: 300, height: 300 }),
      })
      .then(done);
    expect(avatar.result.width).toBe(256);
    expect((await alice.action({ kind: "pfp-pixelate", size: 8 }).then(done)).result.pixelPfpStatus).toBe(
      "queued",
    );
    expect(
      (await alice.action({ kind: "pfp-select", pixelPfpId: null }).then(done)).result.pixelPfpId,
    ).toBeNull();
    const claimed = await alice.action({ kind: "x-connect", username: "sdk_alice" }).then(done);
    expect(claimed.result).toEqual({ mode: "claim", xUsername: "sdk_alice", xVerified: false });
    expect((await alice.action({ kind: "x-disconnect" }).then(done)).result.disconnected).toBe(true);

    const extra = testWallet(22);
    const proof = await signEnvelope(extra, { now: Date.now() });
    await alice.action({ kind: "wallet-link", proof }).then(done);
    const unlinked = await alice.action({ kind: "wallet-unlink", address: extra.address }).then(done);
    expect(unlinked.result).toEqual({
      address: extra.address.toLowerCase(),
      unlinked: true,
      sessionsRevoked: 0,
    });

    expect(
      (await bob.action({ kind: "safety-update", dmPolicy: "following" }).then(done)).result.dmPolicy,
    ).toBe("following");
    expect(
      (await bob.action({ kind: "block", address: aliceCredentials.address }).then(done)).result.blocked,
    ).toBe(true);
    expect(
      (await bob.action({ kind: "unblock", address: aliceCredentials.address }).then(done)).result.blocked,
    ).toBe(false);
    await bob
      .action({ kind: "report", subject: { kind: "account", id: aliceCredentials.address }, reason: "spam" })
      .then(done);

    expect([...seen].sort()).toEqual([...ACCOUNT_ACTION_KINDS].sort());
  });
});

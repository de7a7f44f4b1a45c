import { createMktClient, MktApiError, type Release } from "@mkt/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN, testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";

const DAY = 86_400_000;

/**
 * The release catalog through the SDK against the listening server: the SDK
 * signs with the protocol's builders and the server verifies with them, so
 * a drift between the two fails here as a 401.
 */
describe("SDK release catalog over real HTTP", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await setupApp();
    ({ publicUrl: baseUrl } = await t.app.listen());
  });
  afterAll(() => t.close());

  it("creates, edits and announces a release that the list and iterate then show", async () => {
    const { key } = await t.createKey({ multiplier: 100 });
    const client = createMktClient({ baseUrl, apiKey: key });
    const { releases } = client.market;
    const wallet = testWallet(30);

    const draft = await releases.create(wallet, {
      name: "Night Owls",
      symbol: "OWL",
      image: "https://img.mkt.test/owls.png",
      design: {
        cardsByRarity: [[{ id: "owl-1", name: "Barn owl", image: "https://img.mkt.test/owl-1.png" }]],
      },
    });
    expect(draft).toMatchObject({ status: "draft", revision: 1, owner: wallet.address.toLowerCase() });
    // Drafts are their owner's only: the public reads do not show them.
    expect((await releases.list()).releases.map((release) => release.id)).not.toContain(draft.id);
    const hidden = await releases.get(draft.id).catch((e: unknown) => e);
    expect((hidden as MktApiError).status).toBe(404);

    const edited = await releases.edit(wallet, draft.id, draft.revision, {
      name: "Night Owls",
      symbol: "OWL",
      image: "https://img.mkt.test/owls.png",
      description: "Barn owls and more",
      design: {
        cardsByRarity: [[{ id: "owl-1", name: "Barn owl", image: "https://img.mkt.test/owl-1.png" }]],
      },
    });
    expect(edited).toMatchObject({ id: draft.id, revision: 2, description: "Barn owls and more" });

    const launchAt = Date.now() + DAY;
    const announced = await releases.announce(wallet, draft.id, edited.revision, launchAt);
    expect(announced).toMatchObject({ id: draft.id, status: "announced", revision: 3, launchAt });

    const listed = (await releases.list()).releases.find((release) => release.id === draft.id);
    expect(listed).toMatchObject({ revision: 3, status: "announced", cardsOmitted: true });
    expect(listed?.design.cardsByRarity).toEqual([]);
    const full = await releases.get(draft.id);
    expect(full).toMatchObject({ revision: 3, cardsOmitted: false });
    expect(full.design.cardsByRarity.flat().map((card) => card.id)).toEqual(["owl-1"]);

    const rescheduled = await releases.reschedule(wallet, draft.id, 3, launchAt + DAY);
    expect(rescheduled).toMatchObject({ revision: 4, launchAt: launchAt + DAY });
    const iterated: Release[] = [];
    for await (const release of releases.iterate()) iterated.push(release);
    expect(iterated.filter((release) => release.id === draft.id).map((release) => release.revision)).toEqual([
      4,
    ]);
  });

  it("answers a stale revision with the SDK's error and status 409, leaving the release as it was", async () => {
    const { key } = await t.createKey({ multiplier: 100 });
    const { releases } = createMktClient({ baseUrl, apiKey: key }).market;
    const wallet = testWallet(31);
    const draft = await releases.create(wallet, { name: "Moths", symbol: "MOTH" });
    const announced = await releases.announce(wallet, draft.id, 1, Date.now() + DAY);
    expect(announced.revision).toBe(2);

    const stale = await releases.cancel(wallet, draft.id, 1).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(MktApiError);
    expect((stale as MktApiError).status).toBe(409);
    expect(await releases.get(draft.id)).toMatchObject({ status: "announced", revision: 2 });

    const cancelled = await releases.cancel(wallet, draft.id, 2);
    expect(cancelled).toMatchObject({ status: "cancelled", revision: 3 });
  });

  it("deletes a draft, and refuses another wallet's action with 403", async () => {
    const { key } = await t.createKey({ multiplier: 100 });
    const { releases } = createMktClient({ baseUrl, apiKey: key }).market;
    const owner = testWallet(32);
    const draft = await releases.create(owner, { name: "Bats", symbol: "BAT" });
    const foreign = await releases.delete(testWallet(33), draft.id, 1).catch((e: unknown) => e);
    expect((foreign as MktApiError).status).toBe(403);
    await releases.delete(owner, draft.id, 1);
    const gone = await releases.delete(owner, draft.id, 1).catch((e: unknown) => e);
    expect((gone as MktApiError).status).toBe(404);
  });

  it("wishes and unwishes through the account session; the session's list shows the wishlist, the public one never", async () => {
    const { key } = await t.createKey({ multiplier: 100 });
    const client = createMktClient({ baseUrl, apiKey: key });
    const { releases } = client.market;
    const creator = testWallet(34);
    const draft = await releases.create(creator, { name: "Wrens", symbol: "WREN" });
    const wren = await releases.announce(creator, draft.id, 1, Date.now() + DAY);

    const reader = testWallet(35);
    const session = client.market.session(await client.market.signIn(reader, { origin: TEST_ORIGIN }));
    expect(await session.releases.wish(wren.id)).toEqual({ releaseId: wren.id, wishlisted: true });
    const unknown = await session.releases.wish("rel_nowhere").catch((e: unknown) => e);
    expect((unknown as MktApiError).status).toBe(404);

    const mine = await session.releases.list();
    expect(mine.wishlist).toEqual([wren.id]);
    expect(mine.wishedReleases).toMatchObject([{ id: wren.id, name: "Wrens", cardsOmitted: true }]);
    expect(await releases.list()).toMatchObject({ wishlist: [], wishedReleases: [] });

    // Over real HTTP: the private answer and the shared one say so, and both vary on the credentials.
    const signedIn = await fetch(`${baseUrl}/market/releases`, {
      headers: { "api-key": key, authorization: "Bearer mkts_forged", origin: TEST_ORIGIN },
    });
    expect(signedIn.status).toBe(401);
    expect(signedIn.headers.get("cache-control")).toBe("no-store");
    const shared = await fetch(`${baseUrl}/market/releases`, { headers: { "api-key": key } });
    expect(shared.headers.get("cache-control")).toBe("private, max-age=30");
    expect(shared.headers.get("vary")).toBe("Origin, Authorization, Cookie");

    expect(await session.releases.unwish(wren.id)).toEqual({
      releaseId: wren.id,
      wishlisted: false,
      removed: true,
    });
    expect((await session.releases.list()).wishlist).toEqual([]);
  });
});

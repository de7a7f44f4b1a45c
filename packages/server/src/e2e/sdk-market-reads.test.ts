import { createMktClient, MktApiError, type MktClient } from "@mkt/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, signIn, testWallet } from "../_test/accounts.ts";
import { setupApp, type TestApp } from "../_test/app.ts";

const DAY = 86_400_000;

/** The Board, Creators, Artwork, Community and Discovery reads through the SDK over real HTTP. */
describe("SDK market reads over real HTTP", () => {
  let t: TestApp;
  let client: MktClient;
  beforeAll(async () => {
    t = await setupApp({ env: { PUBLIC_READS: "open" } });
    const { publicUrl: baseUrl } = await t.app.listen();
    const { key } = await t.createKey({ multiplier: 100 });
    client = createMktClient({ baseUrl, apiKey: key });
  });
  afterAll(() => t.close());

  it("walks a release's artwork history to its end and reads the creator's page", async () => {
    const wallet = testWallet(40);
    const { releases } = client.market;
    const card = (id: string) => ({ id, name: id, image: `https://img.mkt.test/${id}.png` });
    const draft = await releases.create(wallet, {
      name: "Moths",
      symbol: "MOTH",
      design: { cardsByRarity: [[card("moth-1")]] },
    });
    const edited = await releases.edit(wallet, draft.id, 1, {
      name: "Moths",
      symbol: "MOTH",
      design: { cardsByRarity: [[card("moth-1"), card("moth-2")]] },
    });
    const announced = await releases.announce(wallet, draft.id, edited.revision, Date.now() + DAY);

    const revisions = [];
    for await (const revision of client.market.artwork.iterateHistory(draft.id, { limit: 1 })) {
      revisions.push(revision);
    }
    expect(revisions.map((revision) => [revision.revision, revision.action])).toEqual([
      [3, "announce"],
      [2, "edit"],
      [1, "create"],
    ]);
    expect(revisions[1]?.changes).toEqual({
      fields: ["design.cardsByRarity"],
      cardsAdded: ["moth-2"],
      cardsRemoved: [],
      cardsChanged: [],
    });
    const artwork = await client.market.artwork.get(draft.id);
    expect(artwork).toMatchObject({ revision: announced.revision, updatedAt: announced.updatedAt });
    expect(artwork.artwork.tiers[0]?.cards.map((c) => c.id)).toEqual(["moth-1", "moth-2"]);

    const address = wallet.address.toLowerCase();
    expect(await client.market.creators.get(address)).toMatchObject({ address, releases: 1, drops: 0 });
    const listed = [];
    for await (const release of client.market.creators.iterateReleases(address, { limit: 1 }))
      listed.push(release.id);
    expect(listed).toEqual([draft.id]);
    const unknown = await client.market.creators.get(testWallet(41).address).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(MktApiError);
    expect((unknown as MktApiError).status).toBe(404);
  });

  it("reads discovery, a room and an empty board", async () => {
    const discovery = await client.market.discovery();
    expect(discovery).toMatchObject({ publicReads: "open", stream: { path: "/market/live" }, runtimes: [] });

    const owner = await signIn(t, 42, { apiKey: (await t.createKey()).key });
    const created = await accountAction(t, owner, { kind: "room-create", slug: "sdk-room", title: "SDK" });
    const roomId = created.json().result.id as string;
    expect(await client.market.community.room(roomId)).toMatchObject({
      room: { id: roomId, slug: "sdk-room" },
      messages: 0,
      lastMessageAt: null,
    });
    expect((await client.market.community.rooms()).rooms.map((room) => room.id)).toContain(roomId);

    const board = await client.market.board.creators({ window: "30d" });
    expect(board).toMatchObject({ window: "30d", versions: [], entries: [], next: null });
    const refused = await client.market.board.collectors({ version: "r9" }).catch((e: unknown) => e);
    expect((refused as MktApiError).status).toBe(404);
  });
});

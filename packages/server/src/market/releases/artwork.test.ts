import { randomUUID } from "node:crypto";
import { type ReleaseActionInput, type ReleaseDraftInput, releaseActionMessage } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testWallet } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";

const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;
beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(() => test.close());

const DAY = 86_400_000;
const address = (index: number) => testWallet(index).address.toLowerCase();

async function act(index: number, action: ReleaseActionInput) {
  const fields = { address: address(index), nonce: randomUUID(), expires: clock.now() + 60_000 };
  const signature = await testWallet(index).signMessage({
    message: releaseActionMessage({ ...fields, action }),
  });
  const response = await test.app.server.inject({
    method: "POST",
    url: "/market/releases",
    headers: { "api-key": apiKey },
    payload: { ...fields, action, signature },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.statusCode === 204 ? undefined : response.json();
}
const get = (url: string) => test.app.server.inject({ method: "GET", url, headers: { "api-key": apiKey } });

const card = (id: string, image = `https://img.mkt.test/${id}.png`) => ({ id, name: id, image });
const draft = (
  design: ReleaseDraftInput["design"],
  image = "https://img.mkt.test/owls.png",
): ReleaseDraftInput => ({
  name: "Night Owls",
  symbol: "OWL",
  image,
  design,
});

describe("release artwork and its history", () => {
  let releaseId: string;
  const times: number[] = [];

  beforeAll(async () => {
    // r1 create: one tier of two cards.
    const created = await act(1, {
      kind: "create",
      draft: draft({ cardsByRarity: [[card("owl-1"), card("owl-2")]] }),
    });
    releaseId = created.id;
    times.push(clock.now());
    // r2 edit: the name only (no artwork change).
    clock.advance(1_000);
    await act(1, {
      kind: "edit",
      releaseId,
      revision: 1,
      draft: { ...draft({ cardsByRarity: [[card("owl-1"), card("owl-2")]] }), name: "Night Owls II" },
    });
    times.push(clock.now());
    // r3 announce.
    clock.advance(1_000);
    await act(1, { kind: "announce", releaseId, revision: 2, launchAt: clock.now() + DAY });
    times.push(clock.now());
    // r4 edit: new image, owl-2 gets a new image and moves to a second tier with tier images, owl-1 goes, owl-3 comes.
    clock.advance(1_000);
    await act(1, {
      kind: "edit",
      releaseId,
      revision: 3,
      draft: {
        ...draft(
          {
            cardsByRarity: [[card("owl-3")], [card("owl-2", "https://img.mkt.test/owl-2b.png")]],
            tierImages: ["https://img.mkt.test/t0.png", "https://img.mkt.test/t1.png"],
          },
          "https://img.mkt.test/owls-2.png",
        ),
        name: "Night Owls II",
      },
    });
    times.push(clock.now());
  });

  it("answers the artwork at the current revision, tiers put together", async () => {
    const response = await get(`/market/releases/${releaseId}/artwork`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("private, max-age=30");
    expect(response.json()).toMatchObject({
      releaseId,
      revision: 4,
      updatedAt: times[3],
      artwork: {
        image: "https://img.mkt.test/owls-2.png",
        cardImage: "",
        tiers: [
          { tier: 0, image: "https://img.mkt.test/t0.png", mask: null, cards: [{ id: "owl-3" }] },
          {
            tier: 1,
            image: "https://img.mkt.test/t1.png",
            mask: null,
            cards: [{ id: "owl-2", image: "https://img.mkt.test/owl-2b.png" }],
          },
        ],
      },
    });
  });

  it("records every revision with its action, time, status, artwork changes and artwork", async () => {
    const response = await get(`/market/releases/${releaseId}/artwork/history`);
    expect(response.statusCode, response.body).toBe(200);
    const { revisions, next } = response.json();
    expect(next).toBeNull();
    expect(
      revisions.map((r: { revision: number; action: string; status: string; updatedAt: number }) => [
        r.revision,
        r.action,
        r.status,
        r.updatedAt,
      ]),
    ).toEqual([
      [4, "edit", "announced", times[3]],
      [3, "announce", "announced", times[2]],
      [2, "edit", "draft", times[1]],
      [1, "create", "draft", times[0]],
    ]);
    const [r4, r3, r2, r1] = revisions;
    expect(r1.changes).toEqual({
      fields: ["image", "design.accent", "design.pattern", "design.mask", "design.cardsByRarity"],
      cardsAdded: ["owl-1", "owl-2"],
      cardsRemoved: [],
      cardsChanged: [],
    });
    const none = { fields: [], cardsAdded: [], cardsRemoved: [], cardsChanged: [] };
    expect(r2.changes).toEqual(none);
    expect(r3.changes).toEqual(none);
    expect(r4.changes).toEqual({
      fields: ["image", "design.tierImages", "design.cardsByRarity"],
      cardsAdded: ["owl-3"],
      cardsRemoved: ["owl-1"],
      cardsChanged: ["owl-2"],
    });
    // Each revision keeps the artwork it had.
    expect(r1.artwork.image).toBe("https://img.mkt.test/owls.png");
    expect(
      r1.artwork.tiers.map((tier: { cards: Array<{ id: string }> }) => tier.cards.map((c) => c.id)),
    ).toEqual([["owl-1", "owl-2"]]);
    expect(r4.artwork.tiers[1].cards[0].image).toBe("https://img.mkt.test/owl-2b.png");
  });

  it("pages newest first with an opaque cursor, and filters revisions that changed artwork", async () => {
    const first = await get(`/market/releases/${releaseId}/artwork/history?limit=3`);
    expect(first.json().revisions.map((r: { revision: number }) => r.revision)).toEqual([4, 3, 2]);
    const cursor = first.json().next;
    expect(cursor).toEqual(expect.any(String));
    const second = await get(`/market/releases/${releaseId}/artwork/history?limit=3&cursor=${cursor}`);
    expect(second.json()).toMatchObject({ revisions: [{ revision: 1 }], next: null });
    const artworkOnly = await get(`/market/releases/${releaseId}/artwork/history?changed=artwork`);
    expect(artworkOnly.json().revisions.map((r: { revision: number }) => r.revision)).toEqual([4, 1]);
    for (const query of ["limit=0", "limit=51", "cursor=not-ours", "changed=name"]) {
      const response = await get(`/market/releases/${releaseId}/artwork/history?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String) });
    }
  });

  it("keeps drafts hidden: their artwork and history are 404 like an unknown id, until announced", async () => {
    const hidden = await act(2, { kind: "create", draft: draft({ cardsByRarity: [[card("bat-1")]] }) });
    for (const path of ["artwork", "artwork/history"]) {
      const response = await get(`/market/releases/${hidden.id}/${path}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: expect.any(String) });
      expect((await get(`/market/releases/rel_unknown/${path}`)).statusCode).toBe(404);
    }
    await act(2, { kind: "announce", releaseId: hidden.id, revision: 1, launchAt: clock.now() + DAY });
    const history = await get(`/market/releases/${hidden.id}/artwork/history`);
    expect(history.statusCode).toBe(200);
    expect(history.json().revisions.map((r: { action: string }) => r.action)).toEqual(["announce", "create"]);
  });

  it("deletes a draft's history with it", async () => {
    const doomed = await act(2, { kind: "create", draft: draft({}) });
    const rows = () =>
      test.db.kysely
        .selectFrom("release_revisions")
        .select(["revision", "action"])
        .where("release_id", "=", doomed.id)
        .execute();
    expect(await rows()).toEqual([{ revision: 1, action: "create" }]);
    await act(2, { kind: "delete", releaseId: doomed.id, revision: 1 });
    expect(await rows()).toEqual([]);
  });
});

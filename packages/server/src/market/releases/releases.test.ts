import { randomUUID } from "node:crypto";
import {
  deletionMessage,
  type ReleaseActionInput,
  type ReleaseDraftInput,
  releaseActionJson,
  releaseActionMessage,
  signInMessage,
} from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountAction,
  type SignedIn,
  signDeletion,
  signEnvelope,
  signIn,
  TEST_ORIGIN,
  testWallet,
} from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { defaultPolicies } from "../../quotas/policies.ts";

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

interface SignOptions {
  /** The address the body and message state (default: the signing wallet's). */
  address?: string;
  nonce?: string;
  expires?: number;
  /** The text actually signed (default: the canonical release action message). */
  message?: (fields: { address: string; nonce: string; expires: number }) => string;
}

/** A `POST /market/releases` body signed by dev wallet `index`. */
async function signAction(index: number, action: ReleaseActionInput, options: SignOptions = {}) {
  const fields = {
    address: options.address ?? address(index),
    nonce: options.nonce ?? randomUUID(),
    expires: options.expires ?? clock.now() + 60_000,
  };
  const message = options.message?.(fields) ?? releaseActionMessage({ ...fields, action });
  return { ...fields, action, signature: await testWallet(index).signMessage({ message }) };
}

const post = (body: unknown) =>
  test.app.server.inject({
    method: "POST",
    url: "/market/releases",
    headers: { "api-key": apiKey },
    payload: body as Record<string, unknown>,
  });
const get = (url: string) => test.app.server.inject({ method: "GET", url, headers: { "api-key": apiKey } });
const act = async (index: number, action: ReleaseActionInput, options?: SignOptions) =>
  post(await signAction(index, action, options));

const draft = (overrides: Partial<ReleaseDraftInput> = {}): ReleaseDraftInput => ({
  name: "Night Owls",
  symbol: "OWL",
  image: "https://img.mkt.test/owls.png",
  design: {
    cardsByRarity: [[{ id: "owl-1", name: "Barn owl", image: "https://img.mkt.test/owl-1.png" }]],
  },
  ...overrides,
});

/** Creates a draft signed by wallet `index`; answers its id. */
async function create(index: number, overrides: Partial<ReleaseDraftInput> = {}) {
  const response = await act(index, { kind: "create", draft: draft(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

/** Creates and announces a release; answers its id (at revision 2). */
async function announced(index: number, overrides: Partial<ReleaseDraftInput> = {}) {
  const releaseId = await create(index, overrides);
  const response = await act(index, {
    kind: "announce",
    releaseId,
    revision: 1,
    launchAt: clock.now() + DAY,
  });
  expect(response.statusCode, response.body).toBe(200);
  return releaseId;
}

describe("signed release actions", () => {
  it("creates, edits and announces: revision and updatedAt move with every change", async () => {
    const created = await act(1, { kind: "create", draft: draft({ name: "  Night Owls " }) });
    expect(created.statusCode).toBe(201);
    const release = created.json();
    expect(release).toMatchObject({
      owner: address(1),
      status: "draft",
      revision: 1,
      name: "Night Owls",
      launchAt: null,
      version: null,
      dropId: null,
      cardsOmitted: false,
      updatedAt: clock.now(),
    });
    expect(release.id).toMatch(/^rel_[0-9a-f]{20}$/);
    expect(release.design.cardsByRarity[0][0]).toMatchObject({ id: "owl-1", mask: "full", description: "" });

    clock.advance(1_000);
    const edited = await act(1, {
      kind: "edit",
      releaseId: release.id,
      revision: 1,
      draft: draft({ name: "Night Owls II" }),
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ revision: 2, name: "Night Owls II", status: "draft" });
    expect(edited.json().updatedAt).toBe(release.updatedAt + 1_000);

    clock.advance(1_000);
    const launchAt = clock.now() + DAY;
    const announce = await act(1, { kind: "announce", releaseId: release.id, revision: 2, launchAt });
    expect(announce.statusCode).toBe(200);
    expect(announce.json()).toMatchObject({ revision: 3, status: "announced", launchAt });
    expect(announce.json().updatedAt).toBe(release.updatedAt + 2_000);

    const read = await get(`/market/releases/${release.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(announce.json());
  });

  it("refuses a stale revision and a transition the status does not allow with 409", async () => {
    const releaseId = await announced(2);
    const stale = await act(2, { kind: "edit", releaseId, revision: 1, draft: draft({ name: "Late" }) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatch(/revision 1 is stale/);
    const again = await act(2, { kind: "announce", releaseId, revision: 2, launchAt: clock.now() + DAY });
    expect(again.statusCode).toBe(409);
    expect((await get(`/market/releases/${releaseId}`)).json().revision).toBe(2);
  });

  it("wants launchAt in the future and expires within five minutes", async () => {
    const releaseId = await create(3);
    const past = await act(3, { kind: "announce", releaseId, revision: 1, launchAt: clock.now() - 1 });
    expect(past.statusCode).toBe(400);
    const far = await act(
      3,
      { kind: "cancel", releaseId, revision: 1 },
      { expires: clock.now() + 6 * 60_000 },
    );
    expect(far.statusCode).toBe(400);
    const expired = await act(3, { kind: "cancel", releaseId, revision: 1 }, { expires: clock.now() });
    expect(expired.statusCode).toBe(401);
  });

  it("refuses a replayed action with 401", async () => {
    const body = await signAction(4, { kind: "create", draft: draft() });
    expect((await post(body)).statusCode).toBe(201);
    const replay = await post(body);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toMatch(/nonce was already used/);
  });

  it("refuses sign-in and deletion signatures: they sign another text", async () => {
    const action = { kind: "create", draft: draft() } as const;
    for (const text of [signInMessage, deletionMessage]) {
      const body = await signAction(5, action, {
        message: (fields) => text({ ...fields, origin: TEST_ORIGIN }),
      });
      const response = await post(body);
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toMatch(/signature is not valid/);
    }
    // The same fields signed over the release text are accepted.
    expect((await post(await signAction(5, action))).statusCode).toBe(201);
  });

  it("refuses an action signed over hand-serialised JSON", async () => {
    const raw = { draft: { symbol: "RAW ", name: "Raw" }, kind: "create" } as const;
    const handJson = JSON.stringify(raw);
    expect(handJson).not.toBe(releaseActionJson(raw));
    const body = await signAction(6, raw, {
      message: (fields) =>
        releaseActionMessage({ ...fields, action: raw }).replace(/^Action: .*$/m, `Action: ${handJson}`),
    });
    expect((await post(body)).statusCode).toBe(401);
  });

  it("refuses another wallet's signature for the owner's address with 401", async () => {
    const releaseId = await create(7);
    const forged = await act(8, { kind: "delete", releaseId, revision: 1 }, { address: address(7) });
    expect(forged.statusCode).toBe(401);
    expect((await act(7, { kind: "delete", releaseId, revision: 1 })).statusCode).toBe(204);
  });

  it("refuses a wallet outside the owner's account with 403 and accepts a linked one", async () => {
    const releaseId = await create(9);
    const edit = (revision: number) =>
      ({ kind: "edit", releaseId, revision, draft: draft({ name: "Someone else's" }) }) as const;
    const stranger = await act(10, edit(1));
    expect(stranger.statusCode).toBe(403);

    const owner = await signIn(test, 9, { apiKey, now: clock.now() });
    const proof = await signEnvelope(testWallet(11), { now: clock.now() });
    expect((await accountAction(test, owner, { kind: "wallet-link", proof })).statusCode).toBe(200);
    const linked = await act(11, edit(1));
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ revision: 2, owner: address(9), name: "Someone else's" });
  });

  it("deletes drafts only, and links only to a runtime of the market", async () => {
    const releaseId = await announced(12);
    expect((await act(12, { kind: "delete", releaseId, revision: 2 })).statusCode).toBe(409);
    const link = await act(12, { kind: "link", releaseId, revision: 2, version: "r-unknown", dropId: "1" });
    expect(link.statusCode).toBe(404);
    expect(link.json().error).toMatch(/not a runtime of the market/);
    expect((await act(12, { kind: "cancel", releaseId, revision: 2 })).json()).toMatchObject({
      status: "cancelled",
      revision: 3,
    });
    expect(
      (await act(12, { kind: "reschedule", releaseId, revision: 3, launchAt: clock.now() + DAY })).statusCode,
    ).toBe(409);
  });
});

describe("release reads", () => {
  const listed = async () => {
    const response = await get("/market/releases");
    expect(response.statusCode).toBe(200);
    return response.json() as {
      releases: Array<{
        id: string;
        revision: number;
        cardsOmitted: boolean;
        design: { cardsByRarity: unknown[] };
      }>;
      wishlist: string[];
      wishedReleases: unknown[];
      more: boolean;
      artworkHash: string;
    };
  };

  it("lists public releases as summaries; drafts stay out of every public read", async () => {
    const draftId = await create(13);
    const releaseId = await announced(13);
    const list = await listed();
    const summary = list.releases.find((release) => release.id === releaseId);
    expect(summary).toMatchObject({ revision: 2, status: "announced", cardsOmitted: true });
    expect(summary?.design.cardsByRarity).toEqual([]);
    expect(list.releases.map((release) => release.id)).not.toContain(draftId);
    expect(list).toMatchObject({ wishlist: [], wishedReleases: [], more: false });
    expect(list.releases[0]?.id).toBe(releaseId);
    expect((await get(`/market/releases/${draftId}`)).statusCode).toBe(404);
    const full = (await get(`/market/releases/${releaseId}`)).json();
    expect(full.cardsOmitted).toBe(false);
    expect(full.design.cardsByRarity[0]).toHaveLength(1);
    expect((await get("/market/releases?offset=10001")).statusCode).toBe(400);
    expect((await get("/market/releases?offset=1")).json().releases[0]?.id).not.toBe(releaseId);
  });

  it("moves artworkHash exactly when listed artwork changes; a change invalidates the cached reads", async () => {
    const releaseId = await announced(14);
    const before = await listed();
    expect((await listed()).artworkHash).toBe(before.artworkHash);
    expect((await get(`/market/releases/${releaseId}`)).json().revision).toBe(2);

    const renamed = await act(14, {
      kind: "edit",
      releaseId,
      revision: 2,
      draft: draft({ name: "Renamed" }),
    });
    expect(renamed.statusCode).toBe(200);
    const afterRename = await listed();
    expect(afterRename.releases.find((release) => release.id === releaseId)?.revision).toBe(3);
    expect(afterRename.artworkHash).toBe(before.artworkHash);
    expect((await get(`/market/releases/${releaseId}`)).json()).toMatchObject({
      revision: 3,
      name: "Renamed",
    });

    const cardArt = draft({
      name: "Renamed",
      design: {
        cardsByRarity: [[{ id: "owl-1", name: "Barn owl", image: "https://img.mkt.test/owl-1b.png" }]],
      },
    });
    expect((await act(14, { kind: "edit", releaseId, revision: 3, draft: cardArt })).statusCode).toBe(200);
    const afterCard = await listed();
    expect(afterCard.artworkHash).not.toBe(before.artworkHash);

    const image = { ...cardArt, image: "https://img.mkt.test/owls-2.png" };
    expect((await act(14, { kind: "edit", releaseId, revision: 4, draft: image })).statusCode).toBe(200);
    expect((await listed()).artworkHash).not.toBe(afterCard.artworkHash);
  });
});

describe("GET /market/account/releases", () => {
  const mine = async (index: number, query = "") => {
    const who = await signIn(test, index, { apiKey, now: clock.now() });
    return test.app.server.inject({
      method: "GET",
      url: `/market/account/releases${query}`,
      headers: who.headers,
    });
  };

  it("shows the owner its drafts, complete, and nobody else's", async () => {
    const draftId = await create(20, { name: "Secret Owls" });
    const announcedId = await announced(20, { name: "Public Owls" });
    const otherId = await create(21, { name: "Not Yours" });

    const response = await mine(20);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toMatch(/^private/);
    const body = response.json();
    expect(body.next).toBeNull();
    expect(body.releases.map((release: { id: string }) => release.id)).toEqual([announcedId, draftId]);
    expect(body.releases[1]).toMatchObject({
      status: "draft",
      name: "Secret Owls",
      owner: address(20),
      cardsOmitted: false,
    });
    expect(body.releases[1].design.cardsByRarity[0][0].id).toBe("owl-1");

    const other = (await mine(21)).json();
    expect(other.releases.map((release: { id: string }) => release.id)).toEqual([otherId]);
  });

  it("needs the account session", async () => {
    const response = await get("/market/account/releases");
    expect(response.statusCode).toBe(401);
  });

  it("pages newest change first with an opaque cursor", async () => {
    const ids = [await create(22), await create(22), await create(22)];
    // An edit moves the first draft to the front.
    expect(
      (await act(22, { kind: "edit", releaseId: ids[0] as string, revision: 1, draft: draft() })).statusCode,
    ).toBe(200);
    const order = [ids[0], ids[2], ids[1]];

    const first = (await mine(22, "?limit=2")).json();
    expect(first.releases.map((release: { id: string }) => release.id)).toEqual(order.slice(0, 2));
    expect(first.next).toEqual(expect.any(String));
    const second = (await mine(22, `?limit=2&cursor=${first.next}`)).json();
    expect(second.releases.map((release: { id: string }) => release.id)).toEqual(order.slice(2));
    expect(second.next).toBeNull();

    expect((await mine(22, "?limit=0")).statusCode).toBe(400);
    expect((await mine(22, "?limit=101")).statusCode).toBe(400);
    expect((await mine(22, "?cursor=bm90LWEtY3Vyc29y")).statusCode).toBe(400);
  });
});

describe("the signed-in caller's wishlist in GET /market/releases", () => {
  type ListBody = {
    releases: Array<{ id: string }>;
    wishlist: string[];
    wishedReleases: Array<{ id: string; cardsOmitted: boolean; design: { cardsByRarity: unknown[] } }>;
  };
  const list = (headers: Record<string, string>, url = "/market/releases") =>
    test.app.server.inject({ method: "GET", url, headers });
  const wish = async (who: SignedIn, releaseId: string, kind = "wishlist-add") => {
    const response = await accountAction(test, who, { kind, releaseId });
    expect(response.statusCode, response.body).toBe(200);
  };
  const accountIdOf = async (address: string) =>
    (
      await test.db.kysely
        .selectFrom("account_wallets")
        .select("account_id")
        .where("address", "=", address)
        .executeTakeFirstOrThrow()
    ).account_id;

  it("fills wishlist and wishedReleases for the signed-in caller, privately, and never in the shared answer", async () => {
    const first = await announced(30, { name: "First wish" });
    const second = await announced(31, { name: "Second wish" });
    const reader = await signIn(test, 32, { apiKey, now: clock.now() });
    await wish(reader, second);
    await wish(reader, first);
    await wish(reader, second); // again: no change

    const cache = () => test.app.services.readCache.stats();
    const anonymous = await list({ "api-key": apiKey });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toMatchObject({ wishlist: [], wishedReleases: [] });
    expect(anonymous.headers["cache-control"]).toBe("private, max-age=30");
    expect(anonymous.headers["vary"]).toBe("Origin, Authorization, Cookie");
    const etag = String(anonymous.headers["etag"]);
    expect(etag).toMatch(/^"/);

    const before = cache();
    const signedIn = await list({ ...reader.headers, "if-none-match": etag });
    // The shared tag does not answer a signed-in caller: its answer is another body, never cached.
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers["cache-control"]).toBe("private, no-store");
    expect(signedIn.headers["vary"]).toBe("Origin, Authorization, Cookie");
    expect(signedIn.headers["etag"]).toBeUndefined();
    expect(cache()).toMatchObject({ hits: before.hits, misses: before.misses });
    const body = signedIn.json() as ListBody;
    expect(body.wishlist).toEqual([second, first]);
    expect(body.wishedReleases.map((release) => release.id)).toEqual([second, first]);
    for (const release of body.wishedReleases) {
      expect(release.cardsOmitted).toBe(true);
      expect(release.design.cardsByRarity).toEqual([]);
    }
    expect(body.releases.map((release) => release.id)).toEqual(
      (anonymous.json() as ListBody).releases.map((release) => release.id),
    );
    // The same wishlist on every page.
    const later = (await list(reader.headers, "/market/releases?offset=10000")).json() as ListBody;
    expect(later).toMatchObject({ releases: [], wishlist: [second, first] });

    // Anonymous callers after the signed-in read: the shared body, from the cache, still 304-able.
    const afterHits = cache().hits;
    const again = await list({ "api-key": apiKey });
    expect(again.body).toBe(anonymous.body);
    expect(again.headers["etag"]).toBe(etag);
    expect(cache().hits).toBe(afterHits + 1);
    const notModified = await list({ "api-key": apiKey, "if-none-match": etag });
    expect(notModified.statusCode).toBe(304);

    await wish(reader, second, "wishlist-remove");
    expect(((await list(reader.headers)).json() as ListBody).wishlist).toEqual([first]);
  });

  it("shows the caller's own drafts and never another owner's", async () => {
    const owner = await signIn(test, 33, { apiKey, now: clock.now() });
    const ownDraft = await create(33, { name: "My draft" });
    const othersDraft = await create(34, { name: "Not mine" });
    await wish(owner, ownDraft);
    const refused = await accountAction(test, owner, { kind: "wishlist-add", releaseId: othersDraft });
    expect(refused.statusCode).toBe(404);
    // A row that names another owner's draft (written before the check existed) stays hidden.
    await test.db.kysely
      .insertInto("wishlists")
      .values({ account_id: await accountIdOf(owner.address), release_id: othersDraft })
      .execute();
    const body = (await list(owner.headers)).json() as ListBody;
    expect(body.wishlist).toEqual([ownDraft]);
    expect(body.wishedReleases.map((release) => release.id)).toEqual([ownDraft]);
    expect(JSON.stringify(body)).not.toContain("Not mine");

    // Deleting the draft removes it from the wishlist.
    expect((await act(33, { kind: "delete", releaseId: ownDraft, revision: 1 })).statusCode).toBe(204);
    expect(((await list(owner.headers)).json() as ListBody).wishlist).toEqual([]);
  });

  it("refuses a presented but bad credential with 401, never an anonymous answer", async () => {
    const reader = await signIn(test, 35, { apiKey, now: clock.now() });
    const refusals = [
      { ...reader.headers, authorization: "Bearer mkts_not-a-real-token" },
      { ...reader.headers, authorization: "Basic abc" },
      { ...reader.headers, "x-mkt-wallet": address(36) },
      { ...reader.headers, origin: "https://elsewhere.example" },
    ];
    for (const headers of refusals) {
      const response = await list(headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.json()).toEqual({ error: expect.any(String) });
      expect(response.headers["cache-control"]).toBe("no-store");
    }
    // Signed out: the token no longer works here either.
    expect(
      (
        await test.app.server.inject({
          method: "DELETE",
          url: "/market/account/session",
          headers: reader.headers,
        })
      ).statusCode,
    ).toBe(204);
    expect((await list(reader.headers)).statusCode).toBe(401);
  });

  it("works through the first-party proxy with the session cookie", async () => {
    const releaseId = await announced(37);
    const envelope = await signEnvelope(testWallet(38), { now: clock.now() });
    const signedIn = await test.app.server.inject({
      method: "POST",
      url: "/app/api/account/session",
      headers: { origin: TEST_ORIGIN },
      payload: envelope,
    });
    expect(signedIn.statusCode).toBe(200);
    const setCookie = String(signedIn.headers["set-cookie"]);
    const cookie = setCookie.slice(0, setCookie.indexOf(";"));
    const session = { origin: TEST_ORIGIN, cookie, "x-mkt-wallet": envelope.address };
    const added = await test.app.server.inject({
      method: "POST",
      url: "/app/api/account",
      headers: session,
      payload: { kind: "wishlist-add", releaseId },
    });
    expect(added.statusCode, added.body).toBe(200);

    const mine = await list(session, "/app/api/releases");
    expect(mine.statusCode).toBe(200);
    expect(mine.headers["cache-control"]).toBe("private, no-store");
    expect((mine.json() as ListBody).wishlist).toEqual([releaseId]);
    expect((mine.json() as ListBody).wishedReleases.map((release) => release.id)).toEqual([releaseId]);
    // A signed-in read spends the account's budget, an anonymous one the client's small anonymous budget.
    expect(mine.headers["ratelimit-limit"]).toBe(String(defaultPolicies.market.read.limit));

    const anonymous = await list({ origin: TEST_ORIGIN }, "/app/api/releases");
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers["ratelimit-limit"]).toBe(String(defaultPolicies.proxyAnonymous.read.limit));
    expect(anonymous.headers["cache-control"]).toBe("private, max-age=30");
    expect(anonymous.json()).toMatchObject({ wishlist: [], wishedReleases: [] });

    const badCookie = await list({ ...session, cookie: "mkt-session=mkts_forged" }, "/app/api/releases");
    expect(badCookie.statusCode).toBe(401);
  });

  it("removes an account's wishlist with the account", async () => {
    const releaseId = await announced(39);
    const leaving = await signIn(test, 40, { apiKey, now: clock.now() });
    const accountId = await accountIdOf(leaving.address);
    await wish(leaving, releaseId);
    const rows = () =>
      test.db.kysely
        .selectFrom("wishlists")
        .select("release_id")
        .where("account_id", "=", accountId)
        .execute();
    expect(await rows()).toEqual([{ release_id: releaseId }]);
    const deleted = await test.app.server.inject({
      method: "POST",
      url: "/market/account/delete",
      headers: leaving.headers,
      payload: await signDeletion(testWallet(40), { now: clock.now() }),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rows()).toEqual([]);
    // The release itself stays.
    expect((await get(`/market/releases/${releaseId}`)).statusCode).toBe(200);
  });
});

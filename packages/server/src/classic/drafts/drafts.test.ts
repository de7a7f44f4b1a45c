import { buildAllowlist } from "@mkt/chain";
import {
  CLASSIC_CREATOR_URL_FIELDS,
  CLASSIC_DRAFT_MAX_ACCOUNT_BYTES,
  CLASSIC_ZERO_ROOT,
} from "@mkt/protocol";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { sql } from "kysely";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAction, signEnvelope, signIn, testWallet } from "../../_test/accounts.ts";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { insertClassicGame, signInClassic } from "../../_test/classic.ts";

const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;

beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(() => test.close());

/** Signs a dev wallet in to the Classic API; answers the headers of "API-KEY and bearer". */
const creator = (walletIndex: number) =>
  signInClassic(test.app.server, { apiKey, walletIndex, now: clock.now() });
type Creator = Awaited<ReturnType<typeof creator>>;

const inject = (
  who: Creator | Record<string, string>,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
) =>
  test.app.server.inject({
    method,
    url: `/classic${url}`,
    headers: "headers" in who ? (who.headers as Record<string, string>) : who,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const card = (name: string, rarity: number, startId: number, endId = startId) => ({
  name,
  rarity,
  startId,
  endId,
});
const CARDS = [
  card("Bolt", 1, 1, 4),
  card("Gear", 2, 5, 6),
  card("Spring", 3, 7),
  card("Dynamo", 4, 8),
  card("Core", 5, 9),
];
const draftBody = (who: Creator, extra: Record<string, unknown> = {}) => ({
  revision: 1,
  creator: who.address,
  tokenName: "Tin Robots",
  tokenSymbol: "TIN",
  nftName: "Tin Robots Booster",
  nftSymbol: "TINBOX",
  slug: "tin-robots",
  game: { description: "Robots of tin." },
  cards: CARDS,
  ...extra,
});

async function createDraft(who: Creator, extra: Record<string, unknown> = {}) {
  const response = await inject(who, "POST", "/metadata/draft/poll", draftBody(who, extra));
  expect(response.statusCode).toBe(200);
  return (response.json() as { draft: { draftId: string } }).draft.draftId;
}

const expectError = (response: { statusCode: number; json(): unknown }, status: number, error: string) => {
  expect({ status: response.statusCode, body: response.json() }).toMatchObject({
    status,
    body: { success: false, error },
  });
};

describe("drafts: create, autosave, read, delete", () => {
  it("creates a draft and autosaves it in revision order; a stale save never overwrites", async () => {
    const alice = await creator(60);
    const created = await inject(alice, "POST", "/metadata/draft/poll", draftBody(alice));
    expect(created.statusCode).toBe(200);
    const { applied, draft } = created.json() as {
      applied: boolean;
      draft: Record<string, unknown> & { draftId: string };
    };
    expect(applied).toBe(true);
    expect(draft.draftId).toMatch(/^[a-f0-9]{24}$/);
    expect(draft).toMatchObject({
      revision: 1,
      status: "draft",
      creator: alice.address,
      nftName: "Tin Robots Booster",
      slug: "tin-robots",
      oddsBps: [6000, 2500, 1000, 400, 100],
      game: { description: "Robots of tin.", bgColor: "#111827" },
      whitelist: {
        whitelistEnabled: false,
        merkleRoot: CLASSIC_ZERO_ROOT,
        entriesCount: 0,
        finalizedAt: null,
      },
      deployment: null,
    });
    expect((draft.cards as { name: string }[]).map((c) => c.name)).toEqual([
      "Bolt",
      "Gear",
      "Spring",
      "Dynamo",
      "Core",
    ]);

    const save = (revision: number, nftName: string) =>
      inject(
        alice,
        "POST",
        "/metadata/draft/poll",
        draftBody(alice, { draftId: draft.draftId.toUpperCase(), revision, nftName }),
      );
    const third = await save(3, "Third");
    expect(third.json()).toMatchObject({ applied: true, draft: { revision: 3, nftName: "Third" } });
    // Revision 2 arrives late: stale, 200, nothing changes.
    const stale = await save(2, "Second");
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toMatchObject({ applied: false, draft: { revision: 3, nftName: "Third" } });
    // The same revision again, other content: not applied either.
    expect((await save(3, "Other")).json()).toMatchObject({ applied: false, draft: { nftName: "Third" } });
    const read = await inject(alice, "GET", `/metadata/draft/${draft.draftId}`);
    expect(read.json()).toMatchObject({ success: true, draft: { revision: 3, nftName: "Third" } });
  });

  it("replays a retried create with the same Idempotency-Key instead of making a second draft", async () => {
    const carol = await creator(80);
    const create = (who: Creator, key: string) =>
      test.app.server.inject({
        method: "POST",
        url: "/classic/metadata/draft/poll",
        headers: { ...who.headers, "idempotency-key": key },
        payload: draftBody(who, { nftName: "Retried Booster" }),
      });
    const first = await create(carol, "create-1");
    const retry = await create(carol, "create-1");
    expect(first.statusCode).toBe(200);
    const id = (first.json() as { draft: { draftId: string } }).draft.draftId;
    expect((retry.json() as { draft: { draftId: string } }).draft.draftId).toBe(id);
    const other = await create(carol, "create-2");
    expect((other.json() as { draft: { draftId: string } }).draft.draftId).not.toBe(id);
    const list = await inject(carol, "GET", "/metadata/draft");
    const listed = (list.json() as { drafts: { draftId: string }[] }).drafts.map((d) => d.draftId).sort();
    expect(listed).toEqual([id, (other.json() as { draft: { draftId: string } }).draft.draftId].sort());
    // The key space is the signed-in session's: another account's same key makes its own draft.
    const dave = await creator(81);
    const theirs = await create(dave, "create-1");
    expect((theirs.json() as { draft: { draftId: string; creator: string } }).draft).toMatchObject({
      creator: dave.address,
    });
  });

  it("refuses another account's draft with 403 and an unknown one with 404", async () => {
    const owner = await creator(61);
    const other = await creator(62);
    const draftId = await createDraft(owner);
    expectError(await inject(other, "GET", `/metadata/draft/${draftId}`), 403, "FORBIDDEN");
    expectError(await inject(other, "DELETE", `/metadata/draft/${draftId}`), 403, "FORBIDDEN");
    expectError(
      await inject(other, "POST", "/metadata/draft/poll", draftBody(other, { draftId, revision: 9 })),
      403,
      "FORBIDDEN",
    );
    expectError(
      await inject(other, "POST", "/metadata/draft/whitelist", {
        draftId,
        whitelistEnabled: true,
        entries: [{ address: other.address }],
      }),
      403,
      "FORBIDDEN",
    );
    expectError(
      await inject(other, "POST", "/metadata/draft/whitelist/finalize", { draftId }),
      403,
      "FORBIDDEN",
    );
    // A creator wallet the account does not hold.
    expectError(await inject(other, "POST", "/metadata/draft/poll", draftBody(owner)), 403, "FORBIDDEN");
    expectError(await inject(owner, "GET", `/metadata/draft/${"a".repeat(24)}`), 404, "DRAFT_NOT_FOUND");
    // The owner's draft is untouched.
    expect((await inject(owner, "GET", `/metadata/draft/${draftId}`)).json()).toMatchObject({
      draft: { revision: 1, nftName: "Tin Robots Booster" },
    });
    const other401 = await inject({ "api-key": apiKey }, "GET", `/metadata/draft/${draftId}`);
    expectError(other401, 401, "UNAUTHORIZED");
    const keyless = await inject(
      { authorization: owner.headers.authorization },
      "GET",
      `/metadata/draft/${draftId}`,
    );
    expectError(keyless, 429, "RATE_LIMITED");
  });

  it("lists the drafts of every wallet linked to the account, paged, and deletes unconfirmed ones", async () => {
    const market = await signIn(test, 63, { apiKey, now: clock.now() });
    const proof = await signEnvelope(testWallet(64), { now: clock.now() });
    expect((await accountAction(test, market, { kind: "wallet-link", proof })).statusCode).toBe(200);
    const first = await creator(63);
    const second = await creator(64);
    const a = await createDraft(first, { nftName: "From 63" });
    clock.advance(1_000);
    const b = await createDraft(second, { nftName: "From 64" });
    clock.advance(1_000);
    const c = await createDraft(first, { nftName: "Again 63" });
    const page1 = (await inject(first, "GET", "/metadata/draft?limit=2")).json() as {
      drafts: { draftId: string; nftName: string; cardsCount: number }[];
      pagination: unknown;
    };
    expect(page1.drafts.map((d) => [d.draftId, d.nftName, d.cardsCount])).toEqual([
      [c, "Again 63", 5],
      [b, "From 64", 5],
    ]);
    expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const page2 = (await inject(second, "GET", "/metadata/draft?limit=2&page=2")).json() as {
      drafts: { draftId: string }[];
    };
    expect(page2.drafts.map((d) => d.draftId)).toEqual([a]);
    // The other wallet of the account reaches the draft too.
    expect((await inject(second, "DELETE", `/metadata/draft/${a}`)).json()).toEqual({
      success: true,
      message: "draft deleted",
      draftId: a,
    });
    expectError(await inject(first, "GET", `/metadata/draft/${a}`), 404, "DRAFT_NOT_FOUND");
  });

  it("enforces the documented limits", async () => {
    const who = await creator(65);
    const tooMany = Array.from({ length: 1001 }, (_, i) => card(`C${i}`, 1, i + 1));
    expectError(
      await inject(who, "POST", "/metadata/draft/poll", draftBody(who, { cards: tooMany })),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await inject(
        who,
        "POST",
        "/metadata/draft/poll",
        draftBody(who, { oddsBps: [5000, 2500, 1000, 400, 100] }),
      ),
      400,
      "VALIDATION_ERROR",
    );
    for (const slug of ["draft", "tin-robots-7", "Tin"])
      expectError(
        await inject(who, "POST", "/metadata/draft/poll", draftBody(who, { slug })),
        400,
        "VALIDATION_ERROR",
      );
    const big = "x".repeat(4_900);
    const heavy = Array.from({ length: 110 }, (_, i) => ({ ...card(`C${i}`, 1, i + 1), description: big }));
    const tooLarge = await inject(who, "POST", "/metadata/draft/poll", draftBody(who, { cards: heavy }));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ success: false });
  });

  it("caps unconfirmed drafts per account at 50", async () => {
    const who = await creator(66);
    for (let i = 0; i < 50; i++) await createDraft(who, { cards: [] });
    expectError(await inject(who, "POST", "/metadata/draft/poll", draftBody(who)), 409, "DRAFT_LIMIT");
  });
});

describe("allowlists and proofs", () => {
  const A = getAddress(testWallet(70).address).toLowerCase();
  const B = getAddress(testWallet(71).address).toLowerCase();
  const C = getAddress(testWallet(72).address).toLowerCase();

  it("replaces entries, collapses duplicates, and serves proofs the contract's leaf verifies", async () => {
    const who = await creator(67);
    const draftId = await createDraft(who);
    const set = await inject(who, "POST", "/metadata/draft/whitelist", {
      draftId,
      whitelistEnabled: true,
      entries: [
        { address: A, username: "alice" },
        { address: B },
        { address: A.toUpperCase().replace("0X", "0x") },
      ],
    });
    expect(set.statusCode).toBe(200);
    const root = buildAllowlist([A, B] as `0x${string}`[]).root.toLowerCase();
    expect(set.json()).toEqual({
      success: true,
      message: "allowlist replaced; 1 duplicate address(es) collapsed",
      whitelistEnabled: true,
      merkleRoot: root,
      entriesCount: 2,
      total: 3,
      alreadyExists: true,
    });
    const proofOf = (address: string, headers: Record<string, string> = { "api-key": apiKey }) =>
      inject(headers, "GET", `/metadata/draft/${draftId}/whitelist/proof?address=${address}`);
    const listed = (await proofOf(A)).json() as { proof: string[]; allowlisted: boolean; merkleRoot: string };
    expect(listed).toMatchObject({
      success: true,
      address: A,
      whitelistEnabled: true,
      allowlisted: true,
      merkleRoot: root,
    });
    expect(StandardMerkleTree.verify(root, ["address"], [getAddress(A)], listed.proof)).toBe(true);
    expect(StandardMerkleTree.verify(root, ["address"], [getAddress(C)], listed.proof)).toBe(false);
    expect((await proofOf(C)).json()).toEqual({
      success: true,
      address: C,
      whitelistEnabled: true,
      merkleRoot: root,
      allowlisted: false,
      proof: [],
    });
    // Key only: a bearer without the key is the classic 429.
    expectError(await proofOf(A, { authorization: who.headers.authorization }), 429, "RATE_LIMITED");

    const finalized = await inject(who, "POST", "/metadata/draft/whitelist/finalize", { draftId });
    expect(finalized.json()).toMatchObject({
      merkleRoot: root,
      entriesCount: 2,
      total: 2,
      alreadyExists: false,
    });
    const draft = (await inject(who, "GET", `/metadata/draft/${draftId}`)).json() as {
      draft: { whitelist: { merkleRoot: string; finalizedAt: string | null; entriesCount: number } };
    };
    expect(draft.draft.whitelist).toMatchObject({ merkleRoot: root, entriesCount: 2 });
    expect(draft.draft.whitelist.finalizedAt).not.toBeNull();

    // Replace with [C] and disable: the deployment root is zero, the proof route says disabled.
    const disabled = await inject(who, "POST", "/metadata/draft/whitelist", {
      draftId,
      whitelistEnabled: false,
      entries: [{ address: C }],
    });
    expect(disabled.json()).toMatchObject({
      whitelistEnabled: false,
      merkleRoot: CLASSIC_ZERO_ROOT,
      entriesCount: 1,
    });
    expect((await proofOf(A)).json()).toMatchObject({
      whitelistEnabled: false,
      merkleRoot: CLASSIC_ZERO_ROOT,
      allowlisted: false,
      proof: [],
    });
    // Enabled again: C's proof under C's root (a new root never serves the old tree).
    await inject(who, "POST", "/metadata/draft/whitelist", {
      draftId,
      whitelistEnabled: true,
      entries: [{ address: C }],
    });
    expect((await proofOf(C)).json()).toMatchObject({
      allowlisted: true,
      merkleRoot: buildAllowlist([C] as `0x${string}`[]).root.toLowerCase(),
    });
    expect((await proofOf(A)).json()).toMatchObject({ allowlisted: false });
  });

  it("refuses more than 10,000 entries and an enabled empty list", async () => {
    const who = await creator(68);
    const draftId = await createDraft(who);
    const entries = Array.from({ length: 10_001 }, (_, i) => ({
      address: `0x${i.toString(16).padStart(40, "0")}`,
    }));
    expectError(
      await inject(who, "POST", "/metadata/draft/whitelist", { draftId, whitelistEnabled: true, entries }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await inject(who, "POST", "/metadata/draft/whitelist", {
        draftId,
        whitelistEnabled: true,
        entries: [],
      }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await inject(
        { "api-key": apiKey },
        "GET",
        `/metadata/draft/${"b".repeat(24)}/whitelist/proof?address=${A}`,
      ),
      404,
      "DRAFT_NOT_FOUND",
    );
  });
});

describe("confirm and revisions without a chain", () => {
  it("answers 503 for confirm without a classic chain, 404 for a revision of an unknown game, 401 without bearer", async () => {
    const who = await creator(69);
    const draftId = await createDraft(who);
    const txHash = `0x${"1".repeat(64)}`;
    const confirm = await test.app.server.inject({
      method: "POST",
      url: "/classic/metadata/confirm",
      headers: { authorization: who.headers.authorization },
      payload: { draftId, txHash },
    });
    expect(confirm.statusCode).toBe(503);
    const unauthenticated = await test.app.server.inject({
      method: "POST",
      url: "/classic/metadata/confirm",
      payload: { draftId, txHash },
    });
    expectError(unauthenticated, 401, "UNAUTHORIZED");
    const revision = { game: {}, cards: CARDS };
    const put = await test.app.server.inject({
      method: "PUT",
      url: `/classic/metadata/0x${"c".repeat(40)}`,
      headers: { authorization: who.headers.authorization },
      payload: revision,
    });
    expectError(put, 404, "GAME_NOT_FOUND");
    const putAnonymous = await test.app.server.inject({
      method: "PUT",
      url: `/classic/metadata/0x${"c".repeat(40)}`,
      payload: revision,
    });
    expectError(putAnonymous, 401, "UNAUTHORIZED");
  });
});

describe("creator URLs", () => {
  /** Schemes a browser runs or reads files with, and disguised schemes (leading space, tab, newline, case). */
  const BAD = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    " javascript:alert(1)",
    "\tjavascript:alert(1)",
    "java\nscript:alert(1)",
    " https://images.example/a.png",
  ];
  /** The body of a draft or revision with `value` in one creator URL field of `family`. */
  const withUrl = (family: string, field: string, value: string) => {
    if (family === "game") return { game: { [field]: value }, cards: CARDS };
    if (family === "gameLinks") return { game: { links: { [field]: value } }, cards: CARDS };
    return {
      game: {},
      cards: CARDS.map((item, index) => (index === 2 ? { ...item, [field]: value } : item)),
    };
  };
  const contentFamilies = (["game", "gameLinks", "card"] as const).flatMap((family) =>
    CLASSIC_CREATOR_URL_FIELDS[family].map((field) => [family, field] as const),
  );
  const GAME = `0x${"9a".repeat(20)}`;
  /** A bearer-only PUT of a revision (its per-client budget is restored first: the clock moves a minute). */
  const revise = (who: Creator, body: unknown, app: TestApp = test, game = GAME) => {
    clock.advance(61_000);
    return app.app.server.inject({
      method: "PUT",
      url: `/classic/metadata/${game}`,
      headers: { authorization: who.headers.authorization },
      payload: body as object,
    });
  };

  it("refuses other schemes in every creator URL field of drafts, allowlists and revisions (400), storing nothing", async () => {
    const who = await creator(82);
    await insertClassicGame(test.db, { address: GAME, creator: who.address, nftName: "Url Game" });
    const draftId = await createDraft(who);
    for (const [family, field] of contentFamilies) {
      for (const value of BAD) {
        const saved = await inject(
          who,
          "POST",
          "/metadata/draft/poll",
          draftBody(who, { draftId, revision: 2, ...withUrl(family, field, value) }),
        );
        expect([family, field, value, saved.statusCode]).toEqual([family, field, value, 400]);
        expect(saved.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
        const created = await inject(
          who,
          "POST",
          "/metadata/draft/poll",
          draftBody(who, withUrl(family, field, value)),
        );
        expect([family, field, value, created.statusCode]).toEqual([family, field, value, 400]);
      }
      const revised = await revise(who, withUrl(family, field, "JaVaScRiPt:alert(1)"));
      expect([family, field, revised.statusCode]).toEqual([family, field, 400]);
      expect(revised.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
    }
    for (const field of CLASSIC_CREATOR_URL_FIELDS.allowlistEntry) {
      for (const value of BAD) {
        const listed = await inject(who, "POST", "/metadata/draft/whitelist", {
          draftId,
          whitelistEnabled: true,
          entries: [{ address: who.address, [field]: value }],
        });
        expect([field, value, listed.statusCode]).toEqual([field, value, 400]);
        expect(listed.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
      }
    }
    // Nothing was stored: the draft is as created, no other draft appeared, the game has no revision.
    expect((await inject(who, "GET", `/metadata/draft/${draftId}`)).json()).toMatchObject({
      draft: { revision: 1, whitelist: { entriesCount: 0 } },
    });
    expect((await inject(who, "GET", "/metadata/draft")).json()).toMatchObject({ pagination: { total: 1 } });
    const revisions = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM classic_metadata WHERE contract_address = ${GAME}`.execute(
      test.db.kysely,
    );
    expect(revisions.rows[0]?.n).toBe(0);
  });

  it("takes plain http:// only on a dev chain, in every field family", async () => {
    const who = await creator(83);
    const httpGame = `0x${"9b".repeat(20)}`;
    await insertClassicGame(test.db, { address: httpGame, creator: who.address, nftName: "Http Game" });
    const draftId = await createDraft(who);
    const http = "http://images.example/a.png";
    for (const [family, field] of contentFamilies) {
      const saved = await inject(
        who,
        "POST",
        "/metadata/draft/poll",
        draftBody(who, { draftId, revision: 2, ...withUrl(family, field, http) }),
      );
      expect([family, field, saved.statusCode]).toEqual([family, field, 400]);
      expect(saved.json()).toEqual({
        success: false,
        message: `${family === "card" ? "cards[2]." : family === "gameLinks" ? "game.links." : "game."}${field} must be an https:// URL: plain http:// is accepted only on a dev chain`,
        error: "VALIDATION_ERROR",
      });
    }
    const listed = await inject(who, "POST", "/metadata/draft/whitelist", {
      draftId,
      whitelistEnabled: true,
      entries: [{ address: who.address, profileImage: http }],
    });
    expect(listed.json()).toMatchObject({ success: false, error: "VALIDATION_ERROR" });
    expect((await revise(who, withUrl("game", "websiteUrl", http), test, httpGame)).json()).toEqual({
      success: false,
      message: "game.websiteUrl must be an https:// URL: plain http:// is accepted only on a dev chain",
      error: "VALIDATION_ERROR",
    });
    // https is taken everywhere.
    const secure = await inject(
      who,
      "POST",
      "/metadata/draft/poll",
      draftBody(who, { draftId, revision: 3, ...withUrl("game", "websiteUrl", "https://site.example") }),
    );
    expect(secure.json()).toMatchObject({
      applied: true,
      draft: { game: { websiteUrl: "https://site.example" } },
    });

    // A server whose classic chain is a dev chain it runs: plain http is taken in drafts, allowlists and revisions.
    const dev = await setupApp({ clock, devChainIds: [8453] });
    try {
      const devKey = (await dev.createKey({ multiplier: 1000 })).key;
      const devWho = await signInClassic(dev.app.server, {
        apiKey: devKey,
        walletIndex: 84,
        now: clock.now(),
      });
      await insertClassicGame(dev.db, { address: GAME, creator: devWho.address, nftName: "Url Game" });
      const body = {
        revision: 1,
        creator: devWho.address,
        game: { websiteUrl: http, links: { website: http } },
        cards: CARDS.map((item) => ({ ...item, imageUrl: http, externalLink: http })),
      };
      const created = await dev.app.server.inject({
        method: "POST",
        url: "/classic/metadata/draft/poll",
        headers: devWho.headers,
        payload: body,
      });
      expect(created.statusCode, created.body).toBe(200);
      const devDraft = (created.json() as { draft: { draftId: string } }).draft.draftId;
      const devList = await dev.app.server.inject({
        method: "POST",
        url: "/classic/metadata/draft/whitelist",
        headers: devWho.headers,
        payload: {
          draftId: devDraft,
          whitelistEnabled: true,
          entries: [{ address: devWho.address, profileImage: http }],
        },
      });
      expect(devList.statusCode).toBe(200);
      const devRevision = await revise(devWho as Creator, { game: body.game, cards: body.cards }, dev);
      expect(devRevision.statusCode, devRevision.body).toBe(200);
    } finally {
      await dev.close();
    }
  });
});

describe("stored bytes per account", () => {
  /** 100 cards whose descriptions hold `chars` ASCII characters together (at most 5000 each). */
  const paddedCards = (chars: number) =>
    Array.from({ length: 100 }, (_, index) => ({
      ...card(`Card ${index + 1}`, (index % 5) + 1, index + 1),
      description: "x".repeat(Math.min(5000, Math.max(0, chars - index * 5000))),
    }));
  const stored = async (ids: readonly string[]) => {
    const { rows } = await sql<{ n: string | number | null }>`
      SELECT sum(stored_bytes) AS n FROM classic_drafts WHERE id = ANY(${ids}::text[])`.execute(
      test.db.kysely,
    );
    return Number(rows[0]?.n ?? 0);
  };

  it(`holds the unconfirmed drafts of an account at ${CLASSIC_DRAFT_MAX_ACCOUNT_BYTES} bytes: the limit itself is accepted, one byte more is 409`, async () => {
    const who = await creator(85);
    const poll = (extra: Record<string, unknown>) =>
      inject(who, "POST", "/metadata/draft/poll", draftBody(who, extra));
    const idOf = (response: { json(): unknown }) =>
      (response.json() as { draft: { draftId: string } }).draft.draftId;
    // Two small drafts whose cards take the padding later; their size with empty descriptions is the base.
    const a = idOf(await poll({ cards: paddedCards(0) }));
    const b = idOf(await poll({ cards: paddedCards(0) }));
    const ids = [a, b];
    const base = (await stored([a, b])) / 2;
    // Full drafts (100 cards of 5000 characters: under the 512 KiB body limit) until less than two remain free.
    while (CLASSIC_DRAFT_MAX_ACCOUNT_BYTES - (await stored(ids)) > 2 * 500_000) {
      const full = await poll({ cards: paddedCards(500_000) });
      expect(full.statusCode, full.body).toBe(200);
      ids.push(idOf(full));
    }
    expect(await stored(ids)).toBe(base * ids.length + 500_000 * (ids.length - 2));
    // Autosaves of a and b fill the rest exactly: the total is the limit.
    const free = CLASSIC_DRAFT_MAX_ACCOUNT_BYTES - (await stored(ids));
    const toA = Math.min(500_000, free);
    expect((await poll({ draftId: a, revision: 2, cards: paddedCards(toA) })).statusCode).toBe(200);
    expect((await poll({ draftId: b, revision: 2, cards: paddedCards(free - toA) })).statusCode).toBe(200);
    expect(await stored(ids)).toBe(CLASSIC_DRAFT_MAX_ACCOUNT_BYTES);

    // One byte more, by an autosave, a new draft or an allowlist: 409 DRAFT_STORAGE_LIMIT, nothing changes.
    const grown = await poll({ draftId: b, revision: 3, cards: paddedCards(free - toA + 1) });
    expect(grown.statusCode).toBe(409);
    expect(grown.json()).toEqual({
      success: false,
      message: `the unconfirmed drafts of an account's wallets take at most ${CLASSIC_DRAFT_MAX_ACCOUNT_BYTES} bytes (16 MiB) together; with this change they would take ${CLASSIC_DRAFT_MAX_ACCOUNT_BYTES + 1}: delete drafts or shrink their cards or allowlists first`,
      error: "DRAFT_STORAGE_LIMIT",
    });
    expectError(await poll({ cards: [] }), 409, "DRAFT_STORAGE_LIMIT");
    expectError(
      await inject(who, "POST", "/metadata/draft/whitelist", {
        draftId: a,
        whitelistEnabled: true,
        entries: [{ address: who.address }],
      }),
      409,
      "DRAFT_STORAGE_LIMIT",
    );
    expect(await stored(ids)).toBe(CLASSIC_DRAFT_MAX_ACCOUNT_BYTES);
    expect((await inject(who, "GET", `/metadata/draft/${b}`)).json()).toMatchObject({
      draft: { revision: 2 },
    });
    expect((await inject(who, "GET", "/metadata/draft")).json()).toMatchObject({
      pagination: { total: ids.length },
    });

    // A save that shrinks is taken; then one byte fits again, and deleting a draft makes room.
    expect((await poll({ draftId: b, revision: 4, cards: paddedCards(free - toA - 1) })).statusCode).toBe(
      200,
    );
    expect((await poll({ draftId: b, revision: 5, cards: paddedCards(free - toA) })).statusCode).toBe(200);
    expect(await stored(ids)).toBe(CLASSIC_DRAFT_MAX_ACCOUNT_BYTES);
    expect((await inject(who, "DELETE", `/metadata/draft/${ids.at(-1)}`)).statusCode).toBe(200);
    expect((await poll({ cards: [] })).statusCode).toBe(200);
  });
});

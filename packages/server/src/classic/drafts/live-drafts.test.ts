import { CLASSIC_ZERO_ROOT, classicSlugOfPackName } from "@mkt/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock, setupApp, type TestApp } from "../../_test/app.ts";
import { signInClassic } from "../../_test/classic.ts";

const clock = createManualClock(Date.now());
let test: TestApp;
let apiKey: string;

beforeAll(async () => {
  test = await setupApp({ clock });
  apiKey = (await test.createKey({ multiplier: 1000 })).key;
});
afterAll(() => test.close());

const creator = (walletIndex: number) =>
  signInClassic(test.app.server, { apiKey, walletIndex, now: clock.now() });
type Creator = Awaited<ReturnType<typeof creator>>;

const post = (headers: Record<string, string>, url: string, payload: unknown) =>
  test.app.server.inject({ method: "POST", url: `/classic${url}`, headers, payload: payload as object });

const expectRefused = (response: { statusCode: number; json(): unknown }, status: number, error: string) => {
  expect({ status: response.statusCode, body: response.json() }).toMatchObject({
    status,
    body: { success: false, error },
  });
  expect(typeof (response.json() as { message: unknown }).message).toBe("string");
};

const item = (
  name: string,
  rarity: string,
  tokenId: number | string,
  extra: Record<string, unknown> = {},
) => ({
  name,
  description: `${name} card`,
  imageUrl: `https://img.example/${name}.png`,
  rarity,
  tokenId,
  ...extra,
});

/** A live client's draft body (fact table row 11), in the order it sends the fields. */
const liveBody = (who: Creator, extra: Record<string, unknown> = {}) => ({
  creator: who.address,
  owner: who.address,
  name: "Tin Robots",
  symbol: "TIN",
  description: "Robots of tin.",
  slug: "tin-robots",
  featuredImageUrl: "https://img.example/featured.png",
  // Out of order on purpose: card ids follow tokenId order.
  metadataItems: [
    item("Core", "Mythic", 5),
    item("Bolt", "Common", 1),
    item("Dynamo", "Legendary", 4),
    item("Gear", "Rare", 2),
    item("Spring", "Epic", "3"),
  ],
  bgColor: "#334455",
  disableFoil: false,
  disableWear: true,
  isNSFW: false,
  twitterLink: "https://x.com/tinrobots",
  websiteLink: "https://tinrobots.example",
  packAmount: 3,
  ...extra,
});

describe("POST /classic/generate-slug", () => {
  it("applies the creator-slug rule to the pack name", async () => {
    const who = await creator(70);
    const cases: [string, string][] = [
      ["Tin Robots", "tin-robots"],
      ["Crème Brûlée!!", "creme-brulee"],
      ["Pack #2", "pack2"],
      ["a-1-2", "a12"],
      ["Go", "go-pack"],
      ["draft", "draft-pack"],
      ["🔥🔥🔥", "pack"],
      ["   Spaced   Out  ", "spaced-out"],
    ];
    for (const [packName, slug] of cases) {
      const response = await post(who.headers, "/generate-slug", { packName });
      expect({ packName, status: response.statusCode, body: response.json() }).toEqual({
        packName,
        status: 200,
        body: { success: true, slug },
      });
      expect(classicSlugOfPackName(packName)).toBe(slug);
    }
  });

  it("skips slugs of games and other accounts' drafts, but not the account's own unconfirmed drafts", async () => {
    const who = await creator(71);
    const rival = await creator(72);
    const slugOf = async (headers: Record<string, string>) =>
      (await post(headers, "/generate-slug", { packName: "Moon Cats" })).json().slug;
    expect(await slugOf(who.headers)).toBe("moon-cats");

    // A game's creator slug takes the plain form.
    await sql`INSERT INTO classic_slugs (chain_id, slug, contract_address)
              VALUES (8453, 'moon-cats', ${`0x${"1".repeat(40)}`})`.execute(test.db.kysely);
    expect(await slugOf(who.headers)).toBe("moon-cats-v2");

    // The rival's unconfirmed draft takes -v2 for everybody but the rival.
    const draft = await post(rival.headers, "/metadata/draft", liveBody(rival, { slug: "moon-cats-v2" }));
    expect(draft.statusCode).toBe(200);
    expect(await slugOf(who.headers)).toBe("moon-cats-v3");
    expect(await slugOf(rival.headers)).toBe("moon-cats-v2");

    // Nine forms taken: a random tail, still a creator slug.
    for (let n = 3; n <= 9; n += 1)
      await sql`INSERT INTO classic_slugs (chain_id, slug, contract_address)
                VALUES (8453, ${`moon-cats-v${n}`}, ${`0x${String(n).repeat(40)}`})`.execute(test.db.kysely);
    expect(await slugOf(who.headers)).toMatch(/^moon-cats-x[0-9a-f]{8}$/);
  });

  it("refuses a missing, blank, 19-character or extra field (400), no bearer (401), no key (429)", async () => {
    const who = await creator(73);
    for (const body of [
      {},
      { packName: "" },
      { packName: "   " },
      { packName: "x".repeat(19) },
      { packName: 12 },
      { packName: "ok", chainId: 8453 },
    ])
      expectRefused(await post(who.headers, "/generate-slug", body), 400, "VALIDATION_ERROR");
    // 18 characters is the limit, counted in code points.
    expect((await post(who.headers, "/generate-slug", { packName: "x".repeat(18) })).statusCode).toBe(200);
    expect((await post(who.headers, "/generate-slug", { packName: "é".repeat(18) })).statusCode).toBe(200);
    expectRefused(
      await post({ "api-key": apiKey }, "/generate-slug", { packName: "ok" }),
      401,
      "UNAUTHORIZED",
    );
    expectRefused(
      await post({ authorization: who.headers.authorization }, "/generate-slug", { packName: "ok" }),
      429,
      "RATE_LIMITED",
    );
  });
});

describe("POST /classic/metadata/draft (the live body)", () => {
  it("creates a draft: names, cards in tokenId order, rarity words, default live odds, links, packAmount", async () => {
    const who = await creator(74);
    const response = await post(who.headers, "/metadata/draft", liveBody(who));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.draftId).toMatch(/^[0-9a-f]{24}$/);
    expect(body.drafts).toEqual(
      [
        ["Bolt", "Common", 1],
        ["Gear", "Rare", 2],
        ["Spring", "Epic", 3],
        ["Dynamo", "Legendary", 4],
        ["Core", "Mythic", 5],
      ].map(([name, rarity, id]) => ({
        cardId: id,
        tokenId: String(id),
        name,
        description: `${name} card`,
        imageUrl: `https://img.example/${name}.png`,
        rarity,
        rarityCode: id,
      })),
    );
    expect(body.draftGame).toEqual({
      id: body.draftId,
      slug: "tin-robots",
      name: "Tin Robots",
      symbol: "TIN",
      creator: who.address,
      status: "draft",
      packAmount: 3,
    });
    expect(body.createGame).toEqual({
      chainId: 8453,
      factory: null,
      nftName: "Tin Robots",
      nftSymbol: "TIN",
      tokenName: "Tin Robots Tickets",
      tokenSymbol: "TINT",
      merkleRoot: CLASSIC_ZERO_ROOT,
      oddsBps: [6653, 2400, 900, 45, 2],
    });

    // The same draft the poll routes read.
    const stored = await test.app.server.inject({
      method: "GET",
      url: `/classic/metadata/draft/${body.draftId}`,
      headers: who.headers,
    });
    expect(stored.statusCode).toBe(200);
    const draft = stored.json().draft;
    expect(body.draft).toEqual(draft);
    expect(draft).toMatchObject({
      revision: 1,
      creator: who.address,
      nftName: "Tin Robots",
      nftSymbol: "TIN",
      tokenName: "Tin Robots Tickets",
      tokenSymbol: "TINT",
      slug: "tin-robots",
      oddsBps: [6653, 2400, 900, 45, 2],
      packAmount: 3,
      game: {
        description: "Robots of tin.",
        imageUrl: "https://img.example/featured.png",
        featuredImageUrl: "https://img.example/featured.png",
        websiteUrl: "https://tinrobots.example",
        packImage: null,
        bgColor: "#334455",
        links: { twitter: "https://x.com/tinrobots", website: "https://tinrobots.example", discord: "" },
        isNSFW: false,
        disableFoil: false,
        disableWear: true,
      },
    });
    expect(
      draft.cards.map((card: { name: string; rarity: number; startId: number; endId: number }) => [
        card.name,
        card.rarity,
        card.startId,
        card.endId,
      ]),
    ).toEqual([
      ["Bolt", 1, 1, 1],
      ["Gear", 2, 2, 2],
      ["Spring", 3, 3, 3],
      ["Dynamo", 4, 4, 4],
      ["Core", 5, 5, 5],
    ]);
  });

  it("creates another draft for a repeated identical request, takes given odds, and fills absent fields", async () => {
    const who = await creator(75);
    const body = liveBody(who);
    const first = (await post(who.headers, "/metadata/draft", body)).json();
    const second = (await post(who.headers, "/metadata/draft", body)).json();
    expect(second.draftId).not.toBe(first.draftId);

    const minimal = await post(who.headers, "/metadata/draft", {
      creator: who.address,
      name: "Bare",
      symbol: "BARE",
      oddsBps: [6000, 2500, 1000, 400, 100],
      twitterLink: null,
      slug: null,
    });
    expect(minimal.statusCode).toBe(200);
    expect(minimal.json()).toMatchObject({
      drafts: [],
      draftGame: { slug: null, packAmount: null },
      createGame: { oddsBps: [6000, 2500, 1000, 400, 100] },
      draft: {
        packAmount: null,
        game: { description: "", imageUrl: null, links: { twitter: "", website: "", discord: "" } },
      },
    });
  });

  it("refuses bad input with 400 in the classic body, storing nothing", async () => {
    const who = await creator(76);
    const count = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`SELECT count(*) AS n FROM classic_drafts WHERE creator = ${who.address}`.execute(test.db.kysely)
        ).rows[0]?.n,
      );
    const before = await count();
    const base = liveBody(who);
    const { creator: _creator, ...noCreator } = base;
    const { name: _name, ...noName } = base;
    const { symbol: _symbol, ...noSymbol } = base;
    const cases: [string, unknown][] = [
      ["missing creator", noCreator],
      ["missing name", noName],
      ["missing symbol", noSymbol],
      ["bad creator address", { ...base, creator: "0x1234" }],
      ["bad owner address", { ...base, owner: "not-an-address" }],
      ["owner not the creator", { ...base, owner: `0x${"a".repeat(40)}` }],
      ["unknown rarity word", { ...base, metadataItems: [item("Bolt", "Ultra", 1)] }],
      ["lowercase rarity word", { ...base, metadataItems: [item("Bolt", "common", 1)] }],
      [
        "rarity code instead of a word",
        { ...base, metadataItems: [item("Bolt", 1 as unknown as string, 1)] },
      ],
      [
        "duplicate tokenId",
        { ...base, metadataItems: [item("Bolt", "Common", 1), item("Gear", "Rare", "1")] },
      ],
      ["negative tokenId", { ...base, metadataItems: [item("Bolt", "Common", -1)] }],
      ["item without a name", { ...base, metadataItems: [{ rarity: "Common", tokenId: 1 }] }],
      ["unknown item field", { ...base, metadataItems: [item("Bolt", "Common", 1, { foil: "Prize" })] }],
      [
        "javascript: image",
        { ...base, metadataItems: [item("Bolt", "Common", 1, { imageUrl: "javascript:alert(1)" })] },
      ],
      ["plain http link on a real chain", { ...base, websiteLink: "http://tinrobots.example" }],
      ["bad slug", { ...base, slug: "Tin Robots" }],
      ["slug ending in digits", { ...base, slug: "tin-robots-2" }],
      ["odds not summing to 10000", { ...base, oddsBps: [1, 2, 3, 4, 5] }],
      ["name too long", { ...base, name: "x".repeat(93) }],
      ["symbol too long", { ...base, symbol: "x".repeat(20) }],
      ["negative packAmount", { ...base, packAmount: -1 }],
      ["unknown field", { ...base, links: { twitter: "" } }],
    ];
    for (const [label, body] of cases) {
      const response = await post(who.headers, "/metadata/draft", body);
      expect({ label, status: response.statusCode, error: response.json().error }).toEqual({
        label,
        status: 400,
        error: "VALIDATION_ERROR",
      });
    }
    expect(await count()).toBe(before);
  });

  it("answers 403 for another wallet as creator, 401 without a bearer, 429 without a key", async () => {
    const who = await creator(77);
    const other = await creator(78);
    expectRefused(await post(who.headers, "/metadata/draft", liveBody(other)), 403, "FORBIDDEN");
    expectRefused(await post({ "api-key": apiKey }, "/metadata/draft", liveBody(who)), 401, "UNAUTHORIZED");
    expectRefused(
      await post({ authorization: who.headers.authorization }, "/metadata/draft", liveBody(who)),
      429,
      "RATE_LIMITED",
    );
  });
});

describe("confirm with the live client's headers", () => {
  it("accepts API-KEY beside the bearer on the bearer-only confirm", async () => {
    const who = await creator(79);
    const draftId = (await post(who.headers, "/metadata/draft", liveBody(who))).json().draftId;
    const missing = await post(who.headers, "/metadata/confirm", {
      draftId: "f".repeat(24),
      txHash: `0x${"ab".repeat(32)}`,
    });
    expectRefused(missing, 404, "DRAFT_NOT_FOUND");
    // Past the credentials (both headers) to the service: this app has no classic chain to read.
    const confirm = await post(who.headers, "/metadata/confirm", { draftId, txHash: `0x${"ab".repeat(32)}` });
    expect(confirm.statusCode).toBe(503);
    // A bad key beside a valid bearer does not matter either: the route never reads the key.
    const badKey = await post({ ...who.headers, "api-key": "mkt_not-a-key" }, "/metadata/confirm", {
      draftId: "f".repeat(24),
      txHash: `0x${"ab".repeat(32)}`,
    });
    expectRefused(badKey, 404, "DRAFT_NOT_FOUND");
    expectRefused(await post(who.headers, "/metadata/confirm", { draftId }), 400, "VALIDATION_ERROR");
    expectRefused(
      await post(who.headers, "/metadata/confirm", { draftId: "draft_1_x", txHash: `0x${"ab".repeat(32)}` }),
      400,
      "VALIDATION_ERROR",
    );
  });
});

describe("published document", () => {
  it("tags every live route Live-compatible beside its normal tag", async () => {
    const doc = (await test.app.server.inject({ method: "GET", url: "/openapi/classic.json" })).json();
    const tags = (path: string, method: string) => doc.paths[path][method].tags;
    expect(tags("/classic/generate-slug", "post")).toEqual(["Creator workflow", "Live-compatible"]);
    expect(tags("/classic/metadata/draft", "post")).toEqual(["Creator workflow", "Live-compatible"]);
    expect(tags("/classic/metadata/confirm", "post")).toEqual(["Creator workflow", "Live-compatible"]);
    expect(tags("/classic/contractAddress/{addressOrSlug}/ready", "get")).toEqual([
      "Games",
      "Live-compatible",
    ]);
    expect(doc.paths["/classic/metadata/draft"].post.security).toEqual([{ ApiKey: [], ClassicBearer: [] }]);
    expect(doc.paths["/classic/generate-slug"].post.security).toEqual([{ ApiKey: [], ClassicBearer: [] }]);
    expect(doc.paths["/classic/metadata/draft"].post.description).toContain("packAmount");
  });
});

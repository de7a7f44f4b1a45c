import { CLASSIC_CREATOR_URL_FIELDS } from "@mkt/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { insertClassicGame, insertClassicMetadata } from "../_test/classic.ts";
import { readMigrations } from "../db/index.ts";

/** Values an earlier build stored as they came: every one must leave the store and the public JSON. */
const BAD = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.cookie)",
  "data:text/html,<script>alert(1)</script>",
  "file:///etc/passwd",
  " javascript:alert(1)",
  "\tjavascript:alert(1)",
  "java\nscript:alert(1)",
  "vbscript:msgbox(1)",
];
const UNSAFE = /javascript|vbscript|data:|file:/i;
const GAME = `0x${"4d".repeat(20)}`;
const CLEAN_GAME = `0x${"4e".repeat(20)}`;
const CREATOR = `0x${"c7".repeat(20)}`;

/** Every creator URL field of `family` set to a bad value (a different one per field). */
const bad = (family: keyof typeof CLASSIC_CREATOR_URL_FIELDS, offset = 0) =>
  Object.fromEntries(
    CLASSIC_CREATOR_URL_FIELDS[family].map((field, index) => [field, BAD[(index + offset) % BAD.length]]),
  );
const badGame = () => ({
  description: "kept description",
  bgColor: "#123456",
  ...bad("game"),
  links: bad("gameLinks", 4),
});
const badCards = () =>
  [1, 2, 3, 4, 5].map((rarity) => ({
    name: `Kept ${rarity}`,
    description: `card ${rarity}`,
    rarity,
    startId: rarity,
    endId: rarity,
    traits: [{ key: "Kept", value: "yes" }],
    ...bad("card", rarity),
  }));
const goodGame = {
  description: "clean",
  imageUrl: "https://images.example/g.png",
  websiteUrl: "http://site.example",
  featuredImageUrl: "",
  packImage: null,
  links: { twitter: "HTTPS://x.com/clean", website: "", discord: "https://discord.example/i" },
};
const goodCards = [1, 2, 3, 4, 5].map((rarity) => ({
  name: `Clean ${rarity}`,
  rarity,
  startId: rarity,
  endId: rarity,
  imageUrl: `https://images.example/${rarity}.png`,
  externalLink: "",
}));

describe("creator URLs stored by earlier builds (migration 0029)", () => {
  let t: TestApp;
  let key: string;
  const drafts = { bad: "b".repeat(24), clean: "c".repeat(24) };

  const rows = async () => {
    const metadata = await sql<{ contract_address: string; game: unknown; cards: unknown }>`
      SELECT contract_address, game, cards FROM classic_metadata ORDER BY contract_address`.execute(
      t.db.kysely,
    );
    const stored = await sql<{ id: string; content: unknown; allowlist: unknown }>`
      SELECT id, content, allowlist FROM classic_drafts WHERE id = ANY(${Object.values(drafts)}::text[])
       ORDER BY id`.execute(t.db.kysely);
    return { metadata: metadata.rows, drafts: stored.rows };
  };

  let before: Awaited<ReturnType<typeof rows>>;
  let after: Awaited<ReturnType<typeof rows>>;

  beforeAll(async () => {
    t = await setupApp();
    key = (await t.createKey({ multiplier: 10 })).key;
    for (const [address, game, cards] of [
      [GAME, badGame(), badCards()],
      [CLEAN_GAME, goodGame, goodCards],
    ] as const) {
      await insertClassicGame(t.db, { address, creator: CREATOR, nftName: "Migrated" });
      await insertClassicMetadata(t.db, {
        address,
        version: 1,
        effectiveFrom: new Date(Date.UTC(2025, 0, 1)),
        game: game as never,
        cards: cards as never,
      });
      await sql`
        INSERT INTO classic_packs (scope, chain_id, contract_address, token_id, owner, status, rarity, batch_id,
                                   acquired_price, mint_tx, mint_block, mint_time, updated_block, updated_at)
        VALUES ('classic-test', 8453, ${address}, 1, ${CREATOR}, 'minted', 0, 1, 1000, ${`0x${"1".padStart(64, "0")}`},
                1, '2025-01-02T00:00:00Z', 1, '2025-01-02T00:00:00Z')`.execute(t.db.kysely);
    }
    for (const [id, game, cards, entries] of [
      [
        drafts.bad,
        badGame(),
        badCards(),
        [
          { address: CREATOR, username: "kept", profileImage: "javascript:alert(1)" },
          { address: GAME, profileImage: "https://p.example/1.png" },
        ],
      ],
      [drafts.clean, goodGame, goodCards, [{ address: CREATOR, profileImage: "https://p.example/2.png" }]],
    ] as const) {
      await sql`
        INSERT INTO classic_drafts (id, chain_id, creator, revision, content, allowlist, allowlist_count, created_at, updated_at)
        VALUES (${id}, 8453, ${CREATOR}, 1,
                ${JSON.stringify({ tokenName: "T", tokenSymbol: "T", nftName: "N", nftSymbol: "N", slug: null, game, cards, oddsBps: [6000, 2500, 1000, 400, 100] })}::jsonb,
                ${JSON.stringify(entries)}::jsonb, ${entries.length}, now(), now())`.execute(t.db.kysely);
    }
    before = await rows();
    const migration = readMigrations().find((candidate) => candidate.id === "0029_classic_urls");
    if (!migration) throw new Error("migration 0029_classic_urls is missing");
    // The migration ran when the database was made; it runs again here over the rows an earlier build left.
    await t.db.withConnection((connection) => connection.exec(migration.sql));
    after = await rows();
  });
  afterAll(() => t?.close());

  it("neutralises every stored value outside the rule and keeps everything else, in revisions and drafts", async () => {
    const nulls = (family: keyof typeof CLASSIC_CREATOR_URL_FIELDS, value: unknown) =>
      Object.fromEntries(CLASSIC_CREATOR_URL_FIELDS[family].map((field) => [field, value]));
    const cleanedGame = {
      description: "kept description",
      bgColor: "#123456",
      ...nulls("game", null),
      links: nulls("gameLinks", ""),
    };
    const cleanedCards = badCards().map((card) => ({ ...card, ...nulls("card", null) }));
    const [badRevision, cleanRevision] = after.metadata;
    expect(badRevision).toEqual({ contract_address: GAME, game: cleanedGame, cards: cleanedCards });
    // Web URLs (plain http included: that is a per-server rule) and "" are left as they were.
    expect(cleanRevision).toEqual(before.metadata[1]);
    const [badDraft, cleanDraft] = after.drafts;
    expect(badDraft?.content).toEqual({
      ...(before.drafts[0]?.content as object),
      game: cleanedGame,
      cards: cleanedCards,
    });
    expect(badDraft?.allowlist).toEqual([
      { address: CREATOR, username: "kept" },
      { address: GAME, profileImage: "https://p.example/1.png" },
    ]);
    expect(cleanDraft).toEqual(before.drafts[1]);
  });

  it("leaves no such URL in the public token and contract JSON or the game reads", async () => {
    const read = async (url: string, headers: Record<string, string> = {}) => {
      const response = await t.app.server.inject({ url: `/classic${url}`, headers });
      expect([url, response.statusCode]).toEqual([url, 200]);
      return response.body;
    };
    for (const headers of [{}, { "x-bypass-image-proxy": "true" }] as Record<string, string>[]) {
      const keyed = { ...headers, "api-key": key };
      const bodies = [
        await read(`/metadata/${GAME}`, headers),
        await read(`/metadata/${GAME}/1`, headers),
        await read(`/contractAddress/${GAME}/all-metadata?includeContractDetails=true`, keyed),
        await read(`/contractAddress/${GAME}`, keyed),
        await read(`/metadata/${GAME}/cards`, keyed),
      ];
      for (const body of bodies) expect(body).not.toMatch(UNSAFE);
      // The creator's other metadata is still served (not replaced by the default metadata).
      expect(JSON.parse(bodies[0]!)).toMatchObject({ description: "kept description", external_link: null });
      expect(JSON.parse(bodies[3]!)).toMatchObject({
        contractInfo: {
          description: "kept description",
          websiteUrl: null,
          links: { twitter: "", website: "", discord: "" },
        },
      });
    }
  });
});

import { classicErrorSchema, marketErrorSchema } from "@mkt/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { accountAction, type SignedIn, signIn, TEST_ORIGIN } from "../_test/accounts.ts";
import type { TestApp } from "../_test/app.ts";
import { type ClassicSignedIn, insertClassicGame, signInClassic } from "../_test/classic.ts";
import { PREDICT_HEAD_TIME, setupPredictApp } from "../_test/predict.ts";
import { openChatSession } from "../market/social/test-helpers.ts";

/**
 * The free-text fields people write and others read, against real storage: a
 * clean value is stored; the same request with a refused character in the
 * field is a 400 in the surface's error body naming the field, and storage is
 * exactly as before (no row, no changed value, no 5xx).
 */
const NOW = Date.parse(PREDICT_HEAD_TIME) + 1_000;
const GAME = "0x00000000000000000000000000000000000c4a71";
const MARKET = "0x00000000000000000000000000000000000c0de1";
const REFUSED: Array<[string, string]> = [
  ["\u0000", "U+0000 (NUL)"],
  ["\ud83d", "an unpaired UTF-16 surrogate (U+D83D)"],
  ["\u202e", "the bidirectional control U+202E"],
  ["\u2066", "the bidirectional control U+2066"],
];

interface Response {
  statusCode: number;
  body: string;
  json(): unknown;
}

interface Case {
  name: string;
  /** Where the error body's message is: the market's `error` or the classic `message`. */
  surface: "market" | "classic";
  /** The field the 400 names. */
  field: string;
  /** Sends the request with `text` in the field. */
  send(text: string): Promise<Response>;
  /** Everything stored where the field goes. */
  stored(): Promise<unknown[]>;
}

let t: TestApp;
let key: string;
let alice: SignedIn;
let bob: SignedIn;
let chat: Record<string, string>;
let classic: ClassicSignedIn;
let roomId: string;
let draftId: string;
let revision = 1;
let slugs = 0;

const rows = async (query: ReturnType<typeof sql<{ value: unknown }>>) =>
  (await query.execute(t.db.kysely)).rows.map((row) => row.value);

const DRAFT = {
  creator: "",
  tokenName: "Tin Robots",
  tokenSymbol: "TIN",
  nftName: "Tin Robots Booster",
  nftSymbol: "TINBOX",
  slug: "tin-robots",
  game: { description: "Robots of tin." },
  cards: [
    { name: "Bolt", rarity: 1, startId: 1, endId: 4, traits: [{ key: "Metal", value: "Tin" }] },
    { name: "Gear", rarity: 2, startId: 5, endId: 6 },
    { name: "Spring", rarity: 3, startId: 7, endId: 7 },
    { name: "Dynamo", rarity: 4, startId: 8, endId: 8 },
    { name: "Core", rarity: 5, startId: 9, endId: 9 },
  ],
};
const saveDraft = (change: (draft: typeof DRAFT) => unknown) =>
  t.app.server.inject({
    method: "POST",
    url: "/classic/metadata/draft/poll",
    headers: classic.headers,
    payload: {
      ...(change(structuredClone({ ...DRAFT, creator: classic.address })) as object),
      draftId,
      revision: ++revision,
    },
  });
const draftCase = (field: string, change: (draft: typeof DRAFT, text: string) => void): Case => ({
  name: `classic draft ${field}`,
  surface: "classic",
  field: `body.${field}`,
  send: (text) =>
    saveDraft((draft) => {
      change(draft, text);
      return draft;
    }),
  stored: () => rows(sql`SELECT content::text AS value FROM classic_drafts ORDER BY id`),
});

const CASES: Case[] = [
  {
    name: "DM body",
    surface: "market",
    field: "body.body",
    send: (text) => accountAction(t, alice, { kind: "dm", to: bob.address, body: text }),
    stored: () => rows(sql`SELECT body AS value FROM dm_messages ORDER BY id`),
  },
  {
    name: "DM body through the first-party proxy",
    surface: "market",
    field: "body.body",
    send: (text) =>
      t.app.server.inject({
        method: "POST",
        url: "/app/api/account",
        headers: {
          origin: TEST_ORIGIN,
          "x-mkt-wallet": alice.address,
          cookie: `mkt-session=${alice.token}`,
        },
        payload: { kind: "dm", to: bob.address, body: text },
      }),
    stored: () => rows(sql`SELECT body AS value FROM dm_messages ORDER BY id`),
  },
  {
    name: "profile bio",
    surface: "market",
    field: "body.bio",
    send: (text) => accountAction(t, alice, { kind: "profile-update", bio: text }),
    stored: () => rows(sql`SELECT bio AS value FROM accounts ORDER BY id`),
  },
  {
    name: "room title",
    surface: "market",
    field: "body.title",
    send: (text) => accountAction(t, alice, { kind: "room-create", slug: `room-${++slugs}`, title: text }),
    stored: () => rows(sql`SELECT title AS value FROM rooms ORDER BY id`),
  },
  {
    name: "room description",
    surface: "market",
    field: "body.description",
    send: (text) =>
      accountAction(t, alice, {
        kind: "room-create",
        slug: `room-${++slugs}`,
        title: "Room",
        description: text,
      }),
    stored: () => rows(sql`SELECT description AS value FROM rooms ORDER BY id`),
  },
  {
    name: "report details",
    surface: "market",
    field: "body.details",
    send: (text) =>
      accountAction(t, alice, {
        kind: "report",
        subject: { kind: "account", id: bob.address },
        reason: "spam",
        details: text,
      }),
    stored: () => rows(sql`SELECT details AS value FROM reports ORDER BY id`),
  },
  {
    name: "market chat send (route)",
    surface: "market",
    field: "body.body",
    send: (text) =>
      t.app.server.inject({
        method: "POST",
        url: `/market/rooms/${roomId}/messages`,
        headers: chat,
        payload: { body: text },
      }),
    stored: () => rows(sql`SELECT body AS value FROM room_messages ORDER BY id`),
  },
  {
    name: "market chat send (action)",
    surface: "market",
    field: "body.body",
    send: (text) => accountAction(t, alice, { kind: "chat-send", roomId, body: text }),
    stored: () => rows(sql`SELECT body AS value FROM room_messages ORDER BY id`),
  },
  {
    name: "classic chat send",
    surface: "classic",
    field: "body.text",
    send: (text) =>
      t.app.server.inject({
        method: "POST",
        url: `/classic/chat/${GAME}`,
        headers: classic.headers,
        payload: { text },
      }),
    stored: () => rows(sql`SELECT text AS value FROM classic_chat_messages ORDER BY id`),
  },
  draftCase("tokenName", (draft, text) => {
    draft.tokenName = text;
  }),
  draftCase("nftName", (draft, text) => {
    draft.nftName = text;
  }),
  draftCase("game.description", (draft, text) => {
    draft.game.description = text;
  }),
  draftCase("cards.1.name", (draft, text) => {
    draft.cards[1]!.name = text;
  }),
  draftCase("cards.0.traits.0.value", (draft, text) => {
    draft.cards[0]!.traits![0]!.value = text;
  }),
  {
    name: "classic report details",
    surface: "classic",
    field: "body.details",
    send: (text) =>
      t.app.server.inject({
        method: "POST",
        url: "/classic/reports",
        headers: classic.headers,
        payload: { contractAddress: GAME, reason: "other", details: text },
      }),
    stored: () => rows(sql`SELECT details AS value FROM classic_reports ORDER BY id`),
  },
  {
    name: "predict market media (operator listener)",
    surface: "market",
    field: "body.imageUrl",
    send: (text) =>
      t.admin("PUT", `/admin/predict/markets/${MARKET}/media`, {
        imageUrl: `https://images.example/${text}.png`,
      }) as Promise<Response>,
    stored: () => rows(sql`SELECT image_url AS value FROM predict_market_media ORDER BY address`),
  },
];

beforeAll(async () => {
  ({ t } = await setupPredictApp({ env: { IMAGE_PROXY_HOSTS: "images.example" } }));
  key = (await t.createKey({ multiplier: 10_000 })).key;
  alice = await signIn(t, 3, { apiKey: key, now: NOW });
  bob = await signIn(t, 4, { apiKey: key, now: NOW });
  chat = await openChatSession(t, alice);
  classic = await signInClassic(t.app.server, { apiKey: key, walletIndex: 5, now: NOW });
  await insertClassicGame(t.db, { address: GAME, gameId: 7n, nftName: "Chat Owls" });
  const room = await accountAction(t, alice, { kind: "room-create", slug: "lobby", title: "Lobby" });
  expect(room.statusCode, room.body).toBe(200);
  roomId = (room.json() as { result: { id: string } }).result.id;
  const draft = await t.app.server.inject({
    method: "POST",
    url: "/classic/metadata/draft/poll",
    headers: classic.headers,
    payload: { ...DRAFT, creator: classic.address, revision },
  });
  expect(draft.statusCode, draft.body).toBe(200);
  draftId = (draft.json() as { draft: { draftId: string } }).draft.draftId;
});
afterAll(() => t.close());

describe("free text with a refused character is a 400 and stores nothing", () => {
  it.each(CASES)("$name", async (field) => {
    const clean = `clean-${field.name.replace(/\W/g, "")}`;
    const accepted = await field.send(clean);
    expect(accepted.statusCode, accepted.body).toBeLessThan(300);
    const before = await field.stored();
    expect(JSON.stringify(before)).toContain(clean);

    for (const [character, named] of REFUSED) {
      const refused = await field.send(`bad${character}text`);
      expect(refused.statusCode, refused.body).toBe(400);
      const message =
        field.surface === "classic"
          ? classicErrorSchema.extend({ error: z.literal("VALIDATION_ERROR") }).parse(refused.json()).message
          : marketErrorSchema.strict().parse(refused.json()).error;
      expect(message).toBe(`${field.field}: must not contain ${named}`);
      expect(await field.stored()).toEqual(before);
    }
  });
});

describe("a page cursor whose decoded key holds a refused character", () => {
  it.each(REFUSED.map(([character, named]) => ({ character, named })))(
    "is a 400 like any cursor this API did not issue ($named)",
    async ({ character }) => {
      // Rooms page by slug (a text key), follows by a time and an id: both keys reach SQL.
      for (const [url, sortKey] of [
        ["/market/rooms", `a${character}`],
        [`/market/accounts/${alice.address}/followers`, [NOW, `a${character}`]],
      ] as const) {
        const cursor = Buffer.from(JSON.stringify(sortKey)).toString("base64url");
        const response = await t.app.server.inject({
          method: "GET",
          url: `${url}?cursor=${cursor}`,
          headers: { "api-key": key },
        });
        expect(response.statusCode, response.body).toBe(400);
        expect(marketErrorSchema.strict().parse(response.json()).error).toBe(
          "cursor is not a cursor this API returned for this list",
        );
      }
    },
  );
});

import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  CLASSIC_CREATOR_URL_FIELDS,
  classicAllowlistEntrySchema,
  classicCardInputSchema,
  classicCreatorUrls,
  classicGameMetadataInputSchema,
  isPlainHttpUrl,
} from "./drafts.ts";

/** Values a browser would run, read a file with, or that hide their scheme: refused in every creator URL field. */
const REFUSED = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:image/svg+xml;base64,PHN2Zz4=",
  "file:///etc/passwd",
  "vbscript:msgbox(1)",
  "ftp://files.example/a.png",
  " javascript:alert(1)",
  "\tjavascript:alert(1)",
  "\u0000javascript:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  " https://images.example/a.png",
  "https://images.example/a.png ",
  "https://images.example/a b.png",
  "https://images.example/a.png\n",
  "\u007fhttps://images.example/a.png",
  "https://",
  "https:images.example/a.png",
  "//images.example/a.png",
  "images.example/a.png",
];
/** Web URLs (plain http is the server's decision, by chain) and "" for none. */
const ACCEPTED = [
  "https://images.example/a.png",
  "HTTPS://Images.Example/A.png?size=2#top",
  "http://images.example/a.png",
  "https://images.example/café.png",
  "",
];

/** Parses `value` in one creator URL field of its family; true when accepted. */
const families = {
  game: (field: string, value: string) =>
    classicGameMetadataInputSchema.safeParse({ [field]: value }).success,
  gameLinks: (field: string, value: string) =>
    classicGameMetadataInputSchema.safeParse({ links: { [field]: value } }).success,
  card: (field: string, value: string) =>
    classicCardInputSchema.safeParse({ name: "Card", rarity: 1, startId: 1, endId: 1, [field]: value })
      .success,
  allowlistEntry: (field: string, value: string) =>
    classicAllowlistEntrySchema.safeParse({ address: `0x${"a".repeat(40)}`, [field]: value }).success,
} satisfies Record<keyof typeof CLASSIC_CREATOR_URL_FIELDS, unknown>;

describe("creator URLs", () => {
  it("every creator URL field refuses other schemes and disguised schemes, and accepts web URLs", () => {
    for (const [family, fields] of Object.entries(CLASSIC_CREATOR_URL_FIELDS)) {
      const accepts = families[family as keyof typeof families];
      for (const field of fields) {
        for (const value of REFUSED)
          expect([family, field, value, accepts(field, value)]).toEqual([family, field, value, false]);
        for (const value of ACCEPTED)
          expect([family, field, value, accepts(field, value)]).toEqual([family, field, value, true]);
      }
    }
  });

  it("lists every URL-like field of the creator schemas", () => {
    const shapes = {
      game: classicGameMetadataInputSchema.shape,
      gameLinks: (classicGameMetadataInputSchema.shape.links.unwrap() as z.ZodObject).shape,
      card: classicCardInputSchema.shape,
      allowlistEntry: classicAllowlistEntrySchema.shape,
    };
    for (const [family, shape] of Object.entries(shapes)) {
      const urlLike = Object.keys(shape).filter((field) =>
        /url|link|image|website|twitter|discord/i.test(field),
      );
      expect([family, urlLike.filter((field) => field !== "links").sort()]).toEqual([
        family,
        [...CLASSIC_CREATOR_URL_FIELDS[family as keyof typeof shapes]].sort(),
      ]);
    }
  });

  it("collects every non-empty creator URL with its path, and tells plain http apart", () => {
    const game = classicGameMetadataInputSchema.parse({
      imageUrl: "https://images.example/g.png",
      websiteUrl: "http://site.example",
      links: { twitter: "https://x.com/game", discord: "" },
    });
    const card = classicCardInputSchema.parse({
      name: "Card",
      rarity: 1,
      startId: 1,
      endId: 1,
      externalLink: "HTTP://card.example",
    });
    expect(
      classicCreatorUrls({
        game,
        cards: [card],
        entries: [{ address: `0x${"a".repeat(40)}`, profileImage: "https://p.example/1.png" }],
      }),
    ).toEqual([
      { field: "game.imageUrl", url: "https://images.example/g.png" },
      { field: "game.websiteUrl", url: "http://site.example" },
      { field: "game.links.twitter", url: "https://x.com/game" },
      { field: "cards[0].externalLink", url: "HTTP://card.example" },
      { field: "entries[0].profileImage", url: "https://p.example/1.png" },
    ]);
    expect(["http://a.example", "HTTP://a.example", "https://a.example"].map(isPlainHttpUrl)).toEqual([
      true,
      true,
      false,
    ]);
  });
});

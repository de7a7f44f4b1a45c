import { z } from "zod";

/**
 * The release catalog's model (Release, Design,
 * Card): what a creator sets in a draft, with its size limits, and the
 * statuses a release moves through. Every schema here normalises (trims,
 * NFC, lowercases colours) and is strict (an unknown key is an error), and its
 * output has the keys in the order they are declared, so `JSON.stringify` of a
 * parsed value is canonical: the signed `Action:` line depends on it.
 */

/** Size limits of a release draft, published in the OpenAPI description. Lengths count UTF-16 code units. */
export const RELEASE_LIMITS = {
  name: 64,
  /** Letters and digits only. */
  symbol: 11,
  description: 2000,
  /** Every URL: `https://` only (image, baseURI, links, tier and card images). */
  url: 500,
  /** Rarity tiers in `design.cardsByRarity`; `tierImages` and `tierMasks` hold 0 or one entry per tier. */
  tiers: 6,
  cardsPerTier: 100,
  /** Cards over all tiers. */
  cards: 200,
  cardId: 64,
  cardName: 64,
  cardDescription: 500,
  attributesPerCard: 16,
  traitType: 32,
  traitValue: 64,
  strokes: 64,
  /** Numbers in one stroke: x, y pairs, so an even count of at least 2. */
  strokePoints: 512,
  /** Numbers over all strokes. */
  strokeNumbers: 8192,
  /** Stroke coordinates are integers from 0 to this (a 4096 by 4096 canvas). */
  strokeCoordinate: 4095,
} as const;

/** `design.pattern` values (the market API shows `solid`). */
export const DESIGN_PATTERNS = ["solid", "gradient", "dots", "stripes", "checker"] as const;
/** `design.mask`, `design.tierMasks[]` and `card.mask` values (the market API shows `full`). */
export const DESIGN_MASKS = ["full", "rounded", "circle", "hexagon", "arch"] as const;

/** Unicode NFC, then trimmed; the same text typed on two systems signs the same. */
const normalised = z.string().transform((value) => value.normalize("NFC").trim());

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

/** One line of text: trimmed, NFC, no control characters. */
export const lineText = (max: number, what: string, min = 1) =>
  normalised
    .pipe(
      z
        .string()
        .min(min, min === 1 ? `${what} must not be empty` : `${what} must be at least ${min} characters`)
        .max(max, `${what} must be at most ${max} characters`)
        .refine((value) => !CONTROL.test(value), `${what} must be one line without control characters`),
    )
    .describe(`One line, ${min} to ${max} characters after trimming (NFC).`);

/** Several lines of text: CRLF and CR become LF, trimmed, NFC, no other control characters; may be empty. */
const paragraphText = (max: number, what: string) =>
  z
    .string()
    .transform((value) => value.replace(/\r\n?/g, "\n"))
    .pipe(normalised)
    .pipe(
      z
        .string()
        .max(max, `${what} must be at most ${max} characters`)
        .refine((value) => !CONTROL_BUT_NEWLINE.test(value), `${what} must not contain control characters`),
    )
    .describe(`Text, at most ${max} characters after trimming (NFC, line breaks as LF).`);

function isHttpsUrl(value: string): boolean {
  if (/\s/.test(value) || CONTROL.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/**
 * An `https://` URL without credentials, kept as written (after trimming):
 * what the creator typed is what is signed. `""` means not set.
 */
export const httpsUrlSchema = (what: string) =>
  normalised
    .pipe(
      z
        .string()
        .max(RELEASE_LIMITS.url, `${what} must be at most ${RELEASE_LIMITS.url} characters`)
        .refine((value) => value === "" || isHttpsUrl(value), `${what} must be an https:// URL (or empty)`),
    )
    .describe(
      `An https:// URL without credentials, at most ${RELEASE_LIMITS.url} characters; "" when not set.`,
    );

const colorSchema = (what: string) =>
  normalised
    .pipe(
      z
        .string()
        .regex(/^#[0-9a-fA-F]{6}$/, `${what} must be a #rrggbb colour`)
        .transform((value) => value.toLowerCase()),
    )
    .describe("A #rrggbb colour (lowercased).");

const maskSchema = z.enum(DESIGN_MASKS);

/** Release ids are assigned by the server (`rel_` + 24 lowercase letters and digits fit, as do older ids). */
export const releaseIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "releaseId must be 1 to 64 letters, digits, - or _");

/** Onchain ids (drop ids, pack ids): a uint256 as a decimal string, never a JSON number. */
export const dropIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,77}$/, "must be a decimal string of up to 78 digits, first digit 1 to 9");

/** A runtime id as in `/market/runtime/{version}` (taken from `GET /market/runtime`, never from a name). */
export const runtimeVersionSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    "version must be a runtime id (1 to 64 letters, digits, '.', '_' or '-')",
  );

export const cardAttributeSchema = z
  .object({
    trait_type: lineText(RELEASE_LIMITS.traitType, "trait_type"),
    value: lineText(RELEASE_LIMITS.traitValue, "value", 0),
  })
  .strict()
  .meta({ id: "CardAttribute" });

export const cardSchema = z
  .object({
    id: normalised.pipe(
      z
        .string()
        .regex(
          /^[A-Za-z0-9_-]{1,64}$/,
          "card id must be 1 to 64 letters, digits, - or _ (unique in the release)",
        ),
    ),
    name: lineText(RELEASE_LIMITS.cardName, "card name"),
    description: paragraphText(RELEASE_LIMITS.cardDescription, "card description").default(""),
    image: httpsUrlSchema("card image").default(""),
    attributes: z
      .array(cardAttributeSchema)
      .max(
        RELEASE_LIMITS.attributesPerCard,
        `a card has at most ${RELEASE_LIMITS.attributesPerCard} attributes`,
      )
      .default([]),
    mask: maskSchema.default("full"),
    firstEditionImage: httpsUrlSchema("firstEditionImage").default(""),
  })
  .strict()
  .meta({ id: "Card" });

const strokeSchema = z
  .array(
    z
      .number()
      .int("stroke coordinates must be integers")
      .min(0, `stroke coordinates are 0 to ${RELEASE_LIMITS.strokeCoordinate}`)
      .max(RELEASE_LIMITS.strokeCoordinate, `stroke coordinates are 0 to ${RELEASE_LIMITS.strokeCoordinate}`),
  )
  .min(2, "a stroke has at least one x, y point")
  .max(RELEASE_LIMITS.strokePoints, `a stroke has at most ${RELEASE_LIMITS.strokePoints} numbers`)
  .refine((stroke) => stroke.length % 2 === 0, "a stroke is x, y pairs (an even count of numbers)");

export const designSchema = z
  .object({
    accent: colorSchema("accent").default("#000000"),
    pattern: z.enum(DESIGN_PATTERNS).default("solid"),
    mask: maskSchema.default("full"),
    cardsByRarity: z
      .array(
        z
          .array(cardSchema)
          .max(RELEASE_LIMITS.cardsPerTier, `a tier has at most ${RELEASE_LIMITS.cardsPerTier} cards`),
      )
      .max(RELEASE_LIMITS.tiers, `at most ${RELEASE_LIMITS.tiers} rarity tiers`)
      .default([]),
    strokes: z
      .array(strokeSchema)
      .max(RELEASE_LIMITS.strokes, `at most ${RELEASE_LIMITS.strokes} strokes`)
      .default([]),
    tierImages: z
      .array(httpsUrlSchema("tier image"))
      .max(RELEASE_LIMITS.tiers, `at most ${RELEASE_LIMITS.tiers} tier images`)
      .default([]),
    cardImage: httpsUrlSchema("cardImage").default(""),
    tierMasks: z
      .array(maskSchema)
      .max(RELEASE_LIMITS.tiers, `at most ${RELEASE_LIMITS.tiers} tier masks`)
      .default([]),
  })
  .strict()
  .superRefine((design, ctx) => {
    const tiers = design.cardsByRarity.length;
    for (const key of ["tierImages", "tierMasks"] as const) {
      const count = design[key].length;
      if (count !== 0 && count !== tiers) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `${key} must be empty or hold one entry per rarity tier (${tiers})`,
        });
      }
    }
    const cards = design.cardsByRarity.flat();
    if (cards.length > RELEASE_LIMITS.cards) {
      ctx.addIssue({
        code: "custom",
        path: ["cardsByRarity"],
        message: `a release has at most ${RELEASE_LIMITS.cards} cards over all tiers`,
      });
    }
    const seen = new Set<string>();
    design.cardsByRarity.forEach((tier, t) => {
      tier.forEach((card, c) => {
        if (seen.has(card.id)) {
          ctx.addIssue({
            code: "custom",
            path: ["cardsByRarity", t, c, "id"],
            message: `card id ${card.id} is used twice`,
          });
        }
        seen.add(card.id);
      });
    });
    const numbers = design.strokes.reduce((sum, stroke) => sum + stroke.length, 0);
    if (numbers > RELEASE_LIMITS.strokeNumbers) {
      ctx.addIssue({
        code: "custom",
        path: ["strokes"],
        message: `strokes hold at most ${RELEASE_LIMITS.strokeNumbers} numbers in all`,
      });
    }
  })
  .meta({ id: "Design" });

export const releaseLinksSchema = z
  .object({
    website: httpsUrlSchema("links.website").default(""),
    x: httpsUrlSchema("links.x").default(""),
    telegram: httpsUrlSchema("links.telegram").default(""),
  })
  .strict()
  .meta({ id: "ReleaseLinks" });

/**
 * Everything a creator sets in a release: the body of `create` and `edit`.
 * `name` and `symbol` are required; everything else has a default (empty
 * string, empty list, `solid`, `full`, black), and the parsed draft always
 * carries every key, so an omitted field and its default sign the same.
 * An edit replaces the whole draft (load the complete release first).
 */
export const releaseDraftSchema = z
  .object({
    name: lineText(RELEASE_LIMITS.name, "name"),
    symbol: normalised.pipe(
      z
        .string()
        .regex(
          new RegExp(`^[A-Za-z0-9]{1,${RELEASE_LIMITS.symbol}}$`),
          `symbol must be 1 to ${RELEASE_LIMITS.symbol} letters or digits`,
        ),
    ),
    image: httpsUrlSchema("image").default(""),
    color: colorSchema("color").default("#000000"),
    baseURI: httpsUrlSchema("baseURI").default(""),
    description: paragraphText(RELEASE_LIMITS.description, "description").default(""),
    // prefault: the empty input is parsed, so every parse returns fresh nested objects and arrays.
    links: releaseLinksSchema.prefault({}),
    design: designSchema.prefault({}),
  })
  .strict()
  .meta({ id: "ReleaseDraft" });

export type Card = z.output<typeof cardSchema>;
export type Design = z.output<typeof designSchema>;
export type ReleaseLinks = z.output<typeof releaseLinksSchema>;
export type ReleaseDraft = z.output<typeof releaseDraftSchema>;
export type ReleaseDraftInput = z.input<typeof releaseDraftSchema>;

/** The statuses of a release. */
export const RELEASE_STATUSES = ["draft", "announced", "cancelled", "live"] as const;
export const releaseStatusSchema = z.enum(RELEASE_STATUSES);
export type ReleaseStatus = z.infer<typeof releaseStatusSchema>;

/**
 * Which signed action applies in which status and what status follows.
 * `create` makes a release (status `draft`, revision 1); `delete` removes a
 * draft. Every action on an existing release carries the `revision` it was
 * based on; a stale one is refused with 409, and every accepted action
 * increments `revision` and moves `updatedAt`.
 */
export const RELEASE_TRANSITIONS = {
  edit: { from: ["draft", "announced"], to: null },
  announce: { from: ["draft"], to: "announced" },
  reschedule: { from: ["announced"], to: "announced" },
  cancel: { from: ["announced"], to: "cancelled" },
  link: { from: ["announced"], to: "live" },
  delete: { from: ["draft"], to: null },
} as const satisfies Record<string, { from: readonly ReleaseStatus[]; to: ReleaseStatus | null }>;

/** The state table, as published in the OpenAPI description of `POST /market/releases`. */
export const RELEASE_STATES_DOC = [
  "Release statuses and the signed actions that move them (`revision` starts at 1 and increments on every accepted action; `updatedAt` moves with it):",
  "",
  "| action | from | to | carries |",
  "|---|---|---|---|",
  "| `create` | (none) | `draft` | the draft |",
  "| `edit` | `draft`, `announced` | unchanged | `releaseId`, `revision`, the whole new draft |",
  "| `announce` | `draft` | `announced` | `releaseId`, `revision`, `launchAt` (Unix ms, must be in the future when accepted) |",
  "| `reschedule` | `announced` | `announced` | `releaseId`, `revision`, a new future `launchAt` |",
  "| `cancel` | `announced` | `cancelled` | `releaseId`, `revision` |",
  "| `link` | `announced` | `live` | `releaseId`, `revision`, `version` (runtime id), `dropId` of a drop the indexer has seen in that runtime, created by a wallet of the owner's account |",
  "| `delete` | `draft` | (removed) | `releaseId`, `revision` |",
  "",
  "`cancelled` and `live` are final: nothing changes them. Only `live` says a drop exists onchain; `announced` is an offchain announcement, not proof that a contract launched. Drafts are visible to their owner only; an announced, cancelled or live release is public. A stale `revision` gets 409; an action not allowed in the current status gets 409 too.",
].join("\n");

import { z } from "zod";
import { pageQuerySchema } from "../account/social.ts";
import { integerParam } from "../params/index.ts";
import { releaseCardSchema } from "./release-resource.ts";
import { DESIGN_MASKS, DESIGN_PATTERNS, RELEASE_STATUSES } from "./releases.ts";

/** The release actions that leave a revision behind (`delete` removes the release and its history). */
export const REVISION_ACTIONS = ["create", "edit", "announce", "reschedule", "cancel", "link"] as const;
export type RevisionAction = (typeof REVISION_ACTIONS)[number];

/**
 * Artwork: the visual part of a release, read
 * from its design, and the history of that artwork by release revision.
 */

export const artworkTierSchema = z
  .object({
    tier: z.number().int().min(0).describe("0-based rarity tier: the index in `design.cardsByRarity`."),
    image: z.string().describe('`design.tierImages[tier]`, or "" when the release sets no tier images.'),
    mask: z
      .enum(DESIGN_MASKS)
      .nullable()
      .describe("`design.tierMasks[tier]`, or null when the release sets no tier masks (cards use `mask`)."),
    cards: z.array(releaseCardSchema).describe("The tier's cards, in the release's order."),
  })
  .meta({ id: "ArtworkTier" });

/** The artwork fields of a release, tiers put together from the design's parallel arrays. */
export const artworkSchema = z
  .object({
    image: z.string().describe("The release's `image`."),
    cardImage: z.string().describe("`design.cardImage`: the card back."),
    accent: z.string(),
    pattern: z.enum(DESIGN_PATTERNS),
    mask: z.enum(DESIGN_MASKS),
    strokes: z.array(z.array(z.number().int())),
    tiers: z.array(artworkTierSchema),
  })
  .meta({ id: "Artwork" });

export const releaseArtworkSchema = z
  .object({
    releaseId: z.string(),
    revision: z.number().int().min(1).describe("The release revision this artwork is from."),
    updatedAt: z.number().int().describe("Unix milliseconds of that revision."),
    artwork: artworkSchema,
  })
  .meta({
    id: "ReleaseArtwork",
    examples: [
      {
        releaseId: "rel_0123456789abcdef0123",
        revision: 3,
        updatedAt: 1_790_000_000_000,
        artwork: {
          image: "https://img.example/owls.png",
          cardImage: "https://img.example/back.png",
          accent: "#112233",
          pattern: "solid",
          mask: "full",
          strokes: [],
          tiers: [
            {
              tier: 0,
              image: "",
              mask: null,
              cards: [
                {
                  id: "owl-1",
                  name: "Barn owl",
                  description: "",
                  image: "https://img.example/owl-1.png",
                  attributes: [],
                  mask: "full",
                  firstEditionImage: "",
                },
              ],
            },
          ],
        },
      },
    ],
  });

/** The artwork fields a revision may change, named as in the Release resource. */
export const ARTWORK_FIELDS = [
  "image",
  "design.cardImage",
  "design.accent",
  "design.pattern",
  "design.mask",
  "design.strokes",
  "design.tierImages",
  "design.tierMasks",
  "design.cardsByRarity",
] as const;

export const artworkChangesSchema = z
  .object({
    fields: z
      .array(z.enum(ARTWORK_FIELDS))
      .describe(
        "Artwork fields whose value differs from the previous revision, in the order of `ARTWORK_FIELDS`; at revision 1, every field that is not empty. `design.cardsByRarity` is listed when any card or the tier layout changed.",
      ),
    cardsAdded: z.array(z.string()).describe("Ids of cards new in this revision."),
    cardsRemoved: z.array(z.string()).describe("Ids of cards gone in this revision."),
    cardsChanged: z
      .array(z.string())
      .describe("Ids of cards kept with another tier or any other field (name, images, attributes…)."),
  })
  .meta({ id: "ArtworkChanges" });

export const artworkRevisionSchema = z
  .object({
    revision: z.number().int().min(1),
    updatedAt: z.number().int().describe("Unix milliseconds of the action that made this revision."),
    action: z
      .enum(REVISION_ACTIONS)
      .nullable()
      .describe(
        "The release action that made this revision; null for a revision recorded when history began (releases older than it).",
      ),
    status: z.enum(RELEASE_STATUSES).describe("The release's status after the action."),
    changes: artworkChangesSchema,
    artwork: artworkSchema.describe("The artwork as it was at this revision."),
  })
  .meta({ id: "ArtworkRevision" });

export const artworkHistorySchema = z
  .object({
    releaseId: z.string(),
    revisions: z.array(artworkRevisionSchema).describe("Newest revision first."),
    next: z
      .string()
      .nullable()
      .describe("Opaque cursor of the next page (pass it as `cursor`); null on the last page."),
  })
  .meta({ id: "ArtworkHistory" });

export const artworkHistoryQuerySchema = pageQuerySchema.extend({
  limit: integerParam("limit", { min: 1, max: 50, default: 20 }).describe(
    "Revisions per page, 1 to 50; default 20 (each carries the artwork of its revision).",
  ),
  changed: z
    .enum(["artwork", "any"])
    .default("any")
    .describe(
      "`artwork`: only revisions that changed an artwork field (`changes.fields` not empty); `any` (default): every revision.",
    ),
});

export type Artwork = z.output<typeof artworkSchema>;
export type ArtworkTier = z.output<typeof artworkTierSchema>;
export type ReleaseArtwork = z.output<typeof releaseArtworkSchema>;
export type ArtworkChanges = z.output<typeof artworkChangesSchema>;
export type ArtworkRevision = z.output<typeof artworkRevisionSchema>;
export type ArtworkHistory = z.output<typeof artworkHistorySchema>;
export type ArtworkHistoryQuery = Partial<z.input<typeof artworkHistoryQuerySchema>>;

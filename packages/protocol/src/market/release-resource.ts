import { z } from "zod";
import { PROFILE_LIMITS } from "../account/profile.ts";
import { integerParam } from "../params/index.ts";
import { DESIGN_MASKS, DESIGN_PATTERNS, RELEASE_STATUSES, releaseIdSchema } from "./releases.ts";

/**
 * The Release resource as the server answers it:
 * the draft fields the creator signed, plus what the server keeps. Plain
 * output schemas (no transforms): the values were normalised when the
 * action was parsed, so these only describe them.
 */

/** A card as the server answers it (every field present). */
export const releaseCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  image: z.string(),
  attributes: z.array(z.object({ trait_type: z.string(), value: z.string() })),
  mask: z.enum(DESIGN_MASKS),
  firstEditionImage: z.string(),
});

export const releaseSchema = z
  .object({
    id: z.string().describe("Assigned by the server at `create` (`rel_` + 24 characters)."),
    owner: z
      .string()
      .describe(
        "The primary wallet (lowercase) of the owner's account: the account of the wallet that signed `create`.",
      ),
    status: z.enum(RELEASE_STATUSES),
    revision: z.number().int().min(1).describe("1 at creation; +1 on every accepted action."),
    updatedAt: z.number().int().describe("Unix milliseconds of the last accepted action."),
    launchAt: z
      .number()
      .int()
      .min(1)
      .nullable()
      .describe("Unix milliseconds, set by `announce` and `reschedule`; null for a draft never announced."),
    version: z.string().nullable().describe("The runtime id of the linked drop (`live` only), else null."),
    dropId: z
      .string()
      .nullable()
      .describe("The linked drop id as a decimal string (`live` only), else null."),
    name: z.string(),
    symbol: z.string(),
    image: z.string(),
    color: z.string(),
    baseURI: z.string(),
    description: z.string(),
    links: z.object({ website: z.string(), x: z.string(), telegram: z.string() }),
    design: z.object({
      accent: z.string(),
      pattern: z.enum(DESIGN_PATTERNS),
      mask: z.enum(DESIGN_MASKS),
      cardsByRarity: z
        .array(z.array(releaseCardSchema))
        .describe("One inner array per rarity tier; `[]` in a list summary (`cardsOmitted: true`)."),
      strokes: z.array(z.array(z.number().int())),
      tierImages: z.array(z.string()),
      cardImage: z.string(),
      tierMasks: z.array(z.enum(DESIGN_MASKS)),
    }),
    cardsOmitted: z
      .boolean()
      .describe(
        "True in list summaries, whose `design.cardsByRarity` is empty; read the release by id for its cards before an edit.",
      ),
  })
  .meta({ id: "Release" });

export type Release = z.infer<typeof releaseSchema>;

export const releaseListSchema = z
  .object({
    releases: z.array(releaseSchema).describe("Summaries (`cardsOmitted: true`), last changed first."),
    wishlist: z
      .array(z.string())
      .describe(
        `Ids of the releases on the signed-in caller's wishlist, oldest wish first, the same on every page (at most ${PROFILE_LIMITS.wishlist}); \`[]\` for an anonymous caller.`,
      ),
    wishedReleases: z
      .array(releaseSchema)
      .describe(
        "A summary (`cardsOmitted: true`) of each release of `wishlist`, in the same order; `[]` for an anonymous caller.",
      ),
    more: z.boolean().describe("Whether releases follow this page."),
    artworkHash: z
      .string()
      .describe(
        "SHA-256 (hex) over the ids and artwork URLs (image, design.cardImage, tierImages, every card's image and firstEditionImage) of the listed releases, in list order: it changes exactly when the listed artwork changes.",
      ),
  })
  .meta({ id: "ReleaseList" });

export type ReleaseList = z.infer<typeof releaseListSchema>;

/** Releases per page of `GET /market/releases`. */
export const RELEASE_PAGE_SIZE = 50;

/** The one integer query parameter of `GET /market/releases` (its limits allow 0 to 10000). */
export const releaseListQuerySchema = z.object({
  offset: integerParam("offset", {
    min: 0,
    max: 10_000,
    default: 0,
    rangeMessage: "offset is 0 to 10000",
  }).describe(
    `How many releases of the list to skip (0 to 10000); a page holds ${RELEASE_PAGE_SIZE}. The next page starts at offset + ${RELEASE_PAGE_SIZE} while \`more\` is true.`,
  ),
});

export const releaseParamsSchema = z.object({ releaseId: releaseIdSchema });

/** `GET /market/account/releases`: the caller's account's releases of every status, drafts included. */
export const ownReleaseListSchema = z
  .object({
    releases: z
      .array(releaseSchema)
      .describe("Complete releases (`cardsOmitted: false`) of every status, last changed first."),
    next: z
      .string()
      .nullable()
      .describe("Opaque cursor of the next page (pass it as `cursor`); null on the last page."),
  })
  .meta({ id: "OwnReleaseList" });

export type OwnReleaseList = z.infer<typeof ownReleaseListSchema>;

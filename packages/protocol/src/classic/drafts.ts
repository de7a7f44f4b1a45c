import { z } from "zod";
import { CLASSIC_RARITY_NAMES, classicPaginationSchema, classicQuery, isoDateTime } from "./common.ts";

/**
 * The Classic creator workflow (docs/classic.md, Creator workflow): drafts,
 * their allowlists, the confirmation of a deployment and later metadata
 * revisions. Limits are exported so clients can check before sending.
 */

/** A draft id: 24 hex digits (the server makes them random and lowercase; any case is accepted). */
export const CLASSIC_DRAFT_ID = /^[a-fA-F0-9]{24}$/;
/** The largest draft autosave body, in bytes (413 above). */
export const CLASSIC_DRAFT_MAX_BODY_BYTES = 512 * 1024;
/** Cards in a draft or a revision. */
export const CLASSIC_DRAFT_MAX_CARDS = 1000;
/** Unconfirmed drafts an account's wallets may hold together (409 `DRAFT_LIMIT` beyond). */
export const CLASSIC_DRAFTS_PER_ACCOUNT = 50;
/**
 * Bytes the unconfirmed drafts of an account's wallets may take together,
 * content and allowlists: 16 MiB. Counted as stored (the UTF-8 text of the
 * JSON the server keeps, after defaults are filled and allowlist duplicates
 * collapsed, close to the size of the JSON sent). A save or allowlist
 * replacement that grows the total beyond it is 409 `DRAFT_STORAGE_LIMIT`.
 */
export const CLASSIC_DRAFT_MAX_ACCOUNT_BYTES = 16 * 1024 * 1024;
/** Allowlist entries of one draft (400 above). */
export const CLASSIC_ALLOWLIST_MAX_ENTRIES = 10_000;
/** Page size of the draft list. */
export const CLASSIC_DRAFTS_MAX_LIMIT = 50;
/** The Merkle root of a drop without an allowlist. */
export const CLASSIC_ZERO_ROOT = `0x${"0".repeat(64)}`;
/** Rarity odds of a new draft, Common..Mythic in basis points (the factory's default split). */
export const CLASSIC_DEFAULT_ODDS_BPS = [6000, 2500, 1000, 400, 100] as const;

/**
 * Creator slugs: lowercase letters, digits and single inner `-`, 3 to 80
 * characters, never ending in `-<digits>` (that form is the default slugs')
 * and never a reserved word (`draft`: `/metadata/draft` is the draft routes').
 */
export const CLASSIC_CREATOR_SLUG = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,79}$/;
export const CLASSIC_RESERVED_SLUGS = ["draft"] as const;
export const isCreatorSlug = (slug: string) =>
  CLASSIC_CREATOR_SLUG.test(slug) &&
  !/-\d+$/.test(slug) &&
  !(CLASSIC_RESERVED_SLUGS as readonly string[]).includes(slug);

const address = (name: string) => classicQuery.address(name);
const draftId = z
  .string()
  .regex(CLASSIC_DRAFT_ID, "draftId must be 24 hex digits")
  .transform((value) => value.toLowerCase())
  .describe("Draft id, 24 hex digits.");
const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);

/**
 * Creator URLs: a game's website, links and images, a card's images and
 * external link, an allowlist entry's profile image. They reach the public,
 * keyless token and contract JSON that marketplaces and wallets render, so
 * they are web URLs only: `https://` (or `http://`, which the server accepts
 * only while its classic chain is a dev chain), any letter case, then at
 * least one character, none of them whitespace or an ASCII control
 * character. Browsers strip leading spaces and controls and drop tabs and
 * newlines anywhere before reading the scheme, so refusing those characters
 * everywhere is what makes the written scheme the one a browser sees
 * (` javascript:…`, `java\tscript:…`). The empty string means "none".
 * Non-ASCII characters are allowed as they are (percent-encoding is not required).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const CLASSIC_CREATOR_URL = /^(?:|[hH][tT][tT][pP][sS]?:\/\/[^\x00-\x20\x7f]+)$/;
/** Longest image, website and external-link URL; the game's `links` take at most 512 characters each. */
export const CLASSIC_CREATOR_URL_MAX = 2048;
export const CLASSIC_CREATOR_LINK_MAX = 512;
const CREATOR_URL_RULE =
  "must be an https:// URL (http:// only on a dev chain) without whitespace or control characters, or empty";
/** Whether `value` is an acceptable creator URL (the empty string included). */
export const isClassicCreatorUrl = (value: string) => CLASSIC_CREATOR_URL.test(value);
/** Whether a creator URL is plain `http://`: a server on a production chain refuses it. */
export const isPlainHttpUrl = (value: string) => /^http:/i.test(value);

/** The one schema of every creator URL field; `max` its length limit. */
export const classicCreatorUrlString = (max: number) =>
  z.string().max(max).regex(CLASSIC_CREATOR_URL, CREATOR_URL_RULE);
/** A creator URL field that may be absent (null; `""` is kept and means the same). */
const url = classicCreatorUrlString(CLASSIC_CREATOR_URL_MAX).nullable().default(null);
/** One of a game's `links`: a creator URL, `""` for none. */
const link = classicCreatorUrlString(CLASSIC_CREATOR_LINK_MAX).default("");

/** Every creator URL field, by where it lives: the server's checks iterate these (migration 0029 names the same). */
export const CLASSIC_CREATOR_URL_FIELDS = {
  game: ["imageUrl", "websiteUrl", "featuredImageUrl", "packImage"],
  gameLinks: ["twitter", "website", "discord"],
  card: ["imageUrl", "unopenedImageUrl", "firstEditionImageUrl", "externalLink"],
  allowlistEntry: ["profileImage"],
} as const;

type UrlFields = { readonly [field: string]: unknown };
/**
 * Every non-empty creator URL of a draft's or revision's content and of
 * allowlist entries, with its field path (`game.websiteUrl`,
 * `cards[2].imageUrl`, `entries[0].profileImage`).
 */
export function classicCreatorUrls(content: {
  game?: UrlFields;
  cards?: readonly UrlFields[];
  entries?: readonly UrlFields[];
}): { field: string; url: string }[] {
  const found: { field: string; url: string }[] = [];
  const collect = (prefix: string, item: UrlFields | undefined, fields: readonly string[]) => {
    for (const field of fields) {
      const value = item?.[field];
      if (typeof value === "string" && value !== "") found.push({ field: `${prefix}${field}`, url: value });
    }
  };
  collect("game.", content.game, CLASSIC_CREATOR_URL_FIELDS.game);
  const links = content.game?.["links"];
  collect(
    "game.links.",
    typeof links === "object" && links !== null ? (links as UrlFields) : undefined,
    CLASSIC_CREATOR_URL_FIELDS.gameLinks,
  );
  for (const [index, card] of (content.cards ?? []).entries())
    collect(`cards[${index}].`, card, CLASSIC_CREATOR_URL_FIELDS.card);
  for (const [index, entry] of (content.entries ?? []).entries())
    collect(`entries[${index}].`, entry, CLASSIC_CREATOR_URL_FIELDS.allowlistEntry);
  return found;
}

/** A game's offchain fields (the same as a published revision's `game`). */
export const classicGameMetadataInputSchema = z
  .object({
    description: z.string().max(5000).default(""),
    imageUrl: url,
    websiteUrl: url,
    featuredImageUrl: url,
    packImage: url,
    bgColor: z.string().max(32).default("#111827"),
    links: z
      .object({
        twitter: link,
        website: link,
        discord: link,
      })
      .default({ twitter: "", website: "", discord: "" }),
    isNSFW: z.boolean().default(false),
    disableFoil: z.boolean().default(false),
    disableWear: z.boolean().default(false),
  })
  .meta({ id: "ClassicGameMetadataInput" });
export type ClassicGameMetadataInput = z.input<typeof classicGameMetadataInputSchema>;

/**
 * One card (the same as a published revision's card): it covers card ids
 * `startId..endId` and has one rarity (1 Common … 5 Mythic).
 */
export const classicCardInputSchema = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(5000).default(""),
    imageUrl: url,
    unopenedImageUrl: url,
    firstEditionImageUrl: url,
    externalLink: url,
    rarity: z.number().int().min(1).max(5),
    startId: z.number().int().min(1).max(1_000_000),
    endId: z.number().int().min(1).max(1_000_000),
    traits: z
      .array(z.object({ key: z.string().max(100), value: z.string().max(500) }))
      .max(50)
      .default([]),
    bgColor: z.string().max(32).nullable().default(null),
  })
  .meta({ id: "ClassicCardInput" });
export type ClassicCardInput = z.input<typeof classicCardInputSchema>;

const packAmount = z
  .number()
  .int()
  .min(0)
  .max(1_000_000)
  .nullable()
  .describe(
    "Packs the creator means to buy at creation (the live service's `packAmount`): the `packAmount` of `DropFactory.createDropWithExtensions` / `createDropWithConfig`, which buy them for the caller in the creation transaction. Kept on the draft for the creator's tooling; confirm does not check it. Null when not stated.",
  );

const oddsBps = z
  .array(z.number().int().min(0).max(10_000))
  .length(5)
  .refine((odds) => odds.reduce((sum, value) => sum + value, 0) === 10_000, "oddsBps must sum to 10000")
  .describe("Rarity odds in basis points, Common..Mythic, summing to 10000 (the factory's rule).");

/** `POST /classic/metadata/draft/poll`: create (no `draftId`) or autosave a draft. */
export const classicDraftPollRequestSchema = z
  .object({
    draftId: draftId.optional().describe("The draft to autosave; absent creates a draft."),
    revision: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .describe(
        "Client-incremented save counter: a save applies only when greater than the stored revision.",
      ),
    creator: address("creator").describe("The wallet that will deploy: one linked to the signed-in account."),
    tokenName: z.string().max(100).default(""),
    tokenSymbol: z.string().max(20).default(""),
    nftName: z.string().max(100).default(""),
    nftSymbol: z.string().max(20).default(""),
    slug: z
      .string()
      .refine(isCreatorSlug, "slug: 3 to 80 of a-z, 0-9 and inner -, not ending in -<digits>, not `draft`")
      .nullable()
      .default(null)
      .describe("The creator slug the game gets when confirmed; null keeps the default slug."),
    game: classicGameMetadataInputSchema.default(classicGameMetadataInputSchema.parse({})),
    cards: z.array(classicCardInputSchema).max(CLASSIC_DRAFT_MAX_CARDS).default([]),
    oddsBps: oddsBps.default([...CLASSIC_DEFAULT_ODDS_BPS]),
    packAmount: packAmount.default(null),
  })
  .strict();
export type ClassicDraftPollRequest = z.input<typeof classicDraftPollRequestSchema>;

export const classicDraftWhitelistStateSchema = z
  .object({
    whitelistEnabled: z.boolean(),
    merkleRoot: hex32.describe(
      "The root a deployment must carry: the entries' root when enabled, the zero root when disabled.",
    ),
    entriesCount: z.number().int().min(0),
    finalizedAt: isoDateTime("When finalize last rebuilt the tree; null since the last change.").nullable(),
  })
  .meta({ id: "ClassicDraftWhitelistState" });

export const classicDraftDeploymentSchema = z
  .object({
    txHash: hex32,
    contractAddress: z.string(),
    tokenAddress: z.string(),
    gameId: z.string(),
    merkleRoot: hex32,
    confirmedAt: isoDateTime("When the deployment was confirmed."),
    version: z
      .number()
      .int()
      .nullable()
      .describe("The metadata revision confirm published; null while the game awaits indexing."),
  })
  .meta({ id: "ClassicDraftDeployment" });

const draftFields = {
  draftId: z.string().regex(/^[a-f0-9]{24}$/),
  chainId: z.number().int(),
  revision: z.number().int().min(1),
  status: z.enum(["draft", "confirmed"]).describe("`confirmed` once a deployment is attached: read-only."),
  creator: z.string(),
  tokenName: z.string(),
  tokenSymbol: z.string(),
  nftName: z.string(),
  nftSymbol: z.string(),
  slug: z.string().nullable(),
  oddsBps: z.array(z.number().int()),
  packAmount: packAmount,
  whitelist: classicDraftWhitelistStateSchema,
  deployment: classicDraftDeploymentSchema.nullable(),
  createdAt: isoDateTime("Created."),
  updatedAt: isoDateTime("Last changed."),
};

/** A draft record (the Classic document does not show one: this shape is ours). */
export const classicDraftSchema = z
  .object({
    ...draftFields,
    game: classicGameMetadataInputSchema,
    cards: z.array(classicCardInputSchema),
  })
  .meta({ id: "ClassicDraft" });
export type ClassicDraft = z.output<typeof classicDraftSchema>;

/** A draft in the list: without its game fields and cards. */
export const classicDraftSummarySchema = z
  .object({ ...draftFields, cardsCount: z.number().int().min(0) })
  .meta({ id: "ClassicDraftSummary" });
export type ClassicDraftSummary = z.output<typeof classicDraftSummarySchema>;

export const classicDraftPollSchema = z
  .object({
    success: z.literal(true),
    applied: z
      .boolean()
      .describe(
        "Whether this save changed the draft: false when its revision is not greater than the stored one (the stored draft is answered).",
      ),
    draft: classicDraftSchema,
  })
  .meta({ id: "ClassicDraftPoll" });
export type ClassicDraftPoll = z.output<typeof classicDraftPollSchema>;

export const classicDraftResponseSchema = z
  .object({ success: z.literal(true), draft: classicDraftSchema })
  .meta({ id: "ClassicDraftResponse" });
export type ClassicDraftResponse = z.output<typeof classicDraftResponseSchema>;

export const classicDraftListQuerySchema = z.object({
  page: classicQuery.page,
  limit: classicQuery.limit(20, CLASSIC_DRAFTS_MAX_LIMIT),
});

export const classicDraftListSchema = z
  .object({
    success: z.literal(true),
    drafts: z.array(classicDraftSummarySchema),
    pagination: classicPaginationSchema,
  })
  .meta({ id: "ClassicDraftList" });
export type ClassicDraftList = z.output<typeof classicDraftListSchema>;

export const classicDraftParamsSchema = z.object({ draftId });

export const classicDraftDeletedSchema = z
  .object({ success: z.literal(true), message: z.string(), draftId: z.string() })
  .meta({ id: "ClassicDraftDeleted" });

/** An allowlist entry: only `address` is required. */
export const classicAllowlistEntrySchema = z
  .object({
    address: address("address"),
    userId: z.string().max(128).optional(),
    username: z.string().max(64).optional(),
    profileImage: classicCreatorUrlString(CLASSIC_CREATOR_URL_MAX).optional(),
  })
  .strict()
  .meta({ id: "ClassicAllowlistEntry" });
export type ClassicAllowlistEntry = z.input<typeof classicAllowlistEntrySchema>;

export const classicWhitelistRequestSchema = z
  .object({
    draftId,
    whitelistEnabled: z.boolean(),
    entries: z
      .array(classicAllowlistEntrySchema)
      .max(
        CLASSIC_ALLOWLIST_MAX_ENTRIES,
        `an allowlist holds at most ${CLASSIC_ALLOWLIST_MAX_ENTRIES} entries`,
      ),
  })
  .strict();
export type ClassicWhitelistRequest = z.input<typeof classicWhitelistRequestSchema>;

export const classicWhitelistFinalizeRequestSchema = z.object({ draftId }).strict();

/** The allowlist result of a draft's allowlist routes. */
export const classicAllowlistResultSchema = z
  .object({
    success: z.literal(true),
    message: z.string(),
    whitelistEnabled: z.boolean(),
    merkleRoot: hex32.describe("The root to deploy with: the entries' root, or the zero root when disabled."),
    entriesCount: z.number().int().min(0).describe("Entries stored (duplicates collapsed)."),
    total: z.number().int().min(0).describe("Entries the request carried, duplicates included."),
    alreadyExists: z.boolean().describe("The request named some address more than once."),
  })
  .meta({ id: "ClassicAllowlistResult" });
export type ClassicAllowlistResult = z.output<typeof classicAllowlistResultSchema>;

export const classicProofQuerySchema = z.object({ address: address("address") });

export const classicProofSchema = z
  .object({
    success: z.literal(true),
    address: z.string(),
    whitelistEnabled: z.boolean(),
    merkleRoot: hex32,
    allowlisted: z.boolean(),
    proof: z
      .array(hex32)
      .describe("The `proof` argument of `BoosterDrop.mint`; empty when not listed or disabled."),
  })
  .meta({ id: "ClassicAllowlistProof" });
export type ClassicAllowlistProof = z.output<typeof classicProofSchema>;

export const classicConfirmRequestSchema = z
  .object({
    draftId,
    txHash: z
      .string()
      .regex(/^0x[a-fA-F0-9]{64}$/, "txHash must be a 0x-prefixed 32-byte hash")
      .transform((value) => value.toLowerCase()),
  })
  .strict();

export const classicConfirmSchema = z
  .object({
    success: z.literal(true),
    receiptFound: z.boolean().describe("False: the transaction has no receipt yet; confirm again later."),
    message: z.string(),
    draftId: z.string(),
    txHash: z.string(),
    chainId: z.number().int(),
    contractAddress: z.string().nullable(),
    tokenAddress: z.string().nullable(),
    gameId: z.string().nullable(),
    merkleRoot: hex32.nullable(),
    published: z
      .boolean()
      .describe("The draft's metadata is published; false while the indexer has not seen the game yet."),
    version: z.number().int().nullable(),
  })
  .meta({ id: "ClassicConfirm" });
export type ClassicConfirm = z.output<typeof classicConfirmSchema>;

const instant = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 date-time" })
  .transform((value) => new Date(value));

/** `PUT /classic/metadata/{contractAddress}`: a new metadata revision. */
export const classicRevisionRequestSchema = z
  .object({
    game: classicGameMetadataInputSchema,
    cards: z.array(classicCardInputSchema).min(1).max(CLASSIC_DRAFT_MAX_CARDS),
    effectiveFrom: instant.optional().describe("When the revision takes effect; now when absent."),
    effectiveUntil: instant.optional().describe("When it stops; absent: until a later revision replaces it."),
    version: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("The version this revision must get (latest + 1): 409 `VERSION_CONFLICT` otherwise."),
  })
  .strict();
export type ClassicRevisionRequest = z.input<typeof classicRevisionRequestSchema>;

/**
 * `PUT /metadata/{addressOrSlug}`: named like the reads of the same path (one name per path
 * position, so the paths are one to every OpenAPI generator), but it takes the drop's address only.
 */
export const classicRevisionParamsSchema = z.object({
  addressOrSlug: address("the game's address").describe(
    "The game's drop address (any case); this route takes no slug.",
  ),
});

export const classicRevisionSchema = z
  .object({
    success: z.literal(true),
    chainId: z.number().int(),
    contractAddress: z.string(),
    version: z.number().int().min(1),
    effectiveFrom: isoDateTime("Start of the revision's validity."),
    effectiveUntil: isoDateTime("End of its validity; null while open-ended.").nullable(),
  })
  .meta({ id: "ClassicRevision" });
export type ClassicRevision = z.output<typeof classicRevisionSchema>;

/**
 * Live-compatible creator routes (`POST /classic/generate-slug`,
 * `POST /classic/metadata/draft`): the requests clients of the live Classic
 * service send, translated by the server onto the drafts above.
 */

/** The longest pack name (the live rule: a pack name is at most 18 characters and becomes its slug). */
export const CLASSIC_PACK_NAME_MAX = 18;

/**
 * Rarity odds of a live-compatible draft that states none, Common..Mythic in
 * basis points: the live service's published example (66.53%, 24%, 9%, 0.45%, 0.02%).
 */
export const CLASSIC_LIVE_DEFAULT_ODDS_BPS = [6653, 2400, 900, 45, 2] as const;

const [, ...assignedRarityNames] = CLASSIC_RARITY_NAMES;
/** The rarity words of a live draft's `metadataItems`, Common (code 1) .. Mythic (code 5): the rarity names but NOT_ASSIGNED. */
export const CLASSIC_LIVE_RARITY_WORDS = assignedRarityNames;
export type ClassicLiveRarityWord = (typeof CLASSIC_LIVE_RARITY_WORDS)[number];

/** The suffix of the ticket token's name derived from a live draft's `name`. */
export const CLASSIC_LIVE_TOKEN_NAME_SUFFIX = " Tickets";
/** The suffix of the ticket token's symbol derived from a live draft's `symbol`. */
export const CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX = "T";

/**
 * The creator slug a pack name makes, before uniqueness (the metadata store's
 * creator-slug rule, `isCreatorSlug`): accents dropped, lowercase, every run
 * of other characters than a-z and 0-9 one `-`, trimmed of `-`, cut to 60
 * characters; a final `-<digits>` loses its `-` (`pack-2` -> `pack2`: that form
 * is the default slugs'); shorter than 3 characters or a reserved word gets
 * `-pack` (`pack` when nothing is left).
 *
 * @example
 * ```ts
 * classicSlugOfPackName("Tin Robots #2"); // "tin-robots2"
 * ```
 */
export function classicSlugOfPackName(packName: string): string {
  let slug = packName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  while (/-\d+$/.test(slug)) slug = slug.replace(/-(\d+)$/, "$1");
  if (slug === "") return "pack";
  if (slug.length < 3 || !isCreatorSlug(slug)) slug = `${slug}-pack`;
  return slug;
}

/** `POST /classic/generate-slug`. */
export const classicGenerateSlugRequestSchema = z
  .object({
    packName: z
      .string()
      .refine(
        (value) => [...value].length >= 1 && [...value].length <= CLASSIC_PACK_NAME_MAX,
        `packName must be 1 to ${CLASSIC_PACK_NAME_MAX} characters`,
      )
      .refine((value) => value.trim() !== "", "packName must not be blank")
      .describe(`The pack name, 1 to ${CLASSIC_PACK_NAME_MAX} characters (Unicode code points), not blank.`),
  })
  .strict();
export type ClassicGenerateSlugRequest = z.input<typeof classicGenerateSlugRequestSchema>;

export const classicGenerateSlugSchema = z
  .object({
    success: z.literal(true),
    slug: z
      .string()
      .describe(
        "A creator slug free at the time of the answer. Not a reservation: confirm checks again (409 `SLUG_TAKEN`).",
      ),
  })
  .meta({ id: "ClassicGenerateSlug" });
export type ClassicGenerateSlug = z.output<typeof classicGenerateSlugSchema>;

/** A creator link that a live client may send as null: null and absent mean none (`""`). */
const liveLink = classicCreatorUrlString(CLASSIC_CREATOR_LINK_MAX)
  .nullish()
  .transform((value) => value ?? "");
const liveUrl = classicCreatorUrlString(CLASSIC_CREATOR_URL_MAX)
  .nullish()
  .transform((value) => value ?? null);

/** One card of a live draft. */
export const classicLiveMetadataItemSchema = z
  .object({
    name: z.string().min(1).max(200),
    description: z
      .string()
      .max(5000)
      .nullish()
      .transform((value) => value ?? ""),
    imageUrl: liveUrl,
    rarity: z.enum(CLASSIC_LIVE_RARITY_WORDS, {
      error: `rarity must be one of ${CLASSIC_LIVE_RARITY_WORDS.join(", ")}`,
    }),
    tokenId: z
      .union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,78}$/)], {
        error: "tokenId must be a non-negative integer (a number or decimal digits)",
      })
      .describe("The card's place: cards get card ids 1..N in tokenId order (tokenIds unique in a draft)."),
  })
  .strict()
  .meta({ id: "ClassicLiveMetadataItem" });

/** `POST /classic/metadata/draft`: the live service's draft body. */
export const classicLiveDraftRequestSchema = z
  .object({
    creator: address("creator").describe("The wallet that will deploy: one linked to the signed-in account."),
    owner: address("owner")
      .optional()
      .describe("When given, the creator (any case): the deploying wallet owns the drop (400 otherwise)."),
    name: z
      .string()
      .min(1)
      .max(100 - CLASSIC_LIVE_TOKEN_NAME_SUFFIX.length)
      .describe(
        `The collection's NFT name (\`nftName\`); the ticket token's name is it + "${CLASSIC_LIVE_TOKEN_NAME_SUFFIX}".`,
      ),
    symbol: z
      .string()
      .min(1)
      .max(20 - CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX.length)
      .describe(
        `The NFT symbol (\`nftSymbol\`); the ticket token's symbol is it + "${CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX}".`,
      ),
    description: z
      .string()
      .max(5000)
      .nullish()
      .transform((value) => value ?? ""),
    slug: z
      .string()
      .refine(isCreatorSlug, "slug: 3 to 80 of a-z, 0-9 and inner -, not ending in -<digits>, not `draft`")
      .nullish()
      .transform((value) => value ?? null)
      .describe(
        "The creator slug (from `POST /classic/generate-slug`); absent or null keeps the default slug.",
      ),
    featuredImageUrl: liveUrl.describe("The collection image: the game's `imageUrl` and `featuredImageUrl`."),
    metadataItems: z
      .array(classicLiveMetadataItemSchema)
      .max(CLASSIC_DRAFT_MAX_CARDS)
      .default([])
      .describe("The cards; confirm needs every rarity at least once."),
    bgColor: z
      .string()
      .max(32)
      .nullish()
      .transform((value) => value ?? "#111827"),
    disableFoil: z.boolean().default(false),
    disableWear: z.boolean().default(false),
    isNSFW: z.boolean().default(false),
    twitterLink: liveLink.describe("The game's `links.twitter`."),
    websiteLink: liveLink.describe("The game's `links.website` and `websiteUrl`."),
    packAmount: packAmount.optional().transform((value) => value ?? null),
    oddsBps: oddsBps
      .optional()
      .describe(
        `Not in the live body (an mkt extension): the rarity odds; default ${CLASSIC_LIVE_DEFAULT_ODDS_BPS.join("/")}, the live service's published example.`,
      ),
  })
  .strict();
export type ClassicLiveDraftRequest = z.input<typeof classicLiveDraftRequestSchema>;

/** A card of a live draft's answer. */
export const classicLiveCardDraftSchema = z
  .object({
    cardId: z.number().int().min(1).describe("The card id this item got (1..N in tokenId order)."),
    tokenId: z.string().describe("The item's tokenId as sent, in decimal digits."),
    name: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    rarity: z.enum(CLASSIC_LIVE_RARITY_WORDS),
    rarityCode: z.number().int().min(1).max(5),
  })
  .meta({ id: "ClassicLiveCardDraft" });

/**
 * What `DropFactory.createDropWithExtensions` must be given for confirm to accept the deployment: the
 * names and symbols, and `merkleRoot` and `oddsBps` as its `extensions` (`createDropWithConfig` deploys
 * the zero root and the default odds). The field keeps the name of the retired `createGame` call.
 */
export const classicCreateGameParamsSchema = z
  .object({
    chainId: z.number().int(),
    factory: z
      .string()
      .nullable()
      .describe(
        "The drop factory confirm accepts deployments from; null when this server has no classic chain.",
      ),
    nftName: z.string(),
    nftSymbol: z.string(),
    tokenName: z.string(),
    tokenSymbol: z.string(),
    merkleRoot: hex32.describe("The draft's allowlist root; the zero root without an allowlist."),
    oddsBps: z.array(z.number().int()).describe("Common..Mythic, basis points."),
  })
  .describe(
    "The arguments of `DropFactory.createDropWithExtensions` confirm checks: the names and symbols, and `merkleRoot` and `oddsBps` as its extensions (the rest, `packAmount`, the config's `baseURI`, `tokensPerMint` and offers, the curve's reserves, `graduationEth` and `firstTokenId`, are the creator's choice). Deploy from `creator`.",
  )
  .meta({ id: "ClassicCreateGameParams" });
export type ClassicCreateGameParams = z.output<typeof classicCreateGameParamsSchema>;

export const classicLiveDraftSchema = z
  .object({
    success: z.literal(true),
    draftId: z
      .string()
      .regex(/^[a-f0-9]{24}$/)
      .describe("The draft id (24 lowercase hex) for confirm."),
    drafts: z.array(classicLiveCardDraftSchema),
    draftGame: z
      .object({
        id: z.string().describe("The draft id."),
        slug: z.string().nullable(),
        name: z.string(),
        symbol: z.string(),
        creator: z.string(),
        status: z.enum(["draft", "confirmed"]),
        packAmount: z.number().int().nullable(),
      })
      .meta({ id: "ClassicLiveDraftGame" }),
    createGame: classicCreateGameParamsSchema,
    draft: classicDraftSchema,
  })
  .meta({ id: "ClassicLiveDraft" });
export type ClassicLiveDraft = z.output<typeof classicLiveDraftSchema>;

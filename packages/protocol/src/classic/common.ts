import { z } from "zod";
import { integerParam } from "../params/index.ts";

/**
 * Shared pieces of the Classic API's wire shapes (docs/classic.md, Reads).
 *
 * Exact identifiers: a token id is a uint256. Where the document says
 * "integer" (`tokenId`, `startTokenId`, …) the server writes an exact JSON
 * integer of any size (never rounded through a JavaScript number), and every
 * such field has a decimal-string twin named `<field>String` (`tokenIdString`)
 * for clients whose JSON parser keeps only 53 bits. In server code the value
 * is a `bigint`; `exactInteger` is its schema (JSON Schema `type: integer`).
 */
export const exactInteger = (description: string) =>
  z.bigint().meta({ type: "integer", minimum: 0, description });

export const decimalString = (description: string) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,77})$/)
    .describe(description);

export const weiString = (description: string) => decimalString(`${description} Wei, as a decimal string.`);

export const addressString = (description: string) =>
  z
    .string()
    .regex(/^0x[0-9a-f]{40}$/)
    .describe(`${description} (lowercase 0x-prefixed 20-byte address).`);

/** The live service's dollar format of every `…Usd` field: `$`, thousands separators, two decimals. */
export const CLASSIC_USD_FORMAT = /^\$\d{1,3}(,\d{3})*\.\d{2}$/;

/**
 * A `…Usd` field: an amount in US dollars at the ETH/USD price of the
 * answer, written as the live service writes it (`"$0.73"`, `"$4,743.63"`:
 * `$`, thousands separated by commas, two decimals, rounded down to the cent).
 */
export const classicUsdString = (of: string) =>
  z
    .string()
    .regex(CLASSIC_USD_FORMAT)
    .describe(
      `${of} in US dollars at the current ETH/USD price, as the live service writes it: \`$\`, thousands separated by commas, two decimals, rounded down to the cent (\`"$4,743.63"\`).`,
    );

export const txHashString = (description: string) =>
  z
    .string()
    .regex(/^0x[0-9a-f]{64}$/)
    .describe(`${description} (0x-prefixed 32-byte hash).`);

export const isoDateTime = (description: string) =>
  z.string().describe(`${description} ISO 8601 date-time (UTC).`);

/** Rarity codes: 0 not assigned, 1 Common … 5 Mythic. */
export const CLASSIC_RARITY_NAMES = [
  "NOT_ASSIGNED",
  "Common",
  "Rare",
  "Epic",
  "Legendary",
  "Mythic",
] as const;
export type ClassicRarityName = (typeof CLASSIC_RARITY_NAMES)[number];

export const CLASSIC_PACK_STATUSES = ["minted", "rarity_assigned", "opened", "burned"] as const;
/**
 * A pack's lifecycle, as the drop's events move it: `open` requests the randomness and the card is
 * known only when the batch's `RarityAssigned` arrives, in a later block.
 */
export const CLASSIC_PACK_STATUS_LIFECYCLE =
  "The pack's state: `minted` (unopened) -> `opened` (opening requested, its randomness pending: rarity 0, `NOT_ASSIGNED`) -> `rarity_assigned` (its open batch's randomness arrived: the card, rarity, wear and foil are known) -> `burned` (sold back for its offer). A transfer keeps the state.";
export type ClassicPackStatus = (typeof CLASSIC_PACK_STATUSES)[number];

/** The primary chain: the default wherever a chain is optional. */
export const CLASSIC_DEFAULT_CHAIN_ID = 8453;

/** Page-based responses: `page` from 1, `totalPages` 0 when `total` is 0. */
export const classicPaginationSchema = z
  .object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    total: z.number().int().min(0),
    totalPages: z.number().int().min(0),
  })
  .meta({ id: "ClassicPagination" });
export type ClassicPagination = z.infer<typeof classicPaginationSchema>;

/**
 * Stable machine-readable `error` codes of the classic error body. Clients
 * branch on the HTTP status and on these, never on `message`.
 */
export const CLASSIC_ERROR_CODES = {
  validation: "VALIDATION_ERROR",
  /** A page whose last row lies deeper than `CLASSIC_MAX_PAGE_DEPTH` in a list of packs or wallets. */
  pageTooDeep: "PAGE_TOO_DEEP",
  notFound: "NOT_FOUND",
  gameNotFound: "GAME_NOT_FOUND",
  packNotFound: "PACK_NOT_FOUND",
  /** Game chat: a message id not in the game, and an account's posting rate spent. */
  messageNotFound: "MESSAGE_NOT_FOUND",
  chatRateLimited: "CHAT_RATE_LIMITED",
  collectionNotFound: "COLLECTION_NOT_FOUND",
  rateLimited: "RATE_LIMITED",
  priceUnavailable: "PRICE_UNAVAILABLE",
  unavailable: "SERVICE_UNAVAILABLE",
  internal: "INTERNAL_ERROR",
  // Creator workflow (classic/drafts).
  forbidden: "FORBIDDEN",
  draftNotFound: "DRAFT_NOT_FOUND",
  draftConfirmed: "DRAFT_CONFIRMED",
  draftLimit: "DRAFT_LIMIT",
  draftStorageLimit: "DRAFT_STORAGE_LIMIT",
  deploymentMismatch: "DEPLOYMENT_MISMATCH",
  merkleRootMismatch: "MERKLE_ROOT_MISMATCH",
  notAGameDeployment: "NOT_A_GAME_DEPLOYMENT",
  transactionReverted: "TRANSACTION_REVERTED",
  versionConflict: "VERSION_CONFLICT",
  slugTaken: "SLUG_TAKEN",
  // Recovery, reports and refreshes (classic/tools).
  transactionNotFound: "TRANSACTION_NOT_FOUND",
  duplicateReport: "DUPLICATE_REPORT",
  reportLimit: "REPORT_LIMIT",
  refreshLimit: "REFRESH_LIMIT",
  recoveryUnavailable: "RECOVERY_UNAVAILABLE",
  // Creator image uploads (classic/uploads).
  /** Not a still PNG, JPEG or WebP of its declared type, or beyond the pixel limits (400). */
  invalidImage: "INVALID_IMAGE",
  /** A file over the upload's byte limit (413). */
  imageTooLarge: "IMAGE_TOO_LARGE",
  /** The account's uploads per rolling 24 hours spent (429, with Retry-After). */
  uploadLimit: "UPLOAD_LIMIT",
  uploadNotFound: "UPLOAD_NOT_FOUND",
} as const;

/**
 * The deepest row a page of a large list reaches (`page × limit`): the pack
 * lists (`/range`, `/owner/{address}`, `/collection/{ownerAddress}`) and the
 * collectors leaderboard answer a page beyond it with 400 `PAGE_TOO_DEEP`.
 * An offset page costs the rows it skips; up to this depth that stays within
 * the cost of a first page, beyond it each page would cost more than the last.
 * Lists past it are walked with their filters (`/range`: `sortBy=tokenId`
 * with `startTokenId` set past the last token id seen).
 */
export const CLASSIC_MAX_PAGE_DEPTH = 10_000;

/** The `page` text of the lists bounded by `CLASSIC_MAX_PAGE_DEPTH`. */
export const CLASSIC_PAGE_DEPTH_RULE = `\`page × limit\` may be at most ${CLASSIC_MAX_PAGE_DEPTH.toLocaleString("en-US")}: a deeper page is 400 \`PAGE_TOO_DEEP\` (an offset page costs every row it skips).`;

/** Query helpers shared by the classic routes: integers in decimal digits only, strict on range. */
export const classicQuery = {
  chainId: integerParam("chainId", { min: 1, default: CLASSIC_DEFAULT_CHAIN_ID }).describe(
    "Chain id; default 8453 (the primary chain).",
  ),
  page: integerParam("page", { min: 1, max: 1_000_000, default: 1 }).describe("Page number, from 1."),
  /** `page` of a list bounded by `CLASSIC_MAX_PAGE_DEPTH`. */
  boundedPage: integerParam("page", { min: 1, max: 1_000_000, default: 1 }).describe(
    `Page number, from 1. ${CLASSIC_PAGE_DEPTH_RULE}`,
  ),
  limit: (defaultLimit: number, maxLimit: number) =>
    integerParam("limit", { min: 1, max: maxLimit, default: defaultLimit }).describe(
      `Page size, 1 to ${maxLimit}; default ${defaultLimit}.`,
    ),
  boolean: (description: string, defaultValue: boolean) =>
    z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" })
      .default(defaultValue ? "true" : "false")
      .transform((value) => value === "true" || value === "1")
      .describe(`${description} \`true\` or \`false\`; default ${defaultValue}.`),
  optionalBoolean: (description: string) =>
    z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" })
      .optional()
      .transform((value) => (value === undefined ? undefined : value === "true" || value === "1"))
      .describe(`${description} \`true\` or \`false\`; absent = no filter.`),
  address: (name: string) =>
    z
      .string()
      .regex(/^0x[a-fA-F0-9]{40}$/, `${name} must be a 0x-prefixed 20-byte address`)
      .transform((value) => value.toLowerCase()),
};

/**
 * A game's default slug: its NFT name lowercased, every run of characters
 * other than a-z and 0-9 turned into one `-`, trimmed of `-`, cut to 40
 * characters (`game` when nothing is left), then `-<gameId>`, which makes it
 * unique per factory. Creator-chosen slugs (the creator workflow) never end in `-<digits>`.
 */
export function defaultGameSlug(nftName: string, gameId: string | bigint): string {
  const base =
    nftName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/g, "") || "game";
  return `${base}-${gameId}`;
}

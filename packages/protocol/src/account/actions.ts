import { z } from "zod";
import { imageIdSchema, usernameSchema } from "./profile.ts";
import { addressSchema, signedEnvelopeSchema } from "./schemas.ts";

/**
 * The allowlist of `POST /market/account` (docs/market.md, Accounts, sessions and messages): every
 * kind, its family and its body. Anything else is a 400. Kinds in the
 * releases and artwork families touch only the caller's own private state;
 * changes to a release's public content or a pack need a per-action
 * signature (`POST /market/releases`, `POST /market/runtime/{version}/pack-edit`).
 */

/** Size limits, published in the OpenAPI description. */
export const ACCOUNT_LIMITS = {
  dmBody: 2000,
  chatBody: 1000,
  bio: 280,
  reportDetails: 1000,
  /** Decoded image bytes of one upload (the request body limit is 1 MiB). */
  imageBytes: 512 * 1024,
  roomTitle: 80,
  roomDescription: 500,
} as const;

/**
 * Paging of every list the market answers: opaque cursors (the `next` of the
 * previous page), `limit` 1 to 100, newest first unless a list says otherwise.
 */
export const LIST_PAGING = { defaultLimit: 50, maxLimit: 100, maxCursorLength: 500 } as const;

/** The paging fields of a list kind's body. */
const pageFields = {
  cursor: z
    .string()
    .min(1)
    .max(LIST_PAGING.maxCursorLength, `cursor must be at most ${LIST_PAGING.maxCursorLength} characters`)
    .optional()
    .describe("The `next` of the previous page, as returned (opaque). Omit for the first page."),
  limit: z
    .number()
    .int("limit must be an integer")
    .min(1, `limit must be 1 to ${LIST_PAGING.maxLimit}`)
    .max(LIST_PAGING.maxLimit, `limit must be 1 to ${LIST_PAGING.maxLimit}`)
    .default(LIST_PAGING.defaultLimit)
    .describe(`Items per page, 1 to ${LIST_PAGING.maxLimit}; default ${LIST_PAGING.defaultLimit}.`),
};

const text = (max: number, what: string) =>
  z.string().trim().min(1, `${what} must not be empty`).max(max, `${what} must be at most ${max} characters`);

const releaseId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "releaseId must be 1 to 64 letters, digits, - or _");
const draftId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "draftId must be 1 to 64 letters, digits, - or _");
const messageId = z.string().regex(/^[1-9][0-9]{0,18}$/, "must be a message id (decimal string)");
const roomId = z.string().regex(/^room_[a-z0-9]{1,40}$/, "roomId must be a room id (room_…)");
const inviteId = z.string().regex(/^inv_[a-z0-9]{1,40}$/, "inviteId must be an invite id (inv_…)");
const imageUpload = {
  contentType: z.enum(["image/png", "image/jpeg", "image/webp"]),
  data: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, "data must be base64")
    .max(Math.ceil((ACCOUNT_LIMITS.imageBytes * 4) / 3) + 4, "the image is larger than 512 KiB"),
};

const action = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ kind: z.literal(kind), ...shape }).strict();

export const accountActionSchemas = {
  // Releases (private state only)
  "wishlist-add": action("wishlist-add", { releaseId }),
  "wishlist-remove": action("wishlist-remove", { releaseId }),
  "wishlist-list": action("wishlist-list", {}),
  // Artwork edits (uploads to the caller's own drafts)
  "artwork-upload": action("artwork-upload", { draftId, ...imageUpload }),
  "artwork-delete": action("artwork-delete", { artworkId: imageIdSchema }),
  "artwork-list": action("artwork-list", { draftId: draftId.optional() }),
  // Chat
  "room-create": action("room-create", {
    slug: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{1,39}$/, "slug must be 2 to 40 lowercase letters, digits or -"),
    title: text(ACCOUNT_LIMITS.roomTitle, "title"),
    description: z.string().trim().max(ACCOUNT_LIMITS.roomDescription).optional(),
  }),
  "chat-send": action("chat-send", {
    roomId,
    body: text(ACCOUNT_LIMITS.chatBody, "body"),
    replyTo: messageId.optional(),
  }),
  "chat-delete": action("chat-delete", { messageId }),
  // Direct messages
  dm: action("dm", { to: addressSchema, body: text(ACCOUNT_LIMITS.dmBody, "body") }),
  "dm-seen": action("dm-seen", { with: addressSchema, upTo: messageId.optional() }),
  // Follows
  follow: action("follow", { address: addressSchema }),
  unfollow: action("unfollow", { address: addressSchema }),
  // Access and referrals
  "invite-create": action("invite-create", { maxUses: z.number().int().min(1).max(50).default(1) }),
  "invite-list": action("invite-list", pageFields),
  "invite-revoke": action("invite-revoke", { inviteId }),
  "referral-claim": action("referral-claim", {
    code: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "code must be an invite code"),
  }),
  // Profile and social-account connection
  "profile-update": action("profile-update", {
    username: usernameSchema.nullable().optional(),
    bio: z.string().trim().max(ACCOUNT_LIMITS.bio).optional(),
  }),
  "avatar-upload": action("avatar-upload", imageUpload),
  "pfp-pixelate": action("pfp-pixelate", {
    size: z.number().int().min(8).max(64).default(16).describe("Pixels per side of the pixel grid."),
  }),
  "pfp-select": action("pfp-select", { pixelPfpId: imageIdSchema.nullable() }),
  "x-connect": action("x-connect", {
    username: usernameSchema
      .optional()
      .describe("The X account to claim when no OAuth provider is configured (stays unverified)."),
  }),
  "x-disconnect": action("x-disconnect", {}),
  "wallet-link": action("wallet-link", {
    proof: signedEnvelopeSchema.describe(
      "A sign-in message signed by the wallet to add, with the same origin as this session.",
    ),
  }),
  "wallet-unlink": action("wallet-unlink", { address: addressSchema }),
  // Safety settings and reports
  "safety-update": action("safety-update", { dmPolicy: z.enum(["everyone", "following", "nobody"]) }),
  block: action("block", { address: addressSchema }),
  unblock: action("unblock", { address: addressSchema }),
  report: action("report", {
    subject: z
      .object({
        kind: z.enum(["account", "dm-message", "room-message", "room", "release", "artwork"]),
        id: z.string().min(1).max(100),
      })
      .strict(),
    reason: z.enum(["spam", "abuse", "impersonation", "scam", "illegal", "other"]),
    details: z.string().trim().max(ACCOUNT_LIMITS.reportDetails).optional(),
  }),
} as const;

export type AccountActionKind = keyof typeof accountActionSchemas;
export const ACCOUNT_ACTION_KINDS = Object.keys(accountActionSchemas) as AccountActionKind[];

export const ACCOUNT_ACTION_FAMILIES = {
  "wishlist-add": "releases",
  "wishlist-remove": "releases",
  "wishlist-list": "releases",
  "artwork-upload": "artwork",
  "artwork-delete": "artwork",
  "artwork-list": "artwork",
  "room-create": "chat",
  "chat-send": "chat",
  "chat-delete": "chat",
  dm: "dms",
  "dm-seen": "dms",
  follow: "follows",
  unfollow: "follows",
  "invite-create": "access",
  "invite-list": "access",
  "invite-revoke": "access",
  "referral-claim": "access",
  "profile-update": "profile",
  "avatar-upload": "profile",
  "pfp-pixelate": "profile",
  "pfp-select": "profile",
  "x-connect": "profile",
  "x-disconnect": "profile",
  "wallet-link": "profile",
  "wallet-unlink": "profile",
  "safety-update": "safety",
  block: "safety",
  unblock: "safety",
  report: "safety",
} as const satisfies Record<AccountActionKind, string>;

export type AccountActionFamily = (typeof ACCOUNT_ACTION_FAMILIES)[AccountActionKind];

/**
 * What `POST /market/account` checks before the kind's own schema (in
 * `accountActionSchemas`), so that a 400 names the offending field of that
 * kind rather than every branch of the union. Documented as `accountActionSchema`.
 */
export const accountActionEnvelopeSchema = z.looseObject({ kind: z.string() });

export const accountActionSchema = z
  .discriminatedUnion(
    "kind",
    Object.values(accountActionSchemas) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .meta({ id: "AccountAction" });

export type AccountAction = {
  [K in AccountActionKind]: z.output<(typeof accountActionSchemas)[K]>;
}[AccountActionKind];
/** The body of one kind, as a client sends it (defaults not yet applied). */
export type AccountActionInputOf<K extends AccountActionKind> = z.input<(typeof accountActionSchemas)[K]>;
export type AccountActionInput = {
  [K in AccountActionKind]: z.input<(typeof accountActionSchemas)[K]>;
}[AccountActionKind];

import { z } from "zod";
import { addressSchema } from "./schemas.ts";

/**
 * Profiles on the wire: the shared profile and its lookup, the public image
 * route, the X connection callback and the operator's profile routes.
 */

/** Limits of the profile area, published in the descriptions of its kinds and routes. */
export const PROFILE_LIMITS = {
  /** Pixel pfps kept per account; the oldest unselected one goes when a new one is made. */
  pixelPfps: 12,
  /** A job 'processing' longer than this lost its worker and is queued again. */
  pixelJobStaleMs: 2 * 60_000,
  /** Claims of one job before it is marked failed. */
  pixelJobAttempts: 3,
  /**
   * Release ids on one wishlist (409 beyond). Every signed-in answer of
   * `GET /market/releases` carries the whole list with a summary of each.
   */
  wishlist: 100,
  /** Artwork images one account may hold across its drafts. */
  artworks: 200,
  /** Invites of one account that are neither revoked nor used up. */
  liveInvites: 20,
  /** Lifetime of an X OAuth state. */
  oauthStateMs: 10 * 60_000,
} as const;

/**
 * An X username, the rule mkt usernames follow too: 1 to 15 letters, digits
 * or underscores. Matched case-insensitively wherever names are compared.
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{1,15}$/;
export const usernameSchema = z
  .string()
  .regex(USERNAME_PATTERN, "username must be 1 to 15 letters, digits or underscores");

/** An image id (`img_…`): avatars, pixel pfps and artwork uploads. */
export const imageIdSchema = z.string().regex(/^img_[a-z0-9]{1,40}$/, "must be an image id (img_…)");

/** `pfpStatus`: the state of the account's avatar. */
export const PFP_STATUSES = ["idle", "ready", "failed"] as const;
export type PfpStatus = (typeof PFP_STATUSES)[number];

/** `pixelPfpStatus`: the state of the pixel pfp job. */
export const PIXEL_PFP_STATUSES = ["idle", "queued", "processing", "ready", "failed"] as const;
export type PixelPfpStatus = (typeof PIXEL_PFP_STATUSES)[number];

export const PFP_STATES_DOC = `\`pfpStatus\`, the avatar (\`avatar-upload\`):
- \`idle\`: no avatar yet;
- \`ready\`: the avatar is stored (a 256×256 PNG) and \`avatarUrl\` serves it;
- \`failed\`: the latest upload passed the type check but its pixel data could not be decoded; \`avatarUrl\` still serves the previous avatar, if any.

\`pixelPfpStatus\`, the pixel pfp job (\`pfp-pixelate\`):
- \`idle\`: never asked for;
- \`queued\`: asked for, waiting for a worker (\`pfp-pixelate\` answers 409 in this state and the next);
- \`processing\`: a worker is pixelating the avatar (a job whose worker stops is queued again after ${PROFILE_LIMITS.pixelJobStaleMs / 60_000} minutes, at most ${PROFILE_LIMITS.pixelJobAttempts} claims in all);
- \`ready\`: the newest pixel pfp is appended to \`pixelPfps\` and selected as \`pixelPfpUrl\`;
- \`failed\`: the job failed (the avatar was removed or could not be processed); ask again with \`pfp-pixelate\`.`;

const url = z.string().describe('Absolute URL of a public image under PUBLIC_URL, or "" when there is none.');

export const pixelPfpSchema = z
  .object({
    id: z.string().describe("Image id (img_…)."),
    url,
    createdAt: z.string().describe("ISO 8601 time the pixel pfp was made."),
  })
  .meta({ id: "PixelPfp" });

/** The shared profile, one per account across the APIs. Strings are never null: "" where absent. */
export const sharedProfileSchema = z
  .object({
    address: z.string().describe("The account's primary wallet, lowercase."),
    username: z.string().describe('The account\'s username, or "".'),
    avatarUrl: url,
    xUsername: z.string().describe('The connected X username, or "".'),
    xAvatarUrl: z.string().describe('The X profile image URL reported by X through OAuth, or "".'),
    xVerified: z.boolean().describe("True only after X OAuth or the operator verified the connection."),
    pfpStatus: z.enum(PFP_STATUSES),
    pixelPfps: z
      .array(pixelPfpSchema)
      .describe(`The account's pixel pfps, oldest first (at most ${PROFILE_LIMITS.pixelPfps}).`),
    pixelPfpUrl: z.string().describe('The selected pixel pfp\'s URL, or "".'),
    pixelPfpStatus: z.enum(PIXEL_PFP_STATUSES),
  })
  .meta({ id: "SharedProfile", description: PFP_STATES_DOC });

export const profileLookupSchema = z
  .object({ ok: z.literal(true), profile: sharedProfileSchema })
  .meta({ id: "ProfileLookup" });

/** `GET /market/support/identity/profiles/x/{username}`. */
export const profileLookupParamsSchema = z.object({
  username: usernameSchema.describe("An X username, matched case-insensitively."),
});

/** `GET /market/support/identity/images/{imageId}`. */
export const profileImageParamsSchema = z.object({
  imageId: imageIdSchema.describe("The image's id (`img_…`)."),
});

/** The body of `GET /market/support/identity/images/{imageId}`: the image's bytes. */
export const profileImageSchema = z.string().meta({ format: "binary" });

/** `GET /market/account/social/x/callback`: what X appended to the redirect URL. */
export const xCallbackQuerySchema = z.object({
  state: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "state must be the state x-connect issued"),
  code: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe("The authorization code X appended to the redirect URL."),
  error: z
    .string()
    .max(200)
    .optional()
    .describe("The error X appended instead of a code (access_denied when the user declined)."),
  // OAuth 2.0 (RFC 6749, 4.1.2.1) lets the provider add these to an error redirect: accepted, not used.
  error_description: z
    .string()
    .max(1000)
    .optional()
    .describe("X's text for the error, if it sends one (not used)."),
  error_uri: z
    .string()
    .max(2048)
    .optional()
    .describe("X's page about the error, if it sends one (not used)."),
});

/** `POST /admin/invites` on the operator listener: an invite that names no referrer. */
export const adminInviteRequestSchema = z
  .object({ maxUses: z.number().int().min(1).max(1000).default(1) })
  .strict();

/** `POST /admin/social/x/verify` on the operator listener. */
export const adminXVerifyRequestSchema = z
  .object({
    address: addressSchema,
    username: usernameSchema.describe("The X username to mark verified for the account holding `address`."),
  })
  .strict();

export type SharedProfile = z.output<typeof sharedProfileSchema>;
export type PixelPfp = z.output<typeof pixelPfpSchema>;
export type ProfileLookup = z.output<typeof profileLookupSchema>;

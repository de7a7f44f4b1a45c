import { z } from "zod";

export const PROFILE_LIMITS = {
  /** Pixel pfps kept per account; the oldest unselected one goes when a new one is made. */
  pixelPfps: 12,
  /** A job 'processing' longer than this lost its worker and is queued again. */
  pixelJobStaleMs: 2 * 60_000,
  /** Claims of one job before it is marked failed. */
  pixelJobAttempts: 3,
  /** Release ids on one wishlist. */
  wishlist: 500,
  /** Artwork images one account may hold across its drafts. */
  artworks: 200,
  /** Invites of one account that are neither revoked nor used up. */
  liveInvites: 20,
  /** Lifetime of an X OAuth state. */
  oauthStateMs: 10 * 60_000,
} as const;

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

/** The shared profile (market-api.md section 2). Strings are never null: "" where absent. */
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

export type SharedProfile = z.infer<typeof sharedProfileSchema>;

export const profileLookupSchema = z
  .object({ ok: z.literal(true), profile: sharedProfileSchema })
  .meta({ id: "ProfileLookup" });

import { z } from "zod";
import {
  ACCOUNT_ACTION_FAMILIES,
  ACCOUNT_ACTION_KINDS,
  type AccountActionKind,
  accountActionSchemas,
} from "./actions.ts";
import { socialActionResultSchemas } from "./social.ts";

/**
 * What `POST /market/account` answers for each kind: `{ok: true, kind,
 * family, result}`, with `result` as below. Times named `…At` are Unix
 * milliseconds unless a field says ISO 8601.
 */

const iso = () => z.string().describe("ISO 8601 time.");
const count = () => z.number().int();
const artwork = {
  artworkId: z.string(),
  draftId: z.string(),
  width: count(),
  height: count(),
  bytes: count().describe("Bytes of the stored image."),
};
const inviteStatus = z.enum(["live", "used-up", "revoked"]);
const invite = {
  inviteId: z.string(),
  maxUses: count(),
  uses: count(),
  status: inviteStatus,
  createdAt: iso(),
};

export const accountActionResultSchemas = {
  "wishlist-add": z.object({ releaseId: z.string(), wishlisted: z.literal(true) }),
  "wishlist-remove": z.object({
    releaseId: z.string(),
    wishlisted: z.literal(false),
    removed: z.boolean().describe("False when the id was not on the wishlist."),
  }),
  "wishlist-list": z.object({ wishlist: z.array(z.string()).describe("Release ids, oldest first.") }),
  "artwork-upload": z.object({
    ...artwork,
    contentType: accountActionSchemas["artwork-upload"].shape.contentType,
  }),
  "artwork-delete": z.object({ artworkId: z.string(), deleted: z.literal(true) }),
  "artwork-list": z.object({
    artworks: z.array(z.object({ ...artwork, contentType: z.string(), createdAt: iso() })),
  }),
  "invite-create": z.object({
    ...invite,
    code: z.string().describe("The invite code; shown only in this answer (stored as a hash)."),
  }),
  "invite-list": z.object({
    invites: z
      .array(z.object(invite))
      .describe("One page, newest first (revoked and used-up invites included); never the codes."),
    next: z
      .string()
      .nullable()
      .describe("Opaque cursor of the next page (pass it as `cursor`); null on the last page."),
  }),
  "invite-revoke": z.object({ inviteId: z.string(), status: z.literal("revoked") }),
  "referral-claim": z.object({
    referredBy: z.string().describe("Primary wallet of the referring account."),
    inviteId: z.string(),
  }),
  "profile-update": z.object({
    username: z.string().describe('The username, or "" for none.'),
    bio: z.string(),
  }),
  "avatar-upload": z.object({
    avatarId: z.string(),
    avatarUrl: z.string(),
    pfpStatus: z.literal("ready"),
    contentType: z.literal("image/png"),
    width: count(),
    height: count(),
    bytes: count(),
  }),
  "pfp-pixelate": z.object({ pixelPfpStatus: z.literal("queued"), size: count() }),
  "pfp-select": z.object({ pixelPfpId: z.string().nullable(), pixelPfpUrl: z.string() }),
  "x-connect": z.discriminatedUnion("mode", [
    z.object({
      mode: z.literal("oauth"),
      authorizeUrl: z.string().describe("Send the user here to authorize on X."),
      expiresAt: count().describe("Unix milliseconds; the authorization must complete before."),
    }),
    z.object({ mode: z.literal("claim"), xUsername: z.string(), xVerified: z.boolean() }),
  ]),
  "x-disconnect": z.object({ disconnected: z.boolean().describe("False when nothing was connected.") }),
  "wallet-link": z.object({ address: z.string(), linked: z.literal(true) }),
  "wallet-unlink": z.object({
    address: z.string(),
    unlinked: z.literal(true),
    sessionsRevoked: count().describe("Sessions of that wallet signed out."),
  }),
  ...socialActionResultSchemas,
} as const satisfies Record<AccountActionKind, z.ZodType>;

/** The `result` of one kind. */
export type AccountActionResult<K extends AccountActionKind = AccountActionKind> = {
  [P in K]: z.output<(typeof accountActionResultSchemas)[P]>;
}[K];

/** The whole answer of `POST /market/account` for one kind (or, without `K`, for any kind). */
export type AccountActionResponse<K extends AccountActionKind = AccountActionKind> = {
  [P in K]: {
    ok: true;
    kind: P;
    family: (typeof ACCOUNT_ACTION_FAMILIES)[P];
    result: AccountActionResult<P>;
  };
}[K];

const responseOf = <K extends AccountActionKind>(kind: K) =>
  z.object({
    ok: z.literal(true),
    kind: z.literal(kind),
    family: z.literal(ACCOUNT_ACTION_FAMILIES[kind]).describe("The action family the kind belongs to."),
    result: accountActionResultSchemas[kind],
  });

const responses = Object.fromEntries(ACCOUNT_ACTION_KINDS.map((kind) => [kind, responseOf(kind)]));

/** The answer of `POST /market/account` for each kind, to parse an answer to a known kind. */
export const accountActionResponseSchemas = responses as unknown as {
  [K in AccountActionKind]: z.ZodType<AccountActionResponse<K>>;
};

/** The answer of `POST /market/account`, one branch per kind. */
export const accountActionResponseSchema = z
  .discriminatedUnion("kind", Object.values(responses) as unknown as [z.ZodObject, ...z.ZodObject[]])
  .meta({ id: "AccountActionResponse" }) as unknown as z.ZodType<AccountActionResponse>;

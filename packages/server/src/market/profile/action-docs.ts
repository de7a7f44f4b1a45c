import type { AccountActionKind } from "@mkt/protocol";
import { LIST_PAGING, PROFILE_LIMITS } from "@mkt/protocol";
import { IMAGE_LIMITS } from "../../media/index.ts";

/**
 * The `result` of each kind this area serves, for the `POST /market/account`
 * description. Times are ISO 8601 strings unless named `…At` in Unix ms.
 */
export const PROFILE_ACTION_RESULTS = {
  "wishlist-add": `\`{releaseId, wishlisted: true}\`; idempotent (adding a listed release changes nothing); 404 unless the release is public or the caller's own draft; at most ${PROFILE_LIMITS.wishlist} ids (409 when full). A deleted release leaves every wishlist. The signed-in \`GET /market/releases\` shows the list with a summary of each release.`,
  "wishlist-remove":
    "`{releaseId, wishlisted: false, removed}`; idempotent: `removed` is false when it was not listed.",
  "wishlist-list":
    "`{wishlist: [releaseId]}`, oldest wish first (the order of the release list's `wishlist`).",
  "artwork-upload": `\`{artworkId, draftId, contentType, width, height, bytes}\`. The bytes must be the declared PNG, JPEG or WebP and decode completely (400 otherwise); at most ${IMAGE_LIMITS.side} pixels per side; at most ${PROFILE_LIMITS.artworks} artwork images per account (409). Private: never served publicly.`,
  "artwork-delete": "`{artworkId, deleted: true}`; 404 unless it is the caller's artwork.",
  "artwork-list":
    "`{artworks: [{artworkId, draftId, contentType, width, height, bytes, createdAt}]}`, optionally of one draft.",
  "invite-create": `\`{inviteId, code, maxUses, uses, status, createdAt}\`; the code is shown only here (stored as a SHA-256 hash); at most ${PROFILE_LIMITS.liveInvites} live (neither revoked nor used-up) invites per account (409).`,
  "invite-list": `\`{invites: [{inviteId, maxUses, uses, status: live|used-up|revoked, createdAt}], next}\`: one page, newest first, revoked and used-up invites included; never the codes. Body \`{cursor?, limit?}\`: \`limit\` 1 to ${LIST_PAGING.maxLimit} (default ${LIST_PAGING.defaultLimit}), \`cursor\` the \`next\` of the previous page (null on the last page); a cursor this API did not return is a 400.`,
  "invite-revoke": '`{inviteId, status: "revoked"}`; 404 unless it is the caller\'s invite.',
  "referral-claim":
    "`{referredBy, inviteId}` (the referrer's address); consumes one use. 409 already referred or code used up; 404 unknown or revoked code; 403 own invite, an operator invite (no referrer) or a referral back to one's own referee.",
  "profile-update":
    '`{username, bio}` (`""` for no username); `username: null` clears it; usernames are unique case-insensitively (409).',
  "avatar-upload":
    '`{avatarId, avatarUrl, pfpStatus: "ready", contentType: "image/png", width: 256, height: 256, bytes}`: normalised to a 256×256 PNG (centre crop, EXIF orientation applied, metadata stripped), replacing the previous avatar. 400 when the bytes are not the declared type; 400 and `pfpStatus` failed when its pixel data cannot be decoded.',
  "pfp-pixelate":
    '`{pixelPfpStatus: "queued", size}`: queues the pixel pfp job (`size`×`size` grid). 409 without an avatar or while a job is queued or processing. See the shared profile for the states.',
  "pfp-select":
    "`{pixelPfpId, pixelPfpUrl}`: selects one of the caller's pixel pfps, or none with null; 404 otherwise.",
  "x-connect":
    'With X OAuth configured: `{mode: "oauth", authorizeUrl, expiresAt}` (send the user to `authorizeUrl`; `username` is ignored; complete with `GET /market/account/social/x/callback` within ten minutes). Without: `{mode: "claim", xUsername, xVerified}`, an unverified claim (only the operator verifies); 409 to claim another name while a verified one is connected.',
  "x-disconnect": "`{disconnected}`: removes the X connection, verified or not.",
} satisfies Partial<Record<AccountActionKind, string>>;

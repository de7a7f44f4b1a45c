import type { SharedProfile } from "@mkt/protocol";

/**
 * How the classic surface shows an account's shared market profile (the holdings' and chat's
 * `userData`, the live sign-in's `user`): its username; as display name the username, else the
 * verified X username; as image the avatar, else the pixel pfp, else the X avatar, else null.
 */
export function classicProfileFields(profile: SharedProfile) {
  return {
    username: profile.username,
    displayName: profile.username || profile.xUsername,
    profileImage: profile.avatarUrl || profile.pixelPfpUrl || profile.xAvatarUrl || null,
  };
}

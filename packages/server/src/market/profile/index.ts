import { createProfileReader } from "../../identity/index.ts";
import type { FeatureDeps, MarketFeature } from "../feature.ts";
import { PROFILE_ACTION_RESULTS } from "./action-docs.ts";
import { profileAdminRoutes } from "./admin-routes.ts";
import { artworkActions, createArtworks } from "./artwork.ts";
import { imageRoute } from "./image-routes.ts";
import { createInvites, inviteActions } from "./invites.ts";
import { createPixelQueue } from "./pixel-queue.ts";
import { createProfileEditor, profileActions } from "./profile-actions.ts";
import { profileLookupRoute } from "./profile-routes.ts";
import { createWishlists, wishlistActions } from "./wishlist.ts";
import { xCallbackRoute } from "./x-callback-routes.ts";
import { createXConnections } from "./x-connections.ts";
import { createXOAuthProvider, type XAccountProvider } from "./x-provider.ts";

export { PROFILE_ACTION_RESULTS } from "./action-docs.ts";
export { readWishlist } from "./wishlist.ts";
export type { XAccount, XAccountProvider, XOAuthOptions } from "./x-provider.ts";
export { createXOAuthProvider } from "./x-provider.ts";

export interface ProfileFeatureOptions {
  /** The X account provider; default: X OAuth when configured (config.x), else none (operator verification only). */
  xProvider?: XAccountProvider;
}

/**
 * Profiles and the private state around them: wishlists, artwork uploads,
 * invites and referrals, username and bio, avatars and pixel pfps, X account
 * connection; the shared profile lookup and public profile images; operator
 * invites and X verification; the pixel pfp worker.
 */
export function profileFeature(deps: FeatureDeps, options: ProfileFeatureOptions = {}): MarketFeature {
  const { db, clock, logger, config, cursors } = deps;
  const profiles = createProfileReader({ db, publicUrl: config.publicUrl });
  const queue = createPixelQueue({ db, clock, logger });
  const invites = createInvites({ db, clock, cursors });
  const provider = options.xProvider ?? (config.x ? createXOAuthProvider(config.x) : undefined);
  const x = createXConnections({ db, clock, logger, provider });

  return {
    actions: {
      ...wishlistActions(createWishlists({ db, clock })),
      ...artworkActions(createArtworks({ db, clock })),
      ...inviteActions(invites),
      ...profileActions(createProfileEditor({ db, clock, imageUrl: profiles.imageUrl }), queue),
      "x-connect": async ({ session }, { username }) => x.connect(session.accountId, username),
      "x-disconnect": async ({ session }) => x.disconnect(session.accountId),
    },
    actionResults: PROFILE_ACTION_RESULTS,
    routes: [profileLookupRoute(profiles), imageRoute(profiles), xCallbackRoute(x, profiles)],
    adminRoutes: profileAdminRoutes({ invites, x }),
    jobs: [
      {
        // The worker wakes on every enqueue; this pass takes a job whose notification was lost and
        // queues again the jobs a dead worker left.
        name: "pixel pfp queue",
        intervalMs: 60_000,
        run: async () => {
          await queue.drain();
        },
      },
    ],
    start: () => queue.start(),
    stop: () => queue.stop(),
  };
}

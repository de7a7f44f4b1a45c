import type { MountedSurface, SharedServices } from "../shared-services.ts";
import { createActionDispatcher } from "./accounts/actions.ts";
import { accountRoutes } from "./accounts/session-routes.ts";
import { walletFeature } from "./accounts/wallet-feature.ts";
import { apiKeyCheckRoute } from "./api-key-routes.ts";
import { boardRoutes, createBoardService } from "./board/index.ts";
import { createCreatorService, creatorRoutes } from "./creators/index.ts";
import { discoveryRoutes } from "./discovery/index.ts";
import type { FeatureDeps, MarketFeature } from "./feature.ts";
import { liveRoutes } from "./live/live-routes.ts";
import { createPackEditService, packEditRoutes } from "./pack-edits/index.ts";
import { profileFeature, type XAccountProvider } from "./profile/index.ts";
import { artworkRoutes, createReleaseService, releaseRoutes } from "./releases/index.ts";
import { MARKET_INDEXER_SOURCE, marketRoutes, proxyRoutes } from "./routes.ts";
import { createCursorCodec, createRuntimeCatalog, runtimeCatalogRoutes } from "./runtime/index.ts";
import { createDmService } from "./social/dms.ts";
import { socialFeature } from "./social/index.ts";

/** What only the market is built from (an `AppOptions` field). */
export interface MarketOptions {
  /** The X account provider (tests); default: X OAuth when configured, else operator verification only. */
  xProvider?: XAccountProvider;
}

/**
 * The market (`/market`) and the first-party proxy's copies of its routes
 * (`/app/api`): the runtime catalog, releases, pack edits, discovery, board,
 * creators, live streams and the account features (wallets, social,
 * profiles) with their operator routes, jobs and background work.
 */
export function mountMarket(shared: SharedServices, options: MarketOptions = {}): MountedSurface {
  const { db, clock, logger, config, sessions, cursors, secrets, revisions, roles, policies, profiles } =
    shared;
  const featureDeps: FeatureDeps = { db, clock, logger, config, sessions, cursors };
  const features: MarketFeature[] = [
    walletFeature(sessions),
    socialFeature(featureDeps),
    profileFeature(featureDeps, options.xProvider ? { xProvider: options.xProvider } : {}),
  ];
  const dispatch = createActionDispatcher(features.map((feature) => feature.actions ?? {}));

  const runtimeCatalog = createRuntimeCatalog({
    db,
    market: roles.market,
    cursors: createCursorCodec({ key: () => secrets.key("cursors", "market-runtime-cursors") }),
  });
  const releases = createReleaseService({
    db,
    clock,
    envelopes: sessions.envelopes,
    runtimes: runtimeCatalog,
    bump: (source) => revisions.bump(source),
    cursors,
  });
  const packEdits = createPackEditService({
    db,
    clock,
    envelopes: sessions.envelopes,
    runtimes: runtimeCatalog,
  });
  const market = marketRoutes([
    apiKeyCheckRoute,
    ...releaseRoutes({ releases }),
    ...artworkRoutes({ releases }),
    ...packEditRoutes({ packEdits }),
    ...runtimeCatalogRoutes({ catalog: runtimeCatalog }),
    ...discoveryRoutes({ config, policies, runtimes: runtimeCatalog }),
    ...boardRoutes({ board: createBoardService({ db, clock, runtimes: runtimeCatalog }) }),
    ...creatorRoutes({
      creators: createCreatorService({
        db,
        profiles,
        releases,
        scope: roles.market?.scope,
        cursors,
      }),
    }),
    ...liveRoutes({ hub: shared.live }),
    ...accountRoutes({
      clock,
      sessions,
      dispatch,
      secureCookies: config.secureCookies,
      actionResults: Object.assign({}, ...features.map((feature) => feature.actionResults ?? {})),
    }),
    ...features.flatMap((feature) => feature.routes ?? []),
  ]);

  return {
    routes: { market, app: proxyRoutes(market) },
    adminRoutes: features.flatMap((feature) => feature.adminRoutes ?? []),
    jobs: features.flatMap((feature) => feature.jobs ?? []),
    start() {
      for (const feature of features) feature.start?.();
    },
    async stop() {
      for (const feature of features) await feature.stop?.();
    },
    indexerSources: roles.market ? [{ scope: roles.market.scope, source: MARKET_INDEXER_SOURCE }] : [],
    // A DM event on an account's stream is followed by its unread count.
    live: { unread: createDmService({ db, clock, cursors }).unread },
    services: undefined,
  };
}

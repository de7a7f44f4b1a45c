import { CLASSIC_DEFAULT_CHAIN_ID } from "@mkt/protocol";
import type { PriceHealthSource } from "../health/index.ts";
import type { MountedSurface, SharedServices } from "../shared-services.ts";
import { classicAuthRoutes, createClassicAuthService } from "./auth/index.ts";
import { classicChatRoutes, createClassicChatService } from "./chat/index.ts";
import { classicDraftRoutes, createClassicDraftService, createDeploymentReader } from "./drafts/index.ts";
import {
  type ClassicGameCatalog,
  type ClassicMetadataStore,
  classicGameAdminRoutes,
  classicGameRoutes,
  classicMetadataRoutes,
  createClassicGameDirectory,
  createClassicMetadataStore,
} from "./games/index.ts";
import { classicImageRoutes } from "./images/image-routes.ts";
import { classicPackRoutes, createActivityReader, createPackReader } from "./packs/index.ts";
import { createPriceSource, type EthUsdPriceSource, noPriceSource } from "./price.ts";
import {
  CLASSIC_INDEXER_SOURCE,
  CLASSIC_METADATA_SOURCE,
  CLASSIC_SETTINGS_SOURCE,
  CLASSIC_SOCIAL_SOURCE,
  classicRoutes,
} from "./routes.ts";
import { createClassicSettings } from "./settings.ts";
import { classicSettingsAdminRoutes, classicSettingsRoutes } from "./settings-routes.ts";
import {
  classicDropStatsRoutes,
  classicStatsRoutes,
  createClassicDropStats,
  createClassicStatsService,
} from "./stats/index.ts";
import {
  classicRecoveryRoutes,
  classicReportsAdminRoutes,
  classicSocialRoutes,
  createClassicAccountStats,
  createClassicReactions,
  createClassicRecovery,
  createClassicRefreshes,
  createClassicReports,
} from "./tools/index.ts";
import { classicUploadRoutes, createClassicUploads } from "./uploads/index.ts";

/** What only the classic surface is built from (an `AppOptions` field). */
export interface ClassicOptions {
  /** The ETH/USD price of the classic reads (tests); default the configured source (`ETH_USD_PRICE`, `ETH_USD_PRICE_URL`). */
  ethUsdPrice?: EthUsdPriceSource;
}

/** What the app exposes of the classic surface (`App.services.classic`). */
export interface ClassicServices {
  /** The classic games (the demo reads them). */
  games: ClassicGameCatalog;
  /** Their offchain metadata (the demo publishes through it). */
  metadata: ClassicMetadataStore;
  /** The ETH/USD price of the priced reads and where it comes from (the operator health report). */
  price: PriceHealthSource;
}

/**
 * The classic booster-box surface (`/classic`): games and their metadata,
 * packs and activity, images, sign-in, creator drafts, statistics, recovery
 * and social tools, game chat, and their operator routes.
 */
export function mountClassic(
  shared: SharedServices,
  options: ClassicOptions = {},
): MountedSurface<ClassicServices> {
  const { db, clock, logger, config, sessions, cursors, revisions, roles, indexer, profiles, media } = shared;
  const classicSettings = createClassicSettings({
    db,
    clock,
    bump: () => revisions.bump(CLASSIC_SETTINGS_SOURCE),
  });
  const classicMetadata = createClassicMetadataStore({
    db,
    clock,
    bump: () => revisions.bump(CLASSIC_METADATA_SOURCE),
  });
  // No configured source (a real chain without ETH_USD_PRICE[_URL]): every priced read answers 503.
  const classicPrice: EthUsdPriceSource =
    options.ethUsdPrice ??
    createPriceSource(config, {
      clock,
      onError: (reason) => shared.dependencies.failed("ETH/USD price", reason),
    }) ??
    noPriceSource;
  const classicGames = createClassicGameDirectory({
    db,
    publicUrl: config.publicUrl,
    images: media.links,
    price: classicPrice,
    clock,
  });
  const classicChainId = roles.classic?.deployment.chainId ?? CLASSIC_DEFAULT_CHAIN_ID;
  const classicAuth = createClassicAuthService({
    db,
    clock,
    sessions,
    chainId: classicChainId,
    profiles,
  });
  const classicDrafts = createClassicDraftService({
    db,
    clock,
    chainId: classicChainId,
    plainHttpUrls: shared.devChainIds.includes(classicChainId),
    metadata: classicMetadata,
    // Confirm checks a deployment through the creation contract: none when the chain only lists drops.
    deployments: roles.classic?.factory
      ? createDeploymentReader({
          rpcUrl: roles.classic.deployment.rpcUrl,
          chainId: roles.classic.deployment.chainId,
          factory: roles.classic.factory.address,
        })
      : undefined,
    onPublishFailure: (draftId, error) =>
      logger.warn({ msg: "classic draft metadata publish failed", draftId, err: error }),
  });
  const classicStats = createClassicStatsService({ db, clock, price: classicPrice });
  // Recovery, reactions, reports, refreshes and account statistics (classic/tools).
  const classicReports = createClassicReports({ db, clock });
  const classicTools = classicSocialRoutes({
    reactions: createClassicReactions({ db, clock, bump: () => revisions.bump(CLASSIC_SOCIAL_SOURCE) }),
    reports: classicReports,
    refreshes: createClassicRefreshes({
      db,
      clock,
      scope: roles.classic?.scope,
      announce: async () => {
        await revisions.bump(CLASSIC_INDEXER_SOURCE);
        await revisions.bump(CLASSIC_METADATA_SOURCE);
      },
    }),
    accountStats: createClassicAccountStats({ db, stats: classicStats }),
  });
  const classicRecovery = createClassicRecovery({
    chainId: classicChainId,
    indexer: roles.classic ? indexer?.indexerOf(roles.classic.scope) : undefined,
    moved: () => revisions.moved(CLASSIC_INDEXER_SOURCE),
  });
  const classic = classicRoutes([
    ...classicAuthRoutes({ auth: classicAuth }),
    ...classicSettingsRoutes({ settings: classicSettings }),
    ...classicGameRoutes({ games: classicGames, publication: classicDrafts }),
    ...classicMetadataRoutes({ games: classicGames }),
    ...classicPackRoutes({
      packs: createPackReader({
        db,
        directory: classicGames,
        profiles,
        publicUrl: config.publicUrl,
        images: media.links,
      }),
      activity: createActivityReader({ db, directory: classicGames }),
    }),
    ...classicImageRoutes({ links: media.links, fetcher: media.fetcher }),
    ...classicUploadRoutes({ uploads: createClassicUploads({ db, clock, publicUrl: config.publicUrl }) }),
    ...classicDraftRoutes({
      drafts: classicDrafts,
      factory: roles.classic?.factory?.address.toLowerCase() ?? null,
    }),
    ...classicStatsRoutes({ stats: classicStats }),
    ...classicDropStatsRoutes({
      stats: createClassicDropStats({ db, clock, price: classicPrice }),
      games: classicGames,
    }),
    ...classicRecoveryRoutes({ recovery: classicRecovery }),
    ...classicTools,
    // Game chat: its stream is the shared live hub, filtered per game.
    ...classicChatRoutes({
      chat: createClassicChatService({ db, clock, directory: classicGames, profiles, cursors }),
      hub: shared.live,
    }),
  ]);

  return {
    routes: { classic },
    adminRoutes: [
      ...classicSettingsAdminRoutes({ settings: classicSettings }),
      ...classicGameAdminRoutes({ metadata: classicMetadata }),
      ...classicReportsAdminRoutes({ reports: classicReports }),
    ],
    indexerSources: roles.classic ? [{ scope: roles.classic.scope, source: CLASSIC_INDEXER_SOURCE }] : [],
    services: {
      games: classicGames,
      metadata: classicMetadata,
      price: {
        // A test's own source stands for a configured one.
        source: options.ethUsdPrice ? "fixed" : (config.priceSource?.kind ?? "none"),
        quote: () => classicPrice.quote(),
      },
    },
  };
}

import { randomBytes } from "node:crypto";
import type { ChainDeployment } from "@mkt/chain";
import { CLASSIC_DEFAULT_CHAIN_ID } from "@mkt/protocol";
import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { createAdminServer } from "./admin/server.ts";
import { chainRoles } from "./chains/index.ts";
import { classicAuthRoutes, createClassicAuthService } from "./classic/auth/index.ts";
import { classicChatRoutes, createClassicChatService } from "./classic/chat/index.ts";
import {
  classicDraftRoutes,
  createClassicDraftService,
  createDeploymentReader,
} from "./classic/drafts/index.ts";
import {
  type ClassicGameCatalog,
  type ClassicMetadataStore,
  classicGameRoutes,
  classicMetadataRoutes,
  createClassicGameDirectory,
  createClassicMetadataStore,
  registerClassicGameAdmin,
} from "./classic/games/index.ts";
import { classicImageRoutes } from "./classic/images/image-routes.ts";
import { classicPackRoutes, createActivityReader, createPackReader } from "./classic/packs/index.ts";
import { createPriceSource, type EthUsdPriceSource } from "./classic/price.ts";
import {
  CLASSIC_INDEXER_SOURCE,
  CLASSIC_METADATA_SOURCE,
  CLASSIC_SETTINGS_SOURCE,
  CLASSIC_SOCIAL_SOURCE,
  classicRoutes,
} from "./classic/routes.ts";
import { createClassicSettings } from "./classic/settings.ts";
import { classicSettingsRoutes, registerClassicAdmin } from "./classic/settings-routes.ts";
import { classicStatsRoutes, createClassicStatsService } from "./classic/stats/index.ts";
import {
  classicRecoveryRoutes,
  classicSocialRoutes,
  createClassicAccountStats,
  createClassicReactions,
  createClassicRecovery,
  createClassicRefreshes,
  createClassicReports,
  registerClassicReportsAdmin,
} from "./classic/tools/index.ts";
import type { Config } from "./config/index.ts";
import type { Database } from "./db/index.ts";
import { createCorsPolicy, registerPreflight } from "./http/cors.ts";
import { errorHandlerFor } from "./http/error-handler.ts";
import {
  createClientErrorHandler,
  MAX_PATH_PARAMETER_LENGTH,
  MAX_REQUEST_HEAD_BYTES,
} from "./http/framework-errors.ts";
import { createGuard } from "./http/guard.ts";
import { buildOpenApiDocument } from "./http/openapi.ts";
import { createPipeline } from "./http/pipeline.ts";
import {
  createReadCache,
  createRevisions,
  REVISIONS_CHANNEL,
  type ReadCache,
  type Revisions,
} from "./http/read-cache.ts";
import type { RouteDefinition } from "./http/route.ts";
import { secureDocuments } from "./http/security-headers.ts";
import { surfaceNotes } from "./http/surface-notes.ts";
import {
  appProxySurface,
  classicSurface,
  marketSurface,
  platformSurface,
  predictSurface,
  type Surface,
} from "./http/surfaces.ts";
import { createIdempotency } from "./idempotency/index.ts";
import {
  createClassicBearerAuth,
  createProfileReader,
  createProxyOriginCheck,
  createSessionAuth,
  createSessionService,
  createWalletVerifier,
  SESSION_COOKIES,
  type SessionService,
  sessionPresented,
  type WalletSignatureVerifier,
} from "./identity/index.ts";
import { INDEXER_CHANNEL } from "./indexer/head-store.ts";
import { createIndexerService, type IndexerService, type IndexerServiceOptions } from "./indexer/service.ts";
import { keyRoutes } from "./keys/key-routes.ts";
import { createKeyService } from "./keys/service.ts";
import { createLiveHub, createLiveStore, type LiveHub, type LiveLimits } from "./live/index.ts";
import { createActionDispatcher } from "./market/accounts/actions.ts";
import { accountRoutes } from "./market/accounts/session-routes.ts";
import { walletFeature } from "./market/accounts/wallet-feature.ts";
import { apiKeyCheckRoute } from "./market/api-key-routes.ts";
import { boardRoutes, createBoardService } from "./market/board/index.ts";
import { createCreatorService, creatorRoutes } from "./market/creators/index.ts";
import { discoveryRoutes } from "./market/discovery/index.ts";
import type { FeatureDeps, MarketFeature } from "./market/feature.ts";
import { liveRoutes } from "./market/live/live-routes.ts";
import { createPackEditService, packEditRoutes } from "./market/pack-edits/index.ts";
import { profileFeature, type XAccountProvider } from "./market/profile/index.ts";
import { artworkRoutes, createReleaseService, releaseRoutes } from "./market/releases/index.ts";
import { MARKET_INDEXER_SOURCE, marketRoutes, proxyRoutes } from "./market/routes.ts";
import { createCursorCodec, createRuntimeCatalog, runtimeCatalogRoutes } from "./market/runtime/index.ts";
import { createDmService } from "./market/social/dms.ts";
import { socialFeature } from "./market/social/index.ts";
import {
  createClassicImageLinks,
  createImageFetcher,
  createImageProxyPolicy,
  type ImageFetcherOptions,
  type ImageProxyPolicyOptions,
} from "./media/index.ts";
import { createMetrics } from "./metrics/index.ts";
import { type CursorSigner, createCursorSigner } from "./paging/index.ts";
import { operationsRoutes, type PublishedDocument } from "./platform/operations-routes.ts";
import { platformRoutes } from "./platform/routes.ts";
import { registerPredictAdmin } from "./predict/admin-routes.ts";
import {
  createPredictFreshness,
  DEFAULT_FRESHNESS_BOUNDS,
  type FreshnessBounds,
  PREDICT_INDEXER_SOURCE,
} from "./predict/freshness.ts";
import { createFeedGate, createFeedStreamCheck } from "./predict/gate.ts";
import { createLegacyMarkets, legacyRoutes } from "./predict/legacy/index.ts";
import { createPredictMarkets, predictMarketsRoutes } from "./predict/markets/index.ts";
import {
  createPredictMedia,
  PREDICT_MEDIA_SOURCE,
  predictMediaRoutes,
  registerPredictMediaAdmin,
} from "./predict/media/index.ts";
import { createPointsService, pointsRoutes } from "./predict/points/index.ts";
import { createPortfolioService, portfolioRoutes } from "./predict/portfolio/index.ts";
import { predictRoutes } from "./predict/routes.ts";
import { predictRuntimeRoutes } from "./predict/runtime-routes.ts";
import { createPredictSettings, PREDICT_RUNTIME_SOURCE } from "./predict/settings.ts";
import { streamRoutes } from "./predict/stream/index.ts";
import { type Clock, createSlidingWindowLimiter, systemClock } from "./quotas/limiter.ts";
import { defaultPolicies, type QuotaPolicies } from "./quotas/policies.ts";
import { createServerSecrets } from "./secrets/index.ts";

export interface AppOptions {
  config: Config;
  db: Database;
  logger: Logger;
  clock?: Clock;
  policies?: QuotaPolicies;
  keyCache?: { positiveTtlMs?: number; negativeTtlMs?: number };
  /** The chains the indexer follows; their runtimes are served by the runtime routes. */
  deployments?: ChainDeployment[];
  /**
   * The chain ids among `deployments` that this process runs as dev chains
   * (`startChains`). On a dev classic chain creators may use plain `http://`
   * URLs (the demo's art on `PUBLIC_URL`); elsewhere only `https://`.
   */
  devChainIds?: readonly number[];
  /** Run the indexer when listening (off in HTTP-only tests). */
  indexing?: boolean;
  /**
   * Test and fault-injection seam (no configuration reaches it): logs the
   * indexer drops from its normal path, as if it had missed them, so tests
   * can prove that `/classic/events/{txHash}` repairs them.
   */
  indexerSkipLog?: IndexerServiceOptions["skipLog"];
  /**
   * Checks wallet signatures. Default: EOAs locally, contract wallets through
   * the RPC of chain 8453 from `deployments` (without it, EOAs only).
   */
  walletVerifier?: WalletSignatureVerifier;
  /** The X account provider (tests); default: X OAuth when configured, else operator verification only. */
  xProvider?: XAccountProvider;
  /** Live-update limits other than the documented ones (tests). */
  live?: Partial<LiveLimits>;
  /** The ETH/USD price of the classic reads (tests); default the configured source (`ETH_USD_PRICE`, `ETH_USD_PRICE_URL`). */
  ethUsdPrice?: EthUsdPriceSource;
  /**
   * The classic image proxy's limits other than the documented ones (tests).
   * `allowLoopback` lets an allowlisted host resolve to 127.0.0.1: only a
   * test sets it; the configuration has no way to.
   */
  classicImageProxy?: Pick<ImageFetcherOptions, "timeoutMs" | "maxBytes" | "cacheBytes"> &
    Pick<ImageProxyPolicyOptions, "allowLoopback">;
  /** The prediction feed's freshness bounds other than the documented ones (tests). */
  predictFreshness?: Partial<FreshnessBounds>;
}

export interface App {
  server: FastifyInstance;
  admin: FastifyInstance;
  /** The operator token in force (generated when ADMIN_TOKEN is unset). */
  adminToken: string;
  /** The routes mounted on each surface, with their declarations (for tests and tools that walk every route). */
  routes: Readonly<Record<Surface["name"], readonly RouteDefinition[]>>;
  services: {
    keys: ReturnType<typeof createKeyService>;
    limiter: ReturnType<typeof createSlidingWindowLimiter>;
    metrics: ReturnType<typeof createMetrics>;
    idempotency: ReturnType<typeof createIdempotency>;
    indexer: IndexerService | undefined;
    sessions: SessionService;
    readCache: ReadCache;
    revisions: Revisions;
    live: LiveHub;
    /** Signs the market lists' page cursors (tests make cursors of another list with it). */
    cursors: CursorSigner;
    /** The classic games and their offchain metadata (the demo publishes through `metadata`). */
    classic: { games: ClassicGameCatalog; metadata: ClassicMetadataStore };
    /** Runs every periodic job once (tests drive them with a manual clock). */
    runJobs(): Promise<void>;
  };
  /** Binds both listeners. */
  listen(): Promise<{ publicUrl: string; adminUrl: string }>;
  /** Stops accepting, drains in-flight requests, stops background work. Does not close the database. */
  close(): Promise<void>;
}

const MAINTENANCE_INTERVAL_MS = 60_000;

/**
 * TRUST_PROXY as Fastify takes it. Fastify 5 now ignores a bare hop count
 * (it cannot check the peer), so a count becomes the function Express uses:
 * trust exactly that many hops nearest the server, as the operator states.
 */
function trustProxyOption(
  value: Config["trustProxy"],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === "number" ? (_address, hop) => hop < value : value;
}

/** The composition root: every service and both listeners, wired once. */
/** How long closing waits for in-flight requests before it cuts every connection. */
const CLOSE_GRACE_MS = 5_000;

export async function createApp(options: AppOptions): Promise<App> {
  const { config, db, logger } = options;
  const clock = options.clock ?? systemClock;
  const policies = options.policies ?? defaultPolicies;
  let inFlight: () => number = () => 0;

  const limiter = createSlidingWindowLimiter({ clock });
  let metrics: ReturnType<typeof createMetrics> | undefined;
  const secrets = createServerSecrets({ db });
  const cursors = createCursorSigner(await secrets.key("cursors", "market-list-cursors"));
  const keys = createKeyService({
    db,
    clock,
    cursors,
    ...options.keyCache,
    onCacheFlush: () => {
      metrics?.keyCacheFlushes.inc();
      logger.warn({ msg: "key cache flushed after the notification connection was re-established" });
    },
  });
  metrics = createMetrics({
    poolStats: () => db.poolStats(),
    keyCacheSize: () => keys.cacheSize(),
    inFlight: () => inFlight(),
  });
  const idempotency = createIdempotency({ db, clock });
  const deployments = options.deployments ?? [];
  const indexer =
    deployments.length > 0
      ? createIndexerService({
          db,
          logger,
          clock,
          deployments,
          registry: metrics.registry,
          ...(options.indexerSkipLog ? { skipLog: options.indexerSkipLog } : {}),
        })
      : undefined;

  const roles = chainRoles(deployments);
  const walletVerifier =
    options.walletVerifier ?? createWalletVerifier({ rpcUrl: roles.market?.deployment.rpcUrl });
  const sessions = createSessionService({
    db,
    clock,
    verifier: walletVerifier,
    allowedOrigins: config.allowedOrigins,
    limiter,
    onCacheFlush: () =>
      logger.warn({ msg: "session cache flushed after the notification connection was re-established" }),
  });
  const featureDeps: FeatureDeps = { db, clock, logger, config, sessions, cursors };
  const features: MarketFeature[] = [
    walletFeature(sessions),
    socialFeature(featureDeps),
    profileFeature(featureDeps, options.xProvider ? { xProvider: options.xProvider } : {}),
  ];
  const dispatch = createActionDispatcher(features.map((feature) => feature.actions ?? {}));
  const jobs = features.flatMap((feature) => feature.jobs ?? []);

  const surfaces = {
    platform: platformSurface(),
    market: marketSurface(),
    classic: classicSurface(),
    predict: predictSurface(config.publicUrl),
    app: appProxySurface(),
  };
  const revisions = createRevisions({ announce: (source) => db.notify(REVISIONS_CHANNEL, source) });
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
  const live = createLiveHub({
    db,
    store: createLiveStore(db),
    logger,
    marketScope: roles.market?.scope,
    unread: createDmService({ db, clock, cursors }).unread,
    // What admitted each open stream, checked again from the caches every round (the feed's
    // switches are created below; the first round runs once the app has started).
    checks: {
      key: (hash) => keys.current(hash),
      session: (id) => sessions.current(id),
      gates: { feed: (firstParty) => feedStreamCheck(firstParty) },
    },
    limits: {
      maxStreams: config.maxStreams,
      maxStreamsPerKey: config.maxStreamsPerKey,
      maxStreamsPerClient: config.maxStreamsPerClient,
      ...options.live,
    },
  });
  /** Shared profiles: the market's creator pages and the classic holdings' `userData`. */
  const profiles = createProfileReader({ db, publicUrl: config.publicUrl });
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
    ...liveRoutes({ hub: live }),
    ...accountRoutes({
      clock,
      sessions,
      dispatch,
      secureCookies: config.secureCookies,
      actionResults: Object.assign({}, ...features.map((feature) => feature.actionResults ?? {})),
    }),
    ...features.flatMap((feature) => feature.routes ?? []),
  ]);
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
  const classicPrice: EthUsdPriceSource = options.ethUsdPrice ??
    createPriceSource(config, {
      clock,
      onError: (reason) => logger.warn({ msg: "ETH/USD price fetch failed", reason }),
    }) ?? { usdPerEth: async () => undefined };
  // One policy decides what the image proxy fetches and which image URLs are rewritten to it.
  const { allowLoopback, ...classicImageLimits } = options.classicImageProxy ?? {};
  const classicImageProxy = createImageProxyPolicy({
    hosts: config.imageProxyHosts,
    ...(allowLoopback !== undefined ? { allowLoopback } : {}),
  });
  const classicImageLinks = await createClassicImageLinks({
    publicUrl: config.publicUrl,
    secrets,
    policy: classicImageProxy,
  });
  const classicGames = createClassicGameDirectory({
    db,
    publicUrl: config.publicUrl,
    images: classicImageLinks,
    price: classicPrice,
    clock,
  });
  const classicAuth = createClassicAuthService({
    db,
    clock,
    sessions,
    chainId: roles.classic?.deployment.chainId ?? CLASSIC_DEFAULT_CHAIN_ID,
  });
  const classicChainId = roles.classic?.deployment.chainId ?? CLASSIC_DEFAULT_CHAIN_ID;
  const classicDrafts = createClassicDraftService({
    db,
    clock,
    chainId: classicChainId,
    plainHttpUrls: (options.devChainIds ?? []).includes(classicChainId),
    metadata: classicMetadata,
    deployments: roles.classic
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
    chainId: roles.classic?.deployment.chainId ?? CLASSIC_DEFAULT_CHAIN_ID,
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
      }),
      activity: createActivityReader({ db, directory: classicGames }),
    }),
    ...classicImageRoutes({
      links: classicImageLinks,
      fetcher: createImageFetcher({ policy: classicImageProxy, clock, ...classicImageLimits }),
    }),
    ...classicDraftRoutes({ drafts: classicDrafts }),
    ...classicStatsRoutes({ stats: classicStats }),
    ...classicRecoveryRoutes({ recovery: classicRecovery }),
    ...classicTools,
    // Game chat (issue 14): its stream is the market's live hub, filtered per game.
    ...classicChatRoutes({
      chat: createClassicChatService({ db, clock, directory: classicGames, profiles, cursors }),
      hub: live,
    }),
  ]);
  // The prediction feed's switches and freshness, read by its gate on every gated route.
  const predictSettings = createPredictSettings({
    db,
    clock,
    chainId: roles.predict?.deployment.chainId,
    revision: revisions.counters([PREDICT_RUNTIME_SOURCE])[0]!,
    bump: () => revisions.bump(PREDICT_RUNTIME_SOURCE),
  });
  const feedStreamCheck = createFeedStreamCheck(predictSettings);
  const predictFreshness = createPredictFreshness({
    db,
    clock,
    scope: roles.predict?.scope,
    finalityDepth: roles.predict?.deployment.finalityDepth ?? 0,
    bounds: { ...DEFAULT_FRESHNESS_BOUNDS, ...options.predictFreshness },
    revision: revisions.counters([PREDICT_INDEXER_SOURCE])[0]!,
  });
  // Market media: generated art and the operator's image, through the classic art route and image proxy.
  const predictMedia = createPredictMedia({
    db,
    clock,
    predict: roles.predict,
    publicUrl: config.publicUrl,
    links: classicImageLinks,
    proxy: classicImageProxy,
    bump: () => revisions.bump(PREDICT_MEDIA_SOURCE),
  });
  const predictFeed = roles.predict
    ? { chainId: roles.predict.deployment.chainId, scope: roles.predict.scope }
    : undefined;
  // Without a prediction chain the reads find no head row: 503, like the gate.
  const predictFeedOrDisabled = predictFeed ?? { chainId: 4663, scope: "" };
  const routes: Record<Surface["name"], RouteDefinition[]> = {
    platform: [],
    app: proxyRoutes(market),
    market,
    classic,
    predict: predictRoutes([
      ...predictRuntimeRoutes({
        db,
        deployment: roles.predict?.deployment,
        settings: predictSettings,
        freshness: predictFreshness,
      }),
      // Stream, portfolio, points: the stream is the market's live hub, filtered to the feed.
      ...streamRoutes({ hub: live, feed: predictFeed }),
      ...portfolioRoutes({ portfolio: createPortfolioService({ db, feed: predictFeedOrDisabled }) }),
      ...pointsRoutes({ points: createPointsService({ db, feed: predictFeedOrDisabled }) }),
      // Markets and quotes.
      ...predictMarketsRoutes({ markets: createPredictMarkets({ db, predict: roles.predict }) }),
      // Market media.
      ...predictMediaRoutes({ media: predictMedia }),
      // Legacy (earlier generation): the same projection, deprecated in OpenAPI.
      ...legacyRoutes({ legacy: createLegacyMarkets({ db, predict: roles.predict }) }),
    ]),
  };
  // The documents are built after every route is known (on first request, then kept).
  const documents: PublishedDocument[] = (["market", "classic", "predict"] as const).map((name) => ({
    name,
    title: surfaces[name].title,
    prefix: surfaces[name].prefix,
    build: () =>
      buildOpenApiDocument(
        surfaces[name],
        [
          { prefix: "", routes: keyApi, errors: surfaces.platform },
          { prefix: surfaces[name].prefix, routes: routes[name] },
          // The market document also describes the first-party proxy's copies of its routes.
          ...(name === "market"
            ? [
                {
                  prefix: surfaces.app.prefix,
                  routes: routes.app,
                  proxy: { cookies: SESSION_COOKIES, of: surfaces.market.prefix },
                },
              ]
            : []),
        ],
        { publicUrl: config.publicUrl, publicReads: config.publicReads, notes: surfaceNotes(name, config) },
      ),
  }));
  routes.platform = platformRoutes([
    ...keyRoutes({ keys }),
    ...operationsRoutes({
      db,
      documents,
      proxy: { prefix: surfaces.app.prefix, title: surfaces.app.title },
    }),
  ]);
  // `POST /keys` and `DELETE /keys/current` belong to all three documents (their `{key_create_url}`).
  const keyApi = routes.platform.filter((route) => route.path.startsWith("/keys"));

  const marketSessionAuth = createSessionAuth(sessions);
  const classicBearer = createClassicBearerAuth(classicAuth);
  const cors = createCorsPolicy(config.allowedOrigins, Object.values(routes).flat());
  const readCache = createReadCache({ clock });
  const pipeline = createPipeline({
    logger,
    metrics,
    cors,
    guard: createGuard({
      keys,
      limiter,
      policies,
      publicReads: config.publicReads,
      onRejected: (surface, reason) => metrics.quotaRejections.inc({ surface, reason }),
    }),
    idempotency,
    readCache,
    revisions,
    maxInFlight: config.maxInFlight,
    publicReads: config.publicReads,
    sessionAuth: (kind) => (kind === "classic" ? classicBearer : marketSessionAuth(kind)),
    sessionPresented,
    proxyOriginCheck: createProxyOriginCheck(config.allowedOrigins),
    gates: { feed: createFeedGate({ settings: predictSettings, freshness: predictFreshness }) },
  });
  inFlight = pipeline.inFlight;

  const mounted = (["market", "classic", "predict", "app", "platform"] as const).map(
    (name) => surfaces[name],
  );
  const server = Fastify({
    // No Fastify logger: the pipeline logs one line per request itself (without headers) and the
    // error handlers log failures with the process logger. With a logger, Fastify would add two
    // response listeners, a closure and two clock reads to every request to time it.
    logger: false,
    trustProxy: trustProxyOption(config.trustProxy),
    requestIdHeader: false,
    genReqId: pipeline.requestId,
    bodyLimit: 1_048_576,
    return503OnClosing: true,
    // Every refusal, whichever layer makes it, in the error body of the surface the path names:
    // the router's (a path that does not decode, an over-long path parameter) and Node's parser's
    // (a request head over the limit, a request that is not HTTP, one that never finishes).
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    http: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES },
    frameworkErrors: pipeline.frameworkErrorHandler(mounted, surfaces.platform),
    clientErrorHandler: createClientErrorHandler({ surfaces: mounted, fallback: surfaces.market, logger }),
  });
  // JSON only: any other content type is a 415 in the surface's error body.
  server.removeContentTypeParser("text/plain");
  server.decorateRequest("apiKey", undefined);
  server.decorateRequest("idempotency", undefined);
  server.decorateRequest("session", undefined);
  server.decorateRequest("classicAccount", undefined);
  server.decorateRequest("admitted", false);
  server.decorateRequest("readCacheSlot", undefined);
  // Before any route is mounted: every route inherits the hooks its parent holds at that point.
  secureDocuments(server);
  server.setErrorHandler(errorHandlerFor(surfaces.platform, logger));
  server.setNotFoundHandler(pipeline.notFoundHandler(surfaces.platform));
  registerPreflight(server, cors, pipeline.plainHooks("platform", "/*", "OPTIONS"));
  for (const name of ["platform", "market", "classic", "predict", "app"] as const) {
    pipeline.mount(server, surfaces[name], routes[name]);
  }

  const adminToken = config.admin.token ?? randomBytes(24).toString("base64url");
  const admin = createAdminServer({
    logger,
    token: adminToken,
    keys,
    metrics,
    indexer,
    limiter,
    extend: (app) => {
      for (const feature of features) feature.admin?.(app);
      registerClassicAdmin(app, { settings: classicSettings });
      registerPredictAdmin(app, { settings: predictSettings });
      registerPredictMediaAdmin(app, { media: predictMedia });
      registerClassicGameAdmin(app, { metadata: classicMetadata });
      registerClassicReportsAdmin(app, { reports: classicReports });
    },
  });

  await keys.start();
  await sessions.start();
  // Read-cache sources move on every replica: announced revisions, and every indexer commit.
  const onReconnect = () => {
    revisions.movedAll();
    readCache.clear();
  };
  const unlisten = [
    await db.listen(REVISIONS_CHANNEL, { onNotify: (source) => revisions.moved(source), onReconnect }),
    await db.listen(INDEXER_CHANNEL, {
      onNotify: (scope) => {
        revisions.moved(`indexer:${scope}`);
        if (scope === roles.market?.scope) revisions.moved(MARKET_INDEXER_SOURCE);
        if (scope === roles.classic?.scope) revisions.moved(CLASSIC_INDEXER_SOURCE);
        if (scope === roles.predict?.scope) revisions.moved(PREDICT_INDEXER_SOURCE);
      },
      onReconnect,
    }),
  ];
  await live.start();
  const pruneLive = () =>
    live.prune().catch((error) => logger.warn({ msg: "live event log prune failed", err: error }));
  const maintenance = setInterval(() => {
    limiter.sweep();
    void pruneLive();
    idempotency.sweep().catch((error) => logger.warn({ msg: "idempotency sweep failed", err: error }));
  }, MAINTENANCE_INTERVAL_MS);
  maintenance.unref();
  const runJob = (job: (typeof jobs)[number]) =>
    job.run().catch((error) => logger.warn({ msg: "job failed", job: job.name, err: error }));
  const jobTimers = jobs.map((job) => {
    const timer = setInterval(() => void runJob(job), job.intervalMs);
    timer.unref();
    return timer;
  });

  await server.ready();
  await admin.ready();

  return {
    server,
    admin,
    adminToken,
    routes,
    services: {
      keys,
      limiter,
      metrics,
      idempotency,
      indexer,
      sessions,
      cursors,
      readCache,
      revisions,
      live,
      classic: { games: classicGames, metadata: classicMetadata },
      async runJobs() {
        for (const job of jobs) await job.run();
        await pruneLive();
      },
    },
    async listen() {
      if (options.indexing !== false) indexer?.start();
      for (const feature of features) feature.start?.();
      const publicAddress = await server.listen({ host: config.host, port: config.port });
      const adminAddress = await admin.listen({ host: config.admin.host, port: config.admin.port });
      return { publicUrl: publicAddress, adminUrl: adminAddress };
    },
    async close() {
      clearInterval(maintenance);
      for (const timer of jobTimers) clearInterval(timer);
      // Streams end first: the listener would otherwise wait for them.
      await live.close();
      // In-flight requests get a grace period; then every connection is cut,
      // including sockets that never sent a request (an aborted fetch's spare
      // connection would otherwise hold the close until the header timeout).
      const force = setTimeout(() => server.server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      await server.close();
      clearTimeout(force);
      await admin.close();
      await indexer?.stop();
      for (const feature of features) await feature.stop?.();
      await keys.stop();
      await sessions.stop();
      for (const stop of unlisten) await stop();
    },
  };
}

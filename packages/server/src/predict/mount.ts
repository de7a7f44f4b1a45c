import { PREDICT_CHAIN_ID } from "@mkt/chain";
import type { MountedSurface, SharedServices } from "../shared-services.ts";
import { predictAdminRoutes } from "./admin-routes.ts";
import {
  createPredictFreshness,
  DEFAULT_FRESHNESS_BOUNDS,
  type FreshnessBounds,
  PREDICT_INDEXER_SOURCE,
} from "./freshness.ts";
import { createFeedGate, createFeedStreamCheck } from "./gate.ts";
import { createLegacyMarkets, legacyRoutes } from "./legacy/index.ts";
import { createPredictMarkets, predictMarketsRoutes } from "./markets/index.ts";
import {
  createPredictMedia,
  PREDICT_MEDIA_SOURCE,
  predictMediaAdminRoutes,
  predictMediaRoutes,
} from "./media/index.ts";
import { createPointsService, pointsRoutes } from "./points/index.ts";
import { createPortfolioService, portfolioRoutes } from "./portfolio/index.ts";
import { predictRoutes } from "./routes.ts";
import { predictRuntimeRoutes } from "./runtime-routes.ts";
import { createPredictSettings, PREDICT_RUNTIME_SOURCE } from "./settings.ts";
import { streamRoutes } from "./stream/index.ts";

/** What only the prediction feed is built from (an `AppOptions` field). */
export interface PredictOptions {
  /** The prediction feed's freshness bounds other than the documented ones (tests). */
  predictFreshness?: Partial<FreshnessBounds>;
}

/**
 * The prediction feed (`/predict/v9`): its runtime, switches and freshness,
 * the feed's gate (on every route but `/runtime`, and on its open streams),
 * stream, portfolio, points, markets and quotes, market media, legacy reads,
 * and their operator routes.
 */
export function mountPredict(shared: SharedServices, options: PredictOptions = {}): MountedSurface {
  const { db, clock, config, revisions, roles, media } = shared;
  // The prediction feed's switches and freshness, read by its gate on every gated route.
  const predictSettings = createPredictSettings({
    db,
    clock,
    chainId: roles.predict?.deployment.chainId,
    revision: revisions.counters([PREDICT_RUNTIME_SOURCE])[0]!,
    bump: () => revisions.bump(PREDICT_RUNTIME_SOURCE),
  });
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
    links: media.links,
    proxy: media.proxy,
    bump: () => revisions.bump(PREDICT_MEDIA_SOURCE),
  });
  const predictFeed = roles.predict
    ? { chainId: roles.predict.deployment.chainId, scope: roles.predict.scope }
    : undefined;
  // Without a prediction chain the reads find no head row: 503, like the gate.
  const predictFeedOrDisabled = predictFeed ?? { chainId: PREDICT_CHAIN_ID, scope: "" };
  const predict = predictRoutes([
    ...predictRuntimeRoutes({
      db,
      clock,
      deployment: roles.predict?.deployment,
      settings: predictSettings,
      freshness: predictFreshness,
    }),
    // Stream, portfolio, points: the stream is the shared live hub, filtered to the feed.
    ...streamRoutes({ hub: shared.live, feed: predictFeed }),
    ...portfolioRoutes({ portfolio: createPortfolioService({ db, feed: predictFeedOrDisabled }) }),
    ...pointsRoutes({ points: createPointsService({ db, feed: predictFeedOrDisabled }) }),
    // Markets and quotes.
    ...predictMarketsRoutes({ markets: createPredictMarkets({ db, predict: roles.predict }) }),
    // Market media.
    ...predictMediaRoutes({ media: predictMedia }),
    // Legacy (earlier generation): the same projection, deprecated in OpenAPI.
    ...legacyRoutes({ legacy: createLegacyMarkets({ db, predict: roles.predict }) }),
  ]);

  return {
    routes: { predict },
    adminRoutes: [
      ...predictAdminRoutes({ settings: predictSettings }),
      ...predictMediaAdminRoutes({ media: predictMedia }),
    ],
    gates: { feed: createFeedGate({ settings: predictSettings, freshness: predictFreshness }) },
    indexerSources: roles.predict ? [{ scope: roles.predict.scope, source: PREDICT_INDEXER_SOURCE }] : [],
    // An open feed stream ends once a switch turns the feed off for its key.
    live: { gates: { feed: createFeedStreamCheck(predictSettings) } },
    services: undefined,
  };
}

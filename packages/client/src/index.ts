/**
 * `@mkt/client`: the typed SDK of the mkt market, classic and prediction-feed APIs.
 *
 * Conventions, the same on every surface:
 * - Signing: every signed flow takes one `MktSigner`, a viem local or smart
 *   account or a viem `WalletClient` with an account.
 * - Times: every expiry the SDK returns (`expiresAt`, `cooldownUntil`) and the
 *   times beside it in the same answer are Unix epoch milliseconds (`number`),
 *   as are the times it takes (`launchAt`, `now()`); durations are named in
 *   their unit (`ttlSeconds`, `retryAfterSeconds`).
 * - Errors: every refused request throws `MktApiError` with `status`, a `code`
 *   (always set), `message`, `retryAfterSeconds` and `requestId`.
 * - Retries: see `RetryPolicy`; a client without an API key fails at once.
 * - Types: every answer's type is exported from here.
 */
export type {
  AccountActionInputOf,
  AccountActionKind,
  AccountActionResponse,
  AccountActionResult,
  ArtworkHistory,
  ArtworkHistoryQuery,
  ArtworkRevision,
  BoardCollectorList,
  BoardCreatorList,
  ClaimList,
  ClaimsQuery,
  ClassicAccountStats,
  ClassicActivityEvent,
  ClassicAllMetadata,
  ClassicAllowlistEntry,
  ClassicAllowlistProof,
  ClassicAllowlistResult,
  ClassicBoxPage,
  ClassicCardCatalogueView,
  ClassicChartTimeframe,
  ClassicChatEvent,
  ClassicChatMessage,
  ClassicChatPage,
  ClassicChatPosted,
  ClassicCollectionEvents,
  ClassicCollectionStats,
  ClassicCollectorsPage,
  ClassicConfirm,
  ClassicContractMetadata,
  ClassicDraft,
  ClassicDraftList,
  ClassicDraftPoll,
  ClassicDraftPollRequest,
  ClassicEthPrice,
  ClassicFeatured,
  ClassicGame,
  ClassicGameDetail,
  ClassicGameLeaderboardPage,
  ClassicGamesPage,
  ClassicHoldings,
  ClassicHoldingsPack,
  ClassicLiveDraft,
  ClassicLiveDraftRequest,
  ClassicOddsView,
  ClassicOwnerPage,
  ClassicPackAnswer,
  ClassicPagination,
  ClassicPriceChart,
  ClassicPricePoint,
  ClassicRangePack,
  ClassicRangePage,
  ClassicRarity,
  ClassicReactionKind,
  ClassicReactions,
  ClassicReady,
  ClassicRecent,
  ClassicRecentBoxParam,
  ClassicRecovery,
  ClassicReport,
  ClassicReportReason,
  ClassicRevision,
  ClassicRevisionRequest,
  ClassicSearchGame,
  ClassicSearchPage,
  ClassicStats,
  ClassicTokenMetadata,
  ClassicUnboxing,
  ClassicUpload,
  ClassicUploadResult,
  ClassicUploadType,
  ClassicVerifySignature,
  CollectorBoardQuery,
  CreatedKey,
  CreateKeyRequest,
  Creator,
  CreatorBoardQuery,
  CreatorDrop,
  CreatorDropList,
  CreatorReleaseList,
  DeletionResult,
  Discovery,
  DmMessageList,
  DmMessagesQuery,
  DmThreadList,
  DmUnread,
  FollowList,
  Head,
  LiveEvent,
  MarketBucket,
  MarketClaim,
  MarketDrop,
  MarketRuntime,
  MarketRuntimeCatalog,
  PackEdit,
  PackEditActionInput,
  PageQuery,
  PredictBlock,
  PredictLeaderboard,
  PredictMarket,
  PredictMarketMedia,
  PredictMarketResponse,
  PredictMarketsPage,
  PredictMarketsQuery,
  PredictPoints,
  PredictPortfolio,
  PredictQuote,
  PredictQuoteQuery,
  PredictRuntime,
  PredictStreamEvent,
  RateLimit,
  Release,
  ReleaseActionInput,
  ReleaseArtwork,
  ReleaseDraftInput,
  ReleaseList,
  RoomDetail,
  RoomList,
  RoomMessageList,
  SessionCreated,
  SessionState,
} from "@mkt/protocol";
export type { AccountApi, MarketSession, MarketSessionCredentials, SignInOptions } from "./account.ts";
export type {
  ClassicActivityApi,
  ClassicApi,
  ClassicGamesApi,
  ClassicMetadataApi,
  ClassicPacksApi,
  ClassicStatsApi,
} from "./classic.ts";
export type {
  ClassicAuthApi,
  ClassicChallengeSignIn,
  ClassicSession,
  ClassicSignIn,
  ClassicSignInOptions,
} from "./classic-auth.ts";
export type { ClassicChatApi, ClassicChatListOptions, ClassicChatSubscribeOptions } from "./classic-chat.ts";
export type { ClassicCreatorApi, WaitUntilReadyOptions } from "./classic-creator.ts";
export type { ClassicRefresh, ClassicTargetInput, ClassicToolsApi } from "./classic-tools.ts";
export type { ClassicUploadImage, UploadImageOptions } from "./classic-uploads.ts";
export type { KeysApi, MarketApi, MktClient, MktClientOptions } from "./client.ts";
export { createMktClient } from "./client.ts";
export type { MktSurface } from "./errors.ts";
export { MktApiError } from "./errors.ts";
export type { RetryPolicy } from "./http.ts";
export type { LiveApi, LiveOptions, LiveSubscription, StreamSubscriptionOptions } from "./live.ts";
export type { MarketReadsApi } from "./market-reads.ts";
export type { PackEditApi } from "./pack-edits.ts";
export type {
  PredictApi,
  PredictMarketsReads,
  PredictSnapshot,
  PredictSubscribeOptions,
  PredictSubscription,
} from "./predict.ts";
export { PredictDisabledError, predictApi } from "./predict.ts";
export type { PredictMarketsApi, PredictMarketsOptions, PredictQuoteOptions } from "./predict-markets.ts";
export { predictMarketsApi } from "./predict-markets.ts";
export type { ReleasesApi } from "./releases.ts";
export type { ClaimsOptions, RuntimeApi } from "./runtime.ts";
export type { MktSigner, SigningOptions } from "./signer.ts";

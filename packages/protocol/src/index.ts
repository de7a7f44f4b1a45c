export type {
  AccountAction,
  AccountActionFamily,
  AccountActionInput,
  AccountActionInputOf,
  AccountActionKind,
} from "./account/actions.ts";
export {
  ACCOUNT_ACTION_FAMILIES,
  ACCOUNT_ACTION_KINDS,
  ACCOUNT_LIMITS,
  accountActionEnvelopeSchema,
  accountActionSchema,
  accountActionSchemas,
  LIST_PAGING,
} from "./account/actions.ts";
export type { SignedEnvelopeFields } from "./account/messages.ts";
export {
  DELETION_CONSENT,
  DELETION_LIMITS,
  deletionMessage,
  MARKETPLACE_NAME,
  SIGN_IN_CONSENT,
  SIGN_IN_LIMITS,
  signInMessage,
} from "./account/messages.ts";
export type { PfpStatus, PixelPfp, PixelPfpStatus, ProfileLookup, SharedProfile } from "./account/profile.ts";
export {
  adminInviteRequestSchema,
  adminXVerifyRequestSchema,
  imageIdSchema,
  PFP_STATES_DOC,
  PFP_STATUSES,
  PIXEL_PFP_STATUSES,
  PROFILE_LIMITS,
  pixelPfpSchema,
  profileImageParamsSchema,
  profileImageSchema,
  profileLookupParamsSchema,
  profileLookupSchema,
  sharedProfileSchema,
  USERNAME_PATTERN,
  usernameSchema,
  xCallbackQuerySchema,
} from "./account/profile.ts";
export type { AccountActionResponse, AccountActionResult } from "./account/results.ts";
export {
  accountActionResponseSchema,
  accountActionResponseSchemas,
  accountActionResultSchemas,
} from "./account/results.ts";
export type {
  DeletionResult,
  SessionCreated,
  SessionKind,
  SessionState,
  SignedEnvelope,
} from "./account/schemas.ts";
export {
  accessSessionCreatedSchema,
  accessSessionRequestSchema,
  addressSchema,
  chatSessionCreatedSchema,
  deletionRequestSchema,
  deletionResultSchema,
  MAX_ACCOUNT_WALLETS,
  MAX_SIGNATURE_BYTES,
  proxySessionCreatedSchema,
  sessionCreatedSchema,
  sessionKindSchema,
  sessionStateSchema,
  signedEnvelopeSchema,
  signInResponseSchema,
} from "./account/schemas.ts";
export type {
  AccountRef,
  DmMessage,
  DmMessageList,
  DmMessagesQuery,
  DmThread,
  DmThreadList,
  DmUnread,
  FollowList,
  FollowState,
  PageQuery,
  Room,
  RoomList,
  RoomMessage,
  RoomMessageList,
  SocialActionKind,
  SocialActionResult,
} from "./account/social.ts";
export {
  accountAddressParamsSchema,
  accountRefSchema,
  dmMessageListSchema,
  dmMessageSchema,
  dmMessagesQuerySchema,
  dmThreadListSchema,
  dmThreadSchema,
  dmUnreadSchema,
  followEntrySchema,
  followListSchema,
  followStateSchema,
  messageIdSchema,
  pageQuerySchema,
  roomIdSchema,
  roomListSchema,
  roomMessageListSchema,
  roomMessagePostSchema,
  roomMessageSchema,
  roomParamsSchema,
  roomSchema,
  SOCIAL_PAGING,
  socialActionResultSchemas,
} from "./account/social.ts";
export type {
  ClassicCard,
  ClassicCollector,
  ClassicCollectorsPage,
  ClassicGame,
  ClassicGameLeaderboardEntry,
  ClassicGameLeaderboardPage,
  ClassicGamesPage,
  ClassicPackStatus,
  ClassicPagination,
  ClassicRarityName,
  ClassicSearchGame,
  ClassicSearchPage,
  ClassicStats,
  ClassicUnboxing,
} from "./classic/index.ts";
export {
  addressString,
  adminClassicUnboxingSchema,
  CLASSIC_DEFAULT_CHAIN_ID,
  CLASSIC_ERROR_CODES,
  CLASSIC_FOIL_NAMES,
  CLASSIC_GAME_LEADERBOARD_SORTS,
  CLASSIC_METADATA_SOURCES,
  CLASSIC_PACK_STATUSES,
  CLASSIC_RARITY_NAMES,
  CLASSIC_WEAR_NAMES,
  classicCardSchema,
  classicCollectorSchema,
  classicCollectorsPageSchema,
  classicCollectorsQuerySchema,
  classicGameLeaderboardEntrySchema,
  classicGameLeaderboardPageSchema,
  classicGameLeaderboardQuerySchema,
  classicGameSchema,
  classicGamesPageSchema,
  classicPaginationSchema,
  classicQuery,
  classicSearchGameSchema,
  classicSearchPageSchema,
  classicStatsQuerySchema,
  classicStatsSchema,
  classicTraitSchema,
  classicUnboxingSchema,
  decimalString,
  defaultGameSlug,
  exactInteger,
  isoDateTime,
  txHashString,
  weiString,
} from "./classic/index.ts";
export type { ClassicError, MarketError, PredictError, PredictRateLimited } from "./errors/index.ts";
export {
  classicErrorSchema,
  marketErrorSchema,
  PREDICT_RATE_LIMIT_CODE,
  predictErrorSchema,
  predictRateLimitSchema,
} from "./errors/index.ts";
export type { AdminKey, AdminKeyPatch, CreatedKey, CreateKeyRequest, ReplayedKey } from "./keys/index.ts";
export {
  API_KEY_PREFIX,
  adminKeyListQuerySchema,
  adminKeyListSchema,
  adminKeyParamsSchema,
  adminKeyPatchSchema,
  adminKeySchema,
  apiKeyPattern,
  createdKeySchema,
  createKeyRequestSchema,
  createKeyResponseSchema,
  replayedKeySchema,
} from "./keys/index.ts";
export type { ActionMessageFields } from "./market/action-messages.ts";
export {
  ACTION_LIMITS,
  PACK_EDIT_TITLE,
  packEditMessage,
  RELEASE_ACTION_TITLE,
  releaseActionMessage,
} from "./market/action-messages.ts";
export type {
  Artwork,
  ArtworkChanges,
  ArtworkHistory,
  ArtworkHistoryQuery,
  ArtworkRevision,
  ArtworkTier,
  ReleaseArtwork,
  RevisionAction,
} from "./market/artwork.ts";
export {
  ARTWORK_FIELDS,
  artworkChangesSchema,
  artworkHistoryQuerySchema,
  artworkHistorySchema,
  artworkRevisionSchema,
  artworkSchema,
  artworkTierSchema,
  REVISION_ACTIONS,
  releaseArtworkSchema,
} from "./market/artwork.ts";
export type {
  BoardCollector,
  BoardCollectorList,
  BoardCreator,
  BoardCreatorList,
  BoardWindow,
  CollectorBoardQuery,
  CollectorBoardSort,
  CreatorBoardQuery,
  CreatorBoardSort,
} from "./market/board.ts";
export {
  BOARD_PAGING,
  BOARD_WINDOW_MS,
  BOARD_WINDOWS,
  boardCollectorListSchema,
  boardCollectorSchema,
  boardCreatorListSchema,
  boardCreatorSchema,
  COLLECTOR_BOARD_SORTS,
  CREATOR_BOARD_SORTS,
  collectorBoardQuerySchema,
  creatorBoardQuerySchema,
} from "./market/board.ts";
export type { RoomDetail } from "./market/community.ts";
export { roomDetailSchema } from "./market/community.ts";
export type { Creator, CreatorDrop, CreatorDropList, CreatorReleaseList } from "./market/creators.ts";
export {
  creatorDropListSchema,
  creatorDropSchema,
  creatorParamsSchema,
  creatorReleaseListSchema,
  creatorSchema,
} from "./market/creators.ts";
export type { Discovery } from "./market/discovery.ts";
export { discoverySchema } from "./market/discovery.ts";
export type { Head } from "./market/head.ts";
export { headSchema } from "./market/head.ts";
export type { MarketBucket } from "./market/index.ts";
export {
  apiKeyCheckQuerySchema,
  MARKET_API_VERSION,
  MARKET_BUCKETS,
  marketBucketSchema,
} from "./market/index.ts";
export type { LiveEvent, LiveEventData, LiveEventName } from "./market/live.ts";
export {
  LIVE_EVENT_NAMES,
  LIVE_STREAM,
  liveClaimsSchema,
  liveDmSchema,
  liveDmSeenSchema,
  liveEventSchemas,
  liveHeadersSchema,
  liveHeadSchema,
  liveQuerySchema,
  liveReadySchema,
  liveReleaseSchema,
  liveResyncSchema,
  liveStreamEventSchema,
  parseLiveEvent,
} from "./market/live.ts";
export type {
  PackEdit,
  PackEditAction,
  PackEditActionInput,
  PackEditKind,
  PackEditRequest,
  ParsedPackEditRequest,
} from "./market/pack-edits.ts";
export {
  PACK_EDIT_KINDS,
  PACK_EDIT_LIMITS,
  packEditActionJson,
  packEditActionSchema,
  packEditActionSchemas,
  packEditParamsSchema,
  packEditRequestSchema,
  packEditSchema,
  parsePackEditAction,
} from "./market/pack-edits.ts";
export type {
  ParsedReleaseActionRequest,
  ReleaseAction,
  ReleaseActionInput,
  ReleaseActionKind,
  ReleaseActionRequest,
} from "./market/release-actions.ts";
export {
  InvalidActionError,
  MAX_LAUNCH_AT,
  parseReleaseAction,
  RELEASE_ACTION_KINDS,
  releaseActionJson,
  releaseActionRequestSchema,
  releaseActionSchema,
  releaseActionSchemas,
  safeParseReleaseAction,
} from "./market/release-actions.ts";
export type { OwnReleaseList, Release, ReleaseList } from "./market/release-resource.ts";
export {
  ownReleaseListSchema,
  RELEASE_PAGE_SIZE,
  releaseListQuerySchema,
  releaseListSchema,
  releaseParamsSchema,
  releaseSchema,
} from "./market/release-resource.ts";
export type {
  Card,
  Design,
  ReleaseDraft,
  ReleaseDraftInput,
  ReleaseLinks,
  ReleaseStatus,
} from "./market/releases.ts";
export {
  cardAttributeSchema,
  cardSchema,
  DESIGN_MASKS,
  DESIGN_PATTERNS,
  designSchema,
  dropIdSchema,
  httpsUrlSchema,
  RELEASE_LIMITS,
  RELEASE_STATES_DOC,
  RELEASE_STATUSES,
  RELEASE_TRANSITIONS,
  releaseDraftSchema,
  releaseIdSchema,
  releaseLinksSchema,
  releaseStatusSchema,
  runtimeVersionSchema,
} from "./market/releases.ts";
export type {
  ClaimList,
  ClaimsQuery,
  MarketClaim,
  MarketDrop,
  MarketRuntime,
  MarketRuntimeCatalog,
  MarketRuntimeList,
} from "./market/runtime.ts";
export {
  CLAIM_PAGING,
  claimListSchema,
  claimsQuerySchema,
  DROP_PAGING,
  marketClaimSchema,
  marketDropSchema,
  marketRuntimeCatalogSchema,
  marketRuntimeListSchema,
  marketRuntimeSchema,
  runtimeCatalogQuerySchema,
  runtimeParamsSchema,
} from "./market/runtime.ts";
export { healthSchema, readinessSchema } from "./platform/index.ts";
export { PREDICT_API_VERSION } from "./predict/index.ts";
export type { PredictRuntime } from "./predict/runtime.ts";
export { predictRuntimeSchema } from "./predict/runtime.ts";
export type { RateLimit } from "./quotas/index.ts";
export { RATE_LIMIT_HEADERS, rateLimitSchema, readRateLimit } from "./quotas/index.ts";

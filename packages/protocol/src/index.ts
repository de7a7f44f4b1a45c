// biome-ignore-all assist/source/organizeImports: merging the lines below would list one name per line, 650 lines of it.
/**
 * The package root: every public name, named once, by area (no `export *`,
 * so a reader sees what the package offers). Each area's `index.ts` says
 * which file a name comes from.
 */
export type { AccountAction, AccountActionFamily, AccountActionInput } from "./account/index.ts";
export type { AccountActionInputOf, AccountActionKind, AccountActionResponse } from "./account/index.ts";
export type { AccountActionResult, AccountRef, AnySessionKind, DeletionResult } from "./account/index.ts";
export type { DmMessage, DmMessageList, DmMessagesQuery, DmThread, DmThreadList } from "./account/index.ts";
export type { DmUnread, FollowList, FollowState, PageQuery, PfpStatus, PixelPfp } from "./account/index.ts";
export type { PixelPfpStatus, ProfileLookup, Room, RoomList, RoomMessage } from "./account/index.ts";
export type { RoomMessageList, SessionCreated, SessionKind, SessionState } from "./account/index.ts";
export type { SharedProfile, SignedEnvelope, SignedEnvelopeFields } from "./account/index.ts";
export type { SocialActionKind, SocialActionResult } from "./account/index.ts";
export { accessSessionCreatedSchema, accessSessionRequestSchema } from "./account/index.ts";
export { ACCOUNT_ACTION_FAMILIES, ACCOUNT_ACTION_KINDS, ACCOUNT_LIMITS } from "./account/index.ts";
export { accountActionEnvelopeSchema, accountActionResponseSchema } from "./account/index.ts";
export { accountActionResponseSchemas, accountActionResultSchemas } from "./account/index.ts";
export { accountActionSchema, accountActionSchemas, accountAddressParamsSchema } from "./account/index.ts";
export { accountRefSchema, addressSchema, adminInviteRequestSchema } from "./account/index.ts";
export { adminXVerifyRequestSchema, chatSessionCreatedSchema, DELETION_CONSENT } from "./account/index.ts";
export { DELETION_LIMITS, deletionMessage, deletionRequestSchema } from "./account/index.ts";
export { deletionResultSchema, dmMessageListSchema, dmMessageSchema } from "./account/index.ts";
export { dmMessagesQuerySchema, dmThreadListSchema, dmThreadSchema } from "./account/index.ts";
export { dmUnreadSchema, followEntrySchema, followListSchema, followStateSchema } from "./account/index.ts";
export { imageIdSchema, LIST_PAGING, MARKETPLACE_NAME, MAX_ACCOUNT_WALLETS } from "./account/index.ts";
export { MAX_SIGNATURE_BYTES, messageIdSchema, pageQuerySchema, PFP_STATES_DOC } from "./account/index.ts";
export { PFP_STATUSES, PIXEL_PFP_STATUSES, pixelPfpSchema, PROFILE_LIMITS } from "./account/index.ts";
export { profileImageParamsSchema, profileImageSchema, profileLookupParamsSchema } from "./account/index.ts";
export { profileLookupSchema, proxySessionCreatedSchema, roomIdSchema } from "./account/index.ts";
export { roomListSchema, roomMessageListSchema, roomMessagePostSchema } from "./account/index.ts";
export { roomMessageSchema, roomParamsSchema, roomSchema, sessionCreatedSchema } from "./account/index.ts";
export { sessionKindSchema, sessionStateSchema, sharedProfileSchema } from "./account/index.ts";
export { SIGN_IN_CONSENT, SIGN_IN_LIMITS, signedEnvelopeSchema, signInMessage } from "./account/index.ts";
export { signInResponseSchema, SOCIAL_PAGING, socialActionResultSchemas } from "./account/index.ts";
export { USERNAME_PATTERN, usernameSchema, xCallbackQuerySchema } from "./account/index.ts";
export type { AdminClassicGameFlags, AdminClassicReportsPage, ClassicAccount } from "./classic/index.ts";
export type { ClassicAccountStats, ClassicActivityEvent, ClassicActivityType } from "./classic/index.ts";
export type { ClassicAllMetadata, ClassicAllowlistEntry, ClassicAllowlistProof } from "./classic/index.ts";
export type { ClassicAllowlistResult, ClassicCard, ClassicCardCatalogueView } from "./classic/index.ts";
export type { ClassicCardInput, ClassicChatEvent, ClassicChatEventData } from "./classic/index.ts";
export type { ClassicChatEventName, ClassicChatListQuery, ClassicChatMessage } from "./classic/index.ts";
export type { ClassicChatPage, ClassicChatPost, ClassicChatPosted } from "./classic/index.ts";
export type { ClassicCollectionEvents, ClassicCollectionEventsQuery } from "./classic/index.ts";
export type { ClassicCollector, ClassicCollectorsPage, ClassicConfirm } from "./classic/index.ts";
export type { ClassicContractMetadata, ClassicDraft, ClassicDraftList } from "./classic/index.ts";
export type { ClassicDraftPoll, ClassicDraftPollRequest, ClassicDraftResponse } from "./classic/index.ts";
export type { ClassicDraftSummary, ClassicFeatured, ClassicFeaturedQuery } from "./classic/index.ts";
export type { ClassicFeaturedSort, ClassicGame, ClassicGameDetail } from "./classic/index.ts";
export type { ClassicGameFlags, ClassicGameLeaderboardEntry } from "./classic/index.ts";
export type { ClassicGameLeaderboardPage, ClassicGameMetadataInput } from "./classic/index.ts";
export type { ClassicGamesPage, ClassicGamesQuery, ClassicHoldings } from "./classic/index.ts";
export type { ClassicHoldingsPack, ClassicHoldingsQuery, ClassicNonce } from "./classic/index.ts";
export type { ClassicOddsView, ClassicOwnerPage, ClassicOwnerQuery } from "./classic/index.ts";
export type { ClassicPackStatus, ClassicPagination, ClassicRangePack } from "./classic/index.ts";
export type { ClassicRangePage, ClassicRangeQuery, ClassicRarityName } from "./classic/index.ts";
export type { ClassicReactionKind, ClassicReactionRequest, ClassicReactions } from "./classic/index.ts";
export type { ClassicReactionsQuery, ClassicReady, ClassicRecent } from "./classic/index.ts";
export type { ClassicRecentQuery, ClassicRecoveredEvent, ClassicRecovery } from "./classic/index.ts";
export type { ClassicRecoveryStatus, ClassicRefresh, ClassicRefreshRequest } from "./classic/index.ts";
export type { ClassicReport, ClassicReportReason, ClassicReportRecord } from "./classic/index.ts";
export type { ClassicReportRequest, ClassicRevision, ClassicRevisionRequest } from "./classic/index.ts";
export type { ClassicSearchGame, ClassicSearchPage, ClassicSearchQuery } from "./classic/index.ts";
export type { ClassicSession, ClassicSignIn, ClassicSignInFields } from "./classic/index.ts";
export type { ClassicSignInRequest, ClassicStats, ClassicTarget } from "./classic/index.ts";
export type { ClassicTokenMetadata, ClassicUnboxing, ClassicWhitelistRequest } from "./classic/index.ts";
export { addressString, adminClassicGameFlagsSchema } from "./classic/index.ts";
export { adminClassicReportParamsSchema, adminClassicReportPatchSchema } from "./classic/index.ts";
export {
  adminClassicReportSchema,
  adminClassicReportsPageSchema,
  adminClassicReviewedReportSchema,
} from "./classic/index.ts";
export { adminClassicReportsQuerySchema, adminClassicUnboxingSchema } from "./classic/index.ts";
export { CLASSIC_ACCESS_TOKEN_LIFETIME_MS, CLASSIC_ACTIVITY_TYPES } from "./classic/index.ts";
export { CLASSIC_ALLOWLIST_MAX_ENTRIES, CLASSIC_CHAT, CLASSIC_CREATOR_LINK_MAX } from "./classic/index.ts";
export { CLASSIC_CREATOR_SLUG, CLASSIC_CREATOR_URL, CLASSIC_CREATOR_URL_FIELDS } from "./classic/index.ts";
export { CLASSIC_CREATOR_URL_MAX, CLASSIC_DEFAULT_CHAIN_ID } from "./classic/index.ts";
export { CLASSIC_DEFAULT_ODDS_BPS, CLASSIC_DRAFT_ID } from "./classic/index.ts";
export { CLASSIC_DRAFT_MAX_ACCOUNT_BYTES, CLASSIC_DRAFT_MAX_BODY_BYTES } from "./classic/index.ts";
export { CLASSIC_DRAFT_MAX_CARDS, CLASSIC_DRAFTS_MAX_LIMIT } from "./classic/index.ts";
export { CLASSIC_DRAFTS_PER_ACCOUNT, CLASSIC_ERROR_CODES } from "./classic/index.ts";
export { CLASSIC_MAX_PAGE_DEPTH, CLASSIC_PAGE_DEPTH_RULE } from "./classic/index.ts";
export { CLASSIC_FEATURED_MAX_LIMIT, CLASSIC_FEATURED_SORTS, CLASSIC_FOIL_NAMES } from "./classic/index.ts";
export { CLASSIC_GAME_LEADERBOARD_SORTS, CLASSIC_GAMES_MAX_LIMIT } from "./classic/index.ts";
export { CLASSIC_HOLDINGS_MAX, CLASSIC_MAX_TOKEN_IDS, CLASSIC_METADATA_SOURCES } from "./classic/index.ts";
export { CLASSIC_PACK_STATUSES, CLASSIC_RANGE_SORTS, CLASSIC_RANGE_STATUS_FILTER } from "./classic/index.ts";
export { CLASSIC_RARITY_NAMES, CLASSIC_REACTION_KINDS, CLASSIC_READY_STATUSES } from "./classic/index.ts";
export { CLASSIC_RECOVERY_STATUSES, CLASSIC_REFRESH_COOLDOWN_SECONDS } from "./classic/index.ts";
export { CLASSIC_REFRESHES_PER_HOUR, CLASSIC_REPORT_DETAILS_MAX } from "./classic/index.ts";
export { CLASSIC_REPORT_REASONS, CLASSIC_REPORT_STATUSES } from "./classic/index.ts";
export { CLASSIC_REPORTS_PER_HOUR, CLASSIC_RESERVED_SLUGS } from "./classic/index.ts";
export { CLASSIC_SEARCH_MAX_QUERY, CLASSIC_SIGN_IN_CONSENT } from "./classic/index.ts";
export { CLASSIC_SIGN_IN_LIMITS, CLASSIC_WEAR_NAMES, CLASSIC_ZERO_ROOT } from "./classic/index.ts";
export { classicAccountSchema, classicAccountStatsQuerySchema } from "./classic/index.ts";
export { classicAccountStatsSchema, classicActivityEventSchema } from "./classic/index.ts";
export { classicAddressParamsSchema, classicAllMetadataQuerySchema } from "./classic/index.ts";
export { classicAllMetadataSchema, classicAllowlistEntrySchema } from "./classic/index.ts";
export { classicAllowlistResultSchema, classicCardCatalogueSchema } from "./classic/index.ts";
export { classicCardInputSchema, classicCardSchema, classicChainQuerySchema } from "./classic/index.ts";
export { classicChatAddressParamsSchema, classicChatChainQuerySchema } from "./classic/index.ts";
export { classicChatDeletedSchema, classicChatEventSchemas } from "./classic/index.ts";
export { classicChatGameParamsSchema, classicChatListQuerySchema } from "./classic/index.ts";
export { classicChatMessageParamsSchema, classicChatMessageSchema } from "./classic/index.ts";
export { classicChatPageSchema, classicChatPostedSchema, classicChatPostSchema } from "./classic/index.ts";
export { classicChatStreamEventSchema, classicChatStreamPath } from "./classic/index.ts";
export { classicChatStreamQuerySchema, classicChatTextSchema } from "./classic/index.ts";
export { classicCollectionEventsQuerySchema, classicCollectionEventsSchema } from "./classic/index.ts";
export { classicCollectorSchema, classicCollectorsPageSchema } from "./classic/index.ts";
export { classicCollectorsQuerySchema, classicConfirmRequestSchema } from "./classic/index.ts";
export { classicConfirmSchema, classicContractAddressParamsSchema } from "./classic/index.ts";
export { classicContractMetadataSchema, classicCreatorUrls } from "./classic/index.ts";
export { classicCreatorUrlString, classicDraftDeletedSchema } from "./classic/index.ts";
export { classicDraftDeploymentSchema, classicDraftListQuerySchema } from "./classic/index.ts";
export { classicDraftListSchema, classicDraftParamsSchema } from "./classic/index.ts";
export { classicDraftPollRequestSchema, classicDraftPollSchema } from "./classic/index.ts";
export { classicDraftResponseSchema, classicDraftSchema } from "./classic/index.ts";
export { classicDraftSummarySchema, classicDraftWhitelistStateSchema } from "./classic/index.ts";
export { classicFeaturedQuerySchema, classicFeaturedSchema } from "./classic/index.ts";
export { classicGameDetailSchema, classicGameFlagsSchema } from "./classic/index.ts";
export { classicGameLeaderboardEntrySchema, classicGameLeaderboardPageSchema } from "./classic/index.ts";
export { classicGameLeaderboardQuerySchema, classicGameMetadataInputSchema } from "./classic/index.ts";
export { classicGameParamsSchema, classicGameSchema, classicGamesPageSchema } from "./classic/index.ts";
export { classicGamesQuerySchema, classicHoldingsPackSchema } from "./classic/index.ts";
export { classicHoldingsQuerySchema, classicHoldingsSchema } from "./classic/index.ts";
export { classicMetadataAtQuerySchema, classicMetadataEntrySchema } from "./classic/index.ts";
export { classicNonceQuerySchema, classicNonceSchema, classicOddsViewSchema } from "./classic/index.ts";
export { classicOwnerAddressParamsSchema, classicOwnerPageSchema } from "./classic/index.ts";
export { classicOwnerQuerySchema, classicPaginationSchema } from "./classic/index.ts";
export { classicProofQuerySchema, classicProofSchema, classicQuery } from "./classic/index.ts";
export { classicRangePackSchema, classicRangePageSchema, classicRangeQuerySchema } from "./classic/index.ts";
export { classicRarityOddsSchema, classicReactionRequestSchema } from "./classic/index.ts";
export { classicReactionsQuerySchema, classicReactionsSchema, classicReadySchema } from "./classic/index.ts";
export { classicRecentQuerySchema, classicRecentSchema } from "./classic/index.ts";
// Live-compatible pack reads: the box view, one pack, a drop's packs, the rarity of an opening.
export type { ClassicBoxPage, ClassicDropPacksQuery, ClassicLiveBox } from "./classic/index.ts";
export type { ClassicOwnerAnswer, ClassicPackAnswer, ClassicPackDetail } from "./classic/index.ts";
export type { ClassicPackPathQuery, ClassicPackQuery, ClassicPackRarity } from "./classic/index.ts";
export type { ClassicRarity, ClassicRarityQuery, ClassicRecentAnswer } from "./classic/index.ts";
export { CLASSIC_PACK_ID_PATTERN, CLASSIC_RECENT_BOX_PARAMS } from "./classic/index.ts";
export type { ClassicRecentBoxParam } from "./classic/index.ts";
export { classicBoxPageSchema, classicDropPacksQuerySchema, classicLiveBoxSchema } from "./classic/index.ts";
export {
  classicOwnerAnswerSchema,
  classicPackAnswerSchema,
  classicPackDetailSchema,
} from "./classic/index.ts";
export {
  classicPackParamsSchema,
  classicPackPathQuerySchema,
  classicPackQuerySchema,
} from "./classic/index.ts";
export { classicPackRaritySchema, classicRarityQuerySchema, classicRaritySchema } from "./classic/index.ts";
export { classicRecentAnswerSchema } from "./classic/index.ts";
export { classicRecoveredEventSchema, classicRecoverySchema } from "./classic/index.ts";
export { classicRefreshRequestSchema, classicRefreshSchema } from "./classic/index.ts";
export { classicReportRecordSchema, classicReportRequestSchema } from "./classic/index.ts";
export { classicReportSchema, classicRevisionParamsSchema } from "./classic/index.ts";
export { classicRevisionRequestSchema, classicRevisionSchema } from "./classic/index.ts";
export { classicSearchGameSchema, classicSearchPageSchema } from "./classic/index.ts";
export { classicSearchQuerySchema, classicSessionSchema, classicSignInMessage } from "./classic/index.ts";
export { classicSignInRequestSchema, classicSignInResponseSchema } from "./classic/index.ts";
export { classicSignOutSchema, classicStatsQuerySchema, classicStatsSchema } from "./classic/index.ts";
// Live-compatible sign-in and creator routes.
export type {
  ClassicCreateGameParams,
  ClassicGenerateSlug,
  ClassicGenerateSlugRequest,
} from "./classic/index.ts";
export type { ClassicLiveDraft, ClassicLiveDraftRequest, ClassicLiveMessage } from "./classic/index.ts";
export type {
  ClassicLiveRarityWord,
  ClassicLiveSignInFields,
  ClassicVerifySignature,
} from "./classic/index.ts";
export type { ClassicVerifySignatureRequest } from "./classic/index.ts";
export { CLASSIC_LIVE_CHALLENGE_LIFETIME_MS, CLASSIC_LIVE_CHALLENGES_PER_ADDRESS } from "./classic/index.ts";
export {
  CLASSIC_LIVE_DEFAULT_ODDS_BPS,
  CLASSIC_LIVE_NONCE,
  CLASSIC_LIVE_RARITY_WORDS,
} from "./classic/index.ts";
export { CLASSIC_LIVE_TOKEN_NAME_SUFFIX, CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX } from "./classic/index.ts";
export { CLASSIC_PACK_NAME_MAX, classicCreateGameParamsSchema } from "./classic/index.ts";
export { classicGenerateSlugRequestSchema, classicGenerateSlugSchema } from "./classic/index.ts";
export { classicLiveCardDraftSchema, classicLiveDraftRequestSchema } from "./classic/index.ts";
export { classicLiveDraftSchema, classicLiveMessageParamsSchema } from "./classic/index.ts";
export { classicLiveMessageSchema, classicLiveMetadataItemSchema } from "./classic/index.ts";
export { classicLiveSignInMessage, classicLiveUserSchema, classicSlugOfPackName } from "./classic/index.ts";
export {
  classicVerifySignatureRequestSchema,
  classicVerifySignatureResponseSchema,
} from "./classic/index.ts";
export { CLASSIC_CHART_TIMEFRAMES, CLASSIC_USD_FORMAT, classicUsdString } from "./classic/index.ts";
export { classicCollectionStatsParamsSchema, classicCollectionStatsQuerySchema } from "./classic/index.ts";
export { classicCollectionStatsSchema } from "./classic/index.ts";
export {
  classicEthPriceSchema,
  classicPriceChartQuerySchema,
  classicPriceChartSchema,
} from "./classic/index.ts";
export { classicPriceChartStatsSchema, classicPricePointSchema } from "./classic/index.ts";
export type { ClassicChartTimeframe, ClassicCollectionStats, ClassicEthPrice } from "./classic/index.ts";
export type { ClassicPriceChart, ClassicPriceChartQuery, ClassicPricePoint } from "./classic/index.ts";
export { classicTargetSchema, classicTokenAttributeSchema } from "./classic/index.ts";
export { classicTokenMetadataParamsSchema, classicTokenMetadataSchema } from "./classic/index.ts";
export { classicTraitSchema, classicTxHashParamsSchema, classicUnboxingSchema } from "./classic/index.ts";
export { classicUserDataSchema, classicWhitelistFinalizeRequestSchema } from "./classic/index.ts";
export { classicWhitelistRequestSchema, decimalString, defaultGameSlug } from "./classic/index.ts";
export { exactInteger, isClassicCreatorUrl, isCreatorSlug, isoDateTime } from "./classic/index.ts";
export { isPlainHttpUrl, parseClassicChatEvent, txHashString, uint256Param } from "./classic/index.ts";
export { weiString } from "./classic/index.ts";
export type { ClassicUpload, ClassicUploadResult, ClassicUploadType } from "./classic/index.ts";
export { CLASSIC_UPLOAD_ID, CLASSIC_UPLOADS, classicUploadParamsSchema } from "./classic/index.ts";
export { classicUploadResultSchema, classicUploadSchema } from "./classic/index.ts";
export type { ClassicError, MarketError, PredictError, PredictRateLimited } from "./errors/index.ts";
export { classicErrorSchema, marketErrorSchema, PREDICT_RATE_LIMIT_CODE } from "./errors/index.ts";
export { ERROR_CODE_OF_STATUS, errorCodeOfStatus } from "./errors/index.ts";
export { predictErrorSchema, predictRateLimitSchema } from "./errors/index.ts";
export type { AdminKey, AdminKeyPatch, CreatedKey, CreateKeyRequest, ReplayedKey } from "./keys/index.ts";
export { adminKeyListQuerySchema, adminKeyListSchema, adminKeyParamsSchema } from "./keys/index.ts";
export { adminKeyPatchSchema, adminKeySchema, API_KEY_PREFIX, apiKeyPattern } from "./keys/index.ts";
export { createdKeySchema, createKeyRequestSchema, createKeyResponseSchema } from "./keys/index.ts";
export { replayedKeySchema } from "./keys/index.ts";
export type { ActionMessageFields, Artwork, ArtworkChanges, ArtworkHistory } from "./market/index.ts";
export type { ArtworkHistoryQuery, ArtworkRevision, ArtworkTier, BoardCollector } from "./market/index.ts";
export type { BoardCollectorList, BoardCreator, BoardCreatorList, BoardWindow } from "./market/index.ts";
export type { Card, ClaimList, ClaimsQuery, CollectorBoardQuery } from "./market/index.ts";
export type { CollectorBoardSort, Creator, CreatorBoardQuery, CreatorBoardSort } from "./market/index.ts";
export type { CreatorDrop, CreatorDropList, CreatorReleaseList, Design, Discovery } from "./market/index.ts";
export type { AdminIndexer, AdminScopeHead } from "./market/index.ts";
export type {
  AdminIndexerHandOff,
  AdminIndexerHandOffRequest,
  AdminIndexerHandOffs,
} from "./market/index.ts";
export { adminIndexerHandOffRequestSchema, adminIndexerHandOffSchema } from "./market/index.ts";
export {
  adminIndexerHandOffsSchema,
  adminIndexerScopeParamsSchema,
  adminScopeWriterSchema,
} from "./market/index.ts";
export type { Head, LiveEvent, LiveEventData, LiveEventName, MarketBucket } from "./market/index.ts";
export type { MarketClaim, MarketDrop, MarketRuntime, MarketRuntimeCatalog } from "./market/index.ts";
export type { MarketRuntimeList, OwnReleaseList, PackEdit, PackEditAction } from "./market/index.ts";
export type { PackEditActionInput, PackEditKind, PackEditRequest } from "./market/index.ts";
export type { ParsedPackEditRequest, ParsedReleaseActionRequest, Release } from "./market/index.ts";
export type { ReleaseAction, ReleaseActionInput, ReleaseActionKind } from "./market/index.ts";
export type { ReleaseActionRequest, ReleaseArtwork, ReleaseDraft } from "./market/index.ts";
export type { ReleaseDraftInput, ReleaseLinks, ReleaseList, ReleaseStatus } from "./market/index.ts";
export type { RevisionAction, RoomDetail } from "./market/index.ts";
export { ACTION_LIMITS, adminIndexerSchema, adminScopeHeadSchema } from "./market/index.ts";
export { apiKeyCheckQuerySchema, ARTWORK_FIELDS } from "./market/index.ts";
export { artworkChangesSchema, artworkHistoryQuerySchema, artworkHistorySchema } from "./market/index.ts";
export { artworkRevisionSchema, artworkSchema, artworkTierSchema, BOARD_PAGING } from "./market/index.ts";
export { BOARD_WINDOW_MS, BOARD_WINDOWS, boardCollectorListSchema } from "./market/index.ts";
export { boardCollectorSchema, boardCreatorListSchema, boardCreatorSchema } from "./market/index.ts";
export { cardAttributeSchema, cardSchema, CLAIM_PAGING, claimListSchema } from "./market/index.ts";
export { claimsQuerySchema, COLLECTOR_BOARD_SORTS, collectorBoardQuerySchema } from "./market/index.ts";
export { CREATOR_BOARD_SORTS, creatorBoardQuerySchema, creatorDropListSchema } from "./market/index.ts";
export { creatorDropSchema, creatorParamsSchema, creatorReleaseListSchema } from "./market/index.ts";
export { creatorSchema, DESIGN_MASKS, DESIGN_PATTERNS, designSchema } from "./market/index.ts";
export { discoverySchema, DROP_PAGING, dropIdSchema, headSchema, httpsUrlSchema } from "./market/index.ts";
export { InvalidActionError, LIVE_EVENT_NAMES, LIVE_STREAM, liveClaimsSchema } from "./market/index.ts";
export { liveDmSchema, liveDmSeenSchema, liveEndSchema, liveEventSchemas } from "./market/index.ts";
export { liveHeadersSchema, liveHeadSchema, liveQuerySchema, liveReadySchema } from "./market/index.ts";
export { liveReleaseSchema, liveResyncSchema, liveStreamEventSchema } from "./market/index.ts";
export { MARKET_API_VERSION, MARKET_BUCKETS, marketBucketSchema, marketClaimSchema } from "./market/index.ts";
export { marketDropSchema, marketRuntimeCatalogSchema, marketRuntimeListSchema } from "./market/index.ts";
export { marketRuntimeSchema, MAX_LAUNCH_AT, ownReleaseListSchema, PACK_EDIT_KINDS } from "./market/index.ts";
export { PACK_EDIT_LIMITS, PACK_EDIT_TITLE, packEditActionJson } from "./market/index.ts";
export { packEditActionSchema, packEditActionSchemas, packEditMessage } from "./market/index.ts";
export { packEditParamsSchema, packEditRequestSchema, packEditSchema } from "./market/index.ts";
export { parseLiveEvent, parsePackEditAction, parseReleaseAction } from "./market/index.ts";
export { RELEASE_ACTION_KINDS, RELEASE_ACTION_TITLE, RELEASE_LIMITS } from "./market/index.ts";
export { RELEASE_PAGE_SIZE, RELEASE_STATES_DOC, RELEASE_STATUSES } from "./market/index.ts";
export { RELEASE_TRANSITIONS, releaseActionJson, releaseActionMessage } from "./market/index.ts";
export { releaseActionRequestSchema, releaseActionSchema, releaseActionSchemas } from "./market/index.ts";
export { releaseArtworkSchema, releaseDraftSchema, releaseIdSchema } from "./market/index.ts";
export { releaseLinksSchema, releaseListQuerySchema, releaseListSchema } from "./market/index.ts";
export { releaseParamsSchema, releaseSchema, releaseStatusSchema, REVISION_ACTIONS } from "./market/index.ts";
export { roomDetailSchema, runtimeCatalogQuerySchema, runtimeParamsSchema } from "./market/index.ts";
export { runtimeVersionSchema, safeParseReleaseAction } from "./market/index.ts";
export type { IntegerParamOptions } from "./params/index.ts";
export { INTEGER_PARAM_PATTERN, integerParam } from "./params/index.ts";
export type {
  AdminChainHealth,
  AdminHealth,
  AdminPriceHealth,
  AdminScopeHealth,
  Landing,
} from "./platform/index.ts";
export { adminHealthSchema, healthSchema, landingSchema, readinessSchema } from "./platform/index.ts";
export type { AdminPredictMarketMedia, AdminPredictRuntimePatch, PredictBlock } from "./predict/index.ts";
export type { PredictFreshness, PredictHealth, PredictLeaderboard } from "./predict/index.ts";
export type { PredictLegacyMarket, PredictLegacyTrade, PredictMarket } from "./predict/index.ts";
export type { PredictMarketMedia, PredictMarketMediaImage, PredictMarketResponse } from "./predict/index.ts";
export type { PredictMarketsPage, PredictMarketsQuery, PredictMarketState } from "./predict/index.ts";
export type { PredictPoints, PredictPortfolio, PredictPortfolioQuery } from "./predict/index.ts";
export type { PredictPosition, PredictQuote, PredictQuoteQuery, PredictRuntime } from "./predict/index.ts";
export type { PredictSide, PredictStaleReason, PredictStreamEvent } from "./predict/index.ts";
export type { PredictStreamEventData, PredictStreamEventName } from "./predict/index.ts";
export { adminPredictMarketMediaSchema, adminPredictRuntimePatchSchema } from "./predict/index.ts";
export { parsePredictStreamEvent, PREDICT_API_VERSION, PREDICT_ART_SIZE } from "./predict/index.ts";
export { PREDICT_FRESHNESS_BOUNDS, PREDICT_LEADERBOARD_LIMIT } from "./predict/index.ts";
export { PREDICT_MARKET_STATES, PREDICT_MARKETS_LIMIT, PREDICT_MEDIA_URL_MAX } from "./predict/index.ts";
export { PREDICT_POINTS_UNIT, PREDICT_PORTFOLIO_LIMIT, PREDICT_SIDES } from "./predict/index.ts";
export { predictPointsOf } from "./predict/index.ts";
export { PREDICT_STALE_REASONS, PREDICT_STREAM, predictAddressParamsSchema } from "./predict/index.ts";
export { predictBlockSchema, predictFreshnessSchema, predictHeadEventSchema } from "./predict/index.ts";
export { predictHealthSchema, predictLeaderboardQuerySchema } from "./predict/index.ts";
export { predictLeaderboardSchema, predictLegacyMarketParamsSchema } from "./predict/index.ts";
export { predictLegacyMarketSchema, predictLegacyMarketsQuerySchema } from "./predict/index.ts";
export { predictLegacyMarketsSchema, predictLegacyTradeSchema } from "./predict/index.ts";
export { predictLegacyTradesSchema, predictMarketEventSchema } from "./predict/index.ts";
export { predictMarketMediaImageSchema, predictMarketMediaSchema } from "./predict/index.ts";
export { predictMarketParamsSchema, predictMarketResponseSchema } from "./predict/index.ts";
export { predictMarketSchema, predictMarketsPageSchema, predictMarketsQuerySchema } from "./predict/index.ts";
export { predictPointsSchema, predictPortfolioQuerySchema, predictPortfolioSchema } from "./predict/index.ts";
export { predictPositionSchema, predictQuoteQuerySchema, predictQuoteSchema } from "./predict/index.ts";
export { predictResolutionEventSchema, predictResyncSchema, predictRuntimeSchema } from "./predict/index.ts";
export { predictStreamEventSchema, predictStreamEventSchemas } from "./predict/index.ts";
export { predictTradeEventSchema } from "./predict/index.ts";
export type { RateLimit } from "./quotas/index.ts";
export {
  LIVE_RATE_LIMIT_HEADERS,
  RATE_LIMIT_HEADERS,
  rateLimitSchema,
  readRateLimit,
} from "./quotas/index.ts";

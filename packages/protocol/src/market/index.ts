/**
 * The market area's public surface: releases and their signed actions, pack
 * edits, artwork, runtimes, boards, creators, discovery and the live stream.
 */
export type { ActionMessageFields } from "./action-messages.ts";
export {
  ACTION_LIMITS,
  PACK_EDIT_TITLE,
  packEditMessage,
  RELEASE_ACTION_TITLE,
  releaseActionMessage,
} from "./action-messages.ts";
export type { MarketBucket } from "./api.ts";
export {
  apiKeyCheckQuerySchema,
  MARKET_API_VERSION,
  MARKET_BUCKETS,
  marketBucketSchema,
} from "./api.ts";
export type {
  Artwork,
  ArtworkChanges,
  ArtworkHistory,
  ArtworkHistoryQuery,
  ArtworkRevision,
  ArtworkTier,
  ReleaseArtwork,
  RevisionAction,
} from "./artwork.ts";
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
} from "./artwork.ts";
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
} from "./board.ts";
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
} from "./board.ts";
export type { RoomDetail } from "./community.ts";
export { roomDetailSchema } from "./community.ts";
export type { Creator, CreatorDrop, CreatorDropList, CreatorReleaseList } from "./creators.ts";
export {
  creatorDropListSchema,
  creatorDropSchema,
  creatorParamsSchema,
  creatorReleaseListSchema,
  creatorSchema,
} from "./creators.ts";
export type { Discovery } from "./discovery.ts";
export { discoverySchema } from "./discovery.ts";
export type {
  AdminIndexer,
  AdminIndexerHandOff,
  AdminIndexerHandOffRequest,
  AdminIndexerHandOffs,
  AdminScopeHead,
  Head,
} from "./head.ts";
export {
  adminIndexerHandOffRequestSchema,
  adminIndexerHandOffSchema,
  adminIndexerHandOffsSchema,
  adminIndexerSchema,
  adminIndexerScopeParamsSchema,
  adminScopeHeadSchema,
  adminScopeWriterSchema,
  headSchema,
} from "./head.ts";
export type { LiveEvent, LiveEventData, LiveEventName } from "./live.ts";
export {
  LIVE_EVENT_NAMES,
  LIVE_STREAM,
  liveClaimsSchema,
  liveDmSchema,
  liveDmSeenSchema,
  liveEndSchema,
  liveEventSchemas,
  liveHeadersSchema,
  liveHeadSchema,
  liveQuerySchema,
  liveReadySchema,
  liveReleaseSchema,
  liveResyncSchema,
  liveStreamEventSchema,
  parseLiveEvent,
} from "./live.ts";
export type {
  PackEdit,
  PackEditAction,
  PackEditActionInput,
  PackEditKind,
  PackEditRequest,
  ParsedPackEditRequest,
} from "./pack-edits.ts";
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
} from "./pack-edits.ts";
export type {
  ParsedReleaseActionRequest,
  ReleaseAction,
  ReleaseActionInput,
  ReleaseActionKind,
  ReleaseActionRequest,
} from "./release-actions.ts";
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
} from "./release-actions.ts";
export type { OwnReleaseList, Release, ReleaseList } from "./release-resource.ts";
export {
  ownReleaseListSchema,
  RELEASE_PAGE_SIZE,
  releaseListQuerySchema,
  releaseListSchema,
  releaseParamsSchema,
  releaseSchema,
} from "./release-resource.ts";
export type {
  Card,
  Design,
  ReleaseDraft,
  ReleaseDraftInput,
  ReleaseLinks,
  ReleaseStatus,
} from "./releases.ts";
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
} from "./releases.ts";
export type {
  ClaimList,
  ClaimsQuery,
  MarketClaim,
  MarketDrop,
  MarketRuntime,
  MarketRuntimeCatalog,
  MarketRuntimeList,
} from "./runtime.ts";
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
} from "./runtime.ts";

export type { AccountAction, AccountActionInput, AccountActionKind } from "./account/actions.ts";
export {
  ACCOUNT_ACTION_FAMILIES,
  ACCOUNT_ACTION_KINDS,
  ACCOUNT_LIMITS,
  accountActionResultSchema,
  accountActionSchema,
  accountActionSchemas,
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
export type { SignedEnvelope } from "./account/schemas.ts";
export {
  accessSessionCreatedSchema,
  accessSessionRequestSchema,
  addressSchema,
  chatSessionCreatedSchema,
  deletionRequestSchema,
  deletionResultSchema,
  proxySessionCreatedSchema,
  sessionCreatedSchema,
  sessionStateSchema,
  signedEnvelopeSchema,
} from "./account/schemas.ts";
export type {
  AccountRef,
  DmMessage,
  DmMessageList,
  DmThread,
  DmThreadList,
  DmUnread,
  FollowList,
  FollowState,
  Room,
  RoomList,
  RoomMessage,
  RoomMessageList,
  SocialActionKind,
  SocialActionResult,
} from "./account/social.ts";
export {
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
  roomSchema,
  SOCIAL_PAGING,
  socialActionResultSchemas,
} from "./account/social.ts";
export type { ClassicError, MarketError, PredictError, PredictRateLimited } from "./errors/index.ts";
export {
  classicErrorSchema,
  marketErrorSchema,
  PREDICT_RATE_LIMIT_CODE,
  predictErrorSchema,
  predictRateLimitSchema,
} from "./errors/index.ts";
export type { AdminKey, AdminKeyPatch, CreatedKey, CreateKeyRequest } from "./keys/index.ts";
export {
  API_KEY_PREFIX,
  adminKeyListSchema,
  adminKeyPatchSchema,
  adminKeySchema,
  apiKeyPattern,
  createdKeySchema,
  createKeyRequestSchema,
} from "./keys/index.ts";
export type { Head } from "./market/head.ts";
export { headSchema } from "./market/head.ts";
export type { MarketBucket } from "./market/index.ts";
export { apiKeyCheckQuerySchema, MARKET_API_VERSION, marketBucketSchema } from "./market/index.ts";
export { PREDICT_API_VERSION } from "./predict/index.ts";

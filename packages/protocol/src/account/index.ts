/**
 * The account area's public surface: signed account actions and their
 * results, sign-in and deletion messages, sessions, profiles and the social
 * reads.
 */
export type {
  AccountAction,
  AccountActionFamily,
  AccountActionInput,
  AccountActionInputOf,
  AccountActionKind,
} from "./actions.ts";
export {
  ACCOUNT_ACTION_FAMILIES,
  ACCOUNT_ACTION_KINDS,
  ACCOUNT_LIMITS,
  accountActionEnvelopeSchema,
  accountActionSchema,
  accountActionSchemas,
  LIST_PAGING,
} from "./actions.ts";
export type { SignedEnvelopeFields } from "./messages.ts";
export {
  DELETION_CONSENT,
  DELETION_LIMITS,
  deletionMessage,
  MARKETPLACE_NAME,
  SIGN_IN_CONSENT,
  SIGN_IN_LIMITS,
  signInMessage,
} from "./messages.ts";
export type { PfpStatus, PixelPfp, PixelPfpStatus, ProfileLookup, SharedProfile } from "./profile.ts";
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
} from "./profile.ts";
export type { AccountActionResponse, AccountActionResult } from "./results.ts";
export {
  accountActionResponseSchema,
  accountActionResponseSchemas,
  accountActionResultSchemas,
} from "./results.ts";
export type {
  AnySessionKind,
  DeletionResult,
  SessionCreated,
  SessionKind,
  SessionState,
  SignedEnvelope,
} from "./schemas.ts";
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
} from "./schemas.ts";
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
} from "./social.ts";
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
} from "./social.ts";

export type {
  ArtworkHistory,
  ArtworkRevision,
  BoardCollectorList,
  BoardCreatorList,
  ClaimList,
  ClassicActivityEvent,
  ClassicChatEvent,
  ClassicChatMessage,
  ClassicChatPage,
  ClassicChatPosted,
  ClassicGame,
  ClassicHoldings,
  ClassicHoldingsPack,
  ClassicRangePack,
  ClassicSearchGame,
  ClassicSession,
  ClassicSignIn,
  ClassicTokenMetadata,
  Creator,
  CreatorDropList,
  CreatorReleaseList,
  Discovery,
  Head,
  LiveEvent,
  MarketClaim,
  MarketDrop,
  MarketRuntime,
  MarketRuntimeCatalog,
  PackEdit,
  PackEditActionInput,
  RateLimit,
  Release,
  ReleaseArtwork,
  ReleaseDraftInput,
  ReleaseList,
  RoomDetail,
} from "@mkt/protocol";
export type { MarketSessionCredentials, MessageSigner, SignInOptions } from "./account.ts";
export type { ClassicSigner, ClassicSignInOptions } from "./classic-auth.ts";
export type { ClassicChatListOptions, ClassicChatSubscribeOptions } from "./classic-chat.ts";
export type { WaitUntilReadyOptions } from "./classic-creator.ts";
export type { ClassicTargetInput } from "./classic-tools.ts";
export type { MktClient, MktClientOptions } from "./client.ts";
export { createMktClient } from "./client.ts";
export { MktApiError } from "./errors.ts";
export type { RetryPolicy } from "./http.ts";
export type { LiveOptions, LiveSubscription, StreamSubscriptionOptions } from "./live.ts";
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
export type { ReleaseActionOptions, ReleaseSigner } from "./releases.ts";
export type { ClaimsOptions } from "./runtime.ts";
export type { ActionOptions, ActionSigner } from "./signed-actions.ts";

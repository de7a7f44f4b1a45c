export type { LiveEvent, RateLimit, Release, ReleaseDraftInput, ReleaseList } from "@mkt/protocol";
export type { MarketSessionCredentials, MessageSigner, SignInOptions } from "./account.ts";
export type { MktClient, MktClientOptions } from "./client.ts";
export { createMktClient } from "./client.ts";
export { MktApiError } from "./errors.ts";
export type { RetryPolicy } from "./http.ts";
export type { LiveOptions, LiveSubscription } from "./live.ts";
export type { ReleaseActionOptions, ReleaseSigner } from "./releases.ts";

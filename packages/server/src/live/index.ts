/**
 * Live events: the event log every replica appends to and reads, the hub that
 * holds each replica's open streams (admission, caps, re-checks, resume), and
 * the SSE writer every stream route of every surface answers with.
 */
export type { LiveHooks, LiveHub, LiveHubDeps } from "./hub.ts";
export { createLiveHub } from "./hub.ts";
export type { StreamChecks, StreamGateCheck } from "./recheck.ts";
export { serveStream } from "./sse.ts";
export type { LiveRow, LiveStore } from "./store.ts";
export { createLiveStore, LIVE_CHANNEL } from "./store.ts";
export type { LiveLimits, StreamRequest } from "./streams.ts";
export { DEFAULT_LIVE_LIMITS } from "./streams.ts";

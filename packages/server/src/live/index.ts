/**
 * Live events: the event log every replica appends to and reads, the hub that
 * holds each replica's open streams (admission, caps, re-checks, resume), and
 * the SSE writer every stream route of every surface answers with.
 */
export type { LiveHub, LiveHubDeps, LiveLimits, StreamChecks, StreamRequest } from "./hub.ts";
export { createLiveHub, DEFAULT_LIVE_LIMITS } from "./hub.ts";
export { serveStream } from "./sse.ts";
export type { LiveRow, LiveStore } from "./store.ts";
export { createLiveStore, LIVE_CHANNEL } from "./store.ts";

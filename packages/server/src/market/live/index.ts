export type { LiveHub, LiveLimits, StreamRequest } from "./hub.ts";
export { createLiveHub, DEFAULT_LIVE_LIMITS } from "./hub.ts";
export { liveRoutes, serveStream } from "./live-routes.ts";
export type { LiveRow, LiveStore } from "./store.ts";
export { createLiveStore, LIVE_CHANNEL } from "./store.ts";

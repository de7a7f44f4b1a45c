import {
  cache,
  declareRoutes,
  type RouteDefinition,
  type RouteSpec,
  type RouteTable,
} from "../http/route.ts";

/** The read-cache source that moves with every commit of the classic factory's indexer scope (`classic/mount.ts`). */
export const CLASSIC_INDEXER_SOURCE = "indexer:classic";
/** Moves when offchain game data changes: metadata revisions, slugs, operator flags. */
export const CLASSIC_METADATA_SOURCE = "classic-metadata";
/** Moves when a reaction on a classic game or pack is set or cleared (classic/tools). */
export const CLASSIC_SOCIAL_SOURCE = "classic-social";
/** Moves when an operator switch of the classic surface changes (`unboxing_disallowed`). */
export const CLASSIC_SETTINGS_SOURCE = "classic-settings";

const read = { kind: "classic", class: "read", key: true } as const;
const search = { kind: "classic", class: "search", key: true } as const;
/** The marketplace-standard metadata routes: neither credential, 2,000 per minute per client. */
const publicMetadata = { kind: "classic", class: "metadata", key: false } as const;

/** API-key writes (search and API-key writes share a quota class). */
const write = { kind: "classic", class: "search", key: true } as const;
/** Bearer-only routes: no key; the write class's budget per client instead. */
const bearerOnly = { kind: "classic", class: "search", key: false } as const;

/** Answers vary on the image-proxy header (`X-Bypass-Image-Proxy`): original or proxied image URLs. */
const IMAGE_VARY = ["x-bypass-image-proxy"] as const;

/**
 * The Classic API's cache classes, as declarations:
 * - `state`: fast-changing pack and game state, about 5 seconds;
 * - `stable`: stable metadata and analytics, 5 minutes;
 * - `holdings`: holdings by wallet, 30 seconds.
 * Every one is a shared read-cache entry that also moves with the revisions
 * of the data it was built from, so a new block or metadata revision is seen
 * at once on every replica; the max-age bounds what clients keep.
 */
const state = cache.shared(5, [CLASSIC_INDEXER_SOURCE, CLASSIC_METADATA_SOURCE], IMAGE_VARY);
const stable = cache.shared(300, [CLASSIC_INDEXER_SOURCE, CLASSIC_METADATA_SOURCE], IMAGE_VARY);
const holdings = cache.shared(30, [CLASSIC_INDEXER_SOURCE, CLASSIC_METADATA_SOURCE], IMAGE_VARY);

/**
 * The classic surface (`/classic`), every route and its rules: the quota
 * class it charges, whether it needs the API key, whether it
 * needs the bearer (`session: "classic"`: with `key: true` "API-KEY and
 * bearer", with `key: false` "bearer only"), its cache policy. Nothing else
 * declares these; route files define schemas, documentation and handlers only.
 */
export const CLASSIC_ROUTES = {
  "GET /unboxing-disallowed": { access: read, cache: cache.shared(5, [CLASSIC_SETTINGS_SOURCE]) },
  // Games (classic/games): state, since market caps, progress and flags move with every block.
  "GET /games": { access: read, cache: state },
  "GET /search": { access: search, cache: state },
  "GET /featured": { access: read, cache: state },
  "GET /contractAddress/:addressOrSlug": { access: read, cache: state },
  "GET /contractAddress/:addressOrSlug/ready": { access: read, cache: state },
  // state, not stable: totalTokens and contractDetails' prices move with every mint and trade.
  "GET /contractAddress/:addressOrSlug/all-metadata": { access: read, cache: state },
  // Metadata views (classic/games): stable; the contract-level JSON is public.
  "GET /metadata/:addressOrSlug": { access: publicMetadata, cache: stable },
  "GET /metadata/:addressOrSlug/cards": { access: read, cache: stable },
  "GET /metadata/:addressOrSlug/odds": { access: read, cache: stable },
  // Packs and activity (classic/packs).
  "GET /range": { access: read, cache: state },
  "GET /owner/:address": { access: read, cache: holdings },
  "GET /collection/:ownerAddress": { access: read, cache: holdings },
  "GET /collection/:contractAddress/events": { access: read, cache: state },
  "GET /recent": { access: read, cache: state },
  "GET /metadata/:addressOrSlug/:tokenId": { access: publicMetadata, cache: state },
  // Live-compatible pack reads (classic/packs): one pack (`/` and by path), a drop's packs, the
  // rarity of an opening. Pack state, so `state`, as the other pack reads.
  "GET /": { access: read, cache: state },
  "GET /contractAddress/:addressOrSlug/tokenId/:tokenId": { access: read, cache: state },
  "GET /contractAddress/:addressOrSlug/all": { access: read, cache: state },
  "GET /rarity": { access: read, cache: state },
  // Images and art (classic/images): for <img> tags, which send no headers, so no key.
  "GET /image/:signature": { access: publicMetadata, cache: cache.public(86_400) },
  "GET /art/:chainId/:address/:what.svg": { access: publicMetadata, cache: cache.public(86_400) },
  // Creator image uploads (classic/uploads): the live service's upload call, stored in the
  // database; the stored bytes are public and immutable, for <img> tags (no key).
  "POST /image/upload": { access: write, session: "classic", cache: cache.noStore },
  "GET /uploads/:id": { access: publicMetadata, cache: cache.public(31_536_000, true) },
  // Leaderboards and platform statistics (classic/stats).
  "GET /leaderboards/collectors": { access: read, cache: stable },
  "GET /leaderboards/games": { access: read, cache: stable },
  "GET /stats": { access: read, cache: stable },
  // Live-compatible market reads (classic/stats/live-routes.ts). The ETH price: 30 s, half the HTTP
  // price source's refresh period, moving with no projection. The chart: up to 30 s (its buckets
  // follow the clock), rebuilt with every indexed block. Collection statistics: game state.
  "GET /eth-price": { access: read, cache: cache.shared(30, []) },
  "GET /price-chart/:addressOrSlug": { access: read, cache: cache.shared(30, [CLASSIC_INDEXER_SOURCE]) },
  "GET /collection/:contractAddress/stats": { access: read, cache: state },
  // Bearer sign-in (classic/auth).
  "GET /auth/nonce": { access: read, cache: cache.noStore },
  "POST /auth/sign-in": { access: write, cache: cache.noStore },
  "GET /auth/session": { access: read, session: "classic", cache: cache.private },
  "POST /auth/sign-out": { access: bearerOnly, session: "classic", cache: cache.noStore },
  // Live-compatible sign-in and creator routes (classic/auth, classic/drafts): what clients of
  // the live Classic service call, at the same paths below /classic.
  "GET /auth/message/:address": { access: read, cache: cache.noStore },
  "POST /auth/verify-signature": { access: write, cache: cache.noStore },
  "POST /generate-slug": { access: write, session: "classic", cache: cache.noStore },
  "POST /metadata/draft": { access: write, session: "classic", cache: cache.noStore },
  // Creator workflow (classic/drafts): drafts, allowlists, confirm, revisions.
  "POST /metadata/draft/poll": { access: write, session: "classic", cache: cache.noStore, idempotent: true },
  "GET /metadata/draft": { access: read, session: "classic", cache: cache.private },
  "GET /metadata/draft/:draftId": { access: read, session: "classic", cache: cache.private },
  "DELETE /metadata/draft/:draftId": { access: write, session: "classic", cache: cache.noStore },
  "POST /metadata/draft/whitelist": { access: write, session: "classic", cache: cache.noStore },
  "POST /metadata/draft/whitelist/finalize": { access: write, session: "classic", cache: cache.noStore },
  "GET /metadata/draft/:draftId/whitelist/proof": { access: read, cache: cache.noStore },
  "POST /metadata/confirm": { access: bearerOnly, session: "classic", cache: cache.noStore },
  "PUT /metadata/:addressOrSlug": { access: bearerOnly, session: "classic", cache: cache.noStore },
  // Recovery, reactions, reports, refreshes, account statistics (classic/tools):
  // every bearer route is "API-KEY and bearer"; the counts are a key-only read.
  "GET /events/:txHash": { access: write, session: "classic", cache: cache.noStore },
  "PUT /reactions": { access: write, session: "classic", cache: cache.noStore },
  "GET /reactions": { access: read, cache: cache.shared(5, [CLASSIC_SOCIAL_SOURCE]) },
  "GET /reactions/mine": { access: read, session: "classic", cache: cache.private },
  "POST /reports": { access: write, session: "classic", cache: cache.noStore },
  "POST /refresh": { access: write, session: "classic", cache: cache.noStore },
  "GET /stats/me": { access: read, session: "classic", cache: cache.private },
  // Game chat (classic/chat): durable messages, and their stream of refresh signals
  // (long-lived, outside the in-flight cap, the market live streams' budget and caps).
  "GET /chat/:contractAddress": { access: read, cache: cache.noStore },
  "POST /chat/:contractAddress": { access: write, session: "classic", cache: cache.noStore },
  "DELETE /chat/:contractAddress/:messageId": { access: write, session: "classic", cache: cache.noStore },
  "GET /chat/:contractAddress/stream": {
    access: { kind: "classic", class: "stream", key: true },
    cache: cache.noStore,
    stream: true,
  },
} satisfies RouteTable;

export function classicRoutes(specs: readonly RouteSpec[]): RouteDefinition[] {
  return declareRoutes("classic", CLASSIC_ROUTES, specs);
}

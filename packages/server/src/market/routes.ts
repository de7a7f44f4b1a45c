import {
  cache,
  declareRoutes,
  type RouteDefinition,
  type RouteSpec,
  type RouteTable,
} from "../http/route.ts";
import { IMAGE_ROUTE } from "../identity/index.ts";
import { RELEASES_SOURCE } from "./releases/service.ts";

/**
 * The read-cache source that moves with every commit of the market's indexer
 * scope (`market/mount.ts` declares it; it moves beside `indexer:<scope>` for
 * the registry's scope).
 */
export const MARKET_INDEXER_SOURCE = "indexer:market";

const read = { kind: "market", bucket: "read" } as const;
const write = { kind: "market", bucket: "write" } as const;
const stream = { kind: "market", bucket: "stream" } as const;
/** Listed as public in the authentication guide: keyless when PUBLIC_READS=open, budgeted per client IP. */
const publicRead = { kind: "market", bucket: "read", publicRead: true } as const;

/**
 * The market surface (`/market`), every route and its rules: access (the
 * bucket it charges, whether it is a public read), the session kind it needs
 * (or accepts, when `sessionOptional`),
 * its cache policy, whether the first-party proxy (`/app/api`) serves it, and
 * whether it takes an Idempotency-Key. Nothing else declares these; the
 * route files define schemas, documentation and handlers only.
 *
 * Revision sources of shared-cache routes: `indexer:market` moves with every
 * commit of the market registry's indexer scope (the runtime catalog, its
 * drops and head); `market-releases` moves on every accepted release action.
 */
export const MARKET_ROUTES = {
  // Keys and discovery
  "GET /api-key": { access: { kind: "market", bucket: "query" }, cache: cache.noStore },
  "GET /runtime": { access: publicRead, cache: cache.shared(60, [MARKET_INDEXER_SOURCE]), proxy: true },

  // Indexed market: the runtime catalog (shared), an owner's claims (owner-scoped, never shared)
  "GET /runtime/:version": {
    access: publicRead,
    cache: cache.shared(5, [MARKET_INDEXER_SOURCE]),
    proxy: true,
  },
  "GET /runtime/:version/claims": { access: publicRead, cache: cache.private, proxy: true },
  "GET /discovery": { access: publicRead, cache: cache.shared(60, [MARKET_INDEXER_SOURCE]), proxy: true },

  // Board: leaderboards from the indexer's projection of the market runtimes
  "GET /board/creators": {
    access: publicRead,
    cache: cache.shared(30, [MARKET_INDEXER_SOURCE]),
    proxy: true,
  },
  "GET /board/collectors": {
    access: publicRead,
    cache: cache.shared(30, [MARKET_INDEXER_SOURCE]),
    proxy: true,
  },

  // Creators: profile (not cached: profiles and follows have no revision source), releases, drops
  "GET /creators/:address": { access: publicRead, cache: cache.noStore, proxy: true },
  "GET /creators/:address/releases": {
    access: publicRead,
    cache: cache.shared(30, [RELEASES_SOURCE]),
    proxy: true,
  },
  "GET /creators/:address/drops": {
    access: publicRead,
    cache: cache.shared(30, [MARKET_INDEXER_SOURCE, RELEASES_SOURCE]),
    proxy: true,
  },

  // Artwork of public releases and its history by revision
  "GET /releases/:releaseId/artwork": {
    access: publicRead,
    cache: cache.shared(30, [RELEASES_SOURCE]),
    proxy: true,
  },
  "GET /releases/:releaseId/artwork/history": {
    access: publicRead,
    cache: cache.shared(30, [RELEASES_SOURCE]),
    proxy: true,
  },
  // A signed pack edit (no session; the nonce makes each single-use); not served by the proxy
  "POST /runtime/:version/pack-edit": { access: write, cache: cache.noStore },

  // Release catalog: signed actions (no session, the nonce makes each single-use) and shared public reads
  "POST /releases": { access: write, cache: cache.noStore },
  // Shared for anonymous callers; with an account session, private (the caller's wishlist).
  "GET /releases": {
    access: publicRead,
    session: "account",
    sessionOptional: true,
    cache: cache.shared(30, [RELEASES_SOURCE]),
    proxy: true,
  },
  "GET /releases/:releaseId": {
    access: publicRead,
    cache: cache.shared(30, [RELEASES_SOURCE]),
    proxy: true,
  },
  "GET /account/releases": { access: read, session: "account", cache: cache.private, proxy: true },

  // Live updates (server-sent events): long-lived, outside the in-flight cap, never cached.
  // Also served by the first-party proxy: anonymous proxied streams spend the proxy's stream budget and
  // count per client network, with the session cookie the account's budget and cap.
  "GET /live": { access: stream, cache: cache.noStore, stream: true, proxy: true },
  "GET /account/live": {
    access: stream,
    session: "account",
    cache: cache.noStore,
    stream: true,
    proxy: true,
  },

  // Accounts and sessions (docs/market.md, Accounts, sessions and messages)
  "POST /account/session": { access: write, cache: cache.noStore, proxy: true },
  "GET /account/session": { access: read, session: "account", cache: cache.private, proxy: true },
  "DELETE /account/session": { access: write, session: "account", cache: cache.noStore, proxy: true },
  "POST /account": { access: write, session: "account", cache: cache.noStore, proxy: true, idempotent: true },
  "POST /account/delete": { access: write, session: "account", cache: cache.noStore, proxy: true },
  "POST /chat/session": { access: write, session: "account", cache: cache.noStore, proxy: true },
  "GET /chat/session": { access: read, session: "chat", cache: cache.private, proxy: true },
  "DELETE /chat/session": { access: write, session: "chat", cache: cache.noStore, proxy: true },
  "POST /access/session": { access: write, cache: cache.noStore, proxy: true },
  "GET /access/session": { access: read, session: "access", cache: cache.private, proxy: true },
  "DELETE /access/session": { access: write, session: "access", cache: cache.noStore, proxy: true },

  // Direct messages: the account session only
  "GET /dm/threads": { access: read, session: "account", cache: cache.private, proxy: true },
  "GET /dm/messages": { access: read, session: "account", cache: cache.private, proxy: true },
  "GET /dm/unread": { access: read, session: "account", cache: cache.private, proxy: true },

  // Rooms and follows: public reads, writes with a chat session
  "GET /rooms": { access: publicRead, cache: cache.noStore, proxy: true },
  "GET /rooms/:roomId": { access: publicRead, cache: cache.noStore, proxy: true },
  "GET /rooms/:roomId/messages": { access: publicRead, cache: cache.noStore, proxy: true },
  "POST /rooms/:roomId/messages": {
    access: write,
    session: "chat",
    cache: cache.noStore,
    proxy: true,
    idempotent: true,
  },
  "PUT /follows/:address": { access: write, session: "chat", cache: cache.noStore, proxy: true },
  "DELETE /follows/:address": { access: write, session: "chat", cache: cache.noStore, proxy: true },
  "GET /accounts/:address/followers": { access: publicRead, cache: cache.noStore, proxy: true },
  "GET /accounts/:address/following": { access: publicRead, cache: cache.noStore, proxy: true },

  // Shared services: profiles and their images
  // Key-only: never served by the first-party proxy, whatever PUBLIC_READS says.
  "GET /support/identity/profiles/x/:username": { access: read, cache: cache.privateFor(30) },
  // Images are immutable (a new avatar gets a new id), so HTTP caches keep them without
  // revalidating; a day, not a year, so an account's deletion reaches shared caches soon.
  [`GET ${IMAGE_ROUTE}/:imageId`]: { access: publicRead, cache: cache.public(86_400, true), proxy: true },
  "GET /account/social/x/callback": { access: write, session: "account", cache: cache.noStore, proxy: true },
} satisfies RouteTable;

/** The market's routes, each with its line of `MARKET_ROUTES`. */
export function marketRoutes(specs: readonly RouteSpec[]): RouteDefinition[] {
  return declareRoutes("market", MARKET_ROUTES, specs);
}

/** The first-party proxy serves the market routes that opt in. */
export function proxyRoutes(market: readonly RouteDefinition[]): RouteDefinition[] {
  return market.filter((route) => route.proxy === true);
}

export { classicGameAdminRoutes } from "./admin.ts";
export { type ClassicGameCatalog, createClassicGameDirectory } from "./directory.ts";
export { cardOddsPercent, formatPercent, marketCapWei, preorderProgress } from "./economics.ts";
export {
  type FeaturedQuery,
  type GameListQuery,
  type GamePage,
  type GameSearchQuery,
  TRENDING_WINDOW_MS,
} from "./game-listings.ts";
export { classicGameRoutes } from "./game-routes.ts";
export { classicMetadataRoutes } from "./metadata-routes.ts";
export {
  type ClassicMetadataStore,
  CREATOR_SLUG,
  createClassicMetadataStore,
  type MetadataRevisionInput,
  type PublishedRevision,
  type StoredCard,
  type StoredGameMetadata,
  type UnpublishedPosition,
} from "./metadata-store.ts";

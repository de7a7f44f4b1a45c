export type { ClassicPackStatus, ClassicPagination, ClassicRarityName } from "./common.ts";
export {
  addressString,
  CLASSIC_DEFAULT_CHAIN_ID,
  CLASSIC_ERROR_CODES,
  CLASSIC_PACK_STATUSES,
  CLASSIC_RARITY_NAMES,
  classicPaginationSchema,
  classicQuery,
  decimalString,
  defaultGameSlug,
  exactInteger,
  isoDateTime,
  txHashString,
  weiString,
} from "./common.ts";
export type {
  ClassicCard,
  ClassicGame,
  ClassicGamesPage,
  ClassicSearchGame,
  ClassicSearchPage,
} from "./games.ts";
export {
  CLASSIC_FOIL_NAMES,
  CLASSIC_METADATA_SOURCES,
  CLASSIC_WEAR_NAMES,
  classicCardSchema,
  classicGameSchema,
  classicGamesPageSchema,
  classicSearchGameSchema,
  classicSearchPageSchema,
  classicTraitSchema,
} from "./games.ts";
export type { ClassicUnboxing } from "./settings.ts";
export {
  adminClassicUnboxingSchema,
  classicUnboxingSchema,
} from "./settings.ts";
export type {
  ClassicCollector,
  ClassicCollectorsPage,
  ClassicGameLeaderboardEntry,
  ClassicGameLeaderboardPage,
  ClassicStats,
} from "./stats.ts";
export {
  CLASSIC_GAME_LEADERBOARD_SORTS,
  classicCollectorSchema,
  classicCollectorsPageSchema,
  classicCollectorsQuerySchema,
  classicGameLeaderboardEntrySchema,
  classicGameLeaderboardPageSchema,
  classicGameLeaderboardQuerySchema,
  classicStatsQuerySchema,
  classicStatsSchema,
} from "./stats.ts";

import { CLASSIC_RARITY_NAMES, defaultGameSlug } from "@mkt/protocol";
import { artUrl } from "../../media/index.ts";
import type { GameRow } from "./game-rows.ts";
import {
  type StoredCard,
  type StoredGameMetadata,
  storedCardsSchema,
  storedGameMetadataSchema,
} from "./metadata-store.ts";

const DEFAULT_BG = "#111827";

const tuple5 = <T>(value: unknown, parse: (item: unknown) => T, fallback: T): [T, T, T, T, T] => {
  const items = Array.isArray(value) ? value : [];
  return [0, 1, 2, 3, 4].map((index) => (items[index] === undefined ? fallback : parse(items[index]))) as [
    T,
    T,
    T,
    T,
    T,
  ];
};

/** A game row with its metadata resolved: the revision's, or the default derived from the chain. */
export interface Resolved {
  row: GameRow;
  slug: string;
  source: "user" | "default";
  version: number;
  game: StoredGameMetadata;
  cards: StoredCard[];
  oddsBps: [number, number, number, number, number];
  offers: [bigint, bigint, bigint, bigint, bigint];
}

/**
 * Resolves a game row's metadata: the revision in effect when it parses,
 * otherwise a default game and one card per rarity drawn by the art route
 * under `publicUrl`.
 */
export function createGameResolver(publicUrl: string): (row: GameRow) => Resolved {
  const defaultGame = (row: GameRow): StoredGameMetadata => {
    const pack = artUrl(publicUrl, row.chain_id, row.drop_address, "pack");
    return storedGameMetadataSchema.parse({
      description: `${row.nft_name} (${row.nft_symbol}): booster packs priced by ${row.token_name} (${row.token_symbol}).`,
      imageUrl: pack,
      packImage: pack,
      bgColor: DEFAULT_BG,
    });
  };
  const defaultCards = (row: GameRow): StoredCard[] =>
    ([1, 2, 3, 4, 5] as const).map((rarity) => ({
      name: `${row.nft_name} ${CLASSIC_RARITY_NAMES[rarity]}`,
      description: `${row.nft_name}: a card of rarity ${CLASSIC_RARITY_NAMES[rarity]}.`,
      imageUrl: artUrl(publicUrl, row.chain_id, row.drop_address, rarity),
      unopenedImageUrl: artUrl(publicUrl, row.chain_id, row.drop_address, "pack"),
      firstEditionImageUrl: null,
      externalLink: null,
      rarity,
      startId: rarity,
      endId: rarity,
      traits: [{ key: "Rarity", value: CLASSIC_RARITY_NAMES[rarity] }],
      bgColor: null,
    }));

  return (row: GameRow): Resolved => {
    const slug = row.creator_slug ?? (row.default_slug || defaultGameSlug(row.nft_name, row.game_id));
    const oddsBps = tuple5(row.odds_bps, (item) => Number(item), 0);
    const offers = tuple5(row.offers, (item) => BigInt(String(item)), 0n);
    if (row.version !== null) {
      const game = storedGameMetadataSchema.safeParse(row.game_meta);
      const cards = storedCardsSchema.safeParse(row.cards_meta);
      if (game.success && cards.success) {
        const sorted = [...cards.data].sort((a, b) => a.startId - b.startId);
        return {
          row,
          slug,
          source: "user",
          version: row.version,
          game: game.data,
          cards: sorted,
          oddsBps,
          offers,
        };
      }
    }
    return {
      row,
      slug,
      source: "default",
      version: 0,
      game: defaultGame(row),
      cards: defaultCards(row),
      oddsBps,
      offers,
    };
  };
}

import type { ClassicCard, ClassicGame, ClassicSearchGame } from "@mkt/protocol";

/** How an answer is rendered: image URLs proxied or original, metadata in effect at `at`. */
export interface RenderOptions {
  bypassImageProxy: boolean;
  /** The time whose metadata revision is in effect; now when absent. */
  at?: Date;
}

/** The card catalogue of a game in effect at a time: what a pack's card is drawn from. */
export interface CardCatalogue {
  chainId: number;
  contractAddress: string;
  /** Every card, in card-id order (`startId` ascending); each names its rarity code (1..5). */
  cards: ClassicCard[];
  disableWear: boolean;
  disableFoil: boolean;
  /** The drop's first token id: packs below `firstTokenId + FIRST_EDITION_PACKS` are first editions. */
  firstTokenId: bigint;
  /** Rarity odds in basis points, Common..Mythic, as the drop holds them. */
  oddsBps: readonly [number, number, number, number, number];
  /** Sell-back offer in Wei, Common..Mythic. */
  offers: readonly [bigint, bigint, bigint, bigint, bigint];
  /** The game fields the metadata views need without a price (contract-level JSON, all-metadata). */
  game: {
    nftName: string;
    nftSymbol: string;
    creator: string;
    slug: string;
    description: string;
    /** Rendered per `bypassImageProxy`. */
    imageUrl: string | null;
    featuredImageUrl: string | null;
    websiteUrl: string | null;
    /** The game's NSFW flag (its metadata revision in effect); the one-pack read carries it. */
    isNSFW: boolean;
    packsMinted: bigint;
  };
  /** The revision in effect: `user` with its version and validity, or `default` (version 0, no validity). */
  metadataSource: "user" | "default";
  version: number;
  effectiveFrom: string | null;
  effectiveUntil: string | null;
}

/**
 * The games of the classic projection with their offchain metadata, rendered
 * in the wire shapes of `@mkt/protocol`. The one place that turns a
 * `classic_games` row, its metadata revision, slug and operator flags and
 * the ETH/USD price into a Game; the pack reads take their `contractDetails`
 * and card catalogues from here.
 */
export interface ClassicGameDirectory {
  /** The drop address of `addressOrSlug` on `chainId` (an address, a creator slug or a default slug), or undefined. */
  resolve(chainId: number, addressOrSlug: string): Promise<string | undefined>;
  /** The games/range variant of each known drop, by lowercase address (unknown ones absent). Throws PRICE_UNAVAILABLE (503) without a price. */
  games(
    chainId: number,
    addresses: readonly string[],
    options: RenderOptions,
  ): Promise<Map<string, ClassicGame>>;
  /** The search/holdings variant, likewise. */
  searchGames(
    chainId: number,
    addresses: readonly string[],
    options: RenderOptions,
  ): Promise<Map<string, ClassicSearchGame>>;
  /** The card catalogue in effect at `options.at` (now when absent), or undefined for an unknown drop. */
  catalogue(chainId: number, address: string, options: RenderOptions): Promise<CardCatalogue | undefined>;
  /** The card catalogues of several drops in one read, by lowercase address (unknown ones absent). */
  catalogues(
    chainId: number,
    addresses: readonly string[],
    options: RenderOptions,
  ): Promise<Map<string, CardCatalogue>>;
}

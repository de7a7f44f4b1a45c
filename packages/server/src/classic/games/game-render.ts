import {
  CLASSIC_RARITY_NAMES,
  type ClassicCard,
  type ClassicGame,
  type ClassicSearchGame,
} from "@mkt/protocol";
import { AppError } from "../../errors.ts";
import type { ImageLinks } from "../../media/index.ts";
import type { CardCatalogue } from "../directory.ts";
import { type EthUsdPriceSource, weiToUsdText } from "../price.ts";
import { cardOddsPercent, formatPercent, marketCapWei, preorderProgress } from "./economics.ts";
import { iso } from "./game-rows.ts";
import type { Resolved } from "./resolved-game.ts";

type RarityCode = 1 | 2 | 3 | 4 | 5;

/** Renders a resolved game in one wire variant, at an ETH/USD price, with image URLs proxied or not. */
export type GameRender<Game> = (resolved: Resolved, usdPerEth: string, bypass: boolean) => Game;

/** The ETH/USD price, when there is something to price: 503 `PRICE_UNAVAILABLE` while the source has none. */
export const requireUsdPerEth = (price: EthUsdPriceSource) => async (): Promise<string> => {
  const usd = (await price.quote())?.usdPerEth;
  if (usd === undefined)
    throw new AppError("unavailable", "ETH pricing is temporarily unavailable", {
      code: "PRICE_UNAVAILABLE",
      retryAfterSeconds: 5,
    });
  return usd;
};

/** The wire shapes of a resolved game: its cards, its two game variants and its card catalogue. */
export function createGameRenderer(images: ImageLinks) {
  const renderCards = (resolved: Resolved, bypass: boolean): ClassicCard[] => {
    const { row, game } = resolved;
    const tierWidth = [0, 0, 0, 0, 0, 0];
    for (const card of resolved.cards)
      tierWidth[card.rarity] = (tierWidth[card.rarity] ?? 0) + card.endId - card.startId + 1;
    const isUser = resolved.source === "user";
    return resolved.cards.map((card) => {
      const rarity = card.rarity as RarityCode;
      const odds = cardOddsPercent(
        resolved.oddsBps[rarity - 1] ?? 0,
        card.endId - card.startId + 1,
        tierWidth[rarity] ?? 0,
      );
      return {
        id: `${row.chain_id}:${row.drop_address}:${card.startId}`,
        name: card.name,
        description: card.description,
        metadataDescription:
          card.description || `${card.name}, a ${CLASSIC_RARITY_NAMES[rarity]} card of ${row.nft_name}.`,
        imageUrl: images.link(card.imageUrl, bypass),
        unopenedImageUrl: images.link(card.unopenedImageUrl ?? game.packImage, bypass),
        firstEditionImageUrl: images.link(card.firstEditionImageUrl, bypass),
        featuredImageUrl: images.link(game.featuredImageUrl, bypass),
        externalLink: card.externalLink,
        privateExternalLink: null,
        bgColor: card.bgColor ?? game.bgColor,
        slug: resolved.slug,
        rarity: CLASSIC_RARITY_NAMES[rarity],
        rarityCode: rarity,
        traits: card.traits,
        startId: card.startId,
        endId: card.endId,
        odds,
        oddsFormatted: formatPercent(odds),
        contractAddress: row.drop_address,
        creator: row.creator,
        chainId: row.chain_id,
        txHash: row.created_tx,
        metadataSource: resolved.source,
        isActive: row.is_active,
        isDraft: false,
        disableFoil: game.disableFoil,
        disableWear: game.disableWear,
        version: resolved.version,
        effectiveFrom: isUser && row.effective_from ? iso(row.effective_from) : null,
        effectiveUntil: isUser && row.effective_until ? iso(row.effective_until) : null,
      };
    });
  };

  const renderCommon = (resolved: Resolved, usdPerEth: string, bypass: boolean) => {
    const { row, game } = resolved;
    const curve = {
      isGraduated: row.is_graduated,
      virtualEth: BigInt(row.virtual_eth),
      virtualTokens: BigInt(row.virtual_tokens),
      ethReserve: BigInt(row.eth_reserve),
      tokensSold: BigInt(row.tokens_sold),
      graduationEth: BigInt(row.graduation_eth),
      poolEth: row.pool_eth === null ? null : BigInt(row.pool_eth),
      poolTokens: row.pool_tokens === null ? null : BigInt(row.pool_tokens),
    };
    const marketCap = marketCapWei(curve);
    const pricePerPack = BigInt(row.price_per_pack);
    const updated = Math.max(
      new Date(row.updated_at).getTime(),
      row.meta_created_at && resolved.source === "user" ? new Date(row.meta_created_at).getTime() : 0,
      row.flags_updated_at ? new Date(row.flags_updated_at).getTime() : 0,
    );
    return {
      gameId: row.game_id,
      tokenName: row.token_name,
      tokenSymbol: row.token_symbol,
      nftName: row.nft_name,
      nftSymbol: row.nft_symbol,
      description: game.description,
      slug: resolved.slug,
      bgColor: game.bgColor,
      tokenAddress: row.token_address,
      dropContractAddress: row.drop_address,
      ownerAddress: row.creator,
      chainId: row.chain_id,
      imageUrl: images.link(game.imageUrl, bypass),
      websiteUrl: game.websiteUrl,
      featuredImageUrl: images.link(game.featuredImageUrl, bypass),
      packImage: images.link(game.packImage, bypass),
      isGraduated: row.is_graduated,
      isActive: row.is_active,
      isVerified: row.is_verified ?? false,
      isVerifiedArtist: row.is_verified_artist ?? false,
      isFeatured: row.is_featured ?? false,
      disableFoil: game.disableFoil,
      disableWear: game.disableWear,
      marketCap: marketCap.toString(),
      marketCapUsd: weiToUsdText(marketCap, usdPerEth),
      pricePerPack: pricePerPack.toString(),
      pricePerPackUsd: weiToUsdText(pricePerPack, usdPerEth),
      preorderProgress: preorderProgress(curve),
      createdAt: iso(row.created_at),
      updatedAt: new Date(updated).toISOString(),
      potentialCards: renderCards(resolved, bypass),
    };
  };

  const renderGame: GameRender<ClassicGame> = (resolved, usdPerEth, bypass) => ({
    ...renderCommon(resolved, usdPerEth, bypass),
    links: { ...resolved.game.links },
    version: String(resolved.version),
  });
  const renderSearchGame: GameRender<ClassicSearchGame> = (resolved, usdPerEth, bypass) => ({
    ...renderCommon(resolved, usdPerEth, bypass),
    isNSFW: resolved.game.isNSFW,
    isMarketfit: resolved.row.is_marketfit ?? false,
    links: { twitter: resolved.game.links.twitter, website: resolved.game.links.website },
    version: resolved.version,
  });

  /** The card catalogue of one resolved game. */
  const catalogueOf = (chainId: number, resolved: Resolved, bypass: boolean): CardCatalogue => {
    const { row } = resolved;
    return {
      chainId,
      contractAddress: row.drop_address,
      cards: renderCards(resolved, bypass),
      disableWear: resolved.game.disableWear,
      disableFoil: resolved.game.disableFoil,
      firstTokenId: BigInt(row.first_token_id),
      oddsBps: resolved.oddsBps,
      offers: resolved.offers,
      game: {
        nftName: row.nft_name,
        nftSymbol: row.nft_symbol,
        creator: row.creator,
        slug: resolved.slug,
        description: resolved.game.description,
        imageUrl: images.link(resolved.game.imageUrl, bypass),
        featuredImageUrl: images.link(resolved.game.featuredImageUrl, bypass),
        websiteUrl: resolved.game.websiteUrl,
        isNSFW: resolved.game.isNSFW,
        packsMinted: BigInt(row.packs_minted),
      },
      metadataSource: resolved.source,
      version: resolved.version,
      effectiveFrom: resolved.source === "user" && row.effective_from ? iso(row.effective_from) : null,
      effectiveUntil: resolved.source === "user" && row.effective_until ? iso(row.effective_until) : null,
    };
  };

  return { renderGame, renderSearchGame, catalogueOf };
}

import {
  CLASSIC_RARITY_NAMES,
  classicCardCatalogueSchema,
  classicChainQuerySchema,
  classicContractMetadataSchema,
  classicGameParamsSchema,
  classicMetadataAtQuerySchema,
  classicOddsViewSchema,
} from "@mkt/protocol";
import { notFound } from "../../errors.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { bypassesImageProxy } from "../../media/index.ts";
import type { CardCatalogue } from "../directory.ts";
import { keyRefused } from "../responses.ts";
import type { ClassicGameCatalog } from "./directory.ts";
import { formatPercent } from "./economics.ts";

const gameNotFound = () => notFound("no game with this address or slug on this chain", "GAME_NOT_FOUND");

const REVISION =
  "`at` (ISO 8601, optional) reads the metadata revision in effect at that time: the highest version whose validity `effectiveFrom <= at < effectiveUntil` holds; without one (before the creator's first revision, or for a game without any) the default metadata derived from the chain (`metadataSource` `default`, `version` 0, no validity).";
const IMAGES =
  "Image URLs the image proxy serves (http or https on port 80 or 443, a host on the operator's `IMAGE_PROXY_HOSTS`) point at this API's image route unless `X-Bypass-Image-Proxy: true` asks for the originals; other image URLs are answered as the creator gave them.";

const revisionOf = (catalogue: CardCatalogue) => ({
  chainId: catalogue.chainId,
  contractAddress: catalogue.contractAddress,
  slug: catalogue.game.slug,
  metadataSource: catalogue.metadataSource,
  version: catalogue.version,
  effectiveFrom: catalogue.effectiveFrom,
  effectiveUntil: catalogue.effectiveUntil,
});

/** The `/metadata…` views: the contract-level JSON (public), and the card and odds views. */
export function classicMetadataRoutes({ games }: { games: ClassicGameCatalog }): RouteSpec[] {
  const catalogueOr404 = async (
    chainId: number,
    addressOrSlug: string,
    options: { bypassImageProxy: boolean; at?: Date },
  ) => {
    const address = await games.resolve(chainId, addressOrSlug);
    const catalogue = address === undefined ? undefined : await games.catalogue(chainId, address, options);
    if (!catalogue) throw gameNotFound();
    return catalogue;
  };
  return [
    defineRoute({
      method: "GET",
      path: "/metadata/:addressOrSlug",
      operationId: "classicContractMetadata",
      summary: "Contract-level metadata of a drop (contractURI)",
      description: `The JSON a drop's \`contractURI()\` points at (ERC-7572), with the fields NFT marketplaces read from contract-level metadata: \`name\` and \`symbol\` (the drop's NFT name and symbol), \`description\`, \`image\` (the game's image; its generated pack art by default), \`banner_image\` (the featured image, or null), \`featured_image\` (the featured image, else the image), \`external_link\` and \`external_url\` (the creator's website, or null), \`collaborators\` and \`fee_recipient\` (the creator), \`seller_fee_basis_points\` 0 (no royalty). Public: neither \`API-KEY\` nor a bearer token; 2,000 per minute per client; cached 5 minutes. The metadata in effect now. ${IMAGES}`,
      tags: ["Metadata"],
      request: { params: classicGameParamsSchema, query: classicChainQuerySchema },
      responses: {
        200: { description: "Contract-level metadata.", schema: classicContractMetadataSchema },
        400: { description: "A malformed address, slug or chainId (`VALIDATION_ERROR`)." },
        404: { description: "No such game on this chain (`GAME_NOT_FOUND`)." },
        429: { description: "More than 2,000 requests per minute from this client." },
      },
      handler: async (request) => {
        const catalogue = await catalogueOr404(request.query.chainId, request.params.addressOrSlug, {
          bypassImageProxy: bypassesImageProxy(request.headers),
        });
        const { game } = catalogue;
        return {
          name: game.nftName,
          symbol: game.nftSymbol,
          description: game.description,
          image: game.imageUrl,
          banner_image: game.featuredImageUrl,
          featured_image: game.featuredImageUrl ?? game.imageUrl,
          external_link: game.websiteUrl,
          external_url: game.websiteUrl,
          collaborators: [game.creator],
          seller_fee_basis_points: 0,
          fee_recipient: game.creator,
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/metadata/:addressOrSlug/cards",
      operationId: "classicCardCatalogue",
      summary: "The card catalogue of a game",
      description: `Every card of the game in card-id order (Card metadata), each with its \`odds\` (percent chance that one pack draws it) and the revision's \`version\`, \`effectiveFrom\`, \`effectiveUntil\`. ${REVISION} ${IMAGES} Cached 5 minutes.`,
      tags: ["Metadata"],
      request: { params: classicGameParamsSchema, query: classicMetadataAtQuerySchema },
      responses: {
        200: { description: "The cards.", schema: classicCardCatalogueSchema },
        400: { description: "A malformed address, slug, chainId or `at` (`VALIDATION_ERROR`)." },
        404: { description: "No such game on this chain (`GAME_NOT_FOUND`)." },
        429: keyRefused,
      },
      handler: async (request) => {
        const { chainId, at } = request.query;
        const catalogue = await catalogueOr404(chainId, request.params.addressOrSlug, {
          bypassImageProxy: bypassesImageProxy(request.headers),
          ...(at === undefined ? {} : { at: new Date(at) }),
        });
        return { success: true, ...revisionOf(catalogue), cards: catalogue.cards };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/metadata/:addressOrSlug/odds",
      operationId: "classicRarityOdds",
      summary: "The rarity odds of a game",
      description: `Per rarity, Common (1) to Mythic (5): \`oddsBps\` (the drop's odds in basis points, which sum to 10,000), \`percent\` and \`oddsFormatted\`, \`sellBackOffer\` (Wei the drop pays back for a card of that rarity) and \`cards\` (how many cards of that rarity the revision has). The odds and offers are the drop's, onchain; the card counts come from the revision. ${REVISION} Cached 5 minutes.`,
      tags: ["Metadata"],
      request: { params: classicGameParamsSchema, query: classicMetadataAtQuerySchema },
      responses: {
        200: { description: "The odds.", schema: classicOddsViewSchema },
        400: { description: "A malformed address, slug, chainId or `at` (`VALIDATION_ERROR`)." },
        404: { description: "No such game on this chain (`GAME_NOT_FOUND`)." },
        429: keyRefused,
      },
      handler: async (request) => {
        const { chainId, at } = request.query;
        const catalogue = await catalogueOr404(chainId, request.params.addressOrSlug, {
          bypassImageProxy: true,
          ...(at === undefined ? {} : { at: new Date(at) }),
        });
        const rarities = ([1, 2, 3, 4, 5] as const).map((rarity) => {
          const oddsBps = catalogue.oddsBps[rarity - 1] ?? 0;
          const percent = oddsBps / 100;
          return {
            rarity,
            name: CLASSIC_RARITY_NAMES[rarity],
            oddsBps,
            percent,
            oddsFormatted: formatPercent(percent),
            sellBackOffer: (catalogue.offers[rarity - 1] ?? 0n).toString(),
            cards: catalogue.cards.filter((card) => card.rarityCode === rarity).length,
          };
        });
        return { success: true, ...revisionOf(catalogue), rarities };
      },
    }),
  ];
}

import {
  CLASSIC_ERROR_CODES,
  CLASSIC_PACK_STATUSES,
  CLASSIC_RARITY_NAMES,
  type ClassicBoxPage,
  type ClassicDropPacksQuery,
  type ClassicHoldings,
  type ClassicHoldingsPack,
  type ClassicHoldingsQuery,
  type ClassicOwnerAnswer,
  type ClassicOwnerQuery,
  type ClassicPackAnswer,
  type ClassicPackPathQuery,
  type ClassicPackRarity,
  type ClassicPackStatus,
  type ClassicPagination,
  type ClassicRangePack,
  type ClassicRangePage,
  type ClassicRangeQuery,
  type ClassicRarity,
  type ClassicRarityQuery,
  type ClassicRecentQuery,
  type ClassicTokenMetadata,
} from "@mkt/protocol";
import { type RawBuilder, sql } from "kysely";
import { encodeAbiParameters, keccak256 } from "viem";
import type { Database } from "../../db/index.ts";
import { notFound } from "../../errors.ts";
import type { ProfileReader } from "../../identity/index.ts";
import { artUrl, type ImageLinks } from "../../media/index.ts";
import type { CardCatalogue, ClassicGameDirectory, RenderOptions } from "../directory.ts";
import { assertPageDepth } from "../page-depth.ts";
import { classicProfileFields } from "../user-data.ts";
import { type DrawnCard, drawPackCard, isFirstEdition } from "./card.ts";

/** One `classic_packs` row with what the reads need of its game, every uint as text. */
interface PackRow {
  chain_id: number;
  contract_address: string;
  token_id: string;
  owner: string;
  status: ClassicPackStatus;
  rarity: number;
  batch_id: string;
  token_seed: string | null;
  random_value: string | null;
  acquired_price: string;
  reward_amount: string | null;
  mint_tx: string;
  mint_block: string;
  mint_time: Date;
  rarity_tx: string | null;
  rarity_block: string | null;
  rarity_time: Date | null;
  opened_tx: string | null;
  opened_block: string | null;
  opened_time: Date | null;
  burn_tx: string | null;
  burn_block: string | null;
  burn_time: Date | null;
  updated_at: Date;
  nft_name: string;
  offers: unknown;
  first_token_id: string;
}

const PACK_COLUMNS = sql`
  p.chain_id, p.contract_address, p.token_id::text AS token_id, p.owner, p.status, p.rarity,
  p.batch_id::text AS batch_id, p.token_seed::text AS token_seed, p.random_value::text AS random_value,
  p.acquired_price::text AS acquired_price, p.reward_amount::text AS reward_amount,
  p.mint_tx, p.mint_block::text AS mint_block, p.mint_time,
  p.rarity_tx, p.rarity_block::text AS rarity_block, p.rarity_time,
  p.opened_tx, p.opened_block::text AS opened_block, p.opened_time,
  p.burn_tx, p.burn_block::text AS burn_block, p.burn_time, p.updated_at,
  g.nft_name, g.offers, g.first_token_id::text AS first_token_id`;

/**
 * A page of packs with their games. The page is cut from `classic_packs`
 * alone, reading only the columns of the list's index (its filter, order and
 * key), so an offset is skipped inside the index without visiting rows; then
 * the page's rows are fetched by key and joined with `classic_games` (one row
 * per pack of the page), so neither join runs over a whole list.
 */
const pagePacks = (where: RawBuilder<unknown>, order: RawBuilder<unknown>, limit: number, offset: number) =>
  packsOfKeys(sql`SELECT p.chain_id, p.contract_address, p.token_id FROM classic_packs p WHERE ${where}
        ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`);

/** The rows (with their games) of the keys `(chain_id, contract_address, token_id)` a subquery selects. */
const packsOfKeys = (keys: RawBuilder<unknown>) =>
  sql`(${keys}) k
    JOIN classic_packs p ON p.chain_id = k.chain_id AND p.contract_address = k.contract_address AND p.token_id = k.token_id
    JOIN classic_games g ON g.chain_id = p.chain_id AND g.drop_address = p.contract_address`;

/**
 * A pack's `_id`: the first 24 hex digits of
 * keccak256(abi.encode(uint256 chainId, address drop, uint256 tokenId)).
 * Stable (a function of the pack's identity only) and distinct per pack;
 * the live service's clients keep it as an opaque 24-hex key.
 */
export function classicPackId(chainId: number, contractAddress: string, tokenId: bigint): string {
  const encoded = encodeAbiParameters(
    [{ type: "uint256" }, { type: "address" }, { type: "uint256" }],
    [BigInt(chainId), contractAddress as `0x${string}`, tokenId],
  );
  return keccak256(encoded).slice(2, 26);
}

/** The summary column of `classic_collectors` and `classic_game_collectors` that counts a status. */
const STATUS_COLUMN: Record<ClassicPackStatus, string> = {
  minted: "minted",
  rarity_assigned: "assigned",
  opened: "opened",
  burned: "burned",
};
const ALL_PACKS = sql.raw("minted + assigned + opened + burned");

const RANGE_ORDER: Record<ClassicRangeQuery["sortBy"], string> = {
  latestUpdateTimestamp: "p.updated_at",
  tokenId: "p.token_id",
  mintedAt: "p.mint_time",
  rarity: "p.rarity",
};

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);
const numberOrNull = (value: string | null) => (value === null ? null : Number(value));
const rarityName = (rarity: number) => CLASSIC_RARITY_NAMES[rarity] ?? "NOT_ASSIGNED";

function pagination(page: number, limit: number, total: number): ClassicPagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

/** The sell-back offers Common..Mythic as the projection keeps them (JSON decimal strings). */
function offersOf(row: PackRow): bigint[] {
  const offers = Array.isArray(row.offers) ? row.offers : [];
  return offers.map((offer) => BigInt(String(offer)));
}

/** The card a pack drew, once its rarity (and so its seed) is known. */
function drawn(row: PackRow, catalogue: CardCatalogue | undefined): DrawnCard | undefined {
  if (!catalogue || row.rarity < 1 || row.token_seed === null) return undefined;
  return drawPackCard(catalogue, BigInt(row.token_id), BigInt(row.token_seed), row.rarity);
}

export interface PackReaderDeps {
  db: Database;
  directory: ClassicGameDirectory;
  profiles: Pick<ProfileReader, "ofAccount">;
  publicUrl: string;
  /** Rewrites a creator's image URL to the image proxy when the proxy serves it (and the caller did not bypass it). */
  images: Pick<ImageLinks, "link">;
}

/** Catalogues are read with original image URLs; answers link them per the caller's bypass. */
const ORIGINAL_URLS = { bypassImageProxy: true } as const;

export interface PackReader {
  /** The packs of one game by token id (`/range`), optionally only the ids asked, paged. */
  range(query: ClassicRangeQuery, options: RenderOptions): Promise<ClassicRangePage>;
  /**
   * An owner's packs: `boosterBoxes` (every game), or the box view `boxes`
   * when the query has a box-view filter (`contractAddress`,
   * `rarityGreaterThan`). Both walk an owner index in latest-update order;
   * totals come from the per-wallet summaries, or, with a rarity bound
   * (which no summary keeps), are counted in that owner's index range.
   */
  owner(ownerAddress: string, query: ClassicOwnerQuery, options: RenderOptions): Promise<ClassicOwnerAnswer>;
  /**
   * `/recent`'s box view: packs of one game (`contractAddress`) or of every
   * game on the chain, above `rarityGreaterThan` when given, most recently
   * changed first (latest update, then drop address and token id, all
   * descending). With a rarity bound the page is merged from one index scan
   * per (rarity, status) pair the filters allow, each reading at most
   * `offset + limit` keys, so a rare rarity is found without walking the
   * common packs; without one, one game's walk of its update index.
   */
  recentBoxes(query: ClassicRecentQuery, options: RenderOptions): Promise<ClassicBoxPage>;
  /** Every pack of one game in token id order, paged (`/contractAddress/{x}/all`). */
  dropPacks(
    addressOrSlug: string,
    query: ClassicDropPacksQuery,
    options: RenderOptions,
  ): Promise<ClassicBoxPage>;
  /** One pack by drop and token id, with its game's NSFW flag (404 PACK_NOT_FOUND, GAME_NOT_FOUND). */
  pack(
    addressOrSlug: string,
    tokenId: bigint,
    query: ClassicPackPathQuery,
    options: RenderOptions,
  ): Promise<ClassicPackAnswer>;
  /**
   * The rarity of the packs of `contractAddress` an opening transaction
   * opened: its `BoosterDropOpened` log (found by transaction hash), then each pack's
   * current rarity. A transaction that opened none of that drop's packs, or
   * is not indexed yet, is 404 TRANSACTION_NOT_FOUND; a pack whose rarity is
   * pending answers rarity 0 `NOT_ASSIGNED` (a successful negative result).
   */
  rarity(query: ClassicRarityQuery): Promise<ClassicRarity>;
  /** An owner's packs (`/collection/{ownerAddress}`), of one game or every game, by game then token id, paged. */
  holdings(
    ownerAddress: string,
    query: ClassicHoldingsQuery,
    options: RenderOptions,
  ): Promise<ClassicHoldings>;
  /** The ERC-721 token JSON of one pack (404 PACK_NOT_FOUND for a token that was never minted). */
  tokenMetadata(
    chainId: number,
    addressOrSlug: string,
    tokenId: bigint,
    options: RenderOptions,
  ): Promise<ClassicTokenMetadata>;
}

/**
 * The pack reads of the Classic API (`/range`, `/owner/{address}`,
 * `/collection/{ownerAddress}`, token metadata) over the `classic_packs`
 * projection; games, their card catalogues and prices come from the
 * directory.
 */
export function createPackReader({ db, directory, profiles, publicUrl, images }: PackReaderDeps): PackReader {
  const gameNotFound = (what: string) =>
    notFound(`no game ${what} on this chain`, CLASSIC_ERROR_CODES.gameNotFound);

  const resolve = async (chainId: number, addressOrSlug: string) => {
    const address = await directory.resolve(chainId, addressOrSlug.toLowerCase());
    if (address === undefined) throw gameNotFound(addressOrSlug);
    return address;
  };

  const packRows = async (
    where: RawBuilder<unknown>,
    order: RawBuilder<unknown>,
    limit: number,
    offset: number,
  ) =>
    (
      await sql<PackRow>`SELECT ${PACK_COLUMNS} FROM ${pagePacks(where, order, limit, offset)}
        ORDER BY ${order}`.execute(db.kysely)
    ).rows;

  /** The rows matching `where`, counted in classic_packs: for filters no summary keeps (token ids). */
  const count = async (where: RawBuilder<unknown>) => {
    const { rows } = await sql<{
      total: string;
    }>`SELECT count(*)::text AS total FROM classic_packs p WHERE ${where}`.execute(db.kysely);
    return Number(rows[0]?.total ?? 0);
  };

  /** A total read from a summary the classic_packs triggers keep (migration 0032); 0 without a row. */
  const summed = async (query: RawBuilder<unknown>) => {
    const { rows } = await sql<{ total: string | null }>`${query}`.execute(db.kysely);
    return Number(rows[0]?.total ?? 0);
  };

  /**
   * The token metadata of a pack, from its game's catalogue read with original
   * image URLs (`ORIGINAL_URLS`); `image`, `imageUrl` and `unopenedImageUrl`
   * are linked per `bypass` (the proxy's URL when it serves the image), and
   * `originalImageUrl` stays the creator's.
   */
  const tokenMetadata = (
    row: PackRow,
    catalogue: CardCatalogue | undefined,
    bypass: boolean,
  ): ClassicTokenMetadata => {
    const tokenId = row.token_id;
    const packArt = artUrl(publicUrl, row.chain_id, row.contract_address, "pack");
    const link = (url: string) => (url === packArt ? url : (images.link(url, bypass) ?? url));
    const draw = drawn(row, catalogue);
    const firstEdition = isFirstEdition(BigInt(tokenId), BigInt(row.first_token_id));
    const attributes: ClassicTokenMetadata["attributes"] = [
      { trait_type: "Rarity", value: rarityName(row.rarity) },
      { trait_type: "Status", value: row.status },
      { trait_type: "First Edition", value: firstEdition ? "Yes" : "No" },
    ];
    if (!draw) {
      const pack = catalogue?.cards[0]?.unopenedImageUrl ?? packArt;
      return {
        name: `${row.nft_name} Pack #${tokenId}`,
        description: `A booster pack of ${row.nft_name}. Its card is drawn once its rarity is assigned.`,
        image: link(pack),
        imageUrl: link(pack),
        originalImageUrl: pack,
        unopenedImageUrl: link(pack),
        external_url: `${publicUrl}/classic/metadata/${row.contract_address}/${tokenId}`,
        animation_url: "",
        attributes,
        foil: null,
        wear: null,
      };
    }
    attributes.push(
      { trait_type: "Randomness", value: row.random_value ?? "" },
      { trait_type: "Card ID", value: draw.cardId },
      { trait_type: "Wear", value: draw.wear },
      { trait_type: "Wear Value", value: draw.wearValue, display_type: "number", max_value: 1 },
      { trait_type: "Foil", value: draw.foil },
    );
    const opened = row.opened_time !== null || row.status !== "minted";
    const cardImage = (firstEdition ? draw.card.firstEditionImageUrl : null) ?? draw.card.imageUrl;
    const pack = draw.card.unopenedImageUrl ?? packArt;
    const shown = (opened ? cardImage : null) ?? pack;
    return {
      name: `${draw.card.name} #${tokenId}`,
      description: draw.card.metadataDescription || draw.card.description,
      image: link(shown),
      imageUrl: link(shown),
      originalImageUrl: shown,
      unopenedImageUrl: link(pack),
      external_url:
        draw.card.externalLink ?? `${publicUrl}/classic/metadata/${row.contract_address}/${tokenId}`,
      animation_url: "",
      attributes,
      foil: draw.foil,
      wear: draw.wear,
    };
  };

  const rangePack = (row: PackRow): ClassicRangePack => ({
    _id: classicPackId(row.chain_id, row.contract_address, BigInt(row.token_id)),
    tokenId: BigInt(row.token_id),
    tokenIdString: row.token_id,
    contractAddress: row.contract_address,
    chainId: row.chain_id,
    owner: row.owner,
    status: row.status,
    rarity: row.rarity,
    rarityName: rarityName(row.rarity),
    randomValue: row.random_value,
    tokenSpecificRandomness: row.token_seed,
    batchId: row.batch_id,
    mintTxHash: row.mint_tx,
    mintBlockNumber: Number(row.mint_block),
    acquiredAtPackPrice: row.acquired_price,
    mintedAt: iso(row.mint_time),
    openedAt: isoOrNull(row.opened_time),
    latestUpdateTimestamp: iso(row.updated_at),
  });

  /** Range-style packs with the optional metadata and game of the caller's asking. */
  const rangePacks = async (
    chainId: number,
    rows: PackRow[],
    include: { metadata: boolean; contractDetails: boolean },
    options: RenderOptions,
  ): Promise<ClassicRangePack[]> => {
    const addresses = rows.map((row) => row.contract_address);
    const cards =
      include.metadata && rows.length > 0
        ? await directory.catalogues(chainId, addresses, { ...options, ...ORIGINAL_URLS })
        : undefined;
    const games =
      include.contractDetails && rows.length > 0
        ? await directory.games(chainId, [...new Set(addresses)], options)
        : undefined;
    return rows.map((row) => {
      const pack = rangePack(row);
      if (cards)
        pack.metadata = tokenMetadata(row, cards.get(row.contract_address), options.bypassImageProxy);
      const game = games?.get(row.contract_address);
      if (game) pack.contractDetails = game;
      return pack;
    });
  };

  /** A page of range-style packs (`/range`, `/owner`): its rows, their total and the pagination. */
  const rangePage = async (
    where: RawBuilder<unknown>,
    order: RawBuilder<unknown>,
    totalOf: () => Promise<number>,
    query: {
      chainId: number;
      page: number;
      limit: number;
      includeMetadata: boolean;
      includeContractDetails: boolean;
    },
    options: RenderOptions,
  ) => {
    assertPageDepth(query.page, query.limit);
    const [total, rows] = await Promise.all([
      totalOf(),
      packRows(where, order, query.limit, (query.page - 1) * query.limit),
    ]);
    return {
      packs: await rangePacks(
        query.chainId,
        rows,
        { metadata: query.includeMetadata, contractDetails: query.includeContractDetails },
        options,
      ),
      pagination: pagination(query.page, query.limit, total),
    };
  };

  /** The rows of a box-view page cut by `keys` (a key subquery), in `order`. */
  const keyedRows = async (keys: RawBuilder<unknown>, order: RawBuilder<unknown>) =>
    (
      await sql<PackRow>`SELECT ${PACK_COLUMNS} FROM ${packsOfKeys(keys)} ORDER BY ${order}`.execute(
        db.kysely,
      )
    ).rows;

  /** One pack with its game's NSFW flag (`GET /`, `/contractAddress/{x}/tokenId/{id}`). */
  const onePack = async (
    addressOrSlug: string,
    tokenId: bigint,
    query: ClassicPackPathQuery,
    options: RenderOptions,
  ): Promise<ClassicPackAnswer> => {
    const address = await resolve(query.chainId, addressOrSlug);
    const where = sql`p.chain_id = ${query.chainId} AND p.contract_address = ${address} AND p.token_id = ${tokenId.toString()}::numeric`;
    const [[row], catalogue] = await Promise.all([
      packRows(where, sql`p.token_id`, 1, 0),
      directory.catalogue(query.chainId, address, ORIGINAL_URLS),
    ]);
    if (!row) throw notFound(`no pack ${tokenId} in this game`, CLASSIC_ERROR_CODES.packNotFound);
    const [pack] = await rangePacks(
      query.chainId,
      [row],
      { metadata: query.includeMetadata, contractDetails: query.includeContractDetails },
      options,
    );
    return { success: true, boosterBox: { ...pack!, isNSFW: catalogue?.game.isNSFW ?? false } };
  };

  return {
    async range(query: ClassicRangeQuery, options: RenderOptions): Promise<ClassicRangePage> {
      const address = await resolve(query.chainId, query.contractAddress);
      const filters = [sql`p.chain_id = ${query.chainId}`, sql`p.contract_address = ${address}`];
      if (query.tokenIds) {
        if (query.tokenIds.length === 0) filters.push(sql`false`);
        else
          filters.push(
            sql`p.token_id IN (${sql.join(query.tokenIds.map((id) => sql`${id.toString()}::numeric`))})`,
          );
      }
      if (query.startTokenId !== undefined)
        filters.push(sql`p.token_id >= ${query.startTokenId.toString()}::numeric`);
      if (query.endTokenId !== undefined)
        filters.push(sql`p.token_id <= ${query.endTokenId.toString()}::numeric`);
      if (query.status) filters.push(sql`p.status = ${query.status}`);
      if (query.rarity !== undefined) filters.push(sql`p.rarity = ${query.rarity}`);
      const where = sql.join(filters, sql` AND `);
      const direction = sql.raw(query.sortOrder === "asc" ? "ASC" : "DESC");
      const order = sql`${sql.raw(RANGE_ORDER[query.sortBy])} ${direction}, p.token_id ${direction}`;
      const byTokenId =
        query.tokenIds !== undefined || query.startTokenId !== undefined || query.endTokenId !== undefined;
      const total = () =>
        byTokenId
          ? count(where)
          : summed(sql`SELECT sum(packs) AS total FROM classic_pack_counts
              WHERE chain_id = ${query.chainId} AND contract_address = ${address}
                ${query.status ? sql`AND status = ${query.status}` : sql``}
                ${query.rarity !== undefined ? sql`AND rarity = ${query.rarity}` : sql``}`);
      const { packs, pagination } = await rangePage(where, order, total, query, options);
      return { success: true, boosterBoxes: packs, pagination };
    },

    async owner(
      ownerAddress: string,
      query: ClassicOwnerQuery,
      options: RenderOptions,
    ): Promise<ClassicOwnerAnswer> {
      const contractAddress =
        query.contractAddress === undefined ? undefined : await resolve(query.chainId, query.contractAddress);
      const filters = [sql`p.chain_id = ${query.chainId}`, sql`p.owner = ${ownerAddress}`];
      if (contractAddress) filters.push(sql`p.contract_address = ${contractAddress}`);
      if (query.status) filters.push(sql`p.status = ${query.status}`);
      if (query.rarityGreaterThan !== undefined) filters.push(sql`p.rarity > ${query.rarityGreaterThan}`);
      const where = sql.join(filters, sql` AND `);
      const direction = sql.raw(query.sortOrder === "asc" ? "ASC" : "DESC");
      const order = sql`p.updated_at ${direction}, p.contract_address ${direction}, p.token_id ${direction}`;
      const packs = query.status ? sql.raw(STATUS_COLUMN[query.status]) : ALL_PACKS;
      const total = () =>
        query.rarityGreaterThan !== undefined
          ? count(where)
          : contractAddress
            ? summed(sql`SELECT ${packs} AS total FROM classic_game_collectors
                WHERE chain_id = ${query.chainId} AND contract_address = ${contractAddress} AND owner = ${ownerAddress}`)
            : summed(sql`SELECT ${packs} AS total FROM classic_collectors
                WHERE chain_id = ${query.chainId} AND owner = ${ownerAddress}`);
      const page = await rangePage(where, order, total, query, options);
      const boxView = query.contractAddress !== undefined || query.rarityGreaterThan !== undefined;
      return boxView
        ? { success: true, boxes: page.packs, pagination: page.pagination }
        : { success: true, boosterBoxes: page.packs, pagination: page.pagination };
    },

    async recentBoxes(query: ClassicRecentQuery, options: RenderOptions): Promise<ClassicBoxPage> {
      const page = query.page ?? 1;
      assertPageDepth(page, query.limit);
      const offset = (page - 1) * query.limit;
      const contractAddress =
        query.contractAddress === undefined ? undefined : await resolve(query.chainId, query.contractAddress);
      const order = sql`p.updated_at DESC, p.contract_address DESC, p.token_id DESC`;
      const bound = query.rarityGreaterThan;
      const counts = sql`SELECT sum(packs) AS total FROM classic_pack_counts
        WHERE chain_id = ${query.chainId}
          ${contractAddress ? sql`AND contract_address = ${contractAddress}` : sql``}
          ${query.status ? sql`AND status = ${query.status}` : sql``}
          ${bound !== undefined ? sql`AND rarity > ${bound}` : sql``}`;
      let keys: RawBuilder<unknown>;
      if (bound === undefined) {
        // The box view needs a game or a bound (the query schema): here the game.
        const filters = [sql`p.chain_id = ${query.chainId}`, sql`p.contract_address = ${contractAddress}`];
        if (query.status) filters.push(sql`p.status = ${query.status}`);
        keys = sql`SELECT p.chain_id, p.contract_address, p.token_id FROM classic_packs p
          WHERE ${sql.join(filters, sql` AND `)}
          ORDER BY p.updated_at DESC, p.token_id DESC LIMIT ${query.limit} OFFSET ${offset}`;
      } else {
        const pairs: RawBuilder<unknown>[] = [];
        for (let rarity = bound + 1; rarity <= 5; rarity++)
          for (const status of query.status ? [query.status] : CLASSIC_PACK_STATUSES)
            pairs.push(sql`(${rarity}::smallint, ${status}::text)`);
        const depth = offset + query.limit;
        keys = sql`SELECT b.chain_id, b.contract_address, b.token_id
          FROM (VALUES ${sql.join(pairs)}) v (rarity, status)
          CROSS JOIN LATERAL (
            SELECT p.chain_id, p.contract_address, p.token_id, p.updated_at FROM classic_packs p
            WHERE p.chain_id = ${query.chainId}
              ${contractAddress ? sql`AND p.contract_address = ${contractAddress}` : sql``}
              AND p.rarity = v.rarity AND p.status = v.status
            ORDER BY p.updated_at DESC, p.contract_address DESC, p.token_id DESC LIMIT ${depth}
          ) b
          ORDER BY b.updated_at DESC, b.contract_address DESC, b.token_id DESC
          LIMIT ${query.limit} OFFSET ${offset}`;
      }
      const [total, rows] = await Promise.all([summed(counts), keyedRows(keys, order)]);
      return {
        success: true,
        boxes: await rangePacks(
          query.chainId,
          rows,
          {
            metadata: query.includeMetadata ?? false,
            contractDetails: query.includeContractDetails ?? false,
          },
          options,
        ),
        pagination: pagination(page, query.limit, total),
      };
    },

    async dropPacks(
      addressOrSlug: string,
      query: ClassicDropPacksQuery,
      options: RenderOptions,
    ): Promise<ClassicBoxPage> {
      const address = await resolve(query.chainId, addressOrSlug);
      const where = sql`p.chain_id = ${query.chainId} AND p.contract_address = ${address}`;
      const total = () =>
        summed(sql`SELECT sum(packs) AS total FROM classic_pack_counts
          WHERE chain_id = ${query.chainId} AND contract_address = ${address}`);
      const page = await rangePage(where, sql`p.token_id ASC`, total, query, options);
      return { success: true, boxes: page.packs, pagination: page.pagination };
    },

    pack: onePack,

    async rarity(query: ClassicRarityQuery): Promise<ClassicRarity> {
      const address = await resolve(query.chainId, query.contractAddress);
      const { rows: opened } = await sql<{ token_ids: unknown }>`
        SELECT e.args->'tokenIds' AS token_ids FROM chain_events e
        WHERE e.transaction_hash = ${query.transactionHash} AND e.chain_id = ${query.chainId}
          AND e.address = ${address} AND e.event = 'BoosterDropOpened'`.execute(db.kysely);
      const tokenIds = [
        ...new Set(
          opened.flatMap(({ token_ids }) =>
            Array.isArray(token_ids) ? token_ids.map((id) => BigInt(String(id)).toString()) : [],
          ),
        ),
      ];
      const { rows } =
        tokenIds.length === 0
          ? { rows: [] }
          : await sql<{
              token_id: string;
              rarity: number;
              random_value: string | null;
              token_seed: string | null;
            }>`
              SELECT p.token_id::text AS token_id, p.rarity, p.random_value::text AS random_value,
                     p.token_seed::text AS token_seed
              FROM classic_packs p
              WHERE p.chain_id = ${query.chainId} AND p.contract_address = ${address}
                AND p.token_id IN (${sql.join(tokenIds.map((id) => sql`${id}::numeric`))})
              ORDER BY p.token_id`.execute(db.kysely);
      const packs: ClassicPackRarity[] = rows.map((row) => ({
        tokenId: BigInt(row.token_id),
        tokenIdString: row.token_id,
        rarity: row.rarity,
        rarityName: rarityName(row.rarity),
        randomValue: row.rarity > 0 ? row.random_value : null,
        tokenSpecificRandomness: row.rarity > 0 ? row.token_seed : null,
      }));
      const [first] = packs;
      if (!first)
        throw notFound(
          `transaction ${query.transactionHash} opened no pack of this game (or is not indexed yet)`,
          CLASSIC_ERROR_CODES.transactionNotFound,
        );
      return { success: true, ...first, packs };
    },

    async holdings(
      ownerAddress: string,
      query: ClassicHoldingsQuery,
      options: RenderOptions,
    ): Promise<ClassicHoldings> {
      const contractAddress =
        query.contractAddress === undefined ? null : await resolve(query.chainId, query.contractAddress);
      const filters = [sql`p.chain_id = ${query.chainId}`, sql`p.owner = ${ownerAddress}`];
      if (contractAddress) filters.push(sql`p.contract_address = ${contractAddress}`);
      const where = sql.join(filters, sql` AND `);
      assertPageDepth(query.page, query.limit);
      const [total, rows] = await Promise.all([
        summed(
          contractAddress
            ? sql`SELECT ${ALL_PACKS} AS total FROM classic_game_collectors
                WHERE chain_id = ${query.chainId} AND contract_address = ${contractAddress} AND owner = ${ownerAddress}`
            : sql`SELECT ${ALL_PACKS} AS total FROM classic_collectors
                WHERE chain_id = ${query.chainId} AND owner = ${ownerAddress}`,
        ),
        packRows(
          where,
          sql`p.contract_address ASC, p.token_id ASC`,
          query.limit,
          (query.page - 1) * query.limit,
        ),
      ]);
      const addresses = [...new Set(rows.map((row) => row.contract_address))];
      const [cards, games, userData] = await Promise.all([
        directory.catalogues(query.chainId, addresses, options),
        addresses.length > 0 ? directory.searchGames(query.chainId, addresses, options) : new Map(),
        rows.length > 0 ? userDataOf(ownerAddress) : null,
      ]);
      const boxes: ClassicHoldingsPack[] = [];
      for (const row of rows) {
        const contract = games.get(row.contract_address);
        if (!contract) continue;
        const draw = drawn(row, cards.get(row.contract_address));
        const offer = offersOf(row)[row.rarity - 1];
        boxes.push({
          tokenId: BigInt(row.token_id),
          tokenIdString: row.token_id,
          owner: row.owner,
          contractAddress: row.contract_address,
          chainId: row.chain_id,
          status: row.status,
          rarity: row.rarity,
          rarityName: rarityName(row.rarity),
          batchId: row.batch_id,
          tokenSeed: row.token_seed,
          randomValue: row.random_value,
          mintTxHash: row.mint_tx,
          burnTxHash: row.burn_tx,
          rarityAssignedTxHash: row.rarity_tx,
          openedTxHash: row.opened_tx,
          mintBlockNumber: Number(row.mint_block),
          burnBlockNumber: numberOrNull(row.burn_block),
          rarityAssignedBlockNumber: numberOrNull(row.rarity_block),
          openedBlockNumber: numberOrNull(row.opened_block),
          rewardAmount:
            row.reward_amount ?? (row.rarity >= 1 && offer !== undefined ? offer.toString() : null),
          acquiredAtPackPrice: row.acquired_price,
          mintTimestamp: iso(row.mint_time),
          burnTimestamp: isoOrNull(row.burn_time),
          rarityAssignedTimestamp: isoOrNull(row.rarity_time),
          openedTimestamp: isoOrNull(row.opened_time),
          latestUpdateTimestamp: iso(row.updated_at),
          isMarketfit: contract.isMarketfit,
          isFirstEdition: isFirstEdition(BigInt(row.token_id), BigInt(row.first_token_id)),
          metadata: draw
            ? { ...draw.card, wear: draw.wear, wearValue: draw.wearValue, foil: draw.foil }
            : null,
          contract,
          userData,
        });
      }
      return {
        ownerAddress,
        contractAddress,
        chainId: query.chainId,
        boxes,
        pagination: pagination(query.page, query.limit, total),
      };
    },

    async tokenMetadata(
      chainId: number,
      addressOrSlug: string,
      tokenId: bigint,
      options: RenderOptions,
    ): Promise<ClassicTokenMetadata> {
      const address = await resolve(chainId, addressOrSlug);
      const where = sql`p.chain_id = ${chainId} AND p.contract_address = ${address} AND p.token_id = ${tokenId.toString()}::numeric`;
      const [row] = await packRows(where, sql`p.token_id`, 1, 0);
      if (!row) throw notFound(`no pack ${tokenId} in this game`, CLASSIC_ERROR_CODES.packNotFound);
      return tokenMetadata(
        row,
        await directory.catalogue(chainId, address, { ...options, ...ORIGINAL_URLS }),
        options.bypassImageProxy,
      );
    },
  };

  async function userDataOf(address: string): Promise<ClassicHoldingsPack["userData"]> {
    const { rows } = await sql<{ account_id: string }>`
      SELECT account_id FROM account_wallets WHERE address = ${address}`.execute(db.kysely);
    const accountId = rows[0]?.account_id;
    if (!accountId) return null;
    const profile = await profiles.ofAccount(accountId);
    if (!profile) return null;
    return { id: accountId, ...classicProfileFields(profile), address };
  }
}

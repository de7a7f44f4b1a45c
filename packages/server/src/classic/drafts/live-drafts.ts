import { randomBytes } from "node:crypto";
import {
  CLASSIC_LIVE_DEFAULT_ODDS_BPS,
  CLASSIC_LIVE_RARITY_WORDS,
  CLASSIC_LIVE_TOKEN_NAME_SUFFIX,
  CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX,
  type ClassicDraft,
  type ClassicLiveDraft,
  type classicLiveDraftRequestSchema,
  classicSlugOfPackName,
  isCreatorSlug,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { z } from "zod";
import type { Database } from "../../db/index.ts";
import { badRequest, UnavailableError } from "../../errors.ts";
import { type CreatorActor, inWallets } from "./draft-rows.ts";
import type { DraftPollInput } from "./draft-store.ts";

export type LiveDraftInput = z.output<typeof classicLiveDraftRequestSchema>;

/**
 * The live service's draft body as a draft create (`poll` without `draftId`):
 * the edge's translation, so both routes share one service path. Cards get
 * card ids 1..N in `tokenId` order (tokenIds unique), one id each.
 */
export function draftOfLiveBody(body: LiveDraftInput): DraftPollInput {
  if (body.owner !== undefined && body.owner !== body.creator)
    throw badRequest("owner must be the creator: the wallet that deploys the drop owns it");
  const items = body.metadataItems.map((item) => ({ item, tokenId: BigInt(item.tokenId) }));
  items.sort((a, b) => (a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0));
  for (const [index, { tokenId }] of items.entries()) {
    if (index > 0 && items[index - 1]?.tokenId === tokenId)
      throw badRequest(`metadataItems: tokenId ${tokenId} appears more than once`);
  }
  return {
    revision: 1,
    creator: body.creator,
    nftName: body.name,
    nftSymbol: body.symbol,
    tokenName: `${body.name}${CLASSIC_LIVE_TOKEN_NAME_SUFFIX}`,
    tokenSymbol: `${body.symbol}${CLASSIC_LIVE_TOKEN_SYMBOL_SUFFIX}`,
    slug: body.slug,
    game: {
      description: body.description,
      imageUrl: body.featuredImageUrl,
      featuredImageUrl: body.featuredImageUrl,
      websiteUrl: body.websiteLink === "" ? null : body.websiteLink,
      packImage: null,
      bgColor: body.bgColor,
      links: { twitter: body.twitterLink, website: body.websiteLink, discord: "" },
      isNSFW: body.isNSFW,
      disableFoil: body.disableFoil,
      disableWear: body.disableWear,
    },
    cards: items.map(({ item }, index) => ({
      name: item.name,
      description: item.description,
      imageUrl: item.imageUrl,
      unopenedImageUrl: null,
      firstEditionImageUrl: null,
      externalLink: null,
      rarity: CLASSIC_LIVE_RARITY_WORDS.indexOf(item.rarity) + 1,
      startId: index + 1,
      endId: index + 1,
      traits: [],
      bgColor: null,
    })),
    oddsBps: body.oddsBps ?? [...CLASSIC_LIVE_DEFAULT_ODDS_BPS],
    packAmount: body.packAmount,
  };
}

/** The live answer of a created draft: its cards as the live service shows them, and what to deploy. */
export function liveDraftAnswer(
  body: LiveDraftInput,
  draft: ClassicDraft,
  factory: string | null,
): ClassicLiveDraft {
  const tokenIds = body.metadataItems.map((item) => BigInt(item.tokenId)).sort((a, b) => (a < b ? -1 : 1));
  return {
    success: true,
    draftId: draft.draftId,
    drafts: draft.cards.map((card, index) => ({
      cardId: card.startId,
      tokenId: String(tokenIds[index] ?? card.startId),
      name: card.name,
      description: card.description,
      imageUrl: card.imageUrl,
      rarity: CLASSIC_LIVE_RARITY_WORDS[card.rarity - 1] ?? "Common",
      rarityCode: card.rarity,
    })),
    draftGame: {
      id: draft.draftId,
      slug: draft.slug,
      name: draft.nftName,
      symbol: draft.nftSymbol,
      creator: draft.creator,
      status: draft.status,
      packAmount: draft.packAmount,
    },
    // The arguments of `DropFactory.createDropWithExtensions` that confirm compares with the draft:
    // names, symbols, `extensions.merkleRoot` and `extensions.oddsBps` (`createDropWithConfig` deploys
    // the zero root and the default odds).
    createGame: {
      chainId: draft.chainId,
      factory,
      nftName: draft.nftName,
      nftSymbol: draft.nftSymbol,
      tokenName: draft.tokenName,
      tokenSymbol: draft.tokenSymbol,
      merkleRoot: draft.whitelist.merkleRoot,
      oddsBps: draft.oddsBps,
    },
    draft,
  };
}

/** Numbered forms tried after the plain slug; a creator slug never ends in `-<digits>`, so `-v2`. */
const NUMBERED = 9;
/** Random forms tried when every numbered one is taken. */
const RANDOM_TRIES = 5;

export interface SlugGenerator {
  /** A creator slug for `packName`, free at the time of the answer (503 when none is found). */
  generate(actor: CreatorActor, packName: string): Promise<string>;
}

/**
 * `POST /classic/generate-slug`: the creator slug a pack name makes
 * (`classicSlugOfPackName`), free among game slugs (creator and default) and
 * the slugs of drafts other than the account's own unconfirmed ones at the
 * time of the answer: the name's slug, else `-v2` .. `-v9`, else `-x` and 8
 * random hex digits. Not a reservation: confirm checks again.
 */
export function createSlugGenerator({ db, chainId }: { db: Database; chainId: number }): SlugGenerator {
  const firstFree = async (actor: CreatorActor, candidates: string[]): Promise<string | undefined> => {
    const list = sql.join(candidates.map((candidate) => sql`${candidate}`));
    const { rows } = await sql<{ slug: string }>`
      SELECT slug FROM classic_slugs WHERE chain_id = ${chainId} AND slug IN (${list})
      UNION
      SELECT slug FROM classic_games WHERE chain_id = ${chainId} AND slug IN (${list})
      UNION
      SELECT content ->> 'slug' AS slug FROM classic_drafts
       WHERE chain_id = ${chainId} AND content ->> 'slug' IN (${list})
         AND NOT (tx_hash IS NULL AND ${inWallets(sql.ref("creator"), actor.wallets)})`.execute(db.kysely);
    const taken = new Set(rows.map((row) => row.slug));
    return candidates.find((candidate) => !taken.has(candidate));
  };

  return {
    async generate(actor: CreatorActor, packName: string): Promise<string> {
      const base = classicSlugOfPackName(packName);
      const numbered = [base];
      for (let n = 2; n <= NUMBERED; n += 1) numbered.push(`${base}-v${n}`);
      const random = Array.from({ length: RANDOM_TRIES }, () => `${base}-x${randomBytes(4).toString("hex")}`);
      const slug = (await firstFree(actor, numbered)) ?? (await firstFree(actor, random));
      if (slug === undefined || !isCreatorSlug(slug))
        throw new UnavailableError("no free slug was found for this pack name; try again");
      return slug;
    },
  };
}

import { randomUUID } from "node:crypto";
import { classicSignInMessage, defaultGameSlug } from "@mkt/protocol";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { StoredCard, StoredGameMetadata } from "../classic/games/index.ts";
import type { Database } from "../db/index.ts";
import { testWallet } from "./accounts.ts";

/**
 * Fixture rows of the classic projection and its offchain metadata, written
 * straight into the tables (the chain side fills them in production), so
 * read tests state every value they assert on.
 */
export interface ClassicGameFixture {
  address: string;
  /** The indexer scope of the row (default `classic-test`). */
  scope?: string;
  chainId?: number;
  gameId?: bigint;
  tokenAddress?: string;
  creator?: string;
  nftName?: string;
  nftSymbol?: string;
  tokenName?: string;
  tokenSymbol?: string;
  pricePerPack?: bigint;
  ethReserve?: bigint;
  tokensSold?: bigint;
  isGraduated?: boolean;
  packsMinted?: bigint;
  offers?: readonly [bigint, bigint, bigint, bigint, bigint];
  oddsBps?: readonly [number, number, number, number, number];
  virtualEth?: bigint;
  virtualTokens?: bigint;
  graduationEth?: bigint;
  firstTokenId?: bigint;
  isActive?: boolean;
  poolEth?: bigint | null;
  poolTokens?: bigint | null;
  mintVolume?: bigint;
  /** The default slug column; `defaultGameSlug(nftName, gameId)` when absent. */
  slug?: string;
  createdBlock?: number;
  createdAt?: Date;
  updatedAt?: Date;
  createdTx?: string;
}

const ETHER = 10n ** 18n;

export async function insertClassicGame(db: Database, fixture: ClassicGameFixture) {
  const address = fixture.address.toLowerCase();
  const gameId = fixture.gameId ?? 1n;
  const nftName = fixture.nftName ?? "Test Game";
  const createdAt = fixture.createdAt ?? new Date(Date.UTC(2026, 0, 1));
  const createdBlock = fixture.createdBlock ?? 1;
  await sql`
    INSERT INTO classic_games (
      scope, chain_id, drop_address, game_id, token_address, creator, nft_name, nft_symbol,
      token_name, token_symbol, price_per_pack, merkle_root, eth_reserve, tokens_sold, is_graduated,
      pool_address, packs_minted, created_block, created_tx, created_at, updated_block, updated_at,
      offers, odds_bps, virtual_eth, virtual_tokens, graduation_eth, first_token_id, is_active,
      pool_eth, pool_tokens, mint_volume, slug)
    VALUES (
      ${fixture.scope ?? "classic-test"}, ${fixture.chainId ?? 8453}, ${address}, ${gameId.toString()},
      ${(fixture.tokenAddress ?? `0x${"7".repeat(39)}${gameId % 10n}`).toLowerCase()},
      ${(fixture.creator ?? `0x${"c".repeat(40)}`).toLowerCase()}, ${nftName}, ${fixture.nftSymbol ?? "TEST"},
      ${fixture.tokenName ?? `${nftName} Ticket`}, ${fixture.tokenSymbol ?? "TIX"},
      ${(fixture.pricePerPack ?? ETHER / 1000n).toString()}, ${`0x${"0".repeat(64)}`},
      ${(fixture.ethReserve ?? 0n).toString()}, ${(fixture.tokensSold ?? 0n).toString()},
      ${fixture.isGraduated ?? false}, ${fixture.isGraduated ? `0x${"9".repeat(40)}` : null},
      ${(fixture.packsMinted ?? 0n).toString()}, ${createdBlock},
      ${fixture.createdTx ?? `0x${createdBlock.toString(16).padStart(64, "0")}`}, ${createdAt.toISOString()},
      ${createdBlock}, ${(fixture.updatedAt ?? createdAt).toISOString()},
      ${JSON.stringify((fixture.offers ?? [0n, 0n, 0n, 0n, 0n]).map(String))}::jsonb,
      ${JSON.stringify(fixture.oddsBps ?? [6000, 2500, 1000, 400, 100])}::jsonb,
      ${(fixture.virtualEth ?? 0n).toString()}, ${(fixture.virtualTokens ?? 0n).toString()},
      ${(fixture.graduationEth ?? 0n).toString()}, ${(fixture.firstTokenId ?? 1n).toString()},
      ${fixture.isActive ?? true},
      ${fixture.poolEth == null ? null : fixture.poolEth.toString()},
      ${fixture.poolTokens == null ? null : fixture.poolTokens.toString()},
      ${(fixture.mintVolume ?? 0n).toString()}, ${fixture.slug ?? defaultGameSlug(nftName, gameId)})`.execute(
    db.kysely,
  );
}

export interface ClassicMetadataFixture {
  address: string;
  chainId?: number;
  version: number;
  effectiveFrom: Date;
  effectiveUntil?: Date | null;
  game: Partial<StoredGameMetadata>;
  cards: Array<Partial<StoredCard> & Pick<StoredCard, "name" | "rarity" | "startId" | "endId">>;
  createdAt?: Date;
}

/** One metadata revision row, as the creator routes or the metadata store write it. */
export async function insertClassicMetadata(db: Database, fixture: ClassicMetadataFixture) {
  await sql`
    INSERT INTO classic_metadata
      (chain_id, contract_address, version, effective_from, effective_until, source, game, cards, created_at)
    VALUES (${fixture.chainId ?? 8453}, ${fixture.address.toLowerCase()}, ${fixture.version},
            ${fixture.effectiveFrom.toISOString()}, ${fixture.effectiveUntil ? fixture.effectiveUntil.toISOString() : null},
            'user', ${JSON.stringify(fixture.game)}::jsonb, ${JSON.stringify(fixture.cards)}::jsonb,
            ${(fixture.createdAt ?? fixture.effectiveFrom).toISOString()})`.execute(db.kysely);
}

/** A creator slug row. */
export async function insertClassicSlug(db: Database, address: string, slug: string, chainId = 8453) {
  await sql`INSERT INTO classic_slugs (chain_id, slug, contract_address)
            VALUES (${chainId}, ${slug}, ${address.toLowerCase()})`.execute(db.kysely);
}

/** Operator flags of a game. */
export async function insertClassicFlags(
  db: Database,
  address: string,
  flags: { isFeatured?: boolean; isVerified?: boolean; isVerifiedArtist?: boolean; isMarketfit?: boolean },
  chainId = 8453,
) {
  await sql`INSERT INTO classic_game_flags
              (chain_id, contract_address, is_featured, is_verified, is_verified_artist, is_marketfit, updated_at)
            VALUES (${chainId}, ${address.toLowerCase()}, ${flags.isFeatured ?? false}, ${flags.isVerified ?? false},
                    ${flags.isVerifiedArtist ?? false}, ${flags.isMarketfit ?? false}, ${new Date(Date.UTC(2026, 0, 1)).toISOString()})`.execute(
    db.kysely,
  );
}

/** A dev wallet signed in to the Classic API: its token and the headers of an "API-KEY and bearer" request. */
export interface ClassicSignedIn {
  address: string;
  accountId: string;
  accessToken: string;
  headers: { "api-key": string; authorization: string };
}

/**
 * Signs dev wallet `walletIndex` in through `POST /classic/auth/sign-in`
 * (the message `classicSignInMessage` builds, an expiry a minute after `now`).
 */
export async function signInClassic(
  server: { inject: FastifyInstance["inject"] },
  {
    apiKey,
    walletIndex,
    now,
    chainId = 8453,
  }: { apiKey: string; walletIndex: number; now: number; chainId?: number },
): Promise<ClassicSignedIn> {
  const wallet = testWallet(walletIndex);
  const fields = {
    address: wallet.address.toLowerCase(),
    chainId,
    nonce: randomUUID(),
    expires: now + 60_000,
  };
  const signature = await wallet.signMessage({ message: classicSignInMessage(fields) });
  const response = await server.inject({
    method: "POST",
    url: "/classic/auth/sign-in",
    headers: { "api-key": apiKey },
    payload: { ...fields, signature },
  });
  if (response.statusCode !== 200)
    throw new Error(`classic sign-in: ${response.statusCode} ${response.body}`);
  const body = response.json() as { accessToken: string; address: string; account: { id: string } };
  return {
    address: body.address,
    accountId: body.account.id,
    accessToken: body.accessToken,
    headers: { "api-key": apiKey, authorization: `Bearer ${body.accessToken}` },
  };
}

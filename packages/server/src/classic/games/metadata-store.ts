import {
  type AdminClassicGameFlags,
  CLASSIC_CREATOR_SLUG,
  CLASSIC_ERROR_CODES,
  type ClassicGameFlags,
  classicCardInputSchema,
  classicGameMetadataInputSchema,
  isCreatorSlug,
} from "@mkt/protocol";
import { sql } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { isUniqueViolation } from "../../db/index.ts";
import { AppError, badRequest, conflict, notFound } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";

/**
 * The game fields and the cards of a metadata revision, as `classic_metadata`
 * stores them: the wire's input shapes (`@mkt/protocol`), so what a creator
 * drafts and what a revision keeps are one schema.
 */
export const storedGameMetadataSchema = classicGameMetadataInputSchema;
export type StoredGameMetadata = z.output<typeof storedGameMetadataSchema>;

export const storedCardSchema = classicCardInputSchema;
export type StoredCard = z.output<typeof storedCardSchema>;

export const storedCardsSchema = z.array(storedCardSchema).min(1).max(1000);

/** What a revision publishes (the creator workflow's confirm and PUT routes, the demo). */
export interface MetadataRevisionInput {
  game: z.input<typeof storedGameMetadataSchema>;
  cards: z.input<typeof storedCardSchema>[];
  /** A creator slug for the game; absent keeps the current one. */
  slug?: string;
  /** When the revision takes effect; now when absent. Not before the latest revision's start. */
  effectiveFrom?: Date;
  /**
   * When it stops; absent: open-ended. An open-ended revision closes the
   * revisions before it where it starts; a bounded one leaves them as they
   * are, so the latest open one is in effect again once it ends.
   */
  effectiveUntil?: Date;
  /** The version this revision must get (optimistic concurrency): 409 `VERSION_CONFLICT` otherwise. */
  expectedVersion?: number;
}

export interface PublishedRevision {
  version: number;
  effectiveFrom: Date;
  effectiveUntil: Date | null;
}

/**
 * Creator slugs: lowercase letters, digits and single inner `-`, 3 to 80
 * characters, never ending in `-<digits>` (that form is the default slugs'),
 * never a reserved word (`isCreatorSlug` in `@mkt/protocol`).
 */
export const CREATOR_SLUG = CLASSIC_CREATOR_SLUG;

/**
 * Checks a revision's cards: card ids run 1..N without gaps or overlaps in
 * `startId` order, and every rarity 1..5 has a card (a pack of any rarity
 * must have a card to draw, README "The card rule").
 */
export function checkCards(cards: readonly StoredCard[]): StoredCard[] {
  const sorted = [...cards].sort((a, b) => a.startId - b.startId);
  let next = 1;
  for (const card of sorted) {
    if (card.endId < card.startId) throw badRequest(`card "${card.name}": endId is before startId`);
    if (card.startId !== next)
      throw badRequest(`card ids must run from 1 without gaps or overlaps; expected startId ${next}`);
    next = card.endId + 1;
  }
  for (let rarity = 1; rarity <= 5; rarity++) {
    if (!sorted.some((card) => card.rarity === rarity)) throw badRequest(`no card of rarity ${rarity}`);
  }
  return sorted;
}

/** Where a game sits in the `unpublished` order: its creation block, then its address. */
export interface UnpublishedPosition {
  block: string;
  address: string;
}

export interface ClassicMetadataStore {
  /** Publishes a revision (version = latest + 1); the open revision before it ends where it starts. */
  publish(chainId: number, address: string, revision: MetadataRevisionInput): Promise<PublishedRevision>;
  /** Sets operator flags (absent fields keep their value); 404 GAME_NOT_FOUND for a drop not indexed. */
  setFlags(chainId: number, address: string, flags: AdminClassicGameFlags): Promise<ClassicGameFlags>;
  /**
   * Games without any metadata revision, oldest first (the demo publishes for them); with
   * `after`, only those created after that game (its `position`), so a caller walks on past the
   * games it chose to leave without metadata.
   */
  unpublished(
    chainId: number,
    limit: number,
    after?: UnpublishedPosition,
  ): Promise<
    Array<{
      address: string;
      gameId: string;
      nftName: string;
      creator: string;
      position: UnpublishedPosition;
    }>
  >;
  /** How many games of the chain the operator features. */
  featuredCount(chainId: number): Promise<number>;
}

const gameNotFound = () => notFound("no such game", "GAME_NOT_FOUND");

/**
 * Offchain game data: metadata revisions, creator slugs, operator flags.
 * Every change bumps `CLASSIC_METADATA_SOURCE` (through `bump`), so cached
 * classic reads on every replica move at once.
 */
export function createClassicMetadataStore({
  db,
  clock,
  bump,
}: {
  db: Database;
  clock: Clock;
  bump: () => Promise<void>;
}): ClassicMetadataStore {
  return {
    async publish(chainId, rawAddress, revision) {
      const address = rawAddress.toLowerCase();
      const game = storedGameMetadataSchema.parse(revision.game);
      const parsed = storedCardsSchema.safeParse(revision.cards);
      if (!parsed.success) throw badRequest(`cards: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      const cards = checkCards(parsed.data);
      if (revision.slug !== undefined && !isCreatorSlug(revision.slug))
        throw badRequest("slug: 3 to 80 of a-z, 0-9 and inner -, not ending in -<digits>, not `draft`");
      const from = revision.effectiveFrom ?? new Date(clock.now());
      const until = revision.effectiveUntil ?? null;
      if (until && until.getTime() <= from.getTime())
        throw badRequest("effectiveUntil must be after effectiveFrom");
      let published: PublishedRevision;
      try {
        published = await db.kysely.transaction().execute(async (tx) => {
          // Locks the game row: publishes of one game take their versions in turn.
          const { rows: games } = await sql<{ drop_address: string }>`
            SELECT drop_address FROM classic_games
             WHERE chain_id = ${chainId} AND drop_address = ${address} FOR UPDATE`.execute(tx);
          if (games.length === 0) throw gameNotFound();
          const { rows: latest } = await sql<{ version: number; effective_from: Date | string }>`
            SELECT version, effective_from FROM classic_metadata
             WHERE chain_id = ${chainId} AND contract_address = ${address}
             ORDER BY version DESC LIMIT 1`.execute(tx);
          const previous = latest[0];
          if (previous && new Date(previous.effective_from).getTime() >= from.getTime())
            throw badRequest("effectiveFrom must be after the latest revision's start");
          const version = (previous?.version ?? 0) + 1;
          if (revision.expectedVersion !== undefined && revision.expectedVersion !== version)
            throw new AppError(
              "conflict",
              `version ${revision.expectedVersion} is not the next version (${version}): another revision was published meanwhile`,
              { code: CLASSIC_ERROR_CODES.versionConflict },
            );
          const fromIso = from.toISOString();
          if (until === null)
            await sql`
              UPDATE classic_metadata SET effective_until = ${fromIso}
               WHERE chain_id = ${chainId} AND contract_address = ${address}
                 AND (effective_until IS NULL OR effective_until > ${fromIso})`.execute(tx);
          await sql`
            INSERT INTO classic_metadata
              (chain_id, contract_address, version, effective_from, effective_until, source, game, cards, created_at)
            VALUES (${chainId}, ${address}, ${version}, ${fromIso}, ${until?.toISOString() ?? null}, 'user',
                    ${JSON.stringify(game)}::jsonb, ${JSON.stringify(cards)}::jsonb,
                    ${new Date(clock.now()).toISOString()})`.execute(tx);
          if (revision.slug !== undefined) {
            const { rows: taken } = await sql<{ n: number }>`
              SELECT 1 AS n FROM classic_games WHERE chain_id = ${chainId} AND slug = ${revision.slug}`.execute(
              tx,
            );
            if (taken.length > 0) throw conflict("slug taken");
            await sql`DELETE FROM classic_slugs WHERE chain_id = ${chainId} AND contract_address = ${address}`.execute(
              tx,
            );
            await sql`INSERT INTO classic_slugs (chain_id, slug, contract_address)
                      VALUES (${chainId}, ${revision.slug}, ${address})`.execute(tx);
          }
          return { version, effectiveFrom: from, effectiveUntil: until };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict("slug taken, or a concurrent publish took this version");
        throw error;
      }
      await bump();
      return published;
    },

    async setFlags(chainId, rawAddress, flags) {
      const address = rawAddress.toLowerCase();
      const now = new Date(clock.now()).toISOString();
      const { rows } = await sql<{
        is_featured: boolean;
        is_verified: boolean;
        is_verified_artist: boolean;
        is_marketfit: boolean;
      }>`
        INSERT INTO classic_game_flags
          (chain_id, contract_address, is_featured, is_verified, is_verified_artist, is_marketfit, updated_at)
        SELECT g.chain_id, g.drop_address,
               ${flags.isFeatured ?? false}, ${flags.isVerified ?? false},
               ${flags.isVerifiedArtist ?? false}, ${flags.isMarketfit ?? false}, ${now}
          FROM classic_games g WHERE g.chain_id = ${chainId} AND g.drop_address = ${address}
        ON CONFLICT (chain_id, contract_address) DO UPDATE SET
          is_featured = ${flags.isFeatured === undefined ? sql`classic_game_flags.is_featured` : sql`EXCLUDED.is_featured`},
          is_verified = ${flags.isVerified === undefined ? sql`classic_game_flags.is_verified` : sql`EXCLUDED.is_verified`},
          is_verified_artist = ${flags.isVerifiedArtist === undefined ? sql`classic_game_flags.is_verified_artist` : sql`EXCLUDED.is_verified_artist`},
          is_marketfit = ${flags.isMarketfit === undefined ? sql`classic_game_flags.is_marketfit` : sql`EXCLUDED.is_marketfit`},
          updated_at = EXCLUDED.updated_at
        RETURNING is_featured, is_verified, is_verified_artist, is_marketfit`.execute(db.kysely);
      const row = rows[0];
      if (!row) throw gameNotFound();
      await bump();
      return {
        chainId,
        contractAddress: address,
        isFeatured: row.is_featured,
        isVerified: row.is_verified,
        isVerifiedArtist: row.is_verified_artist,
        isMarketfit: row.is_marketfit,
      };
    },

    async unpublished(chainId, limit, after) {
      const { rows } = await sql<{
        drop_address: string;
        game_id: string;
        nft_name: string;
        creator: string;
        created_block: string;
      }>`
        SELECT g.drop_address, g.game_id::text AS game_id, g.nft_name, g.creator,
               g.created_block::text AS created_block
          FROM classic_games g
         WHERE g.chain_id = ${chainId}
           ${after ? sql`AND (g.created_block, g.drop_address) > (${after.block}::bigint, ${after.address})` : sql``}
           AND NOT EXISTS (SELECT 1 FROM classic_metadata m
                            WHERE m.chain_id = g.chain_id AND m.contract_address = g.drop_address)
           -- A game its creator confirmed (classic/drafts) gets the creator's metadata, never the demo's.
           AND NOT EXISTS (SELECT 1 FROM classic_drafts d
                            WHERE d.chain_id = g.chain_id AND d.contract_address = g.drop_address)
         ORDER BY g.created_block, g.drop_address
         LIMIT ${limit}`.execute(db.kysely);
      return rows.map((row) => ({
        address: row.drop_address,
        gameId: row.game_id,
        nftName: row.nft_name,
        creator: row.creator,
        position: { block: row.created_block, address: row.drop_address },
      }));
    },

    async featuredCount(chainId) {
      const { rows } = await sql<{ n: string | number }>`
        SELECT count(*) AS n FROM classic_game_flags WHERE chain_id = ${chainId} AND is_featured`.execute(
        db.kysely,
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

import { CLASSIC_ERROR_CODES, type ClassicRevision, type classicRevisionRequestSchema } from "@mkt/protocol";
import { sql } from "kysely";
import type { z } from "zod";
import type { Database } from "../../db/index.ts";
import { AppError, notFound } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { controlsWallet } from "../auth/ownership.ts";
import type { ClassicMetadataStore } from "../games/metadata-store.ts";
import type { CreatorUrlCheck } from "./creator-urls.ts";
import { COLUMNS, type CreatorActor, contentOf, type DraftRow, forbidden } from "./draft-rows.ts";

export type RevisionInput = z.output<typeof classicRevisionRequestSchema>;

/** A stale publish claim (a replica that died mid-publish) may be taken over after this. */
const PUBLISH_CLAIM_MS = 30_000;

export interface DraftPublication {
  /**
   * Publishes a confirmed draft's metadata once its game is indexed. One
   * replica publishes (a claim on the draft row); the others see it pending
   * or published. Returns the published version, or null while the game is
   * not indexed (or another replica is publishing).
   */
  settle(draftId: string): Promise<number | null>;
  /**
   * For `/ready`: publishes a confirmed draft of this game if it is still
   * unpublished. True while the game has a confirmed draft whose metadata
   * is not published yet.
   */
  pendingPublication(gameChainId: number, address: string): Promise<boolean>;
  /**
   * Publishes a revision of a game whose creator is a wallet linked to
   * the actor (404 unknown game, 403 another creator's, 409 `VERSION_CONFLICT`
   * when `version` is not the next one).
   */
  revise(actor: CreatorActor, contractAddress: string, input: RevisionInput): Promise<ClassicRevision>;
}

/**
 * A game's metadata as published: a confirmed draft's content becomes the
 * game's first revision once the game is indexed, and its creator publishes
 * later revisions.
 */
export function createDraftPublication({
  db,
  clock,
  now,
  chainId,
  metadata,
  checkUrlSchemes,
  onPublishFailure,
}: {
  db: Database;
  clock: Clock;
  /** The clock's time as an ISO string. */
  now: () => string;
  /** The classic chain: revisions are for its games. */
  chainId: number;
  metadata: ClassicMetadataStore;
  checkUrlSchemes: CreatorUrlCheck;
  /** A publish after confirm failed for a reason a retry cannot fix (logged by the caller). */
  onPublishFailure?: ((draftId: string, error: unknown) => void) | undefined;
}): DraftPublication {
  async function settle(draftId: string): Promise<number | null> {
    const stale = new Date(clock.now() - PUBLISH_CLAIM_MS).toISOString();
    const { rows } = await sql<DraftRow>`
      UPDATE classic_drafts d SET publish_claimed_at = ${now()}
       WHERE d.id = ${draftId} AND d.tx_hash IS NOT NULL AND d.published_version IS NULL
         AND (d.publish_claimed_at IS NULL OR d.publish_claimed_at < ${stale})
         AND EXISTS (SELECT 1 FROM classic_games g
                      WHERE g.chain_id = d.chain_id AND g.drop_address = d.contract_address)
      RETURNING ${COLUMNS}`.execute(db.kysely);
    const row = rows[0];
    if (!row?.contract_address) {
      const { rows: current } = await sql<{ published_version: number | null }>`
        SELECT published_version FROM classic_drafts WHERE id = ${draftId}`.execute(db.kysely);
      return current[0]?.published_version ?? null;
    }
    const content = contentOf(row);
    const revision = { game: content.game, cards: content.cards };
    let version: number;
    try {
      try {
        ({ version } = await metadata.publish(row.chain_id, row.contract_address, {
          ...revision,
          ...(content.slug ? { slug: content.slug } : {}),
        }));
      } catch (error) {
        // The slug was free at confirm; if another game took it since, the game keeps its default slug.
        if (!(error instanceof AppError && error.kind === "conflict" && content.slug)) throw error;
        ({ version } = await metadata.publish(row.chain_id, row.contract_address, revision));
      }
    } catch (error) {
      await sql`UPDATE classic_drafts SET publish_claimed_at = NULL WHERE id = ${draftId}`.execute(db.kysely);
      onPublishFailure?.(draftId, error);
      throw error;
    }
    await sql`
      UPDATE classic_drafts SET published_version = ${version}, publish_claimed_at = NULL, updated_at = ${now()}
       WHERE id = ${draftId}`.execute(db.kysely);
    return version;
  }

  async function pendingPublication(gameChainId: number, address: string): Promise<boolean> {
    const { rows } = await sql<{ id: string }>`
      SELECT id FROM classic_drafts
       WHERE chain_id = ${gameChainId} AND contract_address = ${address} AND published_version IS NULL`.execute(
      db.kysely,
    );
    const row = rows[0];
    if (!row) return false;
    return (await settle(row.id).catch(() => null)) === null;
  }

  async function revise(
    actor: CreatorActor,
    contractAddress: string,
    input: RevisionInput,
  ): Promise<ClassicRevision> {
    const { rows } = await sql<{ creator: string }>`
      SELECT creator FROM classic_games WHERE chain_id = ${chainId} AND drop_address = ${contractAddress}`.execute(
      db.kysely,
    );
    const game = rows[0];
    if (!game) throw notFound("no such game", CLASSIC_ERROR_CODES.gameNotFound);
    if (!controlsWallet(actor, game.creator))
      throw forbidden("the game's creator is not a wallet linked to the signed-in account");
    checkUrlSchemes(input);
    // A confirmed draft's metadata is the game's first revision: published before any revision.
    await pendingPublication(chainId, contractAddress);
    const published = await metadata.publish(chainId, contractAddress, {
      game: input.game,
      cards: input.cards,
      ...(input.effectiveFrom ? { effectiveFrom: input.effectiveFrom } : {}),
      ...(input.effectiveUntil ? { effectiveUntil: input.effectiveUntil } : {}),
      ...(input.version !== undefined ? { expectedVersion: input.version } : {}),
    });
    return {
      success: true,
      chainId,
      contractAddress,
      version: published.version,
      effectiveFrom: published.effectiveFrom.toISOString(),
      effectiveUntil: published.effectiveUntil?.toISOString() ?? null,
    };
  }

  return { settle, pendingPublication, revise };
}

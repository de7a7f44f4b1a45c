import { randomBytes } from "node:crypto";
import {
  CLASSIC_DRAFTS_PER_ACCOUNT,
  CLASSIC_ERROR_CODES,
  type ClassicDraft,
  type ClassicDraftSummary,
  type classicDraftPollRequestSchema,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { z } from "zod";
import type { Database } from "../../db/index.ts";
import { controlsWallet } from "../auth/ownership.ts";
import type { CreatorUrlCheck } from "./creator-urls.ts";
import {
  COLUMNS,
  type Content,
  type CreatorActor,
  conflict,
  type DraftRow,
  draftConfirmed,
  forbidden,
  inWallets,
  json,
  loadDraft,
  lockAccount,
  record,
  withinStorage,
} from "./draft-rows.ts";

export type DraftPollInput = z.output<typeof classicDraftPollRequestSchema>;

export interface DraftStore {
  /**
   * Creates (no `draftId`) or autosaves a draft. A save applies only when
   * its revision is greater than the stored one; otherwise the stored draft
   * is answered with `applied: false` (a repeated or stale save alike).
   */
  poll(actor: CreatorActor, input: DraftPollInput): Promise<{ applied: boolean; draft: ClassicDraft }>;
  /** The drafts of the account's wallets, most recently changed first. */
  list(
    actor: CreatorActor,
    page: { page: number; limit: number },
  ): Promise<{ drafts: ClassicDraftSummary[]; total: number }>;
  /** One draft of the account's wallets (403 another creator's, 404 unknown). */
  get(actor: CreatorActor, draftId: string): Promise<ClassicDraft>;
  /** Deletes an unconfirmed draft (a confirmed one is the record of its game: 409). */
  remove(actor: CreatorActor, draftId: string): Promise<void>;
}

/** The drafts themselves: creating and autosaving them, listing, reading and deleting them. */
export function createDraftStore({
  db,
  chainId,
  now,
  checkUrlSchemes,
}: {
  db: Database;
  /** The classic chain: drafts are for its factory. */
  chainId: number;
  /** The clock's time as an ISO string. */
  now: () => string;
  checkUrlSchemes: CreatorUrlCheck;
}): DraftStore {
  return {
    async poll(
      actor: CreatorActor,
      input: DraftPollInput,
    ): Promise<{ applied: boolean; draft: ClassicDraft }> {
      if (!controlsWallet(actor, input.creator))
        throw forbidden("creator must be a wallet linked to the signed-in account");
      checkUrlSchemes(input);
      const content: Content = {
        tokenName: input.tokenName,
        tokenSymbol: input.tokenSymbol,
        nftName: input.nftName,
        nftSymbol: input.nftSymbol,
        slug: input.slug,
        game: input.game,
        cards: input.cards,
        oddsBps: input.oddsBps,
        packAmount: input.packAmount,
      };
      return db.kysely.transaction().execute(async (tx) => {
        const at = now();
        await lockAccount(tx, actor);
        if (input.draftId === undefined) {
          const { rows: counted } = await sql<{ n: string | number }>`
            SELECT count(*) AS n FROM classic_drafts
             WHERE tx_hash IS NULL AND ${inWallets(sql.ref("creator"), actor.wallets)}`.execute(tx);
          if (Number(counted[0]?.n ?? 0) >= CLASSIC_DRAFTS_PER_ACCOUNT)
            throw conflict(
              CLASSIC_ERROR_CODES.draftLimit,
              `an account's wallets hold at most ${CLASSIC_DRAFTS_PER_ACCOUNT} unconfirmed drafts; delete one first`,
            );
          const id = randomBytes(12).toString("hex");
          const { rows } = await withinStorage(tx, actor, () =>
            sql<DraftRow>`
              INSERT INTO classic_drafts (id, chain_id, creator, revision, content, created_at, updated_at)
              VALUES (${id}, ${chainId}, ${input.creator}, ${input.revision}, ${json(content)}, ${at}, ${at})
              RETURNING ${COLUMNS}`.execute(tx),
          );
          return { applied: true, draft: record(rows[0] as DraftRow) };
        }
        const row = await loadDraft(tx, actor, input.draftId, { lock: true });
        if (row.tx_hash) throw draftConfirmed();
        if (input.revision <= row.revision) return { applied: false, draft: record(row) };
        const { rows } = await withinStorage(tx, actor, () =>
          sql<DraftRow>`
            UPDATE classic_drafts
               SET creator = ${input.creator}, revision = ${input.revision}, content = ${json(content)}, updated_at = ${at}
             WHERE id = ${row.id}
            RETURNING ${COLUMNS}`.execute(tx),
        );
        return { applied: true, draft: record(rows[0] as DraftRow) };
      });
    },

    async list(
      actor: CreatorActor,
      { page, limit }: { page: number; limit: number },
    ): Promise<{ drafts: ClassicDraftSummary[]; total: number }> {
      const mine = inWallets(sql.ref("creator"), actor.wallets);
      const [{ rows }, { rows: counted }] = await Promise.all([
        sql<DraftRow & { cards_count: number }>`
          SELECT ${COLUMNS}, jsonb_array_length(content -> 'cards') AS cards_count
            FROM classic_drafts WHERE ${mine}
           ORDER BY updated_at DESC, id DESC
           LIMIT ${limit} OFFSET ${(page - 1) * limit}`.execute(db.kysely),
        sql<{ n: string | number }>`SELECT count(*) AS n FROM classic_drafts WHERE ${mine}`.execute(
          db.kysely,
        ),
      ]);
      return {
        drafts: rows.map((row) => {
          const { game: _game, cards: _cards, ...summary } = record(row);
          return { ...summary, cardsCount: Number(row.cards_count) };
        }),
        total: Number(counted[0]?.n ?? 0),
      };
    },

    async get(actor: CreatorActor, draftId: string): Promise<ClassicDraft> {
      return record(await loadDraft(db.kysely, actor, draftId));
    },

    async remove(actor: CreatorActor, draftId: string): Promise<void> {
      await db.kysely.transaction().execute(async (tx) => {
        const row = await loadDraft(tx, actor, draftId, { lock: true });
        if (row.tx_hash) throw draftConfirmed();
        await sql`DELETE FROM classic_drafts WHERE id = ${row.id}`.execute(tx);
      });
    },
  };
}

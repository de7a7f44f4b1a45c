import { CLASSIC_ERROR_CODES, type ClassicConfirm } from "@mkt/protocol";
import { sql } from "kysely";
import type { Hex } from "viem";
import type { Database } from "../../db/index.ts";
import { badRequest, UnavailableError } from "../../errors.ts";
import { controlsWallet } from "../auth/ownership.ts";
import { checkCards, storedCardsSchema, storedGameMetadataSchema } from "../games/metadata-store.ts";
import type { DeploymentReader, GameDeployment } from "./deployments.ts";
import {
  COLUMNS,
  type CreatorActor,
  conflict,
  contentOf,
  type DraftRow,
  expectedRoot,
  forbidden,
  loadDraft,
} from "./draft-rows.ts";

function confirmation(row: DraftRow, version: number | null): ClassicConfirm {
  return {
    success: true,
    receiptFound: true,
    message:
      version === null
        ? "deployment confirmed; the metadata is published once the game is indexed (poll /contractAddress/{address}/ready)"
        : "deployment confirmed and metadata published",
    draftId: row.id,
    txHash: row.tx_hash ?? "",
    chainId: row.chain_id,
    contractAddress: row.contract_address,
    tokenAddress: row.token_address,
    gameId: row.game_id,
    merkleRoot: row.deployed_root,
    published: version !== null,
    version,
  };
}

/** The deployment's checks against the draft when `POST /classic/metadata/confirm` attaches it, in order. */
function checkDeployment(actor: CreatorActor, row: DraftRow, game: GameDeployment) {
  if (!controlsWallet(actor, game.creator))
    throw forbidden("the game was deployed by a wallet not linked to the signed-in account");
  const root = expectedRoot(row);
  if (game.merkleRoot !== root.toLowerCase())
    throw conflict(
      CLASSIC_ERROR_CODES.merkleRootMismatch,
      `the deployment's merkleRoot ${game.merkleRoot} is not the draft's ${root}`,
    );
  const content = contentOf(row);
  for (const field of ["nftName", "nftSymbol", "tokenName", "tokenSymbol"] as const) {
    if (game[field] !== content[field])
      throw conflict(
        CLASSIC_ERROR_CODES.deploymentMismatch,
        `the deployment's ${field} is not the draft's (autosave the draft to match, then confirm again)`,
      );
  }
  if (game.oddsBps.join() !== content.oddsBps.join())
    throw conflict(CLASSIC_ERROR_CODES.deploymentMismatch, "the deployment's oddsBps are not the draft's");
}

export interface DraftConfirmation {
  /**
   * Attaches a deployment transaction to a draft after reading its receipt
   * (the workflow's confirm step). Idempotent: the same draft and transaction answer
   * the same result; another transaction for a confirmed draft is 409.
   */
  confirm(actor: CreatorActor, request: { draftId: string; txHash: string }): Promise<ClassicConfirm>;
}

/** The confirmation of a draft's deployment: its receipt read, checked against the draft and attached. */
export function createDraftConfirmation({
  db,
  now,
  deployments,
  settle,
}: {
  db: Database;
  /** The clock's time as an ISO string. */
  now: () => string;
  /** The classic chain's receipts; undefined without a classic deployment (confirm answers 503). */
  deployments: DeploymentReader | undefined;
  /** Publishes a confirmed draft's metadata once its game is indexed (its version, or null while pending). */
  settle: (draftId: string) => Promise<number | null>;
}): DraftConfirmation {
  return {
    async confirm(
      actor: CreatorActor,
      { draftId, txHash }: { draftId: string; txHash: string },
    ): Promise<ClassicConfirm> {
      const row = await loadDraft(db.kysely, actor, draftId);
      if (row.tx_hash) {
        if (row.tx_hash !== txHash)
          throw conflict(
            CLASSIC_ERROR_CODES.draftConfirmed,
            "the draft is already confirmed with another transaction",
          );
        return confirmation(row, await settle(row.id));
      }
      if (!deployments)
        throw new UnavailableError("this server has no classic chain to read the deployment from");
      const receipt = await deployments.read(txHash as Hex);
      if (!receipt.found)
        return {
          success: true,
          receiptFound: false,
          message: "no receipt yet: the transaction is pending or unknown; confirm again once it is mined",
          draftId: row.id,
          txHash,
          chainId: row.chain_id,
          contractAddress: null,
          tokenAddress: null,
          gameId: null,
          merkleRoot: null,
          published: false,
          version: null,
        };
      if (receipt.reverted)
        throw conflict(
          CLASSIC_ERROR_CODES.transactionReverted,
          "the transaction reverted: nothing was deployed",
        );
      const [game, ...others] = receipt.games;
      if (!game || others.length > 0)
        throw conflict(
          CLASSIC_ERROR_CODES.notAGameDeployment,
          "the transaction did not create exactly one game through this server's drop factory",
        );
      checkDeployment(actor, row, game);
      const content = contentOf(row);
      const cards = storedCardsSchema.safeParse(content.cards);
      if (!cards.success) throw badRequest("the draft's cards are incomplete: 1 to 1000 cards are needed");
      checkCards(cards.data);
      storedGameMetadataSchema.parse(content.game);
      const confirmed = await db.kysely.transaction().execute(async (tx) => {
        const current = await loadDraft(tx, actor, draftId, { lock: true });
        if (current.tx_hash) {
          if (current.tx_hash !== txHash)
            throw conflict(
              CLASSIC_ERROR_CODES.draftConfirmed,
              "the draft is already confirmed with another transaction",
            );
          return current;
        }
        if (expectedRoot(current) !== expectedRoot(row) || current.revision !== row.revision)
          throw conflict(
            CLASSIC_ERROR_CODES.deploymentMismatch,
            "the draft changed while confirming; try again",
          );
        if (content.slug) {
          const { rows: taken } = await sql<{ n: number }>`
            SELECT 1 AS n FROM classic_slugs WHERE chain_id = ${row.chain_id} AND slug = ${content.slug}
            UNION ALL
            SELECT 1 AS n FROM classic_games WHERE chain_id = ${row.chain_id} AND slug = ${content.slug}
            UNION ALL
            SELECT 1 AS n FROM classic_drafts
             WHERE chain_id = ${row.chain_id} AND tx_hash IS NOT NULL AND id <> ${row.id}
               AND content ->> 'slug' = ${content.slug}`.execute(tx);
          if (taken.length > 0)
            throw conflict(CLASSIC_ERROR_CODES.slugTaken, "the draft's slug is taken: autosave another one");
        }
        const { rows: claimed } = await sql<{ id: string }>`
          SELECT id FROM classic_drafts
           WHERE chain_id = ${row.chain_id} AND (tx_hash = ${txHash} OR contract_address = ${game.drop})`.execute(
          tx,
        );
        if (claimed.length > 0)
          throw conflict(
            CLASSIC_ERROR_CODES.draftConfirmed,
            "this deployment is already attached to another draft",
          );
        const { rows } = await sql<DraftRow>`
          UPDATE classic_drafts
             SET tx_hash = ${txHash}, contract_address = ${game.drop}, token_address = ${game.token},
                 game_id = ${game.gameId.toString()}, deployed_root = ${game.merkleRoot},
                 confirmed_at = ${now()}, updated_at = ${now()}
           WHERE id = ${row.id}
          RETURNING ${COLUMNS}`.execute(tx);
        return rows[0] as DraftRow;
      });
      return confirmation(confirmed, await settle(confirmed.id));
    },
  };
}

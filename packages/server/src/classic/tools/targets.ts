import { CLASSIC_ERROR_CODES, type ClassicTarget } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import type { Executor } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";

/** A game (its drop) or one pack of it, as services take it. */
export interface TargetRequest {
  chainId: number;
  contractAddress: string;
  tokenId?: bigint | undefined;
}

/** The `token_id` column: '' for the game, the decimal token id for a pack. */
export const tokenKey = (target: TargetRequest) => target.tokenId?.toString() ?? "";

export const targetOf = (target: TargetRequest): ClassicTarget => ({
  chainId: target.chainId,
  contractAddress: target.contractAddress,
  tokenId: target.tokenId === undefined ? null : target.tokenId.toString(),
});

/** 404 unless the projection has the game (and the pack, when one is named). */
export async function requireTarget(db: Database | Executor, target: TargetRequest): Promise<void> {
  const executor = "kysely" in db ? db.kysely : db;
  const { rows } = await sql<{ game: boolean; pack: boolean }>`
    SELECT EXISTS (SELECT 1 FROM classic_games
                   WHERE chain_id = ${target.chainId} AND drop_address = ${target.contractAddress}) AS game,
           EXISTS (SELECT 1 FROM classic_packs
                   WHERE chain_id = ${target.chainId} AND contract_address = ${target.contractAddress}
                     AND token_id = ${tokenKey(target) || "-1"}::numeric) AS pack`.execute(executor);
  const row = rows[0];
  if (!row?.game) {
    throw notFound(
      `no game at ${target.contractAddress} on chain ${target.chainId}`,
      CLASSIC_ERROR_CODES.gameNotFound,
    );
  }
  if (target.tokenId !== undefined && !row.pack) {
    throw notFound(
      `pack ${target.tokenId} of ${target.contractAddress} was never minted`,
      CLASSIC_ERROR_CODES.packNotFound,
    );
  }
}

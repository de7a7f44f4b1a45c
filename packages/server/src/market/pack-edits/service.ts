import { type PackEdit, type ParsedPackEditRequest, packEditMessage } from "@mkt/protocol";
import type { Database } from "../../db/index.ts";
import { AppError, forbidden, notFound } from "../../errors.ts";
import type { EnvelopeChecks } from "../../identity/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import type { RuntimeCatalog } from "../runtime/index.ts";

export interface PackEditServiceDeps {
  db: Database;
  clock: Clock;
  envelopes: EnvelopeChecks;
  /** The runtime catalog (market/runtime): versions it does not know are 404. */
  runtimes: Pick<RuntimeCatalog, "exists" | "holds">;
}

export interface PackEditService {
  /**
   * Applies one signed edit. The signature is checked over
   * `packEditMessage` rebuilt from the parsed action and the path's
   * version; the nonce (purpose `pack-edit`) is spent in the transaction
   * that stores the edit, so a refused edit leaves it unused.
   */
  apply(version: string, request: ParsedPackEditRequest, from: { ip: string }): Promise<PackEdit>;
}

/**
 * Pack edits: offchain labels (a name, a note) a wallet puts on a pack it
 * holds. A wallet holds pack `packId` of runtime `version` when the indexer's
 * projection of that runtime at its current head records a claim of drop
 * `packId` by that wallet (`market_claims`, owner = the wallet): claims are
 * not transferable in the reference runtime, and a reorged-out claim is rolled
 * back by the indexer, so the check follows the head.
 */
export function createPackEditService({
  db,
  clock,
  envelopes,
  runtimes,
}: PackEditServiceDeps): PackEditService {
  return {
    async apply(version: string, request: ParsedPackEditRequest, from: { ip: string }): Promise<PackEdit> {
      if (!(await runtimes.exists(version))) {
        throw notFound(`runtime ${version} is not a runtime of the market (see GET /market/runtime)`);
      }
      const { address, nonce, expires, action } = request;
      await envelopes.verifyAction(
        request,
        from,
        packEditMessage({ address, nonce, expires, version, action }),
      );
      const row = await db.kysely.transaction().execute(async (tx) => {
        await envelopes.consumeNonce(tx, request, "pack-edit");
        if (!(await runtimes.holds(version, action.packId, address, tx))) {
          throw forbidden(`${address} holds no pack ${action.packId} in runtime ${version}`);
        }
        const field = action.kind === "set-name" ? { name: action.name } : { note: action.note };
        const updatedAt = new Date(clock.now());
        return tx
          .insertInto("pack_edits")
          .values({
            runtime_id: version,
            pack_id: action.packId,
            owner: address,
            name: null,
            note: null,
            ...field,
            updated_at: updatedAt,
          })
          .onConflict((oc) =>
            oc.columns(["runtime_id", "pack_id", "owner"]).doUpdateSet({ ...field, updated_at: updatedAt }),
          )
          .returning(["name", "note", "updated_at"])
          .executeTakeFirst();
      });
      if (!row) throw new AppError("internal", "the pack edit was not stored");
      return {
        version,
        packId: action.packId,
        owner: address,
        name: row.name,
        note: row.note,
        updatedAt: row.updated_at.getTime(),
      };
    },
  };
}

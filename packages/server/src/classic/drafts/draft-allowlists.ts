import {
  CLASSIC_ZERO_ROOT,
  type ClassicAllowlistProof,
  type ClassicAllowlistResult,
  type classicWhitelistRequestSchema,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { Hex } from "viem";
import type { z } from "zod";
import type { Database } from "../../db/index.ts";
import { badRequest } from "../../errors.ts";
import { createAllowlistCache } from "./allowlist.ts";
import type { CreatorUrlCheck } from "./creator-urls.ts";
import {
  type CreatorActor,
  type DraftRow,
  draftConfirmed,
  draftNotFound,
  expectedRoot,
  json,
  loadDraft,
  lockAccount,
  withinStorage,
} from "./draft-rows.ts";

export type WhitelistInput = z.output<typeof classicWhitelistRequestSchema>;

export interface DraftAllowlists {
  /**
   * Replaces the allowlist: duplicates collapse (first entry wins; the
   * answer says `alreadyExists`), the root is the StandardMerkleTree root
   * of the addresses, and the tree awaits finalize again.
   */
  setWhitelist(actor: CreatorActor, input: WhitelistInput): Promise<ClassicAllowlistResult>;
  /** Rebuilds the tree from the stored entries and records it as final (idempotent). */
  finalize(actor: CreatorActor, draftId: string): Promise<ClassicAllowlistResult>;
  /** The proof `BoosterDrop.mint` takes from `address` (no ownership: minters ask). */
  proof(draftId: string, address: string): Promise<ClassicAllowlistProof>;
}

/**
 * A draft's allowlist: the entries, the Merkle root of their addresses that a
 * deployment must carry, and the proofs minters take to `BoosterDrop.mint`.
 */
export function createDraftAllowlists({
  db,
  now,
  checkUrlSchemes,
}: {
  db: Database;
  /** The clock's time as an ISO string. */
  now: () => string;
  checkUrlSchemes: CreatorUrlCheck;
}): DraftAllowlists {
  const trees = createAllowlistCache();

  return {
    async setWhitelist(actor: CreatorActor, input: WhitelistInput): Promise<ClassicAllowlistResult> {
      checkUrlSchemes({ entries: input.entries });
      const unique = new Map<string, WhitelistInput["entries"][number]>();
      for (const entry of input.entries) if (!unique.has(entry.address)) unique.set(entry.address, entry);
      if (input.whitelistEnabled && unique.size === 0)
        throw badRequest("an enabled allowlist needs at least one entry (nobody could mint)");
      const entries = [...unique.values()];
      const root = entries.length > 0 ? trees.build([...unique.keys()]).root.toLowerCase() : null;
      return db.kysely.transaction().execute(async (tx) => {
        await lockAccount(tx, actor);
        const row = await loadDraft(tx, actor, input.draftId, { lock: true });
        if (row.tx_hash) throw draftConfirmed();
        await withinStorage(tx, actor, () =>
          sql`
            UPDATE classic_drafts
               SET whitelist_enabled = ${input.whitelistEnabled}, allowlist = ${json(entries)},
                   allowlist_count = ${entries.length}, merkle_root = ${root}, finalized_at = NULL,
                   updated_at = ${now()}
             WHERE id = ${row.id}`.execute(tx),
        );
        const duplicates = input.entries.length - entries.length;
        return {
          success: true,
          message:
            duplicates > 0
              ? `allowlist replaced; ${duplicates} duplicate address(es) collapsed`
              : "allowlist replaced",
          whitelistEnabled: input.whitelistEnabled,
          merkleRoot: expectedRoot({ whitelist_enabled: input.whitelistEnabled, merkle_root: root }),
          entriesCount: entries.length,
          total: input.entries.length,
          alreadyExists: duplicates > 0,
        };
      });
    },

    async finalize(actor: CreatorActor, draftId: string): Promise<ClassicAllowlistResult> {
      return db.kysely.transaction().execute(async (tx) => {
        const row = await loadDraft(tx, actor, draftId, { lock: true });
        const { rows } = await sql<{ allowlist: { address: string }[] | string }>`
          SELECT allowlist FROM classic_drafts WHERE id = ${row.id}`.execute(tx);
        const raw = rows[0]?.allowlist ?? [];
        const entries = typeof raw === "string" ? (JSON.parse(raw) as { address: string }[]) : raw;
        const root =
          entries.length > 0 ? trees.build(entries.map((entry) => entry.address)).root.toLowerCase() : null;
        if (row.tx_hash && expectedRoot({ ...row, merkle_root: root }) !== row.deployed_root)
          throw draftConfirmed();
        await sql`
          UPDATE classic_drafts SET merkle_root = ${root}, finalized_at = ${now()} WHERE id = ${row.id}`.execute(
          tx,
        );
        return {
          success: true,
          message: "allowlist tree rebuilt and persisted",
          whitelistEnabled: row.whitelist_enabled,
          merkleRoot: expectedRoot({ whitelist_enabled: row.whitelist_enabled, merkle_root: root }),
          entriesCount: entries.length,
          total: entries.length,
          alreadyExists: false,
        };
      });
    },

    async proof(draftId: string, address: string): Promise<ClassicAllowlistProof> {
      const { rows } = await sql<Pick<DraftRow, "whitelist_enabled" | "merkle_root">>`
        SELECT whitelist_enabled, merkle_root FROM classic_drafts WHERE id = ${draftId}`.execute(db.kysely);
      const row = rows[0];
      if (!row) throw draftNotFound();
      if (!row.whitelist_enabled || !row.merkle_root)
        return {
          success: true,
          address,
          whitelistEnabled: false,
          merkleRoot: CLASSIC_ZERO_ROOT,
          allowlisted: false,
          proof: [],
        };
      const tree = await trees.get(draftId, row.merkle_root, async () => {
        const { rows: stored } = await sql<{ address: string }>`
          SELECT e ->> 'address' AS address
            FROM classic_drafts, jsonb_array_elements(allowlist) AS e WHERE id = ${draftId}`.execute(
          db.kysely,
        );
        return stored.map((entry) => entry.address);
      });
      const proof = tree.proofFor(address as Hex);
      return {
        success: true,
        address,
        whitelistEnabled: true,
        merkleRoot: row.merkle_root,
        allowlisted: proof !== undefined,
        proof: (proof ?? []).map((node) => node.toLowerCase()),
      };
    },
  };
}

import { CLASSIC_REACTION_KINDS, type ClassicReactionKind, type ClassicReactions } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { requireTarget, type TargetRequest, targetOf, tokenKey } from "./targets.ts";

export interface ClassicReactionsDeps {
  db: Database;
  clock: Clock;
  /** Moves the reaction counts' read-cache source on every replica. */
  bump: () => Promise<void>;
}

const emptyCounts = () =>
  Object.fromEntries(CLASSIC_REACTION_KINDS.map((kind) => [kind, 0])) as Record<ClassicReactionKind, number>;

export interface ClassicReactionsService {
  /** Counts per kind (`GET /classic/reactions`); with an account, its own kinds too. */
  counts(target: TargetRequest, accountId?: string): Promise<ClassicReactions>;
  /** Sets or clears one kind for the account (`PUT /classic/reactions`). */
  set(
    accountId: string,
    target: TargetRequest,
    kind: ClassicReactionKind,
    active: boolean,
  ): Promise<ClassicReactions>;
}

/**
 * Reactions on games and packs: one row per account, target and kind that is
 * set. Setting twice or clearing twice changes nothing (PUT semantics).
 */
export function createClassicReactions({ db, clock, bump }: ClassicReactionsDeps): ClassicReactionsService {
  const read = async (target: TargetRequest, accountId?: string): Promise<ClassicReactions> => {
    const { rows } = await sql<{ kind: ClassicReactionKind; n: string; mine: boolean }>`
      SELECT kind, count(*) AS n, bool_or(account_id = ${accountId ?? ""}) AS mine
      FROM classic_reactions
      WHERE chain_id = ${target.chainId} AND contract_address = ${target.contractAddress}
        AND token_id = ${tokenKey(target)}
      GROUP BY kind`.execute(db.kysely);
    const counts = emptyCounts();
    const mine = new Set<ClassicReactionKind>();
    for (const row of rows) {
      counts[row.kind] = Number(row.n);
      if (row.mine) mine.add(row.kind);
    }
    return {
      success: true,
      target: targetOf(target),
      counts,
      total: Object.values(counts).reduce((sum, n) => sum + n, 0),
      ...(accountId === undefined ? {} : { mine: CLASSIC_REACTION_KINDS.filter((kind) => mine.has(kind)) }),
    };
  };

  return {
    async counts(target: TargetRequest, accountId?: string): Promise<ClassicReactions> {
      await requireTarget(db, target);
      return read(target, accountId);
    },

    async set(
      accountId: string,
      target: TargetRequest,
      kind: ClassicReactionKind,
      active: boolean,
    ): Promise<ClassicReactions> {
      await requireTarget(db, target);
      const key = tokenKey(target);
      const changed = active
        ? await sql`
            INSERT INTO classic_reactions (chain_id, contract_address, token_id, account_id, kind, created_at)
            VALUES (${target.chainId}, ${target.contractAddress}, ${key}, ${accountId}, ${kind},
                    ${new Date(clock.now()).toISOString()})
            ON CONFLICT DO NOTHING`.execute(db.kysely)
        : await sql`
            DELETE FROM classic_reactions
            WHERE chain_id = ${target.chainId} AND contract_address = ${target.contractAddress}
              AND token_id = ${key} AND account_id = ${accountId} AND kind = ${kind}`.execute(db.kysely);
      if (Number(changed.numAffectedRows ?? 0) > 0) await bump();
      return read(target, accountId);
    },
  };
}

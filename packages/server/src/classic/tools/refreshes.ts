import {
  CLASSIC_ERROR_CODES,
  CLASSIC_REFRESH_COOLDOWN_SECONDS,
  CLASSIC_REFRESHES_PER_HOUR,
  type ClassicRefresh,
} from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { accountLimitReached } from "../account-limits.ts";
import { requireTarget, type TargetRequest, targetOf, tokenKey } from "./targets.ts";

const HOUR_MS = 3_600_000;
const COOLDOWN_MS = CLASSIC_REFRESH_COOLDOWN_SECONDS * 1000;

export interface ClassicRefreshesDeps {
  db: Database;
  clock: Clock;
  /** The classic indexer scope, whose head the answer reports; undefined without a classic chain. */
  scope: string | undefined;
  /**
   * What a refresh does: moves the classic read-cache sources (the projection's
   * and the metadata's) on this replica and announces them to every other, so
   * every cached classic answer is rebuilt from the database on its next read.
   */
  announce: () => Promise<void>;
}

export interface ClassicRefreshesService {
  /**
   * Refreshes the metadata of a game or a pack for the account: `refreshed:
   * false` inside the target's cooldown; 429 past the account's hourly limit.
   */
  refresh(accountId: string, target: TargetRequest): Promise<ClassicRefresh>;
}

/**
 * Metadata refreshes of a game or a pack. The cooldown per target and the
 * per-account hourly limit live in the database (`classic_refresh_targets`,
 * `classic_refreshes`), so every replica sees them. A refresh inside the
 * cooldown is a 200 `refreshed: false` and counts against nothing.
 */
export function createClassicRefreshes({
  db,
  clock,
  scope,
  announce,
}: ClassicRefreshesDeps): ClassicRefreshesService {
  const iso = (ms: number) => new Date(ms).toISOString();

  const indexedThrough = async (): Promise<number | null> => {
    if (scope === undefined) return null;
    const { rows } = await sql<{ next_block: string }>`
      SELECT next_block FROM indexer_heads WHERE scope = ${scope}`.execute(db.kysely);
    return rows[0] ? Number(rows[0].next_block) - 1 : null;
  };

  return {
    async refresh(accountId: string, target: TargetRequest): Promise<ClassicRefresh> {
      await requireTarget(db, target);
      const now = clock.now();
      const key = tokenKey(target);
      const outcome = await db.kysely.transaction().execute(async (tx) => {
        const current = await sql<{ refreshed_at: Date }>`
          SELECT refreshed_at FROM classic_refresh_targets
          WHERE chain_id = ${target.chainId} AND contract_address = ${target.contractAddress}
            AND token_id = ${key}`.execute(tx);
        const last = current.rows[0] ? new Date(current.rows[0].refreshed_at).getTime() : undefined;
        if (last !== undefined && now < last + COOLDOWN_MS) return { refreshed: false, at: last };
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`classic-refreshes:${accountId}`}))`.execute(tx);
        await sql`DELETE FROM classic_refreshes
                  WHERE account_id = ${accountId} AND refreshed_at <= ${iso(now - HOUR_MS)}`.execute(tx);
        const recent = await sql<{ refreshed_at: Date }>`
          SELECT refreshed_at FROM classic_refreshes WHERE account_id = ${accountId}
          ORDER BY refreshed_at ASC`.execute(tx);
        if (recent.rows.length >= CLASSIC_REFRESHES_PER_HOUR) {
          throw accountLimitReached({
            message: `at most ${CLASSIC_REFRESHES_PER_HOUR} refreshes per hour per account`,
            code: CLASSIC_ERROR_CODES.refreshLimit,
            oldestMs: new Date(recent.rows[0]!.refreshed_at).getTime(),
            windowMs: HOUR_MS,
            now,
          });
        }
        // Takes the target's slot only when its cooldown has passed: of concurrent refreshes on any
        // replica, one wins and the others see the cooldown.
        const taken = await sql<{ refreshed_at: Date }>`
          INSERT INTO classic_refresh_targets (chain_id, contract_address, token_id, refreshed_at)
          VALUES (${target.chainId}, ${target.contractAddress}, ${key}, ${iso(now)})
          ON CONFLICT (chain_id, contract_address, token_id) DO UPDATE SET refreshed_at = EXCLUDED.refreshed_at
          WHERE classic_refresh_targets.refreshed_at <= ${iso(now - COOLDOWN_MS)}
          RETURNING refreshed_at`.execute(tx);
        if (taken.rows.length === 0) {
          const held = await sql<{ refreshed_at: Date }>`
            SELECT refreshed_at FROM classic_refresh_targets
            WHERE chain_id = ${target.chainId} AND contract_address = ${target.contractAddress}
              AND token_id = ${key}`.execute(tx);
          return { refreshed: false, at: new Date(held.rows[0]!.refreshed_at).getTime() };
        }
        await sql`INSERT INTO classic_refreshes (account_id, chain_id, contract_address, token_id, refreshed_at)
                  VALUES (${accountId}, ${target.chainId}, ${target.contractAddress}, ${key}, ${iso(now)})`.execute(
          tx,
        );
        return { refreshed: true, at: now };
      });
      if (outcome.refreshed) await announce();
      return {
        success: true,
        target: targetOf(target),
        refreshed: outcome.refreshed,
        refreshedAt: iso(outcome.at),
        cooldownUntil: iso(outcome.at + COOLDOWN_MS),
        indexedThroughBlock: await indexedThrough(),
      };
    },
  };
}

import { sql } from "kysely";
import type { Database } from "../db/index.ts";
import type { Clock } from "../quotas/limiter.ts";

/**
 * Operator switches of the classic surface, stored in `classic_settings`.
 * A change bumps `CLASSIC_SETTINGS_SOURCE`, announced to every replica
 * through the database's notifications, so each replica's read cache drops
 * the old answer within a second.
 */
export interface ClassicSettings {
  /** Whether the operator has disallowed unboxing. */
  unboxingDisallowed(): Promise<boolean>;
  /** Sets the switch; every replica sees it within a second. */
  setUnboxingDisallowed(disallowed: boolean): Promise<void>;
}

const UNBOXING = "unboxing_disallowed";

export function createClassicSettings({
  db,
  clock,
  bump,
}: {
  db: Database;
  clock: Clock;
  bump: () => Promise<void>;
}): ClassicSettings {
  return {
    async unboxingDisallowed() {
      const { rows } = await sql<{ value: unknown }>`
        SELECT value FROM classic_settings WHERE name = ${UNBOXING}`.execute(db.kysely);
      return rows[0]?.value === true;
    },
    async setUnboxingDisallowed(disallowed) {
      await sql`
        INSERT INTO classic_settings (name, value, updated_at)
        VALUES (${UNBOXING}, ${JSON.stringify(disallowed)}::jsonb, ${new Date(clock.now()).toISOString()})
        ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`.execute(
        db.kysely,
      );
      await bump();
    },
  };
}

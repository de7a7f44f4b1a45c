import type { AdminPredictRuntimePatch } from "@mkt/protocol";
import type { Database } from "../db/index.ts";
import { conflict, UnavailableError } from "../errors.ts";
import type { Clock } from "../quotas/limiter.ts";

/** Read-cache source of the runtime record's switches: moves on every operator change, on every replica. */
export const PREDICT_RUNTIME_SOURCE = "predict-runtime";

export interface PredictFlags {
  enabled: boolean;
  publicEnabled: boolean;
}

/** Without a stored row: on, and public, on a deployment that follows the prediction chain. */
const DEFAULT_FLAGS: PredictFlags = { enabled: true, publicEnabled: true };
const NO_CHAIN: PredictFlags = { enabled: false, publicEnabled: false };

export interface PredictSettings {
  /** The switches in force: synchronously while this replica's copy is current. */
  flags(): PredictFlags | Promise<PredictFlags>;
  /** The operator changes one switch or both; every replica follows within a second. */
  set(patch: AdminPredictRuntimePatch): Promise<PredictFlags>;
}

/**
 * The feed's operator switches, stored in `predict_runtime` (one row per
 * chain). Each replica keeps the flags in memory, so the gate reads them
 * without a query, and reloads them once the `predict-runtime` revision has
 * moved: a change bumps it here and announces it to every other replica
 * through the database's notifications (a lost notification connection moves
 * every source), so every replica applies it within a second.
 */
export function createPredictSettings({
  db,
  clock,
  chainId,
  revision,
  bump,
}: {
  db: Database;
  clock: Clock;
  /** The prediction chain this deployment follows; undefined: none, and the feed is off. */
  chainId: number | undefined;
  /** The live counter of PREDICT_RUNTIME_SOURCE (`revisions.counters`). */
  revision: { readonly value: number };
  bump: () => Promise<void>;
}): PredictSettings {
  let cached: { flags: PredictFlags; revision: number } | undefined;
  let loading: Promise<PredictFlags> | undefined;

  const read = async (id: number): Promise<PredictFlags> => {
    const row = await db.kysely
      .selectFrom("predict_runtime")
      .select(["enabled", "public_enabled"])
      .where("chain_id", "=", id)
      .executeTakeFirst();
    return row ? { enabled: row.enabled, publicEnabled: row.public_enabled } : DEFAULT_FLAGS;
  };

  const load = (id: number): Promise<PredictFlags> => {
    if (loading) return loading;
    const at = revision.value;
    const pending = read(id)
      .then((flags) => {
        cached = { flags, revision: at };
        return flags;
      })
      .catch((error: unknown) => {
        throw new UnavailableError("the prediction feed's settings are unavailable; try again shortly", {
          cause: error,
        });
      })
      .finally(() => {
        if (loading === pending) loading = undefined;
      });
    loading = pending;
    return pending;
  };

  return {
    flags(): PredictFlags | Promise<PredictFlags> {
      if (chainId === undefined) return NO_CHAIN;
      if (cached !== undefined && cached.revision === revision.value) return cached.flags;
      return load(chainId);
    },

    async set(patch: AdminPredictRuntimePatch): Promise<PredictFlags> {
      if (chainId === undefined) throw conflict("this deployment follows no prediction chain");
      const next = { ...(await read(chainId)), ...patch } as PredictFlags;
      const now = new Date(clock.now());
      await db.kysely
        .insertInto("predict_runtime")
        .values({
          chain_id: chainId,
          enabled: next.enabled,
          public_enabled: next.publicEnabled,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.column("chain_id").doUpdateSet({
            enabled: next.enabled,
            public_enabled: next.publicEnabled,
            updated_at: now,
          }),
        )
        .execute();
      await bump();
      return next;
    },
  };
}

import type { ExpressionBuilder } from "kysely";
import type { DB } from "../../db/index.ts";

/** Statuses anyone may read; a draft is its owner's alone. */
export const PUBLIC_STATUSES = ["announced", "cancelled", "live"] as const;

/** Releases an account may see: every public one, and its own drafts. */
export const visibleTo = (accountId: string) => (eb: ExpressionBuilder<DB, "releases">) =>
  eb.or([eb("releases.status", "in", PUBLIC_STATUSES), eb("releases.owner_id", "=", accountId)]);

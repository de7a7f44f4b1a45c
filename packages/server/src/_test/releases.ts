import { type ReleaseStatus, releaseDraftSchema } from "@mkt/protocol";
import type { Database } from "../db/index.ts";

/**
 * Inserts a release row as the signed actions would leave it, for tests that
 * need releases to exist but are not about the actions (the signed path is
 * tested in `market/releases`).
 */
export async function insertRelease(
  db: Database,
  { id, ownerId, status = "announced" }: { id: string; ownerId: string; status?: ReleaseStatus },
): Promise<string> {
  const draft = releaseDraftSchema.parse({ name: `Release ${id}`, symbol: "TST" });
  await db.kysely
    .insertInto("releases")
    .values({
      id,
      owner_id: ownerId,
      status,
      draft: JSON.stringify(draft),
      launch_at: status === "draft" ? null : 1_900_000_000_000,
      version: null,
      drop_id: null,
    })
    .execute();
  return id;
}

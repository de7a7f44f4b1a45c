import { adminPredictRuntimePatchSchema } from "@mkt/protocol";
import type { AdminApp } from "../http/admin-app.ts";
import type { PredictSettings } from "./settings.ts";

/**
 * The operator's switches of the feed, on the admin listener:
 * `GET /admin/predict/runtime` and `PUT /admin/predict/runtime`
 * `{enabled?, publicEnabled?}` (409 when the deployment follows no prediction
 * chain). First-party keys are marked with `PATCH /admin/keys/{id}`
 * `{firstParty: true}`.
 */
export function registerPredictAdmin(app: AdminApp, { settings }: { settings: PredictSettings }) {
  app.get("/admin/predict/runtime", async () => settings.flags());
  app.put("/admin/predict/runtime", { schema: { body: adminPredictRuntimePatchSchema } }, async (request) =>
    settings.set(request.body),
  );
}

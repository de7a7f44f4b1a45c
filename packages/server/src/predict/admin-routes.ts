import { adminPredictRuntimePatchSchema } from "@mkt/protocol";
import { OPERATOR_TAG } from "../http/operator-routes.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";
import type { PredictSettings } from "./settings.ts";

/**
 * The operator's switches of the feed, on the admin listener:
 * `GET /admin/predict/runtime` and `PUT /admin/predict/runtime`
 * `{enabled?, publicEnabled?}` (409 when the deployment follows no prediction
 * chain). First-party keys are marked with `PATCH /admin/keys/{id}`
 * `{firstParty: true}`.
 */
export function predictAdminRoutes({ settings }: { settings: PredictSettings }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/admin/predict/runtime",
      operationId: "adminPredictRuntime",
      summary: "The feed's switches",
      tags: [OPERATOR_TAG],
      responses: { 200: { description: "`{enabled, publicEnabled}`." } },
      handler: async () => settings.flags(),
    }),
    defineRoute({
      method: "PUT",
      path: "/admin/predict/runtime",
      operationId: "adminPredictRuntimeSet",
      summary: "Turns the feed on or off, for everyone or for all but first-party keys",
      tags: [OPERATOR_TAG],
      request: { body: adminPredictRuntimePatchSchema },
      responses: { 200: { description: "The switches as set: `{enabled, publicEnabled}`." } },
      handler: async (request) => settings.set(request.body),
    }),
  ];
}

import { adminClassicUnboxingSchema, classicUnboxingSchema } from "@mkt/protocol";
import { OPERATOR_TAG } from "../http/operator-routes.ts";
import { defineRoute, type RouteSpec } from "../http/route.ts";
import { keyRefused } from "./responses.ts";
import type { ClassicSettings } from "./settings.ts";

export function classicSettingsRoutes({ settings }: { settings: ClassicSettings }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/unboxing-disallowed",
      operationId: "classicUnboxingDisallowed",
      summary: "Whether unboxing is currently disallowed",
      description:
        "An operator-controlled switch (`PUT /admin/classic/unboxing-disallowed` on the operator listener). A change reaches every replica within a second. Like every other classic read it takes the API key and charges the read budget.",
      tags: ["Platform"],
      responses: {
        200: { description: "The switch's state.", schema: classicUnboxingSchema },
        429: keyRefused,
      },
      handler: async () => ({ disallowed: await settings.unboxingDisallowed() }),
    }),
  ];
}

/** The operator's side of the switch, on the admin listener. */
export function classicSettingsAdminRoutes({ settings }: { settings: ClassicSettings }): RouteSpec[] {
  return [
    defineRoute({
      method: "PUT",
      path: "/admin/classic/unboxing-disallowed",
      operationId: "adminClassicUnboxingDisallowedSet",
      summary: "Allows or disallows unboxing on every replica",
      tags: [OPERATOR_TAG],
      request: { body: adminClassicUnboxingSchema },
      responses: { 200: { description: "The switch's new state.", schema: classicUnboxingSchema } },
      handler: async (request) => {
        const { disallowed } = request.body;
        await settings.setUnboxingDisallowed(disallowed);
        return { disallowed };
      },
    }),
  ];
}

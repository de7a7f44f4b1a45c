import {
  accountActionResultSchemas,
  adminInviteRequestSchema,
  adminXVerifyRequestSchema,
} from "@mkt/protocol";
import { OPERATOR_TAG } from "../../http/operator-routes.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import type { Invites } from "./invites.ts";
import type { XConnections } from "./x-connections.ts";

/**
 * Operator routes of the profile area, on the operator listener:
 * - `POST /admin/invites` `{maxUses}` → 201 `{inviteId, code, maxUses, uses, status, createdAt}`;
 *   the code is shown once; the invite names no referrer.
 * - `POST /admin/social/x/verify` `{address, username}` → 200
 *   `{accountId, xUsername, xVerified: true, verifiedBy: "operator"}`; 404 for a wallet
 *   no account holds, 409 when another account has this X username verified.
 */
export function profileAdminRoutes({ invites, x }: { invites: Invites; x: XConnections }): RouteSpec[] {
  return [
    defineRoute({
      method: "POST",
      path: "/admin/invites",
      operationId: "adminInviteCreate",
      summary: "Creates an invite that names no referrer",
      tags: [OPERATOR_TAG],
      request: { body: adminInviteRequestSchema },
      responses: {
        201: {
          description: "The invite; its code is shown once.",
          schema: accountActionResultSchemas["invite-create"],
        },
      },
      handler: async (request, reply) => {
        const { maxUses } = request.body;
        reply.code(201).header("Cache-Control", "no-store");
        return invites.createForOperator(maxUses);
      },
    }),
    defineRoute({
      method: "POST",
      path: "/admin/social/x/verify",
      operationId: "adminXVerify",
      summary: "Marks an account's X username verified by the operator",
      tags: [OPERATOR_TAG],
      request: { body: adminXVerifyRequestSchema },
      responses: { 200: { description: "The account's X connection." } },
      handler: async (request) => {
        const { address, username } = request.body;
        return x.verifyByOperator(address, username);
      },
    }),
  ];
}

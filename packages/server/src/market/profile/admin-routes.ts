import { adminInviteRequestSchema, adminXVerifyRequestSchema } from "@mkt/protocol";
import type { AdminApp } from "../../http/admin-app.ts";
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
export function registerProfileAdmin(app: AdminApp, { invites, x }: { invites: Invites; x: XConnections }) {
  app.post("/admin/invites", { schema: { body: adminInviteRequestSchema } }, async (request, reply) => {
    const { maxUses } = request.body;
    reply.code(201).header("Cache-Control", "no-store");
    return invites.createForOperator(maxUses);
  });

  app.post("/admin/social/x/verify", { schema: { body: adminXVerifyRequestSchema } }, async (request) => {
    const { address, username } = request.body;
    return x.verifyByOperator(address, username);
  });
}

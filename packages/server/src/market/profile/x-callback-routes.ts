import { profileLookupSchema, xCallbackQuerySchema } from "@mkt/protocol";
import { notFound } from "../../errors.ts";
import { defineRoute } from "../../http/route.ts";
import type { ProfileReader } from "../../identity/index.ts";
import type { AccountSession } from "../accounts/actions.ts";
import type { XConnections } from "./x-connections.ts";

/** `GET /market/account/social/x/callback`: completes an X OAuth connection. */
export function xCallbackRoute(connections: XConnections, profiles: ProfileReader) {
  return defineRoute({
    method: "GET",
    path: "/account/social/x/callback",
    operationId: "completeXConnection",
    summary: "Complete an X account connection",
    description: `Completes the X OAuth 2.0 (PKCE) authorization that \`x-connect\` started: the first-party page at X_REDIRECT_URL passes on the \`code\` and \`state\` (or \`error\`) X appended, with the **same account session** that called \`x-connect\` (so nobody can connect their X account to someone else's by sending them a consent link). The state is single-use and lasts ten minutes. On success the connection is verified (\`xVerified: true\`, by OAuth) and the caller's shared profile is returned. Without X OAuth configured this route answers 404; X accounts are then verified only by the operator.`,
    tags: ["Accounts"],
    request: { query: xCallbackQuerySchema },
    responses: {
      200: { description: "Connected and verified; the caller's profile.", schema: profileLookupSchema },
      400: {
        description:
          "State malformed, unknown, used or expired; X declined (`error`); no code; or X refused the code.",
      },
      401: { description: "API key or session missing or invalid." },
      403: { description: "The state was issued to another account, or not an account session." },
      404: { description: "X OAuth is not configured." },
      409: { description: "This X account is verified on another mkt account." },
      429: { description: "Write budget exhausted." },
      503: { description: "X or the database is unavailable." },
    },
    handler: async (request, reply) => {
      if (!connections.oauth) throw notFound("X OAuth is not configured on this server");
      const session = request.session as AccountSession;
      const { state, code, error } = request.query;
      await connections.complete(
        session.accountId,
        state,
        error !== undefined ? { error } : code !== undefined ? { code } : { error: "no code was given" },
      );
      const profile = await profiles.ofAccount(session.accountId);
      return { ok: true as const, profile };
    },
  });
}

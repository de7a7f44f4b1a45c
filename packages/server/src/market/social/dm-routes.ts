import {
  ACCOUNT_LIMITS,
  dmMessageListSchema,
  dmMessagesQuerySchema,
  dmThreadListSchema,
  dmUnreadSchema,
  pageQuerySchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { ACCOUNT_SESSION_RULES, PAGING_RULES, sessionErrors } from "../docs.ts";
import { actorOf } from "./directory.ts";
import type { DmService } from "./dms.ts";

const errors = {
  ...sessionErrors,
  403: { description: "A chat or access session: direct messages need the account session." },
};

const rules = `Direct messages are sent with the \`dm\` kind of \`POST /market/account\` (body at most ${ACCOUNT_LIMITS.dmBody} characters) and marked read with \`dm-seen\`. Nobody can message an account that blocked them or that they blocked, nor against the recipient's \`dmPolicy\` (\`everyone\`; \`following\`: only accounts the recipient follows; \`nobody\`), nor themselves. Times are Unix milliseconds; message ids are decimal strings. A message is unread when the other account sent it after the caller's last \`dm-seen\` of that conversation.`;

/** `GET /dm/threads`, `/dm/messages`, `/dm/unread`: the account session's own conversations. */
export function dmRoutes(dms: DmService): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/dm/threads",
      operationId: "listDmThreads",
      summary: "List the caller's conversations",
      description: `The caller's direct-message conversations, most recent message first, each with the other account, its newest message and the caller's unread count.

${PAGING_RULES}

${rules}

${ACCOUNT_SESSION_RULES}`,
      tags: ["Private messages"],
      request: { query: pageQuerySchema },
      responses: {
        200: { description: "One page of conversations.", schema: dmThreadListSchema },
        400: {
          description:
            "`limit` out of 1 to 100, or a cursor longer than 500 characters or not returned by this list.",
        },
        ...errors,
      },
      handler: async (request) => {
        return dms.threads(actorOf(request.session).accountId, request.query);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/dm/messages",
      operationId: "listDmMessages",
      summary: "Read one conversation",
      description: `The messages of the caller's conversation with the account holding the wallet \`with\`, newest first. Reading does not mark them seen: use \`dm-seen\`.

${PAGING_RULES}

${rules}

${ACCOUNT_SESSION_RULES}`,
      tags: ["Private messages"],
      request: { query: dmMessagesQuerySchema },
      responses: {
        200: { description: "One page of the conversation.", schema: dmMessageListSchema },
        400: { description: "`with` is not an address, `limit` out of 1 to 100, or a malformed cursor." },
        404: { description: "No account holds `with`, or the caller has no conversation with it." },
        ...errors,
      },
      handler: async (request) => {
        const { with: withWallet, ...page } = request.query;
        return dms.messages(actorOf(request.session).accountId, withWallet, page);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/dm/unread",
      operationId: "getDmUnread",
      summary: "Count unread direct messages",
      description: `How many messages the caller has not marked seen, and in how many conversations. \`dm-seen\` lowers both.

${rules}

${ACCOUNT_SESSION_RULES}`,
      tags: ["Private messages"],
      responses: { 200: { description: "The unread counts.", schema: dmUnreadSchema }, ...errors },
      handler: async (request) => {
        return dms.unread(actorOf(request.session).accountId);
      },
    }),
  ];
}

import {
  accountAddressParamsSchema,
  followListSchema,
  followStateSchema,
  pageQuerySchema,
} from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import {
  CHAT_SESSION_RULES,
  PAGING_RULES,
  PUBLIC_READ_RULES,
  publicReadErrors,
  sessionErrors,
} from "../docs.ts";
import { actorOf } from "./directory.ts";
import type { FollowService } from "./follows.ts";

const rules =
  "Accounts are named by any of their wallets and shown by their primary wallet. Nobody follows themselves (400); a block in either direction forbids following (403), and blocking ends the follows both ways. Following decides who may message an account whose `dmPolicy` is `following`.";

/** Follow writes (chat session) and the public follower lists. */
export function followRoutes(follows: FollowService): RouteSpec[] {
  const writeErrors = {
    400: { description: "`address` is not an address, or it is one of the caller's own wallets." },
    ...sessionErrors,
    403: { description: "Not a chat session, or a block between the two accounts." },
    404: { description: "No account holds `address`." },
  };
  const listErrors = {
    400: { description: "`address` is not an address, `limit` out of 1 to 100, or a malformed cursor." },
    404: { description: "No account holds `address`." },
    ...publicReadErrors,
  };
  return [
    defineRoute({
      method: "PUT",
      path: "/follows/:address",
      operationId: "follow",
      summary: "Follow an account",
      description: `The chat session's account follows the account holding \`address\`. Idempotent: following again changes nothing. Same as the \`follow\` action.

${rules}

${CHAT_SESSION_RULES}`,
      tags: ["Community"],
      request: { params: accountAddressParamsSchema },
      responses: { 200: { description: "Now following.", schema: followStateSchema }, ...writeErrors },
      handler: async (request) => follows.follow(actorOf(request.session), request.params.address),
    }),
    defineRoute({
      method: "DELETE",
      path: "/follows/:address",
      operationId: "unfollow",
      summary: "Stop following an account",
      description: `The chat session's account stops following the account holding \`address\`. Idempotent. Same as the \`unfollow\` action.

${rules}

${CHAT_SESSION_RULES}`,
      tags: ["Community"],
      request: { params: accountAddressParamsSchema },
      responses: { 200: { description: "Not following.", schema: followStateSchema }, ...writeErrors },
      handler: async (request) => follows.unfollow(actorOf(request.session), request.params.address),
    }),
    defineRoute({
      method: "GET",
      path: "/accounts/:address/followers",
      operationId: "listFollowers",
      summary: "List an account's followers",
      description: `The accounts following the account holding \`address\`, newest follow first.

${PAGING_RULES}

${rules}

${PUBLIC_READ_RULES}`,
      tags: ["Community"],
      request: { params: accountAddressParamsSchema, query: pageQuerySchema },
      responses: { 200: { description: "One page of followers.", schema: followListSchema }, ...listErrors },
      handler: async (request) => follows.followers(request.params.address, request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/accounts/:address/following",
      operationId: "listFollowing",
      summary: "List the accounts an account follows",
      description: `The accounts the account holding \`address\` follows, newest follow first.

${PAGING_RULES}

${rules}

${PUBLIC_READ_RULES}`,
      tags: ["Community"],
      request: { params: accountAddressParamsSchema, query: pageQuerySchema },
      responses: {
        200: { description: "One page of followed accounts.", schema: followListSchema },
        ...listErrors,
      },
      handler: async (request) => follows.following(request.params.address, request.query),
    }),
  ];
}

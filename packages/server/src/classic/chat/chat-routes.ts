import {
  CLASSIC_CHAT,
  classicChatAddressParamsSchema,
  classicChatChainQuerySchema,
  classicChatDeletedSchema,
  classicChatGameParamsSchema,
  classicChatListQuerySchema,
  classicChatMessageParamsSchema,
  classicChatPageSchema,
  classicChatPostedSchema,
  classicChatPostSchema,
  classicChatStreamEventSchema,
  classicChatStreamQuerySchema,
  LIVE_STREAM,
  liveHeadersSchema,
} from "@mkt/protocol";
import type { FastifyRequest } from "fastify";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { signedInAccount } from "../../identity/index.ts";
import { type LiveHub, serveStream } from "../../live/index.ts";
import { clientGroup } from "../../quotas/client-group.ts";
import { keyAndBearerAccess as keyAndBearer, keyRefused } from "../responses.ts";
import type { ChatActor, ClassicChatService } from "./service.ts";

/** The signed-in account of a bearer route, as plain values; the pipeline has set it before any handler runs. */
const actorOf = (request: FastifyRequest): ChatActor => {
  const account = signedInAccount(request);
  return { accountId: account.id, address: account.address, wallets: account.wallets };
};

const rateRule = `Posting rate: at most ${CLASSIC_CHAT.postsPerWindow} messages per account in any ${CLASSIC_CHAT.windowSeconds} seconds, across every game and every replica (counted in the database; deleted messages count); beyond it 429 \`{success:false, message, error:"CHAT_RATE_LIMITED"}\` with \`Retry-After\` and \`RateLimit-*\` headers for this limit. A replay by \`clientMessageId\` is not counted.`;

const safetyNote =
  "Moderation: the game's creator (any wallet linked to the creator's account is the game's `creator`) deletes any message of the game; the market's account blocks (which govern direct messages and follows between two accounts) do not filter this public room.";

function streamRules(hub: LiveHub) {
  const { limits } = hub;
  return `A server-sent event stream (\`text/event-stream\`) of refresh signals for one game's chat: an event says that something changed, the client re-reads \`GET /classic/chat/{contractAddressOrSlug}\`. Open it with \`fetch\` and the \`API-KEY\` header (the SDK's \`client.classic.chat.subscribe\` does), not with a browser \`EventSource\`, which cannot send headers.

Events (\`event:\` name, \`data:\` JSON; schemas \`ClassicChatStreamEvent\`):
- \`ready\` first on every stream: the heartbeat interval and the log's window; with an \`id\` on a fresh stream.
- \`message\` {id, chainId, contractAddress}: a message was posted; re-read the newest page (or fetch until you reach a message you have).
- \`deleted\` {id, chainId, contractAddress}: a message was deleted by its author or the game's creator; drop it (a re-read shows its tombstone).
- \`resync\` {reason}: the events after \`Last-Event-ID\` are no longer all in the log (\`expired\`), or the id is not one this server issued (\`unknown\`, another server, a restarted database, not an id at all): re-read the messages, then carry on. Such a stream's \`ready\` says \`resumed: false\`.
- \`end\` {reason: \`key-revoked\`}: the API key was revoked; the server closes the stream right after it. Do not reconnect with that key.
- \`position\` {}: moves the resume point past events of other games and of the market (sent with a heartbeat when needed).

The stream is the market live updates' (\`GET /market/live\`): the same event log in the database, written in the transaction of each post and deletion, so an event is never sent for a change that did not commit and never missed for one that did. Ids are decimal and increase across every replica. The event a client may resume after carries \`id:\`; send it back as \`Last-Event-ID\` on reconnect (CORS allows the header from any origin) and every later event of this game is replayed, in order, while it is in the log's window: the last ${Math.round(limits.windowMs / 60_000)} minutes and at most ${limits.windowEvents.toLocaleString("en-US")} events (of every stream). Older than that, the stream starts with \`resync\`. A comment line (\`: heartbeat\`) comes every ${Math.round(limits.heartbeatMs / 1000)} seconds; a client that hears nothing for three intervals should reconnect. \`retry: ${LIVE_STREAM.retryMs}\` suggests the reconnection delay; back off with jitter beyond it.

Access: API-KEY in the header. Budget: opening a stream charges the classic stream class (10 per minute per key and client IP, times the multiplier); at most ${limits.maxStreamsPerKey} streams per key are open at once on a replica, market live streams included, and at most ${limits.maxStreamsPerClient} per client network (an IPv4 address or an IPv6 /64) whichever keys opened them (429 \`RATE_LIMITED\` beyond either, Retry-After 5). Every replica checks each open stream's key again every ${limits.recheckMs / 1000} seconds: within about a second of its revocation, on whichever replica, the stream gets \`end\` and closes. Each replica holds at most ${limits.maxStreams.toLocaleString("en-US")} streams (503 with Retry-After beyond); an open stream does not hold an in-flight request slot. A client that leaves more than ${Math.round(limits.maxBufferedBytes / 1024)} KiB unread is disconnected and resumes with \`Last-Event-ID\`. On shutdown the server ends every stream; clients reconnect to another replica.`;
}

const gameErrors = {
  400: { description: "A malformed path, query or body value (`VALIDATION_ERROR`)." },
  404: { description: "No game with this address or slug on the chain (`GAME_NOT_FOUND`)." },
};

/** The game chat: messages per game, and their stream. */
export function classicChatRoutes({ chat, hub }: { chat: ClassicChatService; hub: LiveHub }): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/chat/:contractAddress",
      operationId: "classicChatMessages",
      summary: "A game's chat messages, newest first",
      description: `The game's chat, newest first: \`limit\` 1 to ${CLASSIC_CHAT.maxLimit} (default ${CLASSIC_CHAT.defaultLimit}), then \`cursor\` = the previous page's \`nextCursor\` (opaque, signed for this game's list; null on the oldest page) for older ones. Deleted messages stay listed as tombstones (\`deleted: true\`, \`text\` empty), so a client that re-reads after a \`deleted\` signal sees them go. \`author.userData\` is the author's shared market profile. Never cached: the stream (\`/stream\`) says when to re-read. Access: API-KEY (the general read budget).`,
      tags: ["Game chat"],
      request: { params: classicChatGameParamsSchema, query: classicChatListQuerySchema },
      responses: {
        200: { description: "A page of messages.", schema: classicChatPageSchema },
        400: {
          description:
            "`limit` out of range, or a `cursor` this route did not issue for this game (made by hand, altered, or another game's) (`VALIDATION_ERROR`).",
        },
        404: gameErrors[404],
        429: keyRefused,
      },
      handler: async (request) => {
        const game = await chat.game(request.query.chainId, request.params.contractAddress);
        return chat.list(game, { limit: request.query.limit, cursor: request.query.cursor });
      },
    }),
    defineRoute({
      method: "POST",
      path: "/chat/:contractAddress",
      operationId: "classicChatPost",
      summary: "Post a chat message to a game",
      description: `Posts \`text\` (trimmed, then 1 to ${CLASSIC_CHAT.maxTextLength} characters; no control characters other than newline and tab) to the game's chat as the signed-in account; the author's \`address\` is the wallet the token signed in with. Body at most a few kilobytes: \`{text, clientMessageId?}\`, nothing else. \`clientMessageId\` makes retries safe: the same id from the same account in the same game answers the first message (200, \`replayed: true\`) and posts nothing. Every chat stream of the game gets a \`message\` event once it commits. ${rateRule}\n\n${safetyNote}\n\n${keyAndBearer}`,
      tags: ["Game chat"],
      request: {
        params: classicChatAddressParamsSchema,
        query: classicChatChainQuerySchema,
        body: classicChatPostSchema,
      },
      responses: {
        200: {
          description: "A retry: the message `clientMessageId` already posted.",
          schema: classicChatPostedSchema,
        },
        201: { description: "Posted.", schema: classicChatPostedSchema },
        400: {
          description:
            "`text` empty after trimming, longer than the limit or with control characters; a malformed `clientMessageId` or address (`VALIDATION_ERROR`).",
        },
        401: { description: "Bearer token missing, expired or invalid (`UNAUTHORIZED`)." },
        404: gameErrors[404],
        429: {
          description:
            "API key missing or invalid, or quota exhausted (`RATE_LIMITED`); or this account's posting rate spent (`CHAT_RATE_LIMITED`, Retry-After).",
        },
      },
      handler: async (request, reply) => {
        const game = await chat.game(request.query.chainId, request.params.contractAddress);
        const posted = await chat.post(actorOf(request), game, request.body);
        reply.code(posted.replayed ? 200 : 201);
        return { success: true, ...posted };
      },
    }),
    defineRoute({
      method: "DELETE",
      path: "/chat/:contractAddress/:messageId",
      operationId: "classicChatDelete",
      summary: "Delete a chat message (author or game creator)",
      description: `Deletes a message of the game: by its author's account, or by the game's creator (the game's \`creator\` wallet is linked to the signed-in account), else 403 \`FORBIDDEN\`. The message stays listed as a tombstone without text; every chat stream of the game gets a \`deleted\` event. Deleting a deleted message answers 200 again and changes nothing.\n\n${keyAndBearer}`,
      tags: ["Game chat"],
      request: { params: classicChatMessageParamsSchema, query: classicChatChainQuerySchema },
      responses: {
        200: { description: "Deleted.", schema: classicChatDeletedSchema },
        400: gameErrors[400],
        401: { description: "Bearer token missing, expired or invalid (`UNAUTHORIZED`)." },
        403: { description: "Neither the message's author nor the game's creator (`FORBIDDEN`)." },
        404: {
          description: "No such game (`GAME_NOT_FOUND`), or no such message in it (`MESSAGE_NOT_FOUND`).",
        },
        429: keyRefused,
      },
      handler: async (request) => {
        const game = await chat.game(request.query.chainId, request.params.contractAddress);
        await chat.delete(actorOf(request), game, request.params.messageId);
        return { success: true, id: request.params.messageId, deleted: true };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/chat/:contractAddress/stream",
      operationId: "classicChatStream",
      summary: "A game's chat stream (server-sent events)",
      description: streamRules(hub),
      tags: ["Game chat"],
      request: {
        params: classicChatGameParamsSchema,
        query: classicChatStreamQuerySchema,
        headers: liveHeadersSchema,
      },
      responses: {
        200: {
          description: "The event stream; it stays open until either side closes it.",
          contentType: "text/event-stream",
          schema: classicChatStreamEventSchema,
        },
        400: gameErrors[400],
        404: gameErrors[404],
        429: {
          description: `API key missing or invalid, stream budget spent, ${hub.limits.maxStreamsPerKey} streams of this key already open on this replica, or ${hub.limits.maxStreamsPerClient} streams of this client network (IPv4 address, IPv6 /64) whatever keys opened them (\`RATE_LIMITED\`).`,
        },
        503: {
          description:
            "The replica holds its maximum of streams, or is shutting down; retry after Retry-After.",
        },
      },
      handler: async (request, reply) => {
        const game = await chat.game(request.query.chainId, request.params.contractAddress);
        serveStream(hub, reply, {
          // The market live streams' cap: per key, whichever stream.
          holder: request.apiKey ? `key:${request.apiKey.id}` : `client:${clientGroup(request.ip)}`,
          accountId: undefined,
          owner: undefined,
          lastEventId: request.headers["last-event-id"],
          chat: { chainId: game.chainId, contractAddress: game.contractAddress },
        });
      },
    }),
  ];
}

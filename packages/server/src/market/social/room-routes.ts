import {
  ACCOUNT_LIMITS,
  pageQuerySchema,
  roomDetailSchema,
  roomListSchema,
  roomMessageListSchema,
  roomMessagePostSchema,
  roomMessageSchema,
  roomParamsSchema,
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
import type { RoomService } from "./rooms.ts";

const rules = `Rooms are created with the \`room-create\` kind of \`POST /market/account\` (slug 2 to 40 lowercase letters, digits or -, unique; title at most ${ACCOUNT_LIMITS.roomTitle} characters; description at most ${ACCOUNT_LIMITS.roomDescription}). A message is at most ${ACCOUNT_LIMITS.chatBody} characters; its author, or the room's creator, deletes it with \`chat-delete\`. Messages of a deleted account are gone with it. Times are Unix milliseconds; message ids are decimal strings.`;

/** The community's rooms: public reads, and writing with a chat session. */
export function roomRoutes(rooms: RoomService): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/rooms",
      operationId: "listRooms",
      summary: "List chat rooms",
      description: `Every room, by slug in alphabetical order.

${PAGING_RULES}

${rules}

${PUBLIC_READ_RULES}`,
      tags: ["Community"],
      request: { query: pageQuerySchema },
      responses: {
        200: { description: "One page of rooms.", schema: roomListSchema },
        400: { description: "`limit` out of 1 to 100, or a malformed cursor." },
        ...publicReadErrors,
      },
      handler: async (request) => rooms.list(request.query),
    }),
    defineRoute({
      method: "GET",
      path: "/rooms/:roomId",
      operationId: "getRoom",
      summary: "Read one chat room",
      description: `One room with how many messages it holds and when the newest was written; read them with \`GET /market/rooms/{roomId}/messages\`.

${rules}

${PUBLIC_READ_RULES}`,
      tags: ["Community"],
      request: { params: roomParamsSchema },
      responses: {
        200: { description: "The room.", schema: roomDetailSchema },
        400: { description: "A malformed room id." },
        404: { description: "No such room." },
        ...publicReadErrors,
      },
      handler: async (request) => rooms.get(request.params.roomId),
    }),
    defineRoute({
      method: "GET",
      path: "/rooms/:roomId/messages",
      operationId: "listRoomMessages",
      summary: "Read a room's messages",
      description: `A room's messages, newest first.

${PAGING_RULES}

${rules}

${PUBLIC_READ_RULES}`,
      tags: ["Community"],
      request: { params: roomParamsSchema, query: pageQuerySchema },
      responses: {
        200: { description: "One page of messages.", schema: roomMessageListSchema },
        400: { description: "A malformed room id, `limit` out of 1 to 100, or a malformed cursor." },
        404: { description: "No such room." },
        ...publicReadErrors,
      },
      handler: async (request) => rooms.messages(request.params.roomId, request.query),
    }),
    defineRoute({
      method: "POST",
      path: "/rooms/:roomId/messages",
      operationId: "postRoomMessage",
      summary: "Write in a room",
      description: `Posts a message as the chat session's wallet; answers 201 with the message. \`replyTo\`, when given, must be a message of the same room. Same rules as the \`chat-send\` action.

${rules}

${CHAT_SESSION_RULES}`,
      tags: ["Community"],
      request: { params: roomParamsSchema, body: roomMessagePostSchema },
      responses: {
        201: { description: "The message.", schema: roomMessageSchema },
        400: {
          description: `A malformed room id, an empty body, a body over ${ACCOUNT_LIMITS.chatBody} characters, or an unknown field.`,
        },
        ...sessionErrors,
        403: { description: "Not a chat session (the account session or an access session)." },
        404: { description: "No such room, or `replyTo` is not a message of it." },
      },
      handler: async (request, reply) => {
        const message = await rooms.send(actorOf(request.session), request.params.roomId, request.body);
        return reply.code(201).send(message);
      },
    }),
  ];
}

import { z } from "zod";
import { integerParam } from "../params/index.ts";
import { accountActionSchemas, LIST_PAGING } from "./actions.ts";
import { addressSchema } from "./schemas.ts";

/**
 * The social resources of the market: direct messages, rooms and their
 * messages, follows, and the results of their `POST /market/account` kinds.
 * Times are Unix milliseconds; message ids are decimal strings (64-bit).
 */

/** Paging of every social list: the rules of every market list (LIST_PAGING). */
export const SOCIAL_PAGING = LIST_PAGING;

/** Room ids, message ids and a chat body follow the account actions' own rules, so the two never differ. */
export const roomIdSchema = accountActionSchemas["chat-send"].shape.roomId;
export const messageIdSchema = accountActionSchemas["chat-delete"].shape.messageId;

const time = () => z.number().int().describe("Unix milliseconds.");
const id = () => z.string().describe("Decimal string of a 64-bit id.");

export const pageQuerySchema = z.object({
  cursor: z
    .string()
    .min(1)
    .max(SOCIAL_PAGING.maxCursorLength, `cursor must be at most ${SOCIAL_PAGING.maxCursorLength} characters`)
    .optional()
    .describe("The `next` of the previous page, as returned (opaque). Omit for the first page."),
  limit: integerParam("limit", {
    min: 1,
    max: SOCIAL_PAGING.maxLimit,
    default: SOCIAL_PAGING.defaultLimit,
  }).describe("Items per page, 1 to 100; default 50."),
});

export const dmMessagesQuerySchema = pageQuerySchema.extend({
  with: addressSchema.describe("A wallet of the other account of the conversation."),
});

/** `/market/rooms/{roomId}/…`. */
export const roomParamsSchema = z.object({ roomId: roomIdSchema.describe("The room's id (`room_…`).") });

/** `/market/follows/{address}` and the follower lists: an account named by any of its wallets. */
export const accountAddressParamsSchema = z.object({
  address: addressSchema.describe("Any wallet of the account (0x, 40 hex digits)."),
});

const next = () =>
  z
    .string()
    .nullable()
    .describe("Opaque cursor of the next page (pass it as `cursor`); null on the last page.");

/** An account as social lists show it: its primary wallet and its username. */
export const accountRefSchema = z
  .object({
    address: z.string().describe("The account's primary wallet (lowercase)."),
    username: z.string().nullable(),
  })
  .meta({ id: "AccountRef" });

export const dmMessageSchema = z
  .object({
    id: id(),
    from: z.string().describe("The wallet that sent it (lowercase)."),
    fromMe: z.boolean().describe("True when the caller's account sent it (from any of its wallets)."),
    body: z.string(),
    createdAt: time(),
  })
  .meta({ id: "DmMessage" });

export const dmThreadSchema = z
  .object({
    id: z.string(),
    with: accountRefSchema,
    lastMessage: dmMessageSchema,
    unread: z
      .number()
      .int()
      .describe("Messages of the other account newer than what the caller marked seen."),
  })
  .meta({ id: "DmThread" });

export const dmThreadListSchema = z
  .object({ threads: z.array(dmThreadSchema), next: next() })
  .meta({ id: "DmThreadList" });

export const dmMessageListSchema = z
  .object({
    threadId: z.string(),
    with: accountRefSchema,
    messages: z.array(dmMessageSchema).describe("Newest first."),
    next: next(),
  })
  .meta({ id: "DmMessageList" });

export const dmUnreadSchema = z
  .object({
    messages: z.number().int().describe("Unread messages across every conversation."),
    threads: z.number().int().describe("Conversations with at least one unread message."),
  })
  .meta({ id: "DmUnread" });

export const roomSchema = z
  .object({
    id: roomIdSchema,
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    createdBy: z
      .string()
      .nullable()
      .describe("Primary wallet of the creator; null once that account is deleted."),
    createdAt: time(),
  })
  .meta({ id: "Room" });

export const roomListSchema = z
  .object({ rooms: z.array(roomSchema).describe("By slug, alphabetically."), next: next() })
  .meta({ id: "RoomList" });

export const roomMessageSchema = z
  .object({
    id: id(),
    roomId: z.string(),
    from: z.string().describe("The wallet that sent it (lowercase)."),
    username: z.string().nullable().describe("The sender account's username."),
    body: z.string(),
    replyTo: z.string().nullable().describe("Id of the message of the same room it answers."),
    createdAt: time(),
  })
  .meta({ id: "RoomMessage" });

export const roomMessageListSchema = z
  .object({
    roomId: z.string(),
    messages: z.array(roomMessageSchema).describe("Newest first."),
    next: next(),
  })
  .meta({ id: "RoomMessageList" });

const chatSend = accountActionSchemas["chat-send"].shape;

/** `POST /market/rooms/{roomId}/messages`: the `chat-send` action without its kind and room. */
export const roomMessagePostSchema = z
  .object({ body: chatSend.body, replyTo: chatSend.replyTo })
  .strict()
  .meta({ id: "RoomMessagePost" });

export const followStateSchema = z
  .object({
    address: z.string().describe("Primary wallet of the account followed or unfollowed."),
    following: z.boolean(),
  })
  .meta({ id: "FollowState" });

export const followEntrySchema = z
  .object({
    address: z.string().describe("Primary wallet of the account."),
    username: z.string().nullable(),
    followedAt: time(),
  })
  .meta({ id: "FollowEntry" });

export const followListSchema = z
  .object({
    address: z.string().describe("Primary wallet of the account whose list this is."),
    accounts: z.array(followEntrySchema).describe("Newest follow first."),
    next: next(),
  })
  .meta({ id: "FollowList" });

/** The `result` of each social kind of `POST /market/account`. */
export const socialActionResultSchemas = {
  "room-create": roomSchema,
  "chat-send": roomMessageSchema,
  "chat-delete": z.object({ id: id(), deleted: z.literal(true) }),
  dm: z.object({
    id: id(),
    threadId: z.string(),
    to: z.string().describe("Primary wallet of the recipient."),
    createdAt: time(),
  }),
  "dm-seen": z.object({
    threadId: z.string(),
    with: z.string().describe("Primary wallet of the other account."),
    seenUpTo: z.string().describe("Id of the newest message marked seen; never moves back."),
    unread: z.number().int().describe("Messages of the conversation still unread."),
  }),
  follow: followStateSchema,
  unfollow: followStateSchema,
  "safety-update": z.object({ dmPolicy: accountActionSchemas["safety-update"].shape.dmPolicy }),
  block: z.object({ address: z.string(), blocked: z.boolean() }),
  unblock: z.object({ address: z.string(), blocked: z.boolean() }),
  report: z.object({ id: z.string(), expiresAt: time() }),
} as const;

/** A page request as a client sends it: both fields optional. */
export type PageQuery = Partial<z.output<typeof pageQuerySchema>>;
/** `GET /market/dm/messages` as a client sends it. */
export type DmMessagesQuery = PageQuery & Pick<z.output<typeof dmMessagesQuerySchema>, "with">;
export type SocialActionKind = keyof typeof socialActionResultSchemas;
export type SocialActionResult<K extends SocialActionKind> = z.output<(typeof socialActionResultSchemas)[K]>;
export type AccountRef = z.output<typeof accountRefSchema>;
export type DmMessage = z.output<typeof dmMessageSchema>;
export type DmThread = z.output<typeof dmThreadSchema>;
export type DmThreadList = z.output<typeof dmThreadListSchema>;
export type DmMessageList = z.output<typeof dmMessageListSchema>;
export type DmUnread = z.output<typeof dmUnreadSchema>;
export type Room = z.output<typeof roomSchema>;
export type RoomList = z.output<typeof roomListSchema>;
export type RoomMessage = z.output<typeof roomMessageSchema>;
export type RoomMessageList = z.output<typeof roomMessageListSchema>;
export type FollowState = z.output<typeof followStateSchema>;
export type FollowList = z.output<typeof followListSchema>;

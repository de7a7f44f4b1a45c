import { z } from "zod";
import { liveEndSchema, liveEventSchemas, liveReadySchema, liveResyncSchema } from "../market/live.ts";
import { addressString, classicQuery, isoDateTime } from "./common.ts";
import { classicUserDataSchema } from "./packs.ts";

/**
 * Game chat (docs/classic.md, Game chat): one durable room per game,
 * read and written over REST; its stream only says that something changed
 * (a refresh signal), so after a gap the client re-reads the messages.
 */
export const CLASSIC_CHAT = {
  /** A message's text, after trimming: 1 to this many characters (Unicode code points). */
  maxTextLength: 500,
  /** Page sizes of `GET /classic/chat/{game}`. */
  defaultLimit: 50,
  maxLimit: 100,
  /** Posts per account in a sliding window, counted in the database (every replica together). */
  postsPerWindow: 10,
  windowSeconds: 60,
  /** `clientMessageId`: 1 to this many of `A-Z a-z 0-9 _ -`. */
  maxClientMessageId: 64,
} as const;

/** The chat stream's path for a game (drop address or slug). */
export const classicChatStreamPath = (contractAddressOrSlug: string) =>
  `/classic/chat/${encodeURIComponent(contractAddressOrSlug)}/stream`;

const codePoints = (text: string) => [...text].length;
/** C0 and C1 control characters other than tab and newline, and the BOM. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it refuses
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufeff]/;

export const classicChatTextSchema = z
  .string()
  .trim()
  .refine((text) => codePoints(text) >= 1, { error: "text must not be empty" })
  .refine((text) => codePoints(text) <= CLASSIC_CHAT.maxTextLength, {
    error: `text must be at most ${CLASSIC_CHAT.maxTextLength} characters`,
  })
  .refine((text) => !CONTROL.test(text), { error: "text must not contain control characters" })
  .describe(
    `The message: trimmed of surrounding white space, then 1 to ${CLASSIC_CHAT.maxTextLength} characters (Unicode code points); newlines and tabs allowed, other control characters not. Plain text: clients render it as text, never as HTML.`,
  );

export const classicChatGameParamsSchema = z.object({
  // Named like the address of the game's other chat routes: one name per path position.
  contractAddress: z.string().min(1).max(200).describe("The game's booster drop address or its slug."),
});

export const classicChatAddressParamsSchema = z.object({
  contractAddress: classicQuery.address("contractAddress").describe("The game's booster drop address."),
});

export const classicChatMessageParamsSchema = z.object({
  contractAddress: classicQuery.address("contractAddress").describe("The game's booster drop address."),
  messageId: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, "messageId must be a message id")
    .describe("The message's `id`."),
});

export const classicChatChainQuerySchema = z.object({ chainId: classicQuery.chainId });

export const classicChatListQuerySchema = z.object({
  chainId: classicQuery.chainId,
  limit: classicQuery.limit(CLASSIC_CHAT.defaultLimit, CLASSIC_CHAT.maxLimit),
  cursor: z
    .string()
    .max(64)
    .optional()
    .describe("`nextCursor` of the previous page (opaque); absent for the newest messages."),
});
export type ClassicChatListQuery = z.input<typeof classicChatListQuerySchema>;

export const classicChatPostSchema = z
  .object({
    text: classicChatTextSchema,
    clientMessageId: z
      .string()
      .regex(
        new RegExp(`^[A-Za-z0-9_-]{1,${CLASSIC_CHAT.maxClientMessageId}}$`),
        `clientMessageId must be 1 to ${CLASSIC_CHAT.maxClientMessageId} of A-Z a-z 0-9 _ -`,
      )
      .optional()
      .describe(
        "The client's own id for this message (a UUID fits): a retry with the same id in the same game answers the message it already posted (200, `replayed: true`) instead of posting it twice, whatever the text.",
      ),
  })
  .meta({ id: "ClassicChatPost" });
export type ClassicChatPost = z.input<typeof classicChatPostSchema>;

export const classicChatMessageSchema = z
  .object({
    id: z.string().describe("The message id: decimal digits, increasing in posting order within the server."),
    contractAddress: addressString("The game's booster drop"),
    chainId: z.number().int(),
    author: z.object({
      address: addressString("The wallet the author signed in with"),
      userData: classicUserDataSchema
        .nullable()
        .describe("The author's shared market profile (username, picture); null when none can be read."),
    }),
    text: z.string().describe("The text as posted (trimmed); empty once deleted."),
    clientMessageId: z.string().nullable().describe("The author's `clientMessageId`, when one was sent."),
    createdAt: isoDateTime("When it was posted."),
    deleted: z
      .boolean()
      .describe("Deleted by its author or the game's creator: kept as a tombstone without text."),
  })
  .meta({ id: "ClassicChatMessage" });
export type ClassicChatMessage = z.infer<typeof classicChatMessageSchema>;

export const classicChatPageSchema = z
  .object({
    success: z.literal(true),
    messages: z.array(classicChatMessageSchema).describe("Newest first, deleted ones as tombstones."),
    nextCursor: z
      .string()
      .nullable()
      .describe("Pass as `cursor` for older messages; null on the oldest page."),
  })
  .meta({ id: "ClassicChatPage" });
export type ClassicChatPage = z.infer<typeof classicChatPageSchema>;

export const classicChatPostedSchema = z
  .object({
    success: z.literal(true),
    message: classicChatMessageSchema,
    replayed: z.boolean().describe("True when `clientMessageId` named a message already posted."),
  })
  .meta({ id: "ClassicChatPosted" });
export type ClassicChatPosted = z.infer<typeof classicChatPostedSchema>;

export const classicChatDeletedSchema = z
  .object({ success: z.literal(true), id: z.string(), deleted: z.literal(true) })
  .meta({ id: "ClassicChatDeleted" });

const chatSignal = (description: string) =>
  z
    .object({
      id: z.string().describe("The message id."),
      chainId: z.number().int(),
      contractAddress: z.string(),
    })
    .describe(description);

/** Every event of the chat stream by its SSE `event:` name, with the schema of its `data:` JSON. */
export const classicChatEventSchemas = {
  ready: liveReadySchema,
  resync: liveResyncSchema,
  end: liveEndSchema,
  message: chatSignal("A message was posted: re-read the newest page.").meta({ id: "ClassicChatSignal" }),
  deleted: chatSignal("A message was deleted: drop it, or re-read its page.").meta({
    id: "ClassicChatDeletedSignal",
  }),
  position: liveEventSchemas.position,
} as const;

export type ClassicChatEventName = keyof typeof classicChatEventSchemas;
export type ClassicChatEventData = {
  [K in ClassicChatEventName]: z.output<(typeof classicChatEventSchemas)[K]>;
};
/** One parsed event of the chat stream. */
export type ClassicChatEvent = {
  [K in ClassicChatEventName]: { event: K; id: string | undefined; data: ClassicChatEventData[K] };
}[ClassicChatEventName];

/** Parses one SSE event of the chat stream; undefined for an event name this version does not know. */
export function parseClassicChatEvent(raw: {
  event?: string | undefined;
  id?: string | undefined;
  data: string;
}): ClassicChatEvent | undefined {
  const name = raw.event ?? "message";
  if (!Object.hasOwn(classicChatEventSchemas, name)) return undefined;
  const schema: z.ZodType = classicChatEventSchemas[name as ClassicChatEventName];
  return { event: name, id: raw.id, data: schema.parse(JSON.parse(raw.data)) } as ClassicChatEvent;
}

const CHAT_EVENT_NAMES = Object.keys(classicChatEventSchemas) as ClassicChatEventName[];

/** The stream as OpenAPI documents it: each SSE event as `{event, id, data}`. */
export const classicChatStreamEventSchema = z
  .discriminatedUnion(
    "event",
    CHAT_EVENT_NAMES.map((name) =>
      z.object({
        event: z.literal(name),
        id: z.string().optional().describe("The SSE `id:` line: resume after it with `Last-Event-ID`."),
        data: classicChatEventSchemas[name],
      }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .meta({ id: "ClassicChatStreamEvent" });

export const classicChatStreamQuerySchema = z.object({ chainId: classicQuery.chainId });

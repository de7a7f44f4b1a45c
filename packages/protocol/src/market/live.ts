import { z } from "zod";
import { addressSchema } from "../account/schemas.ts";
import { dmUnreadSchema } from "../account/social.ts";
import { releaseStatusSchema } from "./releases.ts";

/**
 * Live updates (docs/live-updates.md): a server-sent event stream of
 * refresh signals. An event says what changed; the client re-reads the REST
 * resource it names. The numbers here are the server's documented policy.
 */
export const LIVE_STREAM = {
  /** Public events, and claims of one owner with `?owner=`. */
  path: "/market/live",
  /** The same plus the signed-in account's private events (account session). */
  accountPath: "/market/account/live",
  /** A comment line (`: heartbeat`) is written this often on every open stream. */
  heartbeatSeconds: 15,
  /** `Last-Event-ID` resumes from the event log while the id is at most this old … */
  windowSeconds: 600,
  /** … and among the newest this many events; past the window the stream starts with `resync`. */
  windowEvents: 10_000,
  /** Open streams per API key per replica; one more is 429. */
  maxStreamsPerKey: 5,
  /**
   * Open streams per client network per replica, whatever key or account opened
   * them (an IPv4 address, an IPv6 /64); one more is 429.
   */
  maxStreamsPerClient: 20,
  /** How soon an open stream ends once what admitted it no longer stands (key, session, feed switch). */
  recheckSeconds: 1,
  /** Bytes a slow client may leave unread in the server's buffer before it is disconnected. */
  maxBufferedBytes: 262_144,
  /** The reconnection delay the server suggests (`retry:`), in milliseconds. */
  retryMs: 2_000,
} as const;

export const liveQuerySchema = z.object({
  owner: addressSchema
    .optional()
    .describe("Also send `claims` events for this wallet's claims as the indexer records them."),
});

export const liveReadySchema = z
  .object({
    resumed: z
      .boolean()
      .describe(
        "Whether the stream resumes after the sent `Last-Event-ID`: false on a fresh stream, and when the id cannot be resumed (a `resync` follows at once).",
      ),
    heartbeatSeconds: z.number().int(),
    windowSeconds: z.number().int(),
    windowEvents: z.number().int(),
  })
  .meta({ id: "LiveReady" });

export const liveResyncSchema = z
  .object({
    reason: z
      .enum(["expired", "unknown"])
      .describe(
        "`expired`: events after `Last-Event-ID` left the log's window; `unknown`: the id is not one this server issued.",
      ),
  })
  .meta({ id: "LiveResync" });

/**
 * The last event of a stream the server ends because what admitted it no
 * longer stands; the connection closes right after it. Reconnecting with the
 * same credentials is refused.
 */
export const liveEndSchema = z
  .object({
    reason: z
      .enum(["key-revoked", "session-ended", "feed-disabled", "feed-not-public"])
      .describe(
        "`key-revoked`: the API key was revoked; `session-ended`: the account session was signed out, revoked or expired, or its account deleted; `feed-disabled` and `feed-not-public` (prediction feed only): the operator switched the feed off, or closed it to keys that are not first-party.",
      ),
  })
  .meta({ id: "LiveEnd" });

export const liveReleaseSchema = z
  .object({
    releaseId: z.string(),
    revision: z.number().int().describe("The release's revision after the change."),
    status: z
      .union([releaseStatusSchema, z.literal("deleted")])
      .describe("The release's status after the change; `deleted` once a draft was deleted."),
  })
  .meta({ id: "LiveRelease" });

export const liveHeadSchema = z
  .object({
    scope: z
      .string()
      .describe(
        "The indexer scope of the market's runtime registry (`<chainId>:registry:<address>`): the catalog, drops and claims of every market runtime.",
      ),
    nextBlock: z.number().int().describe("Every block below it is indexed."),
    revision: z.number().int().describe("The scope's projection revision (`head.revision`)."),
  })
  .meta({ id: "LiveHead" });

export const liveClaimsSchema = z
  .object({
    scope: z.string(),
    version: z
      .string()
      .describe("The runtime's `{version}` in the runtime routes (one event per runtime with claims)."),
    owner: z.string().describe("The wallet of `?owner=`, lowercase."),
    claims: z.number().int().describe("Claims of this owner in the blocks the commit indexed."),
    fromBlock: z.number().int(),
    toBlock: z.number().int().describe("The last block of the commit (inclusive)."),
  })
  .meta({ id: "LiveClaims" });

export const liveDmSchema = z
  .object({
    messageId: z.string(),
    threadId: z.string(),
    from: z.string().describe("The sender's wallet."),
    createdAt: z.number().int(),
  })
  .meta({ id: "LiveDm" });

export const liveDmSeenSchema = z
  .object({
    threadId: z.string(),
    seenUpTo: z.string().describe("The newest message id the account has seen in the conversation."),
  })
  .meta({ id: "LiveDmSeen" });

/** Every event of the stream by its SSE `event:` name, with the schema of its `data:` JSON. */
export const liveEventSchemas = {
  ready: liveReadySchema,
  resync: liveResyncSchema,
  end: liveEndSchema,
  release: liveReleaseSchema,
  head: liveHeadSchema,
  claims: liveClaimsSchema,
  dm: liveDmSchema,
  "dm-seen": liveDmSeenSchema,
  unread: dmUnreadSchema,
  position: z.object({}).meta({ id: "LivePosition" }),
} as const;

export type LiveEventName = keyof typeof liveEventSchemas;
export type LiveEventData = { [K in LiveEventName]: z.output<(typeof liveEventSchemas)[K]> };
/** One parsed event of the stream. */
export type LiveEvent = {
  [K in LiveEventName]: { event: K; id: string | undefined; data: LiveEventData[K] };
}[LiveEventName];

export const LIVE_EVENT_NAMES = Object.keys(liveEventSchemas) as LiveEventName[];

/** Parses one SSE event into a typed live event; undefined for an event name this version does not know. */
export function parseLiveEvent(raw: {
  event?: string | undefined;
  id?: string | undefined;
  data: string;
}): LiveEvent | undefined {
  const name = raw.event ?? "message";
  if (!Object.hasOwn(liveEventSchemas, name)) return undefined;
  const schema: z.ZodType = liveEventSchemas[name as LiveEventName];
  return { event: name, id: raw.id, data: schema.parse(JSON.parse(raw.data)) } as LiveEvent;
}

/**
 * The stream as OpenAPI documents it: each SSE event as `{event, id, data}`,
 * `data` being the JSON of its `data:` line. (On the wire these are SSE
 * fields, not a JSON object.)
 */
export const liveStreamEventSchema = z
  .discriminatedUnion(
    "event",
    LIVE_EVENT_NAMES.map((name) =>
      z.object({
        event: z.literal(name),
        id: z.string().optional().describe("The SSE `id:` line: resume after it with `Last-Event-ID`."),
        data: liveEventSchemas[name],
      }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .meta({ id: "LiveStreamEvent" });

export const liveHeadersSchema = z.object({
  "last-event-id": z
    .string()
    .max(64)
    .optional()
    .describe(
      "The id of the last event received: the stream replays every event after it that is still in the log's window, else starts with `resync`.",
    ),
});

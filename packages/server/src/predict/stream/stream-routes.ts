import { LIVE_STREAM, liveHeadersSchema, predictErrorSchema, predictStreamEventSchema } from "@mkt/protocol";
import { UnavailableError } from "../../errors.ts";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { type LiveHub, serveStream } from "../../live/index.ts";
import type { PredictFeedScope } from "../portfolio/portfolio.ts";

function streamRules(hub: LiveHub) {
  const { limits } = hub;
  return `A server-sent event stream (\`text/event-stream\`) of wakeups: each event says what changed in the finalized projection, and the client re-reads the REST snapshot (\`/markets\`, a market, \`/portfolio\`). Events never replace the snapshot. Send the key in the \`API-KEY\` header (a key in the URL is ignored: the answer is the same 429 as without a key), so open it with \`fetch\` or a library that sends headers (the SDK's \`client.predict.subscribe\`), not the browser's \`EventSource\`.

Events (\`event:\` name, \`data:\` JSON; schemas \`PredictStreamEvent\`):
- \`ready\` first on every stream: the heartbeat interval and the log's window; with an \`id\` on a fresh stream.
- \`market\` {chainId, market, marketId, change, state}: a new market (\`created\`), or one paused or unpaused (\`status\`).
- \`resolution\` {chainId, market, marketId, outcome}: a market resolved (outcome 0 yes, 1 no).
- \`trade\` {chainId, market, kind, block}: a buy, sell or redemption was indexed (once its block is finalized).
- \`head\` {scope, finalizedBlock, revision}: the projection's finalized head moved; reads now reflect \`finalizedBlock\`.
- \`resync\` {reason}: continuity cannot be guaranteed; re-read every snapshot the client shows (\`/markets\` through every page), then carry on. \`expired\`: the events after \`Last-Event-ID\` left the log's window; \`unknown\`: the id is not one this server issued (another database, or a made-up id); \`reorg\`: the finalized projection moved back (a reorganisation below the finalized head, or the projection was rebuilt). After an \`expired\` or \`unknown\` id (or one that is not an id at all), \`ready\` says \`resumed: false\`.
- \`end\` {reason}: the last event before the server closes the stream because the feed no longer serves this key: \`key-revoked\`, \`feed-disabled\` (the operator switched the feed off) or \`feed-not-public\` (the feed was closed to keys that are not first-party). Reconnecting gets the matching refusal (429, or 503 \`FEED_DISABLED\` / \`FEED_NOT_PUBLIC\`); keep the last snapshot, marked stale, and back off.
- \`position\` {}: moves the resume point past events that were not for this stream (sent with a heartbeat when needed).

Reconnect contract: ids are decimal and increase across every replica (one sequence in the database). The last event with an \`id:\` line is the resume point; reconnect with it as \`Last-Event-ID\` (CORS allows the header from any origin) and every later event is replayed in order, none missed, while it is in the log's window (the last ${Math.round(limits.windowMs / 60_000)} minutes and at most ${limits.windowEvents.toLocaleString("en-US")} events); otherwise the stream starts with \`resync\`. After a restart of the server, the log is in the database: a reconnect with \`Last-Event-ID\` resumes the same way. On every reconnect, and on \`resync\`, a client that cannot prove it missed nothing re-reads \`/markets\`. A comment line (\`: heartbeat\`) comes every ${Math.round(limits.heartbeatMs / 1000)} seconds; a client that hears nothing for three intervals reconnects. \`retry: ${LIVE_STREAM.retryMs}\` suggests the reconnection delay; back off with jitter beyond it.

Limits: opening a stream is a request of the feed's budget (100 per minute per key per client IP, times the key's multiplier) and also charges the stream budget (10 per minute per key per client IP, times the multiplier), so a key whose 100 are spent cannot open one (429). At most ${limits.maxStreamsPerKey} streams per key are open at once on a replica, market live streams included, and at most ${limits.maxStreamsPerClient} per client network (an IPv4 address or an IPv6 /64) whichever keys opened them (429 beyond either); each replica holds at most ${limits.maxStreams.toLocaleString("en-US")} streams (503 with Retry-After beyond). A client that leaves more than ${Math.round(limits.maxBufferedBytes / 1024)} KiB unread is disconnected and resumes with \`Last-Event-ID\`. 503 (\`Cache-Control: no-store\`) while realtime is not ready (this replica's event listener is not running, or it is shutting down): retry with backoff and keep the last snapshot, marked stale.

Open streams are checked again: every replica checks each open stream's key and the feed's switches every ${limits.recheckMs / 1000} seconds, so within about a second of the key's revocation, or of the operator setting \`enabled\` or \`publicEnabled\` (for keys that are not first-party) to false, on whichever replica, the stream gets \`end\` and closes. A stale projection does not end a stream: its \`head\` events stop until the indexer catches up.`;
}

/** `GET /predict/v9/stream`: the feed's wakeups, fanned out by the market's live hub. */
export function streamRoutes({
  hub,
  feed,
}: {
  hub: LiveHub;
  feed: PredictFeedScope | undefined;
}): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/stream",
      operationId: "predictStream",
      summary: "Wakeups of the prediction feed (server-sent events)",
      description: streamRules(hub),
      tags: ["Stream"],
      request: { headers: liveHeadersSchema },
      responses: {
        200: {
          description: "The event stream; it stays open until either side closes it.",
          contentType: "text/event-stream",
          schema: predictStreamEventSchema,
        },
        429: {
          description: `API key missing or invalid (a key in the URL counts as missing), the feed's budget (every request) or the stream budget spent, ${hub.limits.maxStreamsPerKey} streams of this key already open on this replica, or ${hub.limits.maxStreamsPerClient} streams of this client network (IPv4 address, IPv6 /64) whatever keys opened them (one identical body).`,
        },
        503: {
          description:
            "Realtime is not ready (the event listener is not running, the replica is shutting down or holds its maximum of streams), or the feed is disabled; `Cache-Control: no-store`, retry after Retry-After.",
          schema: predictErrorSchema,
        },
      },
      handler: (request, reply) => {
        if (!feed || !hub.listening())
          throw new UnavailableError("the prediction feed's realtime events are not ready; retry shortly", {
            retryAfterSeconds: 2,
          });
        serveStream(hub, reply, {
          // The market live streams' cap: per key, whichever stream.
          holder: `key:${request.apiKey?.id ?? ""}`,
          accountId: undefined,
          owner: undefined,
          lastEventId: request.headers["last-event-id"],
          predict: { chainId: feed.chainId, scope: feed.scope },
        });
      },
    }),
  ];
}

import { LIVE_STREAM, liveHeadersSchema, liveQuerySchema, liveStreamEventSchema } from "@mkt/protocol";
import { defineRoute, type RouteSpec } from "../../http/route.ts";
import { type LiveHub, serveStream } from "../../live/index.ts";
import { clientGroup } from "../../quotas/client-group.ts";

function streamRules(hub: LiveHub) {
  const { limits } = hub;
  return `A server-sent event stream (\`text/event-stream\`) of refresh signals: each event names what changed, and the client re-reads that REST resource. Open it with \`fetch\` and the \`API-KEY\` header (the SDK's \`client.market.live\` does), not with a browser \`EventSource\`, which cannot send headers.

Events (\`event:\` name, \`data:\` JSON; schemas \`LiveStreamEvent\`):
- \`ready\` first on every stream: the heartbeat interval and the log's window; with an \`id\` on a fresh stream.
- \`release\` {releaseId, revision, status}: an accepted release action. Every stream gets those of public releases (announced, cancelled, live); \`/market/account/live\` also gets its own account's drafts (and \`deleted\`).
- \`head\` {scope, version, nextBlock, revision}: the indexer committed blocks of a market runtime (or undid them in a reorg: \`nextBlock\` moves back).
- \`claims\` {scope, version, owner, claims, fromBlock, toBlock}: with \`?owner=\`, sent just before the \`head\` event of a commit that recorded claims of that wallet; re-read \`GET /market/runtime/{version}/claims?owner=\`.
- \`dm\` {messageId, threadId, from, createdAt} and \`dm-seen\` {threadId, seenUpTo}, each followed by \`unread\` {messages, threads}: only on \`/market/account/live\`, only the signed-in account's own conversations.
- \`resync\` {reason}: the events after \`Last-Event-ID\` are no longer all in the log (\`expired\`), or the id is not one this server issued (\`unknown\`, or not an id at all): re-read every REST resource the client shows, then carry on. Such a stream's \`ready\` says \`resumed: false\`.
- \`end\` {reason}: the last event before the server closes the stream because what opened it no longer stands (below); do not reconnect with the same credentials.
- \`position\` {}: moves the resume point past events that were not for this stream (sent with a heartbeat when needed).

Ids are decimal, increasing across every replica, one sequence in the database. The event a client may resume after carries \`id:\`; send it back as \`Last-Event-ID\` on reconnect (CORS allows the header from any origin) and every later event is replayed, in order, none missed, while it is in the log's window: the last ${Math.round(limits.windowMs / 60_000)} minutes and at most ${limits.windowEvents.toLocaleString("en-US")} events. Older than that, the stream starts with \`resync\`. A comment line (\`: heartbeat\`) comes every ${Math.round(limits.heartbeatMs / 1000)} seconds; a client that hears nothing for three intervals should reconnect. \`retry: ${LIVE_STREAM.retryMs}\` suggests the reconnection delay; back off with jitter beyond it.

Budget: opening a stream charges the stream bucket (10 per minute per key per replica, times the multiplier). At most ${limits.maxStreamsPerKey} streams per key are open at once on a replica, and at most ${limits.maxStreamsPerClient} per client network (an IPv4 address or an IPv6 /64) whichever keys or accounts opened them (429 beyond either, Retry-After 5).

Revocation: every replica checks each open stream's key and session again every ${limits.recheckMs / 1000} seconds. Within about a second of the key being revoked (\`DELETE /keys/current\` or the operator), or of the session being signed out, revoked or expired, or of its account being deleted, on whichever replica that happened, the stream gets \`end\` {reason: \`key-revoked\` | \`session-ended\`} and closes. A reconnect with the same credentials is refused (401).

The first-party website proxy serves both streams (\`/app/api/live\`, \`/app/api/account/live\` with the session cookie): there a same-origin \`EventSource\` works, since the proxy needs no header. Without a session a proxied stream spends the proxy's anonymous stream budget and the cap of open streams counts per client network; with the session cookie, the account's. An open stream does not hold one of the replica's in-flight request slots; each replica holds at most ${limits.maxStreams.toLocaleString("en-US")} streams (503 with Retry-After beyond). A client that leaves more than ${Math.round(limits.maxBufferedBytes / 1024)} KiB unread is disconnected; it resumes with \`Last-Event-ID\`. On shutdown the server ends every stream; clients reconnect to another replica.`;
}

/** `GET /market/live` and `GET /market/account/live`: the live-update streams. */
export function liveRoutes({ hub }: { hub: LiveHub }): RouteSpec[] {
  const rules = streamRules(hub);
  const responses = {
    200: {
      description: "The event stream; it stays open until either side closes it.",
      contentType: "text/event-stream",
      schema: liveStreamEventSchema,
    },
    400: { description: "`owner` is not a 0x address." },
    401: { description: "API key missing, malformed or invalid." },
    429: {
      description: `Stream budget spent, ${hub.limits.maxStreamsPerKey} streams of this key (through the proxy: this account, or this client network without a session) already open on this replica, or ${hub.limits.maxStreamsPerClient} streams of this client network (IPv4 address, IPv6 /64), whatever keys or accounts opened them.`,
    },
    503: {
      description: "The replica holds its maximum of streams, or is shutting down; retry after Retry-After.",
    },
  };
  const stream = (account: boolean) =>
    defineRoute({
      method: "GET",
      path: account ? "/account/live" : "/live",
      operationId: account ? "streamAccountLiveUpdates" : "streamLiveUpdates",
      summary: account
        ? "Live updates with the signed-in account's private events"
        : "Live updates (server-sent events)",
      description: account
        ? `Everything \`GET /market/live\` sends, plus the signed-in account's direct messages, read marks, unread count and its own release drafts. Needs the account session (\`Authorization: Bearer\`, \`Origin\`, \`X-MKT-Wallet\`) besides the key.\n\n${rules}`
        : rules,
      tags: ["Live updates"],
      request: { query: liveQuerySchema, headers: liveHeadersSchema },
      responses: account
        ? {
            ...responses,
            401: { description: "API key or account session missing, invalid or expired." },
            403: { description: "A chat or access session: this stream needs the account session." },
          }
        : responses,
      handler: (request, reply) => {
        // The cap of open streams counts per key; through the proxy, per account or client network.
        const sessionAccount = account ? request.session?.accountId : undefined;
        const holder = request.apiKey
          ? `key:${request.apiKey.id}`
          : sessionAccount
            ? `account:${sessionAccount}`
            : `client:${clientGroup(request.ip)}`;
        serveStream(hub, reply, {
          holder,
          accountId: sessionAccount ?? undefined,
          owner: request.query.owner,
          lastEventId: request.headers["last-event-id"],
        });
      },
    });
  return [stream(false), stream(true)];
}

import type { ServerResponse } from "node:http";
import { type ClassicChatEventData, type DmUnread, LIVE_STREAM, type LiveEventData } from "@mkt/protocol";
import type { Logger } from "pino";
import type { Database } from "../../db/index.ts";
import { RateLimitedError, UnavailableError } from "../../errors.ts";
import { LIVE_CHANNEL, type LiveRow, type LiveStore } from "./store.ts";

/** The hub's limits; the defaults are the documented policy (`LIVE_STREAM`). */
export interface LiveLimits {
  heartbeatMs: number;
  /** Open streams on this replica; one more is 503. */
  maxStreams: number;
  maxStreamsPerKey: number;
  maxBufferedBytes: number;
  windowMs: number;
  windowEvents: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  heartbeatMs: LIVE_STREAM.heartbeatSeconds * 1000,
  maxStreams: 10_000,
  maxStreamsPerKey: LIVE_STREAM.maxStreamsPerKey,
  maxBufferedBytes: LIVE_STREAM.maxBufferedBytes,
  windowMs: LIVE_STREAM.windowSeconds * 1000,
  windowEvents: LIVE_STREAM.windowEvents,
};

export interface LiveHubDeps {
  db: Database;
  store: LiveStore;
  logger: Logger;
  /** The indexer scope of the market's runtime registry (all market runtimes); other scopes are not streamed. */
  marketScope: string | undefined;
  /** An account's unread direct messages (sent after each of its DM events). */
  unread: (accountId: string) => Promise<DmUnread>;
  limits?: Partial<LiveLimits>;
}

/** What a stream was opened with (plain values; the route reads them from the request). */
export interface StreamRequest {
  /**
   * Who the per-holder cap of open streams counts against: `key:<id>` for an
   * API key; through the first-party proxy, `account:<id>` with a session or
   * `client:<group>` (the client's network) without one.
   */
  holder: string;
  /** The signed-in account (`/market/account/live`): its private events too. */
  accountId: string | undefined;
  /** `?owner=`: claims events of this wallet. */
  owner: string | undefined;
  /** The `Last-Event-ID` header as sent. */
  lastEventId: string | undefined;
  /**
   * A classic game chat stream (`/classic/chat/{game}/stream`): only that
   * game's chat events; market streams never get chat events and chat
   * streams nothing else. Same log, ids, window and resume rules.
   */
  chat?: { chainId: number; contractAddress: string } | undefined;
  /**
   * A prediction-feed stream (`/predict/v9/stream`): only the `predict`
   * events of its chain and the `head` events of its scope (a `resync` when
   * the head moved back); market streams never get them and these streams
   * nothing else. Same log, ids, window and resume rules.
   */
  predict?: { chainId: number; scope: string } | undefined;
}

interface Stream extends StreamRequest {
  res: ServerResponse;
  /** The newest event id this stream has been given (written, or skipped as not its own). */
  through: number;
  /** The newest id the client has been told (an `id:` line); behind `through` until a `position` event. */
  told: number;
  /** Events that arrived while the stream was catching up from the log; undefined once live. */
  pending: LiveRow[] | undefined;
  closed: boolean;
}

const READ_BATCH = 500;
const RESUME_BATCH = 1_000;
const HEARTBEAT = Buffer.from(": heartbeat\n\n");
const LAST_EVENT_ID = /^(0|[1-9][0-9]{0,14})$/;

/** Every event the hub writes: the market streams' and the classic chat streams'. */
type FrameData = LiveEventData & Pick<ClassicChatEventData, "message" | "deleted">;

/** One SSE event: `id:` only on the event a client may resume after. */
function frame<K extends keyof FrameData>(event: K, data: FrameData[K], id?: number): Buffer {
  return anyFrame(event, data, id);
}

/** One SSE event of any stream's vocabulary (the predict streams' own events). */
function anyFrame(event: string, data: unknown, id?: number): Buffer {
  return Buffer.from(
    `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
  );
}

/**
 * The live-update fan-out of one replica. One LISTEN on `mkt_live` (never
 * one per client): a notification only says "the log has new rows"; the hub
 * reads the rows after the last id it read, once, and writes each to its own
 * streams, each event serialised once. Events reach a stream in id order;
 * a stream opened with `Last-Event-ID` first replays the log from there
 * (events arriving meanwhile wait in its queue), then goes live.
 *
 * Enrichment happens here, once per event: `claims` events are counted from
 * `market_claims` for the owners this replica's streams watch, and a DM
 * event is followed by the account's unread count. On a resume, the same
 * enrichment runs against the current data: events are refresh signals.
 */
export function createLiveHub(deps: LiveHubDeps) {
  const { store, logger, marketScope } = deps;
  const limits: LiveLimits = { ...DEFAULT_LIVE_LIMITS, ...deps.limits };
  const streams = new Set<Stream>();
  const perKey = new Map<string, number>();
  let cursor = 0;
  let closing = false;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let listening = false;

  const drop = (stream: Stream) => {
    if (stream.closed) return;
    stream.closed = true;
    stream.res.destroy();
  };

  const write = (stream: Stream, chunk: Buffer, id?: number) => {
    if (stream.closed) return;
    stream.res.write(chunk);
    if (id !== undefined) stream.told = id;
    // A client that does not read: its events pile up in this process. Drop it; it resumes later.
    if (stream.res.writableLength > limits.maxBufferedBytes) {
      logger.info({ msg: "live stream dropped: client too slow", buffered: stream.res.writableLength });
      drop(stream);
    }
  };

  /** Per watched owner, one `claims` frame per runtime the commit recorded claims of. */
  const claimsFor = async (row: Extract<LiveRow, { kind: "head" }>, watchers: Stream[]) => {
    const { scope, fromBlock, nextBlock } = row.payload;
    const frames = new Map<string, Buffer[]>();
    if (watchers.length === 0 || fromBlock >= nextBlock) return frames;
    const owners = [...new Set(watchers.map((stream) => stream.owner!))];
    try {
      const counts = await store.claimsIn(scope, fromBlock, nextBlock, owners);
      for (const [owner, runtimes] of counts) {
        frames.set(
          owner,
          runtimes
            .filter(({ claims }) => claims > 0)
            .map(({ version, claims }) =>
              frame("claims", { scope, version, owner, claims, fromBlock, toBlock: nextBlock - 1 }),
            ),
        );
      }
    } catch (error) {
      logger.warn({ msg: "live claims lookup failed", scope, err: error });
    }
    return frames;
  };

  /** Writes one event to the streams it is for (all of them are live or replaying, in id order). */
  const deliver = async (row: LiveRow, all: readonly Stream[]): Promise<void> => {
    // Chat streams get chat events only, predict streams predict events and their scope's heads; the market's streams neither.
    const targets =
      row.kind === "chat" || row.kind === "predict"
        ? all
        : all.filter((stream) => stream.chat === undefined && stream.predict === undefined);
    if (row.kind === "head") {
      const { scope, nextBlock, fromBlock, revision } = row.payload;
      // The finalized projection moved back (a reorg below the head, or a rebuild): continuity is gone.
      const event =
        nextBlock < fromBlock
          ? anyFrame("resync", { reason: "reorg" }, row.id)
          : anyFrame("head", { scope, finalizedBlock: nextBlock - 1, revision }, row.id);
      for (const stream of all) if (stream.predict?.scope === scope) write(stream, event, row.id);
    }
    switch (row.kind) {
      case "predict": {
        const { event, ...data } = row.payload;
        const chunk = anyFrame(event, data, row.id);
        for (const stream of targets)
          if (stream.predict?.chainId === data.chainId) write(stream, chunk, row.id);
        break;
      }
      case "chat": {
        const { chainId, contractAddress, messageId, action } = row.payload;
        const event = frame(action, { id: messageId, chainId, contractAddress }, row.id);
        for (const stream of targets) {
          if (stream.chat?.chainId === chainId && stream.chat.contractAddress === contractAddress)
            write(stream, event, row.id);
        }
        break;
      }
      case "head": {
        if (row.payload.scope !== marketScope) break;
        const { scope, nextBlock, revision } = row.payload;
        const claims = await claimsFor(
          row,
          targets.filter((stream) => stream.owner !== undefined),
        );
        const head = frame("head", { scope, nextBlock, revision }, row.id);
        for (const stream of targets) {
          const own = stream.owner === undefined ? undefined : claims.get(stream.owner);
          for (const chunk of own ?? []) write(stream, chunk);
          write(stream, head, row.id);
        }
        break;
      }
      case "release": {
        const { releaseId, revision, status } = row.payload;
        const event = frame("release", { releaseId, revision, status } as LiveEventData["release"], row.id);
        for (const stream of targets) {
          if (row.public || stream.accountId === row.accountId) write(stream, event, row.id);
        }
        break;
      }
      case "dm":
      case "dm-seen": {
        const mine = targets.filter((stream) => stream.accountId === row.accountId);
        if (mine.length === 0) break;
        const unread = await deps.unread(row.accountId).catch((error: unknown) => {
          logger.warn({ msg: "live unread count failed", err: error });
          return undefined;
        });
        const event =
          row.kind === "dm"
            ? frame("dm", row.payload, unread ? undefined : row.id)
            : frame("dm-seen", row.payload, unread ? undefined : row.id);
        const count = unread && frame("unread", unread, row.id);
        for (const stream of mine) {
          write(stream, event, unread ? undefined : row.id);
          if (count) write(stream, count, row.id);
        }
        break;
      }
    }
    for (const stream of all) if (stream.through < row.id) stream.through = row.id;
  };

  /** Reads the log after `cursor` and fans each new row out; one read at a time, repeated while asked. */
  const pull = (): Promise<void> => {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        for (;;) {
          const rows = await store.after(cursor, READ_BATCH);
          for (const row of rows) {
            // A stream opened from here on starts after this row (or replays it from the log).
            cursor = row.id;
            const targets: Stream[] = [];
            for (const stream of streams) {
              if (stream.closed) continue;
              if (stream.pending) {
                stream.pending.push(row);
                if (stream.pending.length > limits.windowEvents) drop(stream);
              } else if (stream.through < row.id) targets.push(stream);
            }
            await deliver(row, targets);
          }
          if (rows.length < READ_BATCH) break;
        }
      } while (readAgain && !closing);
    })()
      .catch((error: unknown) => logger.warn({ msg: "live event log read failed", err: error }))
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };

  const beat = () => {
    for (const stream of streams) {
      if (stream.closed || stream.pending) continue;
      // Events this stream skipped (not its own) still move its resume point.
      if (stream.told < stream.through) write(stream, frame("position", {}, stream.through), stream.through);
      write(stream, HEARTBEAT);
    }
    // A lost notification costs at most one heartbeat of latency.
    void pull();
  };

  const ready = (stream: Stream, resumed: boolean, id?: number) =>
    write(
      stream,
      Buffer.from(
        `retry: ${LIVE_STREAM.retryMs}\n${frame(
          "ready",
          {
            resumed,
            heartbeatSeconds: Math.round(limits.heartbeatMs / 1000),
            windowSeconds: Math.round(limits.windowMs / 1000),
            windowEvents: limits.windowEvents,
          },
          id,
        ).toString()}`,
      ),
      id,
    );

  /** Replays the log after the client's id, then the queue, then hands the stream to the fan-out. */
  const catchUp = async (stream: Stream) => {
    const from = cursor;
    const presented = stream.lastEventId?.trim();
    if (presented === undefined || presented === "") {
      stream.through = from;
      ready(stream, false, from);
    } else {
      const last = LAST_EVENT_ID.test(presented) ? Number(presented) : Number.NaN;
      ready(stream, true);
      let after = Number.isNaN(last) ? -1 : last;
      let resync: "expired" | "unknown" | undefined = Number.isNaN(last) ? "unknown" : undefined;
      // At least one read: it also checks an id ahead of this replica against the log.
      for (
        let first = true;
        resync === undefined && (first || after < from) && !stream.closed;
        first = false
      ) {
        const page = await store.resume(after, from, RESUME_BATCH);
        if (page.kind === "resync") {
          resync = page.reason;
          break;
        }
        for (const row of page.rows) {
          await deliver(row, [stream]);
          after = row.id;
        }
        if (page.complete) break;
      }
      if (resync !== undefined) {
        stream.through = from;
        write(stream, frame("resync", { reason: resync }, from), from);
      } else {
        stream.through = Math.max(last, from);
        stream.told = Math.max(stream.told, last);
      }
    }
    while (stream.pending && stream.pending.length > 0 && !stream.closed) {
      const queued = stream.pending;
      stream.pending = [];
      for (const row of queued) if (row.id > stream.through) await deliver(row, [stream]);
    }
    stream.pending = undefined;
  };

  return {
    limits,

    /** Reads where the log ends and starts listening; before the first stream opens. */
    async start() {
      cursor = await store.newest();
      unlisten = await deps.db.listen(LIVE_CHANNEL, {
        onNotify: (payload) => {
          if (Number(payload) > cursor) void pull();
        },
        // Notifications may have been missed: the log has them all.
        onReconnect: () => void pull(),
      });
      heartbeat = setInterval(beat, limits.heartbeatMs);
      heartbeat.unref();
      listening = true;
    },

    /** Whether the hub listens and takes streams: started and not closing (`/predict/v9/stream` answers 503 otherwise). */
    listening: () => listening && !closing,

    /**
     * Refuses a stream before its response starts: while shutting down or at
     * the replica's stream cap (503), or at the key's cap of open streams (429).
     */
    admit(holder: string) {
      if (closing) throw new UnavailableError("the server is shutting down; reconnect");
      if (streams.size >= limits.maxStreams)
        throw new UnavailableError("this replica holds as many streams as it can; retry shortly", {
          retryAfterSeconds: 5,
        });
      if ((perKey.get(holder) ?? 0) >= limits.maxStreamsPerKey)
        throw new RateLimitedError(
          "streams",
          `at most ${limits.maxStreamsPerKey} open streams per API key (through the website proxy: per account, or per client network); close one first`,
          { retryAfterSeconds: 5 },
        );
    },

    /** Takes over an admitted stream whose response head is written. */
    attach(request: StreamRequest, res: ServerResponse): void {
      const stream: Stream = { ...request, res, through: 0, told: 0, pending: [], closed: false };
      streams.add(stream);
      perKey.set(request.holder, (perKey.get(request.holder) ?? 0) + 1);
      res.on("close", () => {
        stream.closed = true;
        if (streams.delete(stream)) {
          const left = (perKey.get(request.holder) ?? 1) - 1;
          if (left === 0) perKey.delete(request.holder);
          else perKey.set(request.holder, left);
        }
      });
      catchUp(stream).catch((error: unknown) => {
        logger.warn({ msg: "live stream resume failed", err: error });
        drop(stream);
      });
    },

    /** Reads new rows now (tests; the listener does it on every notification). */
    pull,

    /** Prunes the log to its window; a periodic job on every replica. */
    prune: () => store.prune({ maxAgeMs: limits.windowMs, maxEvents: limits.windowEvents }),

    /** Open streams on this replica. */
    size: () => streams.size,

    /** Ends every stream (their clients reconnect elsewhere) and stops listening. */
    async close() {
      closing = true;
      if (heartbeat) clearInterval(heartbeat);
      for (const stream of streams) {
        stream.closed = true;
        stream.res.end();
      }
      await reading;
      const stop = unlisten;
      unlisten = undefined;
      await stop?.();
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;

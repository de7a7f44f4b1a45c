import type { ServerResponse } from "node:http";
import { type ClassicChatEventData, type DmUnread, LIVE_STREAM, type LiveEventData } from "@mkt/protocol";
import type { Logger } from "pino";
import type { Database } from "../db/index.ts";
import { RateLimitedError, UnavailableError } from "../errors.ts";
import type { RouteGate } from "../http/route.ts";
import { LIVE_CHANNEL, type LiveRow, type LiveStore } from "./store.ts";

/** The hub's limits; the defaults are the documented policy (`LIVE_STREAM`). */
export interface LiveLimits {
  heartbeatMs: number;
  /** Open streams on this replica; one more is 503. */
  maxStreams: number;
  maxStreamsPerKey: number;
  /** Open streams of one client network (`clientGroup`) on this replica, whatever key or account; one more is 429. */
  maxStreamsPerClient: number;
  maxBufferedBytes: number;
  windowMs: number;
  windowEvents: number;
  /** How often every open stream's admission is checked again (half the documented bound, so it holds). */
  recheckMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  heartbeatMs: LIVE_STREAM.heartbeatSeconds * 1000,
  maxStreams: 10_000,
  maxStreamsPerKey: LIVE_STREAM.maxStreamsPerKey,
  maxStreamsPerClient: LIVE_STREAM.maxStreamsPerClient,
  maxBufferedBytes: LIVE_STREAM.maxBufferedBytes,
  windowMs: LIVE_STREAM.windowSeconds * 1000,
  windowEvents: LIVE_STREAM.windowEvents,
  recheckMs: (LIVE_STREAM.recheckSeconds * 1000) / 2,
};

/** Why the hub ended a stream: the `end` event's reason. */
export type StreamEndReason = LiveEventData["end"]["reason"];

/**
 * What admitted a stream, as plain values: the route read them from the
 * request once its checks had passed. The hub checks them again while the
 * stream is open.
 */
export interface StreamAdmission {
  /** The API key it was opened with: the hash the key cache knows it by. */
  keyHash: string | undefined;
  /** The session it was opened with (an account stream; a proxied stream with the session cookie). */
  sessionId: string | undefined;
  /** The product gate its route declares (`gate` in the route table). */
  gate: RouteGate | undefined;
}

/**
 * How the hub checks an admission again, each answered from the replica's
 * caches while they hold the answer (the caches drop an entry at once when
 * any replica announces a change, so a check after it asks the database).
 * A check that throws cannot tell now: the stream stays, and is checked at
 * the next round.
 */
export interface StreamChecks {
  /** The key with this hash, while it is valid: its first-party flag (a gate may need it); null once revoked. */
  key(hash: string): { firstParty: boolean } | null | Promise<{ firstParty: boolean } | null>;
  /** Whether the session is still live. */
  session(id: string): boolean | Promise<boolean>;
  /** Each gate's decision for the key's current first-party flag: undefined while it lets the stream through. */
  gates: Partial<
    Record<
      RouteGate,
      (firstParty: boolean) => StreamEndReason | undefined | Promise<StreamEndReason | undefined>
    >
  >;
}

export interface LiveHubDeps {
  db: Database;
  store: LiveStore;
  logger: Logger;
  /** The indexer scope of the market's runtime registry (all market runtimes); other scopes are not streamed. */
  marketScope: string | undefined;
  /** An account's unread direct messages (sent after each of its DM events). */
  unread: (accountId: string) => Promise<DmUnread>;
  /** Checks the admissions of open streams again; without it, a stream stays until either side closes it. */
  checks?: StreamChecks;
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
  /** The client's network (`clientGroup` of its address): its open streams are capped whatever opened them. */
  client: string;
  /** What admitted the stream: checked again while it is open (`StreamChecks`). */
  admission: StreamAdmission;
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
  const perClient = new Map<string, number>();
  let cursor = 0;
  let closing = false;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let recheckTimer: NodeJS.Timeout | undefined;
  let round: Promise<number> | undefined;
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

  /**
   * Ends a stream whose admission no longer stands: the `end` event says why,
   * then the response ends (the client sees the event before the close).
   */
  const end = (stream: Stream, reason: StreamEndReason) => {
    if (stream.closed) return;
    logger.info({ msg: "live stream ended: its admission no longer stands", reason });
    write(stream, frame("end", { reason }));
    if (stream.closed) return;
    stream.closed = true;
    stream.res.end();
  };

  /**
   * One stream's admission checked again: its key, then its session, then its
   * route's gate (with the key's current first-party flag). Each distinct
   * credential is checked once per round (`memo`), synchronously while the
   * caches answer.
   */
  const judge = (
    checks: StreamChecks,
    stream: Stream,
    memo: Map<string, unknown>,
  ): StreamEndReason | undefined | Promise<StreamEndReason | undefined> => {
    const once = <T>(id: string, run: () => T): T => {
      if (!memo.has(id)) memo.set(id, run());
      return memo.get(id) as T;
    };
    const { keyHash, sessionId, gate } = stream.admission;
    const key = keyHash === undefined ? undefined : once(`key:${keyHash}`, () => checks.key(keyHash));
    return then(key, (current) => {
      if (current === null) return "key-revoked";
      const live =
        sessionId === undefined ? true : once(`session:${sessionId}`, () => checks.session(sessionId));
      return then(live, (sessionLive): StreamEndReason | undefined | Promise<StreamEndReason | undefined> => {
        if (!sessionLive) return "session-ended";
        const decide = gate === undefined ? undefined : checks.gates[gate];
        if (decide === undefined) return undefined;
        const firstParty = current?.firstParty === true;
        return once(`gate:${gate}:${firstParty}`, () => decide(firstParty));
      });
    });
  };

  /**
   * One round: checks every open stream's admission again and ends those it
   * no longer admits: a revoked key, an ended session (signed out, revoked,
   * expired, its account deleted), a gate that refuses (the prediction feed
   * switched off). Answers how many it ended. A check that fails (the
   * database is down) ends nothing: the stream is checked again next round.
   */
  const recheckRound = async (checks: StreamChecks): Promise<number> => {
    const memo = new Map<string, unknown>();
    const waiting: Promise<void>[] = [];
    let ended = 0;
    let failure: unknown;
    const settle = (stream: Stream, reason: StreamEndReason | undefined) => {
      if (reason === undefined || stream.closed) return;
      end(stream, reason);
      ended += 1;
    };
    const failed = (error: unknown) => {
      failure = error;
    };
    for (const stream of streams) {
      if (stream.closed) continue;
      try {
        const verdict = judge(checks, stream, memo);
        if (verdict instanceof Promise)
          waiting.push(verdict.then((reason) => settle(stream, reason), failed));
        else settle(stream, verdict);
      } catch (error) {
        failed(error);
      }
    }
    await Promise.all(waiting);
    if (failure !== undefined)
      logger.warn({ msg: "live stream admission check failed; checked again next round", err: failure });
    return ended;
  };

  /**
   * Runs a round once the one under way (if any) is over, so a change made
   * before the call is seen. Every replica runs one every `recheckMs`; a
   * change made on another replica reaches this one's caches first, through
   * the database's notifications.
   */
  const recheck = async (): Promise<number> => {
    const checks = deps.checks;
    if (checks === undefined) return 0;
    while (round) await round;
    const current = recheckRound(checks).finally(() => {
      round = undefined;
    });
    round = current;
    return current;
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
      let after = Number.isNaN(last) ? -1 : last;
      let resync: "expired" | "unknown" | undefined = Number.isNaN(last) ? "unknown" : undefined;
      // `ready` says whether the stream resumes, so it waits for the first read of the log.
      let told = false;
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
        if (!told) {
          ready(stream, true);
          told = true;
        }
        for (const row of page.rows) {
          await deliver(row, [stream]);
          after = row.id;
        }
        if (page.complete) break;
      }
      if (!told) ready(stream, resync === undefined);
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
      recheckTimer = setInterval(() => {
        if (round === undefined && streams.size > 0) void recheck();
      }, limits.recheckMs);
      recheckTimer.unref();
      listening = true;
    },

    /** Whether the hub listens and takes streams: started and not closing (`/predict/v9/stream` answers 503 otherwise). */
    listening: () => listening && !closing,

    /**
     * Refuses a stream before its response starts: while shutting down or at
     * the replica's stream cap (503), at the holder's cap of open streams
     * (429), or at the client network's cap, whichever keys or accounts opened
     * its streams (429).
     */
    admit({ holder, client }: Pick<StreamRequest, "holder" | "client">) {
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
      if ((perClient.get(client) ?? 0) >= limits.maxStreamsPerClient)
        throw new RateLimitedError(
          "streams",
          `at most ${limits.maxStreamsPerClient} open streams per client network (an IPv4 address or an IPv6 /64), whichever keys or accounts opened them; close one first`,
          { retryAfterSeconds: 5 },
        );
    },

    /** Takes over an admitted stream whose response head is written. */
    attach(request: StreamRequest, res: ServerResponse): void {
      const stream: Stream = { ...request, res, through: 0, told: 0, pending: [], closed: false };
      streams.add(stream);
      count(perKey, request.holder, 1);
      count(perClient, request.client, 1);
      res.on("close", () => {
        stream.closed = true;
        if (streams.delete(stream)) {
          count(perKey, request.holder, -1);
          count(perClient, request.client, -1);
        }
      });
      catchUp(stream).catch((error: unknown) => {
        logger.warn({ msg: "live stream resume failed", err: error });
        drop(stream);
      });
    },

    /** Reads new rows now (tests; the listener does it on every notification). */
    pull,

    /** Checks every open stream's admission now (the timer does it every `recheckMs`). */
    recheck,

    /** Prunes the log to its window; a periodic job on every replica. */
    prune: () => store.prune({ maxAgeMs: limits.windowMs, maxEvents: limits.windowEvents }),

    /** Open streams on this replica. */
    size: () => streams.size,

    /** Ends every stream (their clients reconnect elsewhere) and stops listening. */
    async close() {
      closing = true;
      if (heartbeat) clearInterval(heartbeat);
      if (recheckTimer) clearInterval(recheckTimer);
      for (const stream of streams) {
        stream.closed = true;
        stream.res.end();
      }
      await round;
      await reading;
      const stop = unlisten;
      unlisten = undefined;
      await stop?.();
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;

/** Moves a per-holder count of open streams; a count that reaches 0 leaves the map. */
function count(counts: Map<string, number>, holder: string, by: 1 | -1) {
  const next = (counts.get(holder) ?? 0) + by;
  if (next <= 0) counts.delete(holder);
  else counts.set(holder, next);
}

/** Continues with a value now, or once it arrives: synchronous while the value is. */
function then<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

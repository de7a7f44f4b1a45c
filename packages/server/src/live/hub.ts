import type { ServerResponse } from "node:http";
import type { DmUnread } from "@mkt/protocol";
import type { Logger } from "pino";
import type { Database } from "../db/index.ts";
import { UnavailableError } from "../errors.ts";
import type { RouteGate } from "../http/route.ts";
import { createOpenStreams } from "./admission.ts";
import { createFanOut } from "./fan-out.ts";
import { createRecheck, type StreamChecks, type StreamGateCheck } from "./recheck.ts";
import { createResume } from "./resume.ts";
import { LIVE_CHANNEL, type LiveStore } from "./store.ts";
import { DEFAULT_LIVE_LIMITS, type LiveLimits, type Stream, type StreamRequest } from "./streams.ts";
import { createStreamWriter, frame, HEARTBEAT } from "./writer.ts";

export interface LiveHubDeps {
  db: Database;
  store: LiveStore;
  logger: Logger;
  /** The indexer scope of the market's runtime registry (all market runtimes); other scopes are not streamed. */
  marketScope: string | undefined;
  /** Checks the admissions of open streams again; without it, a stream stays until either side closes it. */
  checks?: StreamChecks;
  limits?: Partial<LiveLimits>;
}

/**
 * What a surface adds to the hub, registered before it starts: the parts of
 * its streams only that surface knows how to answer.
 */
export interface LiveHooks {
  /** An account's unread direct messages (sent after each of its DM events). */
  unread?: (accountId: string) => Promise<DmUnread>;
  /** Each gate's decision for an open stream with the key's current first-party flag (`StreamChecks`). */
  gates?: Partial<Record<RouteGate, StreamGateCheck>>;
}

const READ_BATCH = 500;

export interface LiveHub {
  /** The limits in force: the documented defaults with the deployment's overrides. */
  limits: LiveLimits;
  /**
   * Takes what a surface adds to its streams (the unread count after a DM
   * event, its gates' checks); before `start`. One surface answers each part.
   */
  register(hooks: LiveHooks): void;
  /** Reads where the log ends and starts listening; before the first stream opens. */
  start(): Promise<void>;
  /** Whether the hub listens and takes streams: started and not closing (`/predict/v9/stream` answers 503 otherwise). */
  listening(): boolean;
  /**
   * Refuses a stream before its response starts: while shutting down or at
   * the replica's stream cap (503), at the holder's cap of open streams
   * (429), or at the client network's cap, whichever keys or accounts opened
   * its streams (429).
   */
  admit(request: Pick<StreamRequest, "holder" | "client">): void;
  /** Takes over an admitted stream whose response head is written. */
  attach(request: StreamRequest, res: ServerResponse): void;
  /** Reads new rows now (tests; the listener does it on every notification). */
  pull(): Promise<void>;
  /**
   * Checks every open stream's admission now (the timer does it every
   * `recheckMs`), once the round under way is over; answers how many it ended.
   */
  recheck(): Promise<number>;
  /** Prunes the log to its window; a periodic job on every replica. */
  prune(): Promise<number>;
  /** Open streams on this replica. */
  size(): number;
  /** Ends every stream (their clients reconnect elsewhere) and stops listening. */
  close(): Promise<void>;
}

/**
 * The live-update fan-out of one replica. One LISTEN on `mkt_live` (never
 * one per client): a notification only says "the log has new rows"; the hub
 * reads the rows after the last id it read, once, and writes each to its own
 * streams, each event serialised once (`fan-out.ts`). Events reach a stream
 * in id order; a stream opened with `Last-Event-ID` first replays the log
 * from there (events arriving meanwhile wait in its queue), then goes live
 * (`resume.ts`).
 */
export function createLiveHub(deps: LiveHubDeps): LiveHub {
  const { store, logger, marketScope } = deps;
  const limits: LiveLimits = { ...DEFAULT_LIVE_LIMITS, ...deps.limits };
  const openStreams = createOpenStreams(limits);
  const streams = openStreams.all;
  const writer = createStreamWriter({ logger, limits });
  const { write, drop } = writer;
  let unread: LiveHooks["unread"];
  const gates: Partial<Record<RouteGate, StreamGateCheck>> = {};
  const recheck = createRecheck({ streams, checks: deps.checks, gates, writer, logger });
  const deliver = createFanOut({ store, logger, marketScope, unread: () => unread, writer });
  const catchUp = createResume({ store, limits, writer, deliver });
  let cursor = 0;
  let closing = false;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let recheckTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let listening = false;

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

  return {
    limits,

    register(hooks: LiveHooks): void {
      if (hooks.unread) {
        if (unread) throw new Error("live hub: the unread count is registered twice");
        unread = hooks.unread;
      }
      for (const [gate, check] of Object.entries(hooks.gates ?? {}) as [RouteGate, StreamGateCheck][]) {
        if (gates[gate]) throw new Error(`live hub: the ${gate} gate's check is registered twice`);
        gates[gate] = check;
      }
    },

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
        if (recheck.running() === undefined && streams.size > 0) void recheck.run();
      }, limits.recheckMs);
      recheckTimer.unref();
      listening = true;
    },

    listening: () => listening && !closing,

    admit(request: Pick<StreamRequest, "holder" | "client">) {
      if (closing) throw new UnavailableError("the server is shutting down; reconnect");
      openStreams.admit(request);
    },

    attach(request: StreamRequest, res: ServerResponse): void {
      const stream = openStreams.open(request, res);
      catchUp(stream, cursor).catch((error: unknown) => {
        logger.warn({ msg: "live stream resume failed", err: error });
        drop(stream);
      });
    },

    pull,

    recheck: (): Promise<number> => recheck.run(),

    prune: () => store.prune({ maxAgeMs: limits.windowMs, maxEvents: limits.windowEvents }),

    size: () => streams.size,

    async close() {
      closing = true;
      if (heartbeat) clearInterval(heartbeat);
      if (recheckTimer) clearInterval(recheckTimer);
      for (const stream of streams) {
        stream.closed = true;
        stream.res.end();
      }
      await recheck.running();
      await reading;
      const stop = unlisten;
      unlisten = undefined;
      await stop?.();
    },
  };
}

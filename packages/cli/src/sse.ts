import { LIVE_STREAM } from "@mkt/protocol";
import { createParser } from "eventsource-parser";
import type { Context } from "./context.ts";
import { ApiError, CommandError } from "./errors.ts";
import { type Endpoint, refusal, unreachable } from "./http.ts";
import { sleep } from "./io.ts";
import { duration } from "./render.ts";

/** One server-sent event: its name, its `id:` line and its `data:` parsed as JSON (the raw text if it is not). */
export interface StreamEvent {
  event: string;
  id: string | undefined;
  data: unknown;
}

export interface FollowOptions {
  path: string;
  query?: Record<string, string | undefined>;
  /** Headers besides the endpoint's (session credentials). */
  headers?: Record<string, string>;
  /** Resume after this id on the first connection too. */
  lastEventId?: string | undefined;
  /** Every event in order; answer `"stop"` to end the stream (the command is done). */
  onEvent(event: StreamEvent): "stop" | undefined;
  /** Reconnection backoff: full jitter, doubling from `baseDelayMs` to `maxDelayMs`, never below the server's `retry:`. */
  backoff?: { baseDelayMs: number; maxDelayMs: number };
  random?: () => number;
}

/** Refusals reconnecting cannot help: the request itself is wrong, or its credentials are. */
const FINAL = new Set([400, 401, 403, 404, 405, 409, 410, 422]);

/** The abort reason of a connection that stayed silent too long. */
const SILENT = new Error("silent");

/** How many silent heartbeat intervals make a connection count as dead (the streams' own rule). */
const SILENT_INTERVALS = 3;

/**
 * Follows one event stream until `onEvent` answers "stop", the server ends it for good (an `end`
 * event: what admitted it no longer stands), a refusal that reconnecting cannot help, or the run is
 * interrupted. A dropped or silent connection is reopened with `Last-Event-ID` (the last id seen),
 * after the server's `retry:` and an exponential backoff with full jitter (and any Retry-After), so
 * no event the server still holds is missed; each reconnection is noted on standard error.
 */
export async function follow(context: Context, endpoint: Endpoint, options: FollowOptions): Promise<void> {
  const { io } = context;
  const { baseDelayMs, maxDelayMs } = options.backoff ?? { baseDelayMs: 500, maxDelayMs: 30_000 };
  const random = options.random ?? Math.random;
  let lastEventId = options.lastEventId;
  let retryMs: number = LIVE_STREAM.retryMs;
  let silentMs = SILENT_INTERVALS * LIVE_STREAM.heartbeatSeconds * 1000;
  let failures = 0;
  let stopped = false;
  let ended: string | undefined;

  const url = new URL(`${endpoint.baseUrl}${options.path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, value);
  }

  /** One connection; resolves when it closes (or turns silent), throws a refusal or a network failure. */
  const connect = async () => {
    const connection = new AbortController();
    const headers: Record<string, string> = {
      accept: "text/event-stream",
      ...endpoint.headers,
      ...options.headers,
    };
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    let response: Response;
    try {
      response = await io.fetch(url, { headers, signal: AbortSignal.any([io.signal, connection.signal]) });
    } catch (error) {
      throw unreachable(endpoint.baseUrl, error);
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => "");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      throw refusal("GET", options.path, response.status, body, response.headers);
    }
    let silence: NodeJS.Timeout | undefined;
    const listen = () => {
      clearTimeout(silence);
      silence = setTimeout(() => connection.abort(SILENT), silentMs);
    };
    const parser = createParser({
      onRetry: (ms) => {
        retryMs = ms;
      },
      // An `id` field sets the resume point even in a block without data, as the SSE standard says.
      onId: (id) => {
        if (!stopped) lastEventId = id;
      },
      onEvent: (raw) => {
        if (stopped) return;
        let data: unknown = raw.data;
        try {
          data = JSON.parse(raw.data);
        } catch {}
        const event: StreamEvent = { event: raw.event ?? "message", id: raw.id, data };
        if (event.event === "ready") {
          failures = 0;
          const heartbeat = (data as { heartbeatSeconds?: unknown }).heartbeatSeconds;
          if (typeof heartbeat === "number" && heartbeat > 0) silentMs = SILENT_INTERVALS * heartbeat * 1000;
        }
        if (options.onEvent(event) === "stop") stopped = true;
        if (event.event === "end") {
          const reason = (data as { reason?: unknown } | null)?.reason;
          ended = typeof reason === "string" ? reason : "ended";
        }
        if (stopped || ended !== undefined) connection.abort();
      },
    });
    listen();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        listen();
        parser.feed(value);
      }
    } catch (error) {
      // Our own abort (stop, end, silence, interruption) closes the connection; anything else dropped it.
      if (!connection.signal.aborted && !io.signal.aborted) throw unreachable(endpoint.baseUrl, error);
      if (connection.signal.reason === SILENT)
        throw new CommandError(`the stream was silent for ${duration(silentMs)} (no heartbeat)`);
    } finally {
      clearTimeout(silence);
    }
  };

  while (!io.signal.aborted) {
    try {
      await connect();
    } catch (error) {
      if (io.signal.aborted) return;
      if (!(error instanceof CommandError) || (error instanceof ApiError && FINAL.has(error.status)))
        throw error;
      failures += 1;
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (failures - 1)) * random();
      const asked = error instanceof ApiError ? (error.retryAfterSeconds ?? 0) * 1000 : 0;
      const wait = Math.max(retryMs, backoff, asked);
      context.note(`mkt: ${error.message}; reconnecting in ${duration(wait)}${after(lastEventId)}`);
      await sleep(wait, io.signal);
      continue;
    }
    if (stopped || io.signal.aborted) return;
    if (ended !== undefined) throw new CommandError(`the server ended the stream: ${ended}`);
    context.note(`mkt: the stream closed; reconnecting in ${duration(retryMs)}${after(lastEventId)}`);
    await sleep(retryMs, io.signal);
  }
}

const after = (id: string | undefined) => (id === undefined ? "" : ` (resuming after event ${id})`);

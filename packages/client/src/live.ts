import { LIVE_STREAM, type LiveEvent, parseLiveEvent } from "@mkt/protocol";
import { createParser } from "eventsource-parser";
import type { MarketSessionCredentials } from "./account.ts";
import { MktApiError, type MktSurface, parseBody } from "./errors.ts";
import type { TransportOptions } from "./http.ts";

/** What every event-stream subscription takes (the market live updates, a classic game chat). */
export interface StreamSubscriptionOptions<E> {
  /** Resume after this id (one a previous subscription reported). */
  lastEventId?: string;
  /** Every event, in order. */
  onEvent: (event: E) => void;
  /**
   * Events were missed (the server's log no longer holds them): re-read the
   * REST resources the app shows. Awaited before later events are delivered.
   */
  onResync: () => void | Promise<void>;
  /**
   * A failed connection attempt or a dropped stream; the subscription reconnects
   * unless the error is final (then `done` rejects with it instead).
   */
  onError?: (error: unknown) => void;
  /** Reconnection backoff: full jitter, doubling from `baseDelayMs` up to `maxDelayMs`. */
  backoff?: { baseDelayMs?: number; maxDelayMs?: number };
}

export interface LiveOptions extends StreamSubscriptionOptions<LiveEvent> {
  /** Also receive `claims` events of this wallet. */
  owner?: string;
  /** An account session: the account stream, with its DMs, unread count and own drafts. */
  session?: MarketSessionCredentials;
}

export interface LiveSubscription {
  /** The id to resume after: the last event id received. */
  lastEventId(): string | undefined;
  /** Stops the subscription; `done` resolves. */
  close(): void;
  /**
   * Resolves when closed; rejects with the `MktApiError` of a final refusal
   * (400, 401, 403, 404, or any refusal of a client without an API key).
   */
  done: Promise<void>;
}

/** Statuses after which reconnecting can help. */
const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/** The stream to open: its URL and surface, the headers besides `API-KEY` and `Last-Event-ID`, and its event parser. */
export interface EventStreamTarget<E> {
  url: URL;
  surface: MktSurface;
  headers?: Record<string, string>;
  parse: (raw: { event?: string | undefined; id?: string | undefined; data: string }) => E | undefined;
}

/**
 * Subscribes to one of the server's event streams (the market live updates,
 * a classic game chat) over fetch, so the API key goes in a header.
 * Reconnects with backoff and full jitter (at least the server's `retry:`,
 * and its Retry-After) and `Last-Event-ID`, so no event is missed while the
 * server still holds it; when it no longer does (a `resync` event),
 * `onResync` runs first. A refusal that reconnecting cannot help (400, 401,
 * 403, 404, or a 401 or 429 answered to a client that has no API key) ends the
 * subscription. A 429 with a key is waited out (at least its Retry-After) and
 * reconnected: a long-lived subscription outlasts a spent stream budget.
 */
export function subscribeEventStream<E extends { event: string }>(
  options: TransportOptions,
  target: EventStreamTarget<E>,
  live: StreamSubscriptionOptions<E>,
): LiveSubscription {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const abort = new AbortController();
  let lastEventId = live.lastEventId;
  let retryMs: number = LIVE_STREAM.retryMs;
  const base = live.backoff?.baseDelayMs ?? 500;
  const max = live.backoff?.maxDelayMs ?? 30_000;
  const { url } = target;
  /** One connection: resolves when the stream ends; throws on a refusal. */
  const connect = async (): Promise<void> => {
    const headers: Record<string, string> = { accept: "text/event-stream", ...target.headers };
    if (options.apiKey) headers["API-KEY"] = options.apiKey;
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    const response = await fetchImpl(url, { headers, signal: abort.signal });
    if (!response.ok || !response.body) {
      const body = parseBody(await response.text(), response.headers.get("content-type"));
      throw MktApiError.fromResponse(response, body, {
        surface: target.surface,
        apiKeyMissing: !options.apiKey && (response.status === 401 || response.status === 429),
      });
    }
    // Events are handed over in order, a resync awaited before anything after it.
    let delivering: Promise<void> = Promise.resolve();
    const parser = createParser({
      onRetry: (ms) => {
        retryMs = ms;
      },
      // An `id` field sets the resume point even in a block without data, as the SSE standard says.
      onId: (id) => {
        lastEventId = id;
      },
      onEvent: (raw) => {
        if (raw.data === "") return;
        const event = target.parse(raw);
        if (event === undefined) return;
        delivering = delivering.then(async () => {
          if (event.event === "resync") await live.onResync();
          live.onEvent(event);
        });
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } finally {
      await delivering;
    }
  };

  const aborted = new Promise<void>((resolve) => abort.signal.addEventListener("abort", () => resolve()));
  const run = async () => {
    let failures = 0;
    while (!abort.signal.aborted) {
      let wait = 0;
      try {
        await connect();
        failures = 0;
        wait = retryMs;
      } catch (error) {
        if (abort.signal.aborted) break;
        if (error instanceof MktApiError && (error.apiKeyMissing || !RETRYABLE.has(error.status)))
          throw error;
        live.onError?.(error);
        failures += 1;
        const backoff = Math.min(max, base * 2 ** (failures - 1)) * random();
        const asked = error instanceof MktApiError ? (error.retryAfterSeconds ?? 0) * 1000 : 0;
        wait = Math.max(retryMs, backoff, asked);
      }
      if (!abort.signal.aborted) await Promise.race([sleep(wait), aborted]);
    }
  };

  const done = run();
  return {
    lastEventId: () => lastEventId,
    close: () => abort.abort(),
    done,
  };
}

export interface LiveApi {
  /**
   * Opens a subscription; it runs until `close()` or a final refusal.
   *
   * @example
   * ```ts
   * const live = client.market.live.subscribe({
   *   owner: "0x…",
   *   onEvent: (event) => {
   *     if (event.event === "claims") void reloadClaims(event.data.version);
   *     if (event.event === "release") void reloadRelease(event.data.releaseId);
   *   },
   *   onResync: () => reloadEverything(),
   * });
   * // later
   * live.close();
   * ```
   */
  subscribe(live: LiveOptions): LiveSubscription;
}

/**
 * The live-update stream (`GET /market/live`, or `GET /market/account/live`
 * with a session), over fetch so the API key goes in a header. Reconnects
 * with backoff and `Last-Event-ID`, so no event is missed while the server
 * still holds it; when it no longer does, `onResync` runs first.
 */
export function liveApi(options: TransportOptions): LiveApi {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  return {
    subscribe(live: LiveOptions): LiveSubscription {
      const url = new URL(`${baseUrl}${live.session ? LIVE_STREAM.accountPath : LIVE_STREAM.path}`);
      if (live.owner) url.searchParams.set("owner", live.owner);
      const headers: Record<string, string> = live.session
        ? {
            authorization: `Bearer ${live.session.token}`,
            origin: live.session.origin,
            "x-mkt-wallet": live.session.address,
          }
        : {};
      return subscribeEventStream(options, { url, surface: "market", headers, parse: parseLiveEvent }, live);
    },
  };
}

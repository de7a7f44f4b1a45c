import type { ServerResponse } from "node:http";
import { LIVE_STREAM, type LiveEventData } from "@mkt/protocol";
import type { RouteGate } from "../http/route.ts";
import type { LiveRow } from "./store.ts";

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

/** An open stream: its request, its response and how far it has been given the log. */
export interface Stream extends StreamRequest {
  res: ServerResponse;
  /** The newest event id this stream has been given (written, or skipped as not its own). */
  through: number;
  /** The newest id the client has been told (an `id:` line); behind `through` until a `position` event. */
  told: number;
  /** Events that arrived while the stream was catching up from the log; undefined once live. */
  pending: LiveRow[] | undefined;
  closed: boolean;
}

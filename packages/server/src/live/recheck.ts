import type { Logger } from "pino";
import type { RouteGate } from "../http/route.ts";
import type { Stream, StreamEndReason } from "./streams.ts";
import type { StreamWriter } from "./writer.ts";

/** A gate's decision for an open stream, given the key's current first-party flag: undefined while it lets the stream through. */
export type StreamGateCheck = (
  firstParty: boolean,
) => StreamEndReason | undefined | Promise<StreamEndReason | undefined>;

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
}

export interface RecheckDeps {
  streams: ReadonlySet<Stream>;
  /** The key and session checks; without them, a stream stays until either side closes it. */
  checks: StreamChecks | undefined;
  /** Each gate's check, as the surfaces that own the gates registered them; a gate without one lets streams through. */
  gates: Readonly<Partial<Record<RouteGate, StreamGateCheck>>>;
  writer: StreamWriter;
  logger: Logger;
}

export interface Recheck {
  /**
   * Runs a round once the one under way (if any) is over, so a change made
   * before the call is seen. Answers how many streams it ended.
   */
  run(): Promise<number>;
  /** The round under way, if any. */
  running(): Promise<number> | undefined;
}

/**
 * The re-check rounds of one replica's open streams. Every replica runs one
 * every `recheckMs`; a change made on another replica reaches this one's
 * caches first, through the database's notifications.
 */
export function createRecheck({ streams, checks, gates, writer, logger }: RecheckDeps): Recheck {
  let round: Promise<number> | undefined;

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
        const decide = gate === undefined ? undefined : gates[gate];
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
      writer.end(stream, reason);
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

  return {
    async run() {
      if (checks === undefined) return 0;
      while (round) await round;
      const current = recheckRound(checks).finally(() => {
        round = undefined;
      });
      round = current;
      return current;
    },
    running: () => round,
  };
}

/** Continues with a value now, or once it arrives: synchronous while the value is. */
function then<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

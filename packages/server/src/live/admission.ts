import type { ServerResponse } from "node:http";
import { RateLimitedError, UnavailableError } from "../errors.ts";
import type { LiveLimits, Stream, StreamRequest } from "./streams.ts";

/** The open streams of one replica and their caps: per replica, per holder, per client network. */
export interface OpenStreams {
  /** Every open stream, in the order they were attached. */
  readonly all: ReadonlySet<Stream>;
  /**
   * Refuses a stream at the replica's stream cap (503), at the holder's cap of
   * open streams (429), or at the client network's cap, whichever keys or
   * accounts opened its streams (429).
   */
  admit(request: Pick<StreamRequest, "holder" | "client">): void;
  /** Counts an admitted stream against its caps until its response closes. */
  open(request: StreamRequest, res: ServerResponse): Stream;
}

export function createOpenStreams(
  limits: Pick<LiveLimits, "maxStreams" | "maxStreamsPerKey" | "maxStreamsPerClient">,
): OpenStreams {
  const streams = new Set<Stream>();
  const perKey = new Map<string, number>();
  const perClient = new Map<string, number>();

  return {
    all: streams,

    admit({ holder, client }) {
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

    open(request, res) {
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
      return stream;
    },
  };
}

/** Moves a per-holder count of open streams; a count that reaches 0 leaves the map. */
function count(counts: Map<string, number>, holder: string, by: 1 | -1) {
  const next = (counts.get(holder) ?? 0) + by;
  if (next <= 0) counts.delete(holder);
  else counts.set(holder, next);
}

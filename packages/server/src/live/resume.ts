import { LIVE_STREAM } from "@mkt/protocol";
import type { Deliver } from "./fan-out.ts";
import type { LiveStore } from "./store.ts";
import type { LiveLimits, Stream } from "./streams.ts";
import { frame, type StreamWriter } from "./writer.ts";

const RESUME_BATCH = 1_000;
const LAST_EVENT_ID = /^(0|[1-9][0-9]{0,14})$/;

export interface ResumeDeps {
  store: LiveStore;
  limits: Pick<LiveLimits, "heartbeatMs" | "windowMs" | "windowEvents">;
  writer: StreamWriter;
  deliver: Deliver;
}

/**
 * Brings a newly attached stream up to the live fan-out: replays the log
 * after the client's `Last-Event-ID` up to `from` (where the hub's reads had
 * got to when the stream opened), or says `resync` when the log no longer
 * holds that id; then the events queued meanwhile; then hands it over (its
 * queue is gone).
 */
export function createResume({ store, limits, writer, deliver }: ResumeDeps) {
  const { write } = writer;

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
  return async (stream: Stream, from: number) => {
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
}

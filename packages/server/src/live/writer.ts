import type { ClassicChatEventData, LiveEventData } from "@mkt/protocol";
import type { Logger } from "pino";
import type { LiveLimits, Stream, StreamEndReason } from "./streams.ts";

export const HEARTBEAT = Buffer.from(": heartbeat\n\n");

/** Every event the hub writes: the market streams' and the classic chat streams'. */
type FrameData = LiveEventData & Pick<ClassicChatEventData, "message" | "deleted">;

/** One SSE event: `id:` only on the event a client may resume after. */
export function frame<K extends keyof FrameData>(event: K, data: FrameData[K], id?: number): Buffer {
  return anyFrame(event, data, id);
}

/** One SSE event of any stream's vocabulary (the predict streams' own events). */
export function anyFrame(event: string, data: unknown, id?: number): Buffer {
  return Buffer.from(
    `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
  );
}

/** Writes to one stream, and ends or drops it; nothing is written to a closed stream. */
export interface StreamWriter {
  /** Writes a chunk; `id` is the event id the client has then been told. Drops a client too slow to read. */
  write(stream: Stream, chunk: Buffer, id?: number): void;
  /** Cuts the connection (the client resumes later). */
  drop(stream: Stream): void;
  /**
   * Ends a stream whose admission no longer stands: the `end` event says why,
   * then the response ends (the client sees the event before the close).
   */
  end(stream: Stream, reason: StreamEndReason): void;
}

export function createStreamWriter({
  logger,
  limits,
}: {
  logger: Logger;
  limits: Pick<LiveLimits, "maxBufferedBytes">;
}): StreamWriter {
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

  const end = (stream: Stream, reason: StreamEndReason) => {
    if (stream.closed) return;
    logger.info({ msg: "live stream ended: its admission no longer stands", reason });
    write(stream, frame("end", { reason }));
    if (stream.closed) return;
    stream.closed = true;
    stream.res.end();
  };

  return { write, drop, end };
}

import { request as httpRequest, type IncomingMessage } from "node:http";
import { createParser, type EventSourceMessage } from "eventsource-parser";

export interface TestStream {
  status: number;
  headers: Headers;
  /** The body of a refused (non-200) answer. */
  body: string;
  /** Every event received so far, in order. */
  events: EventSourceMessage[];
  comments: string[];
  /**
   * The first event not yet taken that matches; waits for it to arrive. Events
   * before it are taken too, so `next()` walks the stream in order.
   */
  next(match?: (event: EventSourceMessage) => boolean): Promise<EventSourceMessage>;
  /** Resolves once a comment line arrives (heartbeats). */
  nextComment(): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens a server-sent event stream and records what arrives. Each stream has
 * its own connection, closed with it (Node's fetch, once aborted, leaves an
 * unused connection open that a server's graceful close would wait for).
 */
export async function openStream(url: string, headers: Record<string, string>): Promise<TestStream> {
  const request = httpRequest(url, { agent: false, headers: { accept: "text/event-stream", ...headers } });
  const message = await new Promise<IncomingMessage>((resolve, reject) => {
    request.on("response", resolve);
    request.on("error", reject);
    request.end();
  });
  const response = {
    status: message.statusCode ?? 0,
    headers: new Headers(
      Object.entries(message.headers).flatMap(([name, value]) =>
        value === undefined
          ? []
          : [[name, Array.isArray(value) ? value.join(", ") : value] as [string, string]],
      ),
    ),
  };
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  let taken = 0;
  let wake: () => void = () => {};
  let changed = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const notify = () => {
    const resolve = wake;
    changed = new Promise<void>((next) => {
      wake = next;
    });
    resolve();
  };
  let done = false;
  if (response.status !== 200) {
    let body = "";
    for await (const chunk of message) body += String(chunk);
    return {
      status: response.status,
      headers: response.headers,
      body,
      events,
      comments,
      next: () => Promise.reject(new Error(`the stream was refused: ${response.status} ${body}`)),
      nextComment: () => Promise.reject(new Error("the stream was refused")),
      ended: Promise.resolve(),
      close: () => {},
    };
  }
  const parser = createParser({
    onEvent: (event) => {
      events.push(event);
      notify();
    },
    onComment: (comment) => {
      comments.push(comment);
      notify();
    },
  });
  message.setEncoding("utf8");
  const ended = (async () => {
    try {
      for await (const chunk of message) parser.feed(chunk as string);
    } catch {
      // Aborted by close() or cut by the server.
    } finally {
      done = true;
      notify();
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    body: "",
    events,
    comments,
    async next(match = () => true) {
      for (;;) {
        for (let i = taken; i < events.length; i++) {
          if (match(events[i]!)) {
            taken = i + 1;
            return events[i]!;
          }
        }
        if (done) throw new Error(`the stream ended without the event; received: ${JSON.stringify(events)}`);
        await changed;
      }
    },
    async nextComment() {
      const seen = comments.length;
      while (comments.length === seen) {
        if (done) throw new Error("the stream ended without a comment");
        await changed;
      }
      return comments[seen]!;
    },
    ended,
    close: () => request.destroy(),
  };
}

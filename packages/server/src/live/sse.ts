import type { OutgoingHttpHeaders } from "node:http";
import type { FastifyReply } from "fastify";
import { clientGroup } from "../quotas/client-group.ts";
import type { LiveHub } from "./hub.ts";
import type { StreamRequest } from "./streams.ts";

/**
 * Hands an admitted request's response to the hub for as long as the stream
 * lasts: refuses it first at the hub's caps (429 per holder and per client
 * network, 503 per replica), then writes the SSE head (with the headers the
 * pipeline set: rate-limit state, Cache-Control) and attaches it with what
 * admitted it (the key, the session, the route's gate), which the hub checks
 * again while the stream is open. Every stream route of every surface opens
 * its stream here.
 */
export function serveStream(
  hub: LiveHub,
  reply: FastifyReply,
  route: Omit<StreamRequest, "client" | "admission">,
): void {
  const { request } = reply;
  const stream: StreamRequest = {
    ...route,
    client: clientGroup(request.ip),
    admission: {
      keyHash: request.apiKey?.hash,
      sessionId: request.session?.id,
      gate: request.routeOptions.config.gate,
    },
  };
  hub.admit(stream);
  // From here on the handler writes the response itself, for as long as the stream lasts.
  reply.hijack();
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  reply.raw.writeHead(200, {
    ...headers,
    "content-type": "text/event-stream; charset=utf-8",
    // Reverse proxies (nginx) must pass events through as they come.
    "x-accel-buffering": "no",
  });
  reply.raw.socket?.setNoDelay(true);
  hub.attach(stream, reply.raw);
}

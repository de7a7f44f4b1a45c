import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { AppError, type ErrorKind } from "../errors.ts";
import { EVERY_ANSWER_HEADERS } from "./security-headers.ts";
import type { Surface } from "./surfaces.ts";

/**
 * The longest path parameter the router matches (Fastify's `maxParamLength`).
 * Above every parameter a route accepts (the longest, a game's address or
 * slug, is 200 characters), so a route's own schema answers a long-but-sane
 * value; a longer one is a 414 in the surface's error body.
 */
export const MAX_PATH_PARAMETER_LENGTH = 512;

/**
 * The most bytes the request line and headers together may take (Node's
 * `maxHeaderSize`; its default is 16 KiB). Room for the longest query a route
 * takes (a signed image URL of 4,096 characters, percent-encoded, or a hundred
 * uint256 token ids) beside ordinary headers and cookies; more is a 431 in the
 * surface's error body.
 */
export const MAX_REQUEST_HEAD_BYTES = 32 * 1024;

/** The surface a path belongs to: the longest mount point it is under, else `fallback`. */
export function surfaceOfPath(surfaces: readonly Surface[], path: string, fallback: Surface): Surface {
  let found = fallback;
  for (const surface of surfaces) {
    const { prefix } = surface;
    if (prefix === "" || prefix.length <= found.prefix.length || !path.startsWith(prefix)) continue;
    const next = path.charAt(prefix.length);
    if (next === "" || next === "/" || next === "?") found = surface;
  }
  return found;
}

/** The request target of the request line at the start of `packet`, when it is there. */
function requestTargetOf(packet: unknown): string | undefined {
  if (!Buffer.isBuffer(packet)) return undefined;
  const line = /^[A-Z]{1,16} (\/[^ \r\n]*)/.exec(packet.toString("latin1", 0, Math.min(packet.length, 4096)));
  return line?.[1];
}

const CLIENT_ERRORS: Record<string, { kind: ErrorKind; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    kind: "header_too_large",
    message: `the request line and headers exceed ${MAX_REQUEST_HEAD_BYTES} bytes; shorten the query or the headers`,
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    kind: "request_timeout",
    message: "the request did not arrive in time",
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    kind: "payload_too_large",
    message: "the request's chunk extensions are too large",
  },
};
const MALFORMED = { kind: "bad_request", message: "the request is not valid HTTP/1.1" } as const;

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any
 * route sees the request (a request head over {@link MAX_REQUEST_HEAD_BYTES}
 * is `HPE_HEADER_OVERFLOW`, a request that is not HTTP another `HPE_*`, one
 * that does not arrive in time `ERR_HTTP_REQUEST_TIMEOUT`). The answer is a
 * complete HTTP response written on the socket, in the error body of the
 * surface the request line names (the market's `{error}` when the packet
 * does not show it), and the connection is closed: the parser cannot go on.
 */
export function createClientErrorHandler(deps: {
  surfaces: readonly Surface[];
  fallback: Surface;
  logger: Logger;
}) {
  const { surfaces, fallback, logger } = deps;
  return (error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex) => {
    // A reset connection has nobody to answer; a destroyed one cannot be written.
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const { kind, message } = CLIENT_ERRORS[error.code ?? ""] ?? MALFORMED;
    const target = requestTargetOf(error.rawPacket);
    const surface = surfaceOfPath(surfaces, target ?? "", fallback);
    const rendered = surface.renderError(new AppError(kind, message, { cause: error }));
    logger.info({ msg: "client error", code: error.code, status: rendered.status, surface: surface.name });
    // A response already under way on this connection cannot be followed by another one.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(rendered.body);
    const headers: Record<string, string> = {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(body)),
      ...EVERY_ANSWER_HEADERS,
      // The surface's error headers, `Cache-Control: no-store` among them.
      ...rendered.headers,
      Connection: "close",
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(
      `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status]}\r\n${head.join("")}\r\n${body}`,
      () => socket.destroy(),
    );
  };
}

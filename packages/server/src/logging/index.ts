import pino, { type DestinationStream, type Logger } from "pino";

/**
 * Paths pino censors wherever a log call carries them: credential headers of
 * requests and responses, and token, key, signature, secret or cookie fields
 * at the top of a logged object or inside a logged body. Explicit paths only:
 * pino's `*.field` wildcards cost about 30 µs on every log line, which the
 * per-request log cannot afford. Code never logs whole requests or bodies.
 */
const secretFields = [
  "token",
  "key",
  "apiKey",
  "signature",
  "secret",
  "password",
  "cookie",
  "authorization",
  "sessionToken",
];
export const redactPaths = [
  'req.headers["api-key"]',
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-mkt-session"]',
  'res.headers["set-cookie"]',
  'headers["api-key"]',
  "headers.authorization",
  "headers.cookie",
  'headers["x-mkt-session"]',
  'headers["set-cookie"]',
  ...secretFields,
  ...["body", "payload", "input", "session", "auth"].flatMap((container) =>
    secretFields.map((field) => `${container}.${field}`),
  ),
];

/**
 * The process logger. Lines are written to stdout in batches (a write per
 * 4 KiB instead of a write per line, which cost the hot path a system call
 * per request) and flushed at least every second, so a quiet process still
 * shows its lines at once.
 */
export function createLogger(options: { level: string; destination?: DestinationStream }): Logger {
  const settings = {
    level: options.level,
    redact: { paths: redactPaths, censor: "[redacted]" },
    base: { pid: process.pid },
  };
  if (options.destination) return pino(settings, options.destination);
  const logger = pino(settings, pino.destination({ fd: 1, sync: false, minLength: 4096 }));
  setInterval(() => logger.flush(), 1_000).unref();
  return logger;
}

export type { Logger };

import pino, { type DestinationStream, type Logger } from "pino";
import { isColorSupported, prettyFactory } from "pino-pretty";

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

/** How log lines are written: one JSON object per line, or human-readable lines. */
export type LogFormat = "json" | "pretty";

/**
 * The process logger. Both formats go through the same pino instance, so the
 * redaction above applies before anything is written, whatever the format.
 *
 * `json`: lines are written to stdout in batches (a write per 4 KiB instead of
 * a write per line, which cost the hot path a system call per request) and
 * flushed at least every second, so a quiet process still shows its lines at
 * once.
 *
 * `pretty`: each line is turned into `[time] LEVEL: message key=value…` by
 * pino-pretty's formatter, in-process and synchronously (no worker thread, so
 * nothing is left unwritten at shutdown), with colours when stdout is a
 * terminal that supports them. Meant for a person at a terminal, not for the
 * hot path of a loaded server.
 */
export function createLogger(options: {
  level: string;
  format?: LogFormat;
  destination?: DestinationStream;
  /** The replica id (`Config.replicaId`), bound to every line as `replica`. */
  replica?: string;
}): Logger {
  const settings = {
    level: options.level,
    redact: { paths: redactPaths, censor: "[redacted]" },
    base: { pid: process.pid, ...(options.replica === undefined ? {} : { replica: options.replica }) },
  };
  if (options.format === "pretty") {
    const out = options.destination ?? pino.destination({ fd: 1, sync: true });
    const format = prettyFactory({
      colorize: options.destination === undefined && isColorSupported && process.stdout.isTTY === true,
      translateTime: "SYS:HH:MM:ss.l",
      ignore: "pid,hostname",
      singleLine: true,
    });
    return pino(settings, { write: (line: string) => out.write(format(line)) });
  }
  if (options.destination) return pino(settings, options.destination);
  const logger = pino(settings, pino.destination({ fd: 1, sync: false, minLength: 4096 }));
  setInterval(() => logger.flush(), 1_000).unref();
  return logger;
}

export { createDependencyLog, DEPENDENCY_LOG_INTERVAL_MS, type DependencyLog } from "./dependency-log.ts";
export type { Logger };

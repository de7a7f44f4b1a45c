import pino, { type DestinationStream, type Logger } from "pino";

/**
 * Paths pino censors wherever a log call carries them: credential headers
 * of requests and responses, and any token, key, signature, secret or
 * cookie field in a logged object up to two levels deep.
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
  ...secretFields.map((field) => `*.${field}`),
  ...secretFields.map((field) => `*.*.${field}`),
];

export function createLogger(options: { level: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: redactPaths, censor: "[redacted]" },
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

export type { Logger };

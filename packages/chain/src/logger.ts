/** The structured-logging surface this package needs; a pino logger satisfies it. */
export interface ChainLogger {
  /** Detail for whoever investigates a run. */
  debug(entry: Record<string, unknown>): void;
  /** What the chain or the demo did. */
  info(entry: Record<string, unknown>): void;
  /** Something failed that the caller recovers from. */
  warn(entry: Record<string, unknown>): void;
  /** Something failed that the caller cannot recover from. */
  error(entry: Record<string, unknown>): void;
}

export function createSilentLogger(): ChainLogger {
  const ignore = () => {};
  return { debug: ignore, info: ignore, warn: ignore, error: ignore };
}

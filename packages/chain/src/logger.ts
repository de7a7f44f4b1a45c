/** The structured-logging surface this package needs; a pino logger satisfies it. */
export interface ChainLogger {
  debug(entry: Record<string, unknown>): void;
  info(entry: Record<string, unknown>): void;
  warn(entry: Record<string, unknown>): void;
  error(entry: Record<string, unknown>): void;
}

export function createSilentLogger(): ChainLogger {
  const ignore = () => {};
  return { debug: ignore, info: ignore, warn: ignore, error: ignore };
}

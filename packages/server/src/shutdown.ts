import type { Logger } from "pino";

/** How long a shutdown may take before the process exits anyway (exit code 1). */
const SHUTDOWN_DEADLINE_MS = 15_000;

/**
 * Stops an entry point (`npm start`, `npm run chain`) on SIGINT or SIGTERM: runs `close` once,
 * logs "stopped" and flushes the log, exit code 0; a failed close is exit code 1, and a close that
 * takes longer than 15 s exits the process with code 1 instead of hanging.
 */
export function stopOnSignals(logger: Logger, close: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ msg: "shutting down", signal });
    const force = setTimeout(() => {
      logger.error({ msg: "shutdown took too long; exiting" });
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    try {
      await close();
      logger.info({ msg: "stopped" });
      logger.flush();
      process.exitCode = 0;
    } catch (error) {
      logger.error({ msg: "shutdown failed", err: error });
      process.exitCode = 1;
    }
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

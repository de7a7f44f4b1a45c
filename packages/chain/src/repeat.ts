export interface Repeating {
  /** Stops scheduling and waits for the run in flight; idempotent. */
  stop(): Promise<void>;
}

/**
 * Runs `task` now, then again `intervalMs` after each run settles, so runs never overlap (each one
 * sends transactions from the same accounts). A failed run goes to `onError` and the next still comes.
 */
export function repeatEvery(
  intervalMs: number,
  task: () => Promise<void>,
  onError: (error: unknown) => void,
): Repeating {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const run = async (): Promise<void> => {
    try {
      await task();
    } catch (error) {
      onError(error);
    }
    if (!stopped) timer = setTimeout(() => (running = run()), intervalMs);
  };
  let running = run();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** What a command touches outside itself; `main.ts` wires the process, tests wire their own. */
export interface Io {
  /** Writes to standard output as given (JSON documents, tables, events). */
  stdout(text: string): void;
  /** Writes to standard error; every secret the run knows is masked first (`Secrets`). */
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether standard output is a terminal: tables redraw in place, progress bars are drawn. */
  stdoutIsTTY: boolean;
  fetch: typeof fetch;
  /** Aborted on SIGINT or SIGTERM: long-running commands (tail, status --watch) stop cleanly. */
  signal: AbortSignal;
  now(): number;
}

/** Waits `ms`, or less when `signal` is aborted first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * The secrets a run holds (API key, operator token, session tokens, private keys): whatever goes to
 * standard error passes through `mask`, so a server message or an exception that quotes one never
 * prints it. Standard output carries a secret only where the command's purpose is to print it
 * (`keys create`, `sign-in`).
 */
export class Secrets {
  readonly #values = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would mask ordinary words; no secret mkt issues is that short.
    if (value !== undefined && value.length >= 8) this.#values.add(value);
  }

  mask(text: string): string {
    let masked = text;
    for (const value of this.#values) masked = masked.split(value).join("[redacted]");
    return masked;
  }
}

import { run } from "./cli.ts";

/** Set by the build (build.mjs) from package.json; absent when the sources run unbundled. */
declare const MKT_CLI_VERSION: string | undefined;
const version = typeof MKT_CLI_VERSION === "string" ? MKT_CLI_VERSION : "0.0.0-source";

const interrupted = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // A second Ctrl-C ends at once, whatever the command is waiting for.
    if (interrupted.signal.aborted) process.exit(130);
    interrupted.abort();
  });
}

// A reader that went away (`mkt tail market | head -3`) ends the command, quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const write = (stream: NodeJS.WriteStream) => (text: string) => {
  if (text.length > 0) stream.write(text);
};

const status = await run(
  process.argv.slice(2),
  {
    stdout: write(process.stdout),
    stderr: write(process.stderr),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    fetch: globalThis.fetch,
    signal: interrupted.signal,
    now: Date.now,
  },
  version,
);
// Let the output drain, then end even if an aborted stream left a socket behind.
process.exitCode = status;
process.stdout.write("", () => process.exit(status));

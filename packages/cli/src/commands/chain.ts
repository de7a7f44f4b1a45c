import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CommandSpec } from "../command.ts";
import { CommandError, UsageError } from "../errors.ts";

/** The standalone chain's entry point inside an mkt checkout (what `npm run chain` runs). */
const ENTRY = join("packages", "server", "src", "chain-main.ts");

/** The mkt checkout holding `from` (that folder or one above it), or undefined. */
export function findCheckout(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && existsSync(join(dir, ENTRY))) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "mkt") return dir;
      } catch {
        // Not a readable manifest: keep looking above.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** What the banner says: every dev chain's RPC URL and where the chain config was written. */
export interface ChainBanner {
  config: string;
  chains: { chainId: number; rpcUrl: string }[];
}

export function parseChainBanner(lines: readonly string[]): ChainBanner | undefined {
  const config = lines.map((line) => /^\s+chain config\s+(\S.*)$/.exec(line)?.[1]).find(Boolean);
  if (config === undefined) return undefined;
  const chains = lines.flatMap((line) => {
    const match = /^\s+chain (\d+)\s+dev chain\s+(\S+)$/.exec(line);
    return match ? [{ chainId: Number(match[1]), rpcUrl: match[2]! }] : [];
  });
  return { config, chains };
}

/**
 * `mkt chain`: runs the checkout's standalone dev chains (`npm run chain`) in the foreground. The
 * command never carries the server's code (the CLI installs from its tarball alone): it runs the
 * entry point of the mkt checkout it is started in, with the same environment, and ends it on
 * SIGINT/SIGTERM.
 */
export const chainCommand: CommandSpec = {
  words: ["chain"],
  summary: "Run the dev chains on their own, for several replicas to share (in an mkt checkout)",
  usage: "[--dir <checkout>]",
  description:
    "Starts the dev chains npm start runs (chains 8453 and 4663 on DEVNET_PORT_8453 and\n" +
    "DEVNET_PORT_4663, the reference contracts deployed, the simulated activity unless MKT_DEMO=0)\n" +
    "as `npm run chain` does, and writes <MKT_DATA_DIR>/chains.json: start each replica with\n" +
    "MKT_CONFIG=<that file>. Runs until Ctrl-C. Needs an mkt checkout with its dependencies\n" +
    "installed (the folder it runs in or one above it, or --dir). With --json: once the chains run,\n" +
    "{config, chains: [{chainId, rpcUrl}]} on standard output; the chains' logs go to standard error.",
  credentials: "none",
  options: {
    dir: {
      type: "string",
      value: "<checkout>",
      description: "The mkt checkout (default: found from the current folder)",
    },
  },
  examples: ["mkt chain", "MKT_DEMO=0 DEVNET_PORT_8453=9545 mkt chain --json"],
  async run(context, { values }) {
    const dir = typeof values["dir"] === "string" ? values["dir"] : undefined;
    const checkout = findCheckout(dir ?? process.cwd());
    if (checkout === undefined || (dir !== undefined && resolve(dir) !== checkout))
      throw new UsageError(
        dir === undefined
          ? "mkt chain runs in an mkt checkout (with npm ci done): run it there, or pass --dir <checkout>"
          : `${dir} is not an mkt checkout (no package.json named mkt with ${ENTRY})`,
      );
    const child = spawn(process.execPath, ["--import", "tsx", join(checkout, ENTRY)], {
      cwd: checkout,
      env: { ...context.io.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stop = () => child.kill("SIGTERM");
    context.io.signal.addEventListener("abort", stop, { once: true });
    const seen: string[] = [];
    let partial = "";
    let announced = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (!context.json) return context.io.stdout(chunk);
      // Under --json the banner and the logs go to standard error; standard output gets one document.
      context.io.stderr(chunk);
      if (announced) return;
      const parts = (partial + chunk).split("\n");
      partial = parts.pop() ?? "";
      seen.push(...parts);
      if (seen.some((line) => /^\s+replicas\s/.test(line))) {
        const banner = parseChainBanner(seen);
        if (banner) {
          announced = true;
          context.print(banner, () => "");
        }
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => context.io.stderr(chunk));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done, fail) => {
      child.once("error", fail);
      child.once("exit", (exitCode, exitSignal) => done([exitCode, exitSignal]));
    }).finally(() => context.io.signal.removeEventListener("abort", stop));
    if (code !== 0 && !(context.io.signal.aborted && signal === "SIGTERM"))
      throw new CommandError(`the dev chains exited (${code ?? signal})`);
  },
};

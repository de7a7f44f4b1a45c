import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** The repository's root directory. */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

const execFileAsync = promisify(execFile);

/**
 * The environment of a command run as a developer would run it: without the
 * `npm_*` variables an outer `npm test` sets, which would otherwise steer the
 * inner npm (its prefix, its workspace, its lifecycle), and without the
 * caller's `MKT_*` settings (an `MKT_API_KEY` of the developer's shell), so a
 * script sees only the ones the test gives it.
 */
function commandEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(?:npm_|MKT_)/i.test(name) && name !== "INIT_CWD") env[name] = value;
  return { ...env, ...extra };
}

/** Runs a command to its end; a failure carries the command's output. */
export async function runCommand(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(file, args, {
      cwd: options.cwd,
      env: commandEnv(options.env ?? {}),
      maxBuffer: 32 * 1024 * 1024,
    });
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    throw new Error(
      `${file} ${args.join(" ")} (in ${options.cwd}) failed with ${String(failed.code)}:\n${failed.stderr ?? ""}\n${failed.stdout ?? ""}`,
    );
  }
}

/**
 * Packs @mkt/protocol and @mkt/client into `dir` as a publisher would
 * (`npm pack`, whose `prepack` builds each package's dist/) and answers the
 * tarballs' paths, the protocol's first.
 */
export async function packSdk(dir: string): Promise<string[]> {
  const { stdout } = await runCommand(
    "npm",
    ["pack", "--json", "--pack-destination", dir, "-w", "@mkt/protocol", "-w", "@mkt/client"],
    { cwd: REPO_ROOT },
  );
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  return packed.map((tarball) => join(dir, tarball.filename));
}

/**
 * Makes `dir` an empty ESM project outside the workspace and installs the
 * tarballs into it with npm, their dependencies from the registry (the npm
 * cache `npm ci` filled answers them without a download).
 */
export async function installInNewProject(dir: string, tarballs: readonly string[]): Promise<void> {
  await writeFile(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "sdk-consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  await runCommand("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs], {
    cwd: dir,
  });
}

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root directory. */
export const repositoryRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** Every tracked .ts file of packages/ and bench/, as paths from the repository's root. */
export function trackedSources(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--", "packages/*.ts", "bench/*.ts"], {
    cwd: repositoryRoot,
  });
  return out
    .toString("utf8")
    .split("\0")
    .filter((path) => path.endsWith(".ts"));
}

/** The text of a tracked source, by its path from the repository's root. */
export const readSource = (path: string): string => readFileSync(join(repositoryRoot, path), "utf8");

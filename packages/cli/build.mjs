// Bundles the command line into one JavaScript file, dist/mkt.js, that runs under plain `node`
// with no dependency installed: the workspace's TypeScript sources, @mkt/protocol (taken from its
// sources, whatever its package ships), viem's account code and the SSE parser go into it.
// `npm ci` and `npm pack` run it (the `prepare` script). `--outfile <path>` writes elsewhere.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { values } = parseArgs({ options: { outfile: { type: "string" } } });
const { version } = JSON.parse(readFileSync(here("./package.json"), "utf8"));

await build({
  entryPoints: [here("./src/main.ts")],
  outfile: values.outfile ?? here("./dist/mkt.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
  alias: { "@mkt/protocol": here("../protocol/src/index.ts") },
  define: { MKT_CLI_VERSION: JSON.stringify(version) },
  banner: { js: "#!/usr/bin/env node" },
});

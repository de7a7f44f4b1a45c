// The import rules of the repository, checked by `npm run lint:deps` (CI runs it before the tests)
// and by packages/server/src/architecture.test.ts. Every rule is path-based, so a new file falls
// under the rules of the folder it is put in. A violation prints the rule's name and comment.
//
// Paths are relative to the repository root. Type-only imports count like any other import.

const SERVER = "^packages/server/src/";
/** The API surfaces: each mounts itself from the shared services and stands beside the others. */
const SURFACES = "(?:market|classic|predict|platform)";
/** The shared modules whose `index.ts` is their only public surface. */
const PUBLIC_SURFACE_MODULES = "(?:identity|live|media)";
/** What sits above the shared layer: the surfaces, the entry points, the demo and the tests' support. */
const ABOVE_SHARED = `${SERVER}(?:(?:${SURFACES}|demo|e2e|_test)/|(?:app|main)\\.ts$)`;

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "This import closes an import cycle. Modules depend on each other in one direction: move what " +
        "both sides need into a module below them (type-only imports count too).",
      severity: "error",
      from: { path: "^(?:packages|bench)/" },
      to: { circular: true },
    },
    {
      name: "surfaces-are-independent",
      comment:
        "A surface (market/, classic/, predict/, platform/) imports another surface. Surfaces stand side " +
        "by side: what two of them share belongs in a shared module below them (like identity/, live/, " +
        "media/) or in shared-services.ts. Tests of a surface follow the same rule.",
      severity: "error",
      from: { path: `${SERVER}(${SURFACES})/` },
      to: { path: `${SERVER}${SURFACES}/`, pathNot: `${SERVER}$1/` },
    },
    {
      name: "shared-below-surfaces",
      comment:
        "A module of the shared layer (every folder and file of packages/server/src except the surfaces, " +
        "app.ts, main.ts, demo/, e2e/ and _test/) imports a surface, an entry point, the demo or test " +
        "support. The shared layer sits below the surfaces and knows none of them; the surfaces get " +
        "what they need from it. Only *.test.ts files may import the whole app.",
      severity: "error",
      from: { path: SERVER, pathNot: [ABOVE_SHARED, "\\.test\\.ts$"] },
      to: { path: ABOVE_SHARED },
    },
    {
      name: "shared-module-public-surface",
      comment:
        "An import reaches inside identity/, live/ or media/ from outside it. Import those modules only " +
        "through their index.ts, their public surface; if what you need is not exported there, export it.",
      severity: "error",
      // The group is the importer's top folder below packages/server/src (or its top folder in the
      // repository when it lives elsewhere), so a module may still import its own files directly.
      from: { path: "^(?:packages/server/src/)?([^/]+)" },
      to: {
        path: `${SERVER}${PUBLIC_SURFACE_MODULES}/`,
        pathNot: `${SERVER}(?:$1/|${PUBLIC_SURFACE_MODULES}/index\\.ts$)`,
      },
    },
    {
      name: "protocol-imports-no-workspace-package",
      comment:
        "packages/protocol (@mkt/protocol) imports another workspace package. The protocol is the " +
        "bottom package, browser-safe, shared by the server and the SDK: it depends on none of ours.",
      severity: "error",
      from: { path: "^packages/protocol/" },
      to: { path: "^packages/(?:client|chain|server)/" },
    },
    {
      name: "client-imports-only-protocol",
      comment:
        "packages/client (@mkt/client, the SDK integrators install) imports a workspace package other " +
        "than @mkt/protocol. The SDK ships without the server and the chain tooling.",
      severity: "error",
      from: { path: "^packages/client/" },
      to: { path: "^packages/(?:chain|server)/" },
    },
    {
      name: "cli-imports-only-protocol",
      comment:
        "packages/cli (@mkt/cli, the mkt command) imports a workspace package other than @mkt/protocol. " +
        "The command is bundled into one file that installs from its tarball alone; it speaks HTTP to " +
        "the server and never runs the server's, the SDK's or the chain tooling's code.",
      severity: "error",
      from: { path: "^packages/cli/" },
      to: { path: "^packages/(?:client|chain|server)/" },
    },
    {
      name: "chain-imports-no-server",
      comment:
        "packages/chain (contracts, ABIs, dev chains) imports packages/server. The server is the top " +
        "package: it imports the chain package, never the other way round.",
      severity: "error",
      from: { path: "^packages/chain/" },
      to: { path: "^packages/server/" },
    },
  ],
  options: {
    // Dependencies are resolved (workspace packages through the tsconfig paths to their sources under
    // packages/, as tsc, tsx and vitest resolve them) but third-party code is neither followed nor
    // reported.
    doNotFollow: { path: "(?:^|/)node_modules/" },
    // A package's dist/ is the build `npm pack` ships, not a module of the workspace.
    exclude: { path: "(?:^|/)(?:node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "node", "default", "types"],
      extensions: [".ts", ".js", ".json"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};

import type { Context, Values } from "./context.ts";

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** How the value is shown in help: `<n>`, `true|false`. */
  value?: string;
  description: string;
}

export interface PositionalSpec {
  name: string;
  description: string;
  optional?: boolean;
}

/** One command: its words (`keys create`), its help, its options and what it does. */
export interface CommandSpec {
  words: readonly string[];
  summary: string;
  /** What follows `mkt <words>` in the usage line. */
  usage: string;
  /** Paragraphs of help below the usage line. */
  description: string;
  /** Which credentials it needs, shown in the help. */
  credentials: string;
  options?: Record<string, OptionSpec>;
  positionals?: readonly PositionalSpec[];
  examples: readonly string[];
  run(context: Context, input: { values: Values; positionals: string[] }): Promise<void>;
}

/** The options every command takes, before or after its words. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  url: {
    type: "string",
    value: "<url>",
    description: "Public base URL (MKT_URL; default http://127.0.0.1:8080)",
  },
  key: {
    type: "string",
    value: "<key>",
    description: "API key (MKT_API_KEY; prefer the variable: a flag shows in the process list)",
  },
  "admin-url": {
    type: "string",
    value: "<url>",
    description: "Operator listener (MKT_ADMIN_URL; default http://127.0.0.1:8081)",
  },
  "admin-token": {
    type: "string",
    value: "<token>",
    description: "Operator token (MKT_ADMIN_TOKEN; prefer the variable)",
  },
  json: {
    type: "boolean",
    description: "Print one JSON document on standard output (streams: one per line)",
  },
  help: { type: "boolean", short: "h", description: "Show help" },
};

function optionLines(options: Record<string, OptionSpec>): string[] {
  const entries = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ""}--${name}${spec.value ? ` ${spec.value}` : ""}`;
    return [flag, spec.description] as const;
  });
  const width = Math.max(...entries.map(([flag]) => flag.length));
  return entries.map(([flag, description]) => `  ${flag.padEnd(width)}  ${description}`);
}

export function commandHelp(command: CommandSpec): string {
  const lines = [
    `Usage: mkt ${command.words.join(" ")} ${command.usage}`.trimEnd(),
    "",
    command.description,
    "",
  ];
  lines.push(`Credentials: ${command.credentials}`, "");
  if (command.positionals?.length) {
    lines.push("Arguments:");
    const width = Math.max(...command.positionals.map((p) => p.name.length + 2));
    for (const positional of command.positionals)
      lines.push(`  ${`<${positional.name}>`.padEnd(width)}  ${positional.description}`);
    lines.push("");
  }
  if (command.options && Object.keys(command.options).length > 0)
    lines.push("Options:", ...optionLines(command.options), "");
  lines.push("Global options:", ...optionLines(GLOBAL_OPTIONS), "");
  lines.push("Examples:", ...command.examples.map((example) => `  $ ${example}`), "");
  return `${lines.join("\n")}`;
}

export function overviewHelp(commands: readonly CommandSpec[], version: string): string {
  const width = Math.max(...commands.map((command) => command.words.join(" ").length));
  return [
    `mkt ${version}: the command line of the mkt market, classic and prediction-feed APIs.`,
    "",
    "Usage: mkt <command> [options]",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.words.join(" ").padEnd(width)}  ${command.summary}`),
    "",
    "Global options:",
    ...optionLines({ ...GLOBAL_OPTIONS, version: { type: "boolean", description: "Print the version" } }),
    "",
    "Environment: MKT_URL, MKT_API_KEY, MKT_ADMIN_URL, MKT_ADMIN_TOKEN (flags win over them);",
    "MKT_PRIVATE_KEY (sign-in, tail account), MKT_SESSION_TOKEN (tail account).",
    "Exit status: 0 done, 1 the command failed (the server refused, or could not be reached),",
    "2 the command line is wrong, 130 interrupted. Errors go to standard error, never to standard output.",
    "",
    "Run mkt <command> --help for a command's options and examples. Documentation: docs/cli.md.",
    "",
  ].join("\n");
}

/** The commands of a group (`mkt keys`), for its help and its usage error. */
export function groupHelp(group: string, commands: readonly CommandSpec[]): string {
  const members = commands.filter((command) => command.words[0] === group);
  const width = Math.max(...members.map((command) => command.words.join(" ").length));
  return [
    `Usage: mkt ${group} <command> [options]`,
    "",
    "Commands:",
    ...members.map((command) => `  ${command.words.join(" ").padEnd(width)}  ${command.summary}`),
    "",
    `Run mkt ${group} <command> --help for its options and examples.`,
    "",
  ].join("\n");
}

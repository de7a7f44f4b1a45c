import { parseArgs } from "node:util";
import {
  type CommandSpec,
  commandHelp,
  GLOBAL_OPTIONS,
  groupHelp,
  type OptionSpec,
  overviewHelp,
} from "./command.ts";
import { chainCommand } from "./commands/chain.ts";
import { indexerHandOffCommand } from "./commands/indexer.ts";
import { keysCommands } from "./commands/keys.ts";
import { operatorCommands } from "./commands/operator.ts";
import { signInCommand } from "./commands/sign-in.ts";
import { statusCommand } from "./commands/status.ts";
import { tailCommand } from "./commands/tail.ts";
import { Context, resolveSettings, type Values } from "./context.ts";
import { CommandError, EXIT, UsageError } from "./errors.ts";
import { type Io, Secrets } from "./io.ts";

export const COMMANDS: readonly CommandSpec[] = [
  ...keysCommands,
  statusCommand,
  indexerHandOffCommand,
  signInCommand,
  tailCommand,
  ...operatorCommands,
  chainCommand,
];

const GLOBAL_STRING_FLAGS = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, spec]) => spec.type === "string")
    .map(([name]) => `--${name}`),
);

function parseOptions(options: Record<string, OptionSpec>) {
  return Object.fromEntries(
    Object.entries(options).map(([name, spec]) => [
      name,
      spec.short ? { type: spec.type, short: spec.short } : { type: spec.type },
    ]),
  );
}

/**
 * Splits the command line: global flags given before the command, the command's words, and the
 * rest (its arguments and options, global flags included).
 */
function splitCommandLine(argv: readonly string[]) {
  const leading: string[] = [];
  let index = 0;
  while (index < argv.length && argv[index]!.startsWith("-") && argv[index] !== "--") {
    const token = argv[index]!;
    leading.push(token);
    index += 1;
    if (GLOBAL_STRING_FLAGS.has(token) && index < argv.length) leading.push(argv[index++]!);
  }
  const words: string[] = [];
  while (index < argv.length && !argv[index]!.startsWith("-")) {
    const candidate = [...words, argv[index]!];
    const known = COMMANDS.some((command) => candidate.every((word, i) => command.words[i] === word));
    if (!known) break;
    words.push(argv[index]!);
    index += 1;
    if (COMMANDS.some((command) => command.words.join(" ") === words.join(" "))) break;
  }
  const next = argv[index];
  return { leading, words, rest: argv.slice(index), unknown: next?.startsWith("-") ? undefined : next };
}

/** The usage error of a command line whose words name no command (`typed`: the first word that does not fit). */
function unknownCommand(words: readonly string[], typed: string | undefined): UsageError {
  if (words.length > 0) {
    const group = words[0]!;
    const members = COMMANDS.filter((command) => command.words[0] === group).map(
      (command) => command.words[1],
    );
    return new UsageError(
      typed === undefined
        ? `mkt ${group} needs a command: ${members.join(", ")}`
        : `unknown command "mkt ${group} ${typed}"; mkt ${group} has: ${members.join(", ")}`,
    );
  }
  return new UsageError(typed === undefined ? "no command given" : `unknown command "${typed}"`);
}

function parseError(error: unknown): UsageError {
  if (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    return new UsageError(error.message);
  throw error;
}

/** Runs one command line; answers the exit status. Nothing throws out of it. */
export async function run(argv: readonly string[], io: Io, version: string): Promise<number> {
  const secrets = new Secrets();
  const safeIo: Io = { ...io, stderr: (text) => io.stderr(secrets.mask(text)) };
  const { leading, words, rest, unknown } = splitCommandLine(argv);
  const wantsJson = argv.includes("--json");
  const command = COMMANDS.find((candidate) => candidate.words.join(" ") === words.join(" "));
  const help = (text: string) => {
    safeIo.stdout(wantsJson ? `${JSON.stringify({ help: text }, null, 2)}\n` : text);
    return EXIT.ok;
  };
  const usage = (error: UsageError, seeAlso: string) => {
    safeIo.stderr(`mkt: ${error.message}\nRun ${seeAlso} --help for usage.\n`);
    return EXIT.usage;
  };

  if (!command) {
    const askedHelp = argv.includes("--help") || argv.includes("-h") || argv[0] === "help";
    if (words.length === 0 && argv.includes("--version")) {
      safeIo.stdout(wantsJson ? `${JSON.stringify({ version })}\n` : `${version}\n`);
      return EXIT.ok;
    }
    if (argv[0] === "help" && argv.length > 1) return run([...argv.slice(1), "--help"], io, version);
    if (askedHelp && words.length === 0) return help(overviewHelp(COMMANDS, version));
    if (askedHelp) return help(groupHelp(words[0]!, COMMANDS));
    if (argv.length === 0) {
      safeIo.stderr(overviewHelp(COMMANDS, version));
      return EXIT.usage;
    }
    return usage(unknownCommand(words, unknown), words.length > 0 ? `mkt ${words[0]}` : "mkt");
  }

  const name = `mkt ${command.words.join(" ")}`;
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...leading, ...rest],
      options: parseOptions({ ...GLOBAL_OPTIONS, ...command.options }),
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return usage(parseError(error), name);
  }
  if (values["help"] === true) return help(commandHelp(command));

  const json = values["json"] === true;
  try {
    const expected = command.positionals ?? [];
    const required = expected.filter((positional) => !positional.optional).length;
    if (positionals.length < required)
      throw new UsageError(
        `missing ${expected
          .slice(positionals.length, required)
          .map((positional) => `<${positional.name}>`)
          .join(" ")}`,
      );
    if (positionals.length > expected.length)
      throw new UsageError(`unexpected argument "${positionals[expected.length]}"`);
    const settings = resolveSettings(values, io.env, secrets);
    await command.run(new Context(safeIo, settings, secrets, json), { values, positionals });
    return EXIT.ok;
  } catch (error) {
    // Ctrl-C while a request was under way: the aborted request is no failure to explain.
    if (io.signal.aborted) {
      safeIo.stderr("mkt: interrupted\n");
      return EXIT.interrupted;
    }
    if (error instanceof UsageError) return usage(error, name);
    if (error instanceof CommandError) {
      safeIo.stderr(`mkt: ${error.message}\n`);
      return EXIT.failure;
    }
    safeIo.stderr(`mkt: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failure;
  }
}

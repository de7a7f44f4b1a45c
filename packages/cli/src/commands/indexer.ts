import { type AdminIndexerHandOff, adminIndexerHandOffsSchema } from "@mkt/protocol";
import type { CommandSpec } from "../command.ts";
import { integerFlag } from "../context.ts";
import { CommandError } from "../errors.ts";
import { shaped } from "../http.ts";
import { table } from "../render.ts";

function handOffRow(handOff: AdminIndexerHandOff): string[] {
  return [
    handOff.scope,
    handOff.released ? "released" : "not held here",
    handOff.writer ?? "-",
    handOff.takenBy ?? (handOff.released ? "none yet" : "-"),
    handOff.holdOffUntil === null ? "-" : new Date(handOff.holdOffUntil).toISOString(),
  ];
}

export const indexerHandOffCommand: CommandSpec = {
  words: ["indexer", "handoff"],
  summary: "Hand the indexer's writer lock to another replica (operator)",
  usage: "[scope] [--hold-off <seconds>]",
  description:
    "Asks the replica at the operator URL to hand off the writer lock of one scope\n" +
    "(POST /admin/indexer/{scope}/handoff), or of every scope it writes (POST /admin/indexer/handoff):\n" +
    "it finishes the batch in flight, releases the lock, and stays away from the scope for the hold-off\n" +
    "(default 30 s) so another indexing replica takes it; the answer names the replica that took it\n" +
    "within 5 s. Fails (exit 1) when that replica writes no scope asked for: `mkt status` names the\n" +
    "writer, and MKT_ADMIN_URL / --admin-url picks the replica to ask.\n" +
    "With --json: {replica, handOffs: [{scope, released, writer, takenBy, holdOffUntil}]}.",
  credentials: "the operator token",
  positionals: [
    { name: "scope", description: "One scope (mkt status lists them); default every scope", optional: true },
  ],
  options: {
    "hold-off": {
      type: "string",
      value: "<seconds>",
      description: "Seconds the replica stays away from the scope, 1-3600 (default 30)",
    },
  },
  examples: ["mkt indexer handoff", "mkt indexer handoff 8453:registry:0x… --hold-off 120"],
  async run(context, { values, positionals }) {
    const holdOffSeconds = integerFlag(values, "hold-off", 1, 3600);
    const scope = positionals[0];
    const path =
      scope === undefined ? "/admin/indexer/handoff" : `/admin/indexer/${encodeURIComponent(scope)}/handoff`;
    const { body } = await context.call(context.admin(), {
      method: "POST",
      path,
      body: holdOffSeconds === undefined ? {} : { holdOffSeconds },
    });
    const answer = shaped(adminIndexerHandOffsSchema, body, `POST ${path}`);
    context.print(answer, () => {
      const rows = answer.handOffs.map(handOffRow);
      return `Replica ${answer.replica}:\n${table(["SCOPE", "HAND-OFF", "WRITER BEFORE", "TAKEN BY", "STAYS AWAY UNTIL"], rows)}`;
    });
    if (!answer.handOffs.some((handOff) => handOff.released))
      throw new CommandError(`replica ${answer.replica} writes no scope: nothing was handed off`);
  },
};

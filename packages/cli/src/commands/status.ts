import { type AdminScopeHead, adminIndexerSchema } from "@mkt/protocol";
import type { CommandSpec } from "../command.ts";
import { type Context, integerFlag } from "../context.ts";
import { ApiError, CommandError } from "../errors.ts";
import { shaped } from "../http.ts";
import { sleep } from "../io.ts";
import { duration, progressBar, table } from "../render.ts";

/**
 * Blocks behind its target past which a scope counts as backfilling rather than following the
 * chain (between two polls a live scope is a block or two behind). The server's own backfill
 * progress log uses the same threshold.
 */
export const BACKFILL_BLOCKS = 50;

export type ScopeState = "failing" | "starting" | "backfilling" | "live";

/** A scope's head with what `status` derives from it. */
export interface ScopeStatus extends AdminScopeHead {
  /** The last block indexed (`nextBlock - 1`). */
  indexedBlock: number;
  /** Blocks from `indexedBlock` to `targetBlock`; null before the chain was observed. */
  behind: number | null;
  /** Share of the blocks from `startBlock` to `targetBlock` indexed, 0 to 1; null when either is unknown. */
  progress: number | null;
  state: ScopeState;
}

export function scopeStatus(head: AdminScopeHead): ScopeStatus {
  const indexedBlock = head.nextBlock - 1;
  const { startBlock, targetBlock } = head;
  const behind = targetBlock === null ? null : Math.max(0, targetBlock - indexedBlock);
  let progress: number | null = null;
  if (startBlock !== null && targetBlock !== null) {
    const total = targetBlock - startBlock + 1;
    progress = total <= 0 ? 1 : Math.min(1, Math.max(0, (indexedBlock - startBlock + 1) / total));
  }
  const state: ScopeState =
    head.failure !== ""
      ? "failing"
      : behind === null
        ? "starting"
        : behind > BACKFILL_BLOCKS
          ? "backfilling"
          : "live";
  return { ...head, indexedBlock, behind, progress, state };
}

/** Blocks per second of each scope between two samples, for the ETA of `--watch`. */
export type Rates = Map<string, number>;

export function ratesBetween(
  before: { at: number; scopes: readonly ScopeStatus[] } | undefined,
  after: { at: number; scopes: readonly ScopeStatus[] },
): Rates {
  const rates: Rates = new Map();
  if (!before || after.at <= before.at) return rates;
  for (const scope of after.scopes) {
    const earlier = before.scopes.find((candidate) => candidate.scope === scope.scope);
    if (earlier)
      rates.set(scope.scope, (scope.indexedBlock - earlier.indexedBlock) / ((after.at - before.at) / 1000));
  }
  return rates;
}

function stateText(scope: ScopeStatus, rates: Rates): string {
  if (scope.state === "failing") return `failing: ${scope.failure}`;
  if (scope.state !== "backfilling") return scope.state;
  const rate = rates.get(scope.scope);
  if (rate === undefined || rate <= 0 || scope.behind === null) return "backfilling";
  return `backfilling, ${Math.round(rate)} blocks/s, about ${duration((scope.behind / rate) * 1000)} left`;
}

/** The replica holding a scope's writer lock: its id, `(this)` when it answered, `-` when none holds it. */
export function writerText(scope: AdminScopeHead): string {
  const { replica, thisReplica } = scope.writer;
  if (replica === null) return thisReplica ? "(this)" : "-";
  return thisReplica ? `${replica || "?"} (this)` : replica || "?";
}

/** The status table; `bars` draws progress bars (a terminal), else the percentage alone. */
export function statusTable(
  scopes: readonly ScopeStatus[],
  { now, bars, rates = new Map() }: { now: number; bars: boolean; rates?: Rates },
): string {
  if (scopes.length === 0) return "No indexer scopes: the server follows no chain yet.\n";
  const rows = scopes.map((scope) => [
    scope.scope,
    String(scope.indexedBlock),
    scope.targetBlock === null ? "-" : String(scope.targetBlock),
    String(scope.lag),
    scope.progress === null
      ? "-"
      : bars
        ? progressBar(scope.progress)
        : `${(Math.floor(scope.progress * 1000) / 10).toFixed(1)}%`,
    scope.updatedAt === 0 ? "-" : `${duration(now - scope.updatedAt)} ago`,
    writerText(scope),
    stateText(scope, rates),
  ]);
  return table(["SCOPE", "INDEXED", "TARGET", "LAG", "PROGRESS", "UPDATED", "WRITER", "STATE"], rows);
}

/** One line per scope, for a log file or a pipe: `2026-… scope indexed=… target=… lag=… progress=…% state`. */
export function statusLines(scopes: readonly ScopeStatus[], now: number): string {
  const at = new Date(now).toISOString();
  if (scopes.length === 0) return `${at} no indexer scopes\n`;
  return scopes
    .map((scope) => {
      const progress =
        scope.progress === null ? "-" : `${(Math.floor(scope.progress * 1000) / 10).toFixed(1)}%`;
      const failure = scope.failure === "" ? "" : ` failure=${JSON.stringify(scope.failure)}`;
      return `${at} ${scope.scope} indexed=${scope.indexedBlock} target=${scope.targetBlock ?? "-"} lag=${scope.lag} progress=${progress} writer=${writerText(scope).replace(" (this)", "(this)")} ${scope.state}${failure}\n`;
    })
    .join("");
}

interface Status {
  replica: string;
  indexing: boolean;
  scopes: ScopeStatus[];
}

async function readStatus(context: Context): Promise<Status> {
  const { body } = await context.call(context.admin(), { method: "GET", path: "/admin/indexer" });
  const { replica, indexing, scopes } = shaped(adminIndexerSchema, body, "GET /admin/indexer");
  return { replica, indexing, scopes: scopes.map(scopeStatus) };
}

/** The line under the table: which replica answered, and whether it indexes. */
export const replicaLine = ({ replica, indexing }: { replica: string; indexing: boolean }) =>
  `Answered by replica ${replica}${indexing ? "" : " (indexing off: MKT_INDEXER=0)"}.\n`;

const CLEAR_SCREEN = "\x1b[2J\x1b[H";

export const statusCommand: CommandSpec = {
  words: ["status"],
  summary: "Indexer scopes, heads, lag and backfill progress (operator)",
  usage: "[--watch] [--interval <seconds>]",
  description:
    "Reads GET /admin/indexer: each indexer scope (chain, contract set), the last block indexed, the\n" +
    "block it is heading for (the chain's newest, or its last final block for a scope that reads only\n" +
    "final blocks), the lag behind the chain's newest block, the share of blocks indexed since the\n" +
    `scope's start block, and its state: live, backfilling (more than ${BACKFILL_BLOCKS} blocks behind), starting\n` +
    "(the chain not observed yet) or failing (with the indexer's error), and the replica writing it\n" +
    "(holding its writer lock; `(this)` when it is the replica that answered, `-` when none is).\n" +
    "On a terminal the progress is a bar; --watch redraws the table every interval with the backfill\n" +
    "rate and time left. Not on a terminal, --watch prints one plain line per scope per interval.\n" +
    "With --json: {replica, indexing, scopes: [{scope, chainId, startBlock, nextBlock, indexedBlock,\n" +
    "targetBlock, observedHead, lag, behind, progress, state, failure, writer, ...}]}; with --watch,\n" +
    "one such document per line (NDJSON) per interval.",
  credentials: "the operator token",
  options: {
    watch: { type: "boolean", short: "w", description: "Refresh until interrupted (Ctrl-C)" },
    interval: {
      type: "string",
      value: "<seconds>",
      description: "Seconds between refreshes, 1-3600 (default 2)",
    },
  },
  examples: ["mkt status", "mkt status --watch", "mkt status --json | jq '.scopes[] | {scope, lag}'"],
  async run(context, { values }) {
    const { io } = context;
    const intervalMs = (integerFlag(values, "interval", 1, 3600) ?? 2) * 1000;
    if (values["watch"] !== true) {
      const status = await readStatus(context);
      context.print(
        status,
        () =>
          `${statusTable(status.scopes, { now: io.now(), bars: io.stdoutIsTTY })}\n${replicaLine(status)}`,
      );
      return;
    }
    let previous: { at: number; scopes: ScopeStatus[] } | undefined;
    while (!io.signal.aborted) {
      let sample: { at: number } & Status;
      try {
        sample = { at: io.now(), ...(await readStatus(context)) };
      } catch (error) {
        // A restarting server or a dropped link is waited out; a refusal (wrong token) is final.
        const transient = error instanceof ApiError ? error.status >= 500 : error instanceof CommandError;
        if (!transient || io.signal.aborted) throw error;
        context.note(`mkt: ${(error as Error).message}; trying again in ${intervalMs / 1000} s`);
        await sleep(intervalMs, io.signal);
        continue;
      }
      if (context.json)
        context.emit({ replica: sample.replica, indexing: sample.indexing, scopes: sample.scopes }, () => "");
      else if (io.stdoutIsTTY) {
        const rates = ratesBetween(previous, sample);
        const heading = `mkt status: ${context.settings.adminUrl}, every ${intervalMs / 1000} s (Ctrl-C to stop), ${new Date(sample.at).toISOString()}\n\n`;
        io.stdout(
          `${CLEAR_SCREEN}${heading}${statusTable(sample.scopes, { now: sample.at, bars: true, rates })}\n${replicaLine(sample)}`,
        );
      } else io.stdout(statusLines(sample.scopes, sample.at));
      previous = sample;
      await sleep(intervalMs, io.signal);
    }
  },
};

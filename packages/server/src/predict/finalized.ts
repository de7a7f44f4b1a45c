import type { PredictBlock } from "@mkt/protocol";
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../db/index.ts";
import { UnavailableError } from "../errors.ts";

type Executor = Kysely<unknown> | Transaction<unknown>;

/**
 * The finalized block the predict scope's projection holds (its head row):
 * every projection row read in the same snapshot is the chain's state at its
 * end; `timestamp` is that block's time (`block_time`, kept with the head).
 * 503 while the scope has indexed nothing (or rewound and not yet re-read a block).
 */
export async function readFinalizedBlock(executor: Executor, scope: string): Promise<PredictBlock> {
  const { rows } = await sql<{
    next_block: string;
    block_hash: string | null;
    block_time: Date | string | null;
  }>`
    SELECT next_block, block_hash, block_time FROM indexer_heads WHERE scope = ${scope}`.execute(executor);
  const head = rows[0];
  if (!head || head.block_hash === null || head.block_time === null || BigInt(head.next_block) === 0n)
    throw new UnavailableError("the prediction feed's projection has no finalized block yet");
  return {
    number: (BigInt(head.next_block) - 1n).toString(),
    hash: head.block_hash,
    timestamp: new Date(head.block_time).toISOString(),
  };
}

/** Runs `read` and the head read in one repeatable-read snapshot. */
export function inFinalizedSnapshot<T>(
  db: Database,
  scope: string,
  read: (tx: Transaction<unknown>, block: PredictBlock) => Promise<T>,
): Promise<T> {
  return (db.kysely as unknown as Kysely<unknown>)
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (tx) => read(tx, await readFinalizedBlock(tx, scope)));
}

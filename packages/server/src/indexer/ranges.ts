/**
 * Range planning: which block ranges to read and how large, as pure
 * functions of what was read before. The engine holds the state (the current
 * span, the ranges planned); nothing here reads the chain or the database.
 */

/** Logs one range should bring: large enough to amortise a request, small enough for any provider's answer. */
export const TARGET_LOGS_PER_RANGE = 5_000;
/** Most logs one transaction writes when ranges read ahead are ready and join it. */
export const MAX_LOGS_PER_WRITE = 20_000;
/** Blocks of the first range: a chain's density is unknown until one range is read. */
export const INITIAL_SPAN = 16;
export const MAX_SPAN = 10_000;

export interface BlockRange {
  from: bigint;
  to: bigint;
}

export const blocksOf = (range: BlockRange) => Number(range.to - range.from + 1n);

/** The last final block: what is read ahead of its turn never goes above it. */
export const finalizedBlock = (latest: bigint, finalityDepth: number) => latest - BigInt(finalityDepth);

/**
 * The span of the next ranges after one of `blocks` blocks brought `logs`
 * logs: sized for TARGET_LOGS_PER_RANGE at that density, doubled after an
 * empty range, between 1 and `maxSpan`.
 */
export function spanAfterRead({
  span,
  blocks,
  logs,
  maxSpan,
}: {
  span: number;
  blocks: number;
  logs: number;
  maxSpan: number;
}): number {
  const sized = logs === 0 ? span * 2 : Math.floor((blocks * TARGET_LOGS_PER_RANGE) / logs);
  return Math.min(maxSpan, Math.max(1, sized));
}

/**
 * The span after a provider refused a range of `blocks` blocks (too many logs,
 * too large an answer, too slow): a tenth of it, so a few refusals reach a
 * size any provider serves. Undefined when the span is already one block:
 * the refusal is then a failure, not a size problem.
 */
export function spanAfterRefusal(span: number, blocks: number): number | undefined {
  return span > 1 ? Math.max(1, Math.floor(blocks / 10)) : undefined;
}

/**
 * The ranges to read next, from `from` on, each `span` blocks: at most
 * `count`, none past `latest`. Ranges read `ahead` of their turn end at the
 * finalised block and none starts above it, so what is read ahead can never be
 * reorganised away; the range about to be written may reach `latest`.
 */
export function planRanges({
  from,
  latest,
  finalized,
  span,
  count,
  ahead,
}: {
  from: bigint;
  latest: bigint;
  finalized: bigint;
  span: number;
  count: number;
  ahead: boolean;
}): BlockRange[] {
  const ranges: BlockRange[] = [];
  while (ranges.length < count && from <= latest) {
    let to = from + BigInt(span) - 1n;
    if (to > latest) to = latest;
    if (ahead) {
      if (from > finalized) break;
      if (to > finalized) to = finalized;
    }
    ranges.push({ from, to });
    from = to + 1n;
  }
  return ranges;
}

/**
 * The blocks whose headers a range needs before it is written: every block
 * with logs (their times), the first (to check it follows the head), the last
 * (the head's new hash) and every block of the unfinalised window (kept to
 * detect reorgs). Unsorted, may repeat.
 */
export function headerBlocks(
  range: BlockRange,
  blocksWithLogs: readonly bigint[],
  finalized: bigint,
): bigint[] {
  const numbers = [...blocksWithLogs, range.from, range.to];
  for (let n = range.from > finalized ? range.from : finalized + 1n; n <= range.to; n++) numbers.push(n);
  return numbers;
}

/** Whether a range read ahead may join the write of `logs` logs. */
export const canJoin = (logs: number, moreLogs: number) => logs + moreLogs <= MAX_LOGS_PER_WRITE;

/**
 * The block above which a write's changes are undoable (undo log, block
 * hashes kept), or null when the whole range up to `to` is final.
 */
export const undoableAbove = (finalized: bigint, to: bigint): bigint | null =>
  finalized < to ? finalized : null;

/** The last block the head says is indexed, if any: the one whose hash tells a reorg. */
export function indexedBlock(head: { nextBlock: bigint; blockHash: string | null }, startBlock: bigint) {
  return head.blockHash && head.nextBlock > startBlock ? head.nextBlock - 1n : undefined;
}

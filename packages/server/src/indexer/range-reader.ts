import { createLogDecoder } from "./decode.ts";
import type { Discovered, IndexedLog, Projection } from "./projection.ts";
import {
  type BlockRange,
  blocksOf,
  canJoin,
  headerBlocks,
  INITIAL_SPAN,
  MAX_SPAN,
  planRanges,
  spanAfterRead,
  spanAfterRefusal,
} from "./ranges.ts";
import type { BlockHeader, ChainRpc, RpcLog } from "./rpc.ts";

/** The chain changed under a read: not a failure, the next step checks for a reorg and reads again. */
export class ChainMovedError extends Error {
  override readonly name = "ChainMovedError";
}

export interface DecodedLog {
  /** `blockTime` is set from the block's header when the range is written. */
  log: IndexedLog;
  contract: Discovered;
}

/**
 * A contract a log of the range created, with that log's block: a rollback to
 * a fork at or above it keeps it known.
 */
export interface CreatedContract extends Discovered {
  block: bigint;
}

/** The block time of a decoded log until its header is read. */
const UNKNOWN_TIME = new Date(0);

/** One block range read from the chain. */
export interface FetchedRange extends BlockRange {
  /** Decoded logs; in chain order once the range is complete. */
  logs: DecodedLog[];
  headers: Map<bigint, BlockHeader>;
  /** Contracts created inside the range, in creation order. */
  created: CreatedContract[];
  /** Addresses whose logs over the range were read. */
  queried: Set<string>;
}

interface PlannedRange extends BlockRange {
  fetched: Promise<FetchedRange>;
  /** Set once read. */
  ready?: FetchedRange;
}

/**
 * The contracts whose logs a scope reads: the deployment's, and those created
 * by written ranges (reloaded from `indexer_contracts`) or by the range being
 * written. After a failed write it may hold contracts no written range
 * created: it is then `stale` and reloaded before the next step.
 */
export class KnownContracts {
  private readonly byAddress = new Map<string, Discovered>();
  private readonly seeds: Discovered[];
  stale = false;

  constructor(seeds: readonly Discovered[]) {
    this.seeds = [...seeds];
    this.reset([]);
  }

  /** More contracts of the deployment (found through views): known from now on, like the first seeds. */
  seed(contracts: readonly Discovered[]): void {
    for (const contract of contracts) {
      this.seeds.push(contract);
      this.byAddress.set(contract.address, contract);
    }
  }

  /** The deployment's contracts and `created`. */
  reset(created: readonly Discovered[]): void {
    this.byAddress.clear();
    for (const contract of this.seeds) this.byAddress.set(contract.address, contract);
    for (const contract of created) this.byAddress.set(contract.address, contract);
    this.stale = false;
  }

  add(contract: Discovered): void {
    this.byAddress.set(contract.address, contract);
  }

  has(address: string): boolean {
    return this.byAddress.has(address);
  }

  /** The live map: what a range being completed discovers joins it at once. */
  live(): Map<string, Discovered> {
    return this.byAddress;
  }

  /** A copy, for ranges read ahead: what they discover stays theirs until their turn. */
  copy(): Map<string, Discovered> {
    return new Map(this.byAddress);
  }
}

/** Chain order: block, then log index. */
export const byChainOrder = (a: DecodedLog, b: DecodedLog) =>
  a.log.blockNumber === b.log.blockNumber
    ? a.log.logIndex - b.log.logIndex
    : a.log.blockNumber < b.log.blockNumber
      ? -1
      : 1;

export interface RangeReader {
  /**
   * The range to write next, starting at `next` (read now unless it was
   * read ahead); the ranges after it start being read meanwhile.
   */
  take(next: bigint, latest: bigint, finalized: bigint): PlannedRange;
  /** Keeps `readAhead` ranges being read after `to`. */
  readAfter(to: bigint, latest: bigint, finalized: bigint): void;
  /** The next range read ahead, if it is ready and small enough to join a write of `logs` logs. */
  takeJoinable(logs: number): FetchedRange | undefined;
  /** Forgets the ranges read ahead. */
  drop(): void;
  /** After a provider refused `range`: false when the span cannot shrink any more. */
  shrink(range: BlockRange): boolean;
  /** The blocks a range spans now: grows after small reads, shrinks after a provider refused one. */
  readonly span: number;
  /**
   * Completes a range when its turn comes: the logs of contracts discovered
   * since it was read (by earlier ranges), the headers it needs, and the
   * check that logs and headers are of one chain.
   */
  complete(range: FetchedRange, finalized: bigint): Promise<void>;
  /** Appends a completed range to the completed range it follows. */
  join(range: FetchedRange, following: FetchedRange): void;
  /** Decodes the logs of a receipt with the contracts known now. */
  decodeAll(raw: readonly RpcLog[]): DecodedLog[];
}

/**
 * Reads and decodes block ranges of one scope, with the read-ahead queue:
 * while one range is written, the next finalised ranges are already read
 * (`readAhead` of them). Sizes come from ranges.ts; the span adapts to the log
 * density after every read and shrinks when a provider refuses a range.
 *
 * Invariants:
 * - A range is read with the contracts known when it was planned; contracts
 *   that earlier ranges discovered meanwhile are read when its turn comes
 *   (`complete`), so reading ahead gives the projection of reading one range
 *   at a time.
 * - A range is written only if every log's block hash matches its header and
 *   its last block is still the one read (`complete`), it follows the range
 *   it joins (`join`) and the head's block (checked by the writer).
 * - Planned ranges always start where the head continues; `drop` forgets them
 *   (on a reorg, reset, failure or when caught up). Their reads run on but
 *   are never used.
 */
export function createRangeReader({
  rpc,
  projection,
  contracts,
  initialRange = INITIAL_SPAN,
  maxRange = MAX_SPAN,
  readAhead = 2,
}: {
  rpc: ChainRpc;
  projection: Projection;
  contracts: KnownContracts;
  initialRange?: number | undefined;
  maxRange?: number | undefined;
  readAhead?: number | undefined;
}): RangeReader {
  /** Blocks per range: sized by log density, shrunk tenfold when a provider refuses. */
  let span = Math.min(maxRange, initialRange);
  let planned: PlannedRange[] = [];
  const decoders = new Map(
    Object.entries(projection.abis).map(([kind, abi]) => [kind, createLogDecoder(abi)]),
  );

  // Logs of one block (and of one transaction) share these strings: one copy each is kept.
  let lastBlockHash = "";
  let lastTransactionHash = "";
  const decode = (raw: RpcLog, known: Map<string, Discovered>): DecodedLog | undefined => {
    const contract = known.get(raw.address.toLowerCase());
    if (!contract || raw.blockNumber === null || raw.logIndex === null) return undefined;
    if (contract.from !== undefined && BigInt(raw.blockNumber) < contract.from) return undefined;
    const decodeWith = decoders.get(contract.kind);
    if (!decodeWith) return undefined;
    try {
      const decoded = decodeWith(raw.data, raw.topics);
      if (!decoded) return undefined;
      if (raw.blockHash !== lastBlockHash) lastBlockHash = String(raw.blockHash);
      if (raw.transactionHash !== lastTransactionHash) lastTransactionHash = String(raw.transactionHash);
      return {
        contract,
        log: {
          address: contract.address,
          event: decoded.eventName,
          args: decoded.args,
          blockNumber: BigInt(raw.blockNumber),
          blockHash: lastBlockHash,
          blockTime: UNKNOWN_TIME,
          logIndex: Number(raw.logIndex),
          transactionHash: lastTransactionHash,
        },
      };
    } catch {
      // A log this ABI does not describe (an approval, say): not part of the projection.
      return undefined;
    }
  };

  /**
   * Reads the logs of `addresses` over the range (those not read yet), and
   * the logs of the contracts they create; `known` learns those contracts.
   */
  const readLogs = async (
    range: FetchedRange,
    addresses: Iterable<string>,
    known: Map<string, Discovered>,
  ) => {
    let pending = [...addresses].filter((address) => !range.queried.has(address));
    while (pending.length > 0) {
      for (const address of pending) range.queried.add(address);
      const raw = await rpc.getLogs(pending, range.from, range.to);
      const fresh: string[] = [];
      for (const entry of raw) {
        const decoded = decode(entry, known);
        if (!decoded) continue;
        range.logs.push(decoded);
        for (const child of projection.creates(decoded.log, decoded.contract)) {
          if (known.has(child.address)) continue;
          known.set(child.address, child);
          range.created.push({ ...child, block: decoded.log.blockNumber });
          fresh.push(child.address);
        }
      }
      pending = fresh;
    }
  };

  /** Reads the headers of these blocks that the range does not have yet. */
  const readHeaders = async (range: FetchedRange, numbers: Iterable<bigint>) => {
    const missing = [...new Set(numbers)].filter((number) => !range.headers.has(number));
    await Promise.all(
      missing.map(async (number) => {
        const found = await rpc.header(number);
        if (!found) throw new ChainMovedError(`block ${number} is gone`);
        range.headers.set(number, found);
      }),
    );
  };

  const blocksWithLogs = (range: FetchedRange) => range.logs.map((entry) => entry.log.blockNumber);

  /** Starts reading a range with the contracts known now, on a copy (see the invariants). */
  const readRange = ({ from, to }: BlockRange): PlannedRange => {
    const range: FetchedRange = { from, to, logs: [], headers: new Map(), created: [], queried: new Set() };
    const known = contracts.live();
    const fetched = (async () => {
      await readLogs(range, known.keys(), contracts.copy());
      span = spanAfterRead({ span, blocks: blocksOf(range), logs: range.logs.length, maxSpan: maxRange });
      await readHeaders(range, [...blocksWithLogs(range), to]);
      return range;
    })();
    const entry: PlannedRange = { from, to, fetched };
    // A failure is reported when the range's turn comes, or never if it is dropped.
    fetched.then(
      (ready) => {
        entry.ready = ready;
      },
      () => {},
    );
    return entry;
  };

  /** Plans up to `count` ranges from `next` on (ranges planned before that do not start there are dropped). */
  const plan = (next: bigint, latest: bigint, finalized: bigint, count: number, ahead: boolean) => {
    if (planned[0] && planned[0].from !== next) planned = [];
    const from = planned.length > 0 ? planned[planned.length - 1]!.to + 1n : next;
    const ranges = planRanges({ from, latest, finalized, span, count: count - planned.length, ahead });
    for (const range of ranges) planned.push(readRange(range));
  };

  return {
    take(next: bigint, latest: bigint, finalized: bigint): PlannedRange {
      plan(next, latest, finalized, 1, false);
      const current = planned.shift()!;
      plan(current.to + 1n, latest, finalized, readAhead, true);
      return current;
    },

    readAfter(to: bigint, latest: bigint, finalized: bigint): void {
      plan(to + 1n, latest, finalized, readAhead, true);
    },

    takeJoinable(logs: number): FetchedRange | undefined {
      const ready = planned[0]?.ready;
      if (!ready || !canJoin(logs, ready.logs.length)) return undefined;
      planned.shift();
      return ready;
    },

    drop(): void {
      planned = [];
    },

    shrink(range: BlockRange): boolean {
      const smaller = spanAfterRefusal(span, blocksOf(range));
      if (smaller === undefined) return false;
      span = smaller;
      return true;
    },

    get span(): number {
      return span;
    },

    async complete(range: FetchedRange, finalized: bigint): Promise<void> {
      for (const contract of range.created) if (!contracts.has(contract.address)) contracts.add(contract);
      const known = contracts.live();
      await readLogs(range, known.keys(), known);
      range.logs.sort(byChainOrder);
      await readHeaders(range, headerBlocks(range, blocksWithLogs(range), finalized));
      for (const entry of range.logs) {
        if (range.headers.get(entry.log.blockNumber)?.hash !== entry.log.blockHash) {
          throw new ChainMovedError(`block ${entry.log.blockNumber} changed while reading logs`);
        }
      }
      // The range may have been read a while ago (ahead of its turn): its last block must still be
      // the one read with its logs, so that no block of the range changed since.
      const last = await rpc.header(range.to);
      if (last?.hash !== range.headers.get(range.to)?.hash) {
        throw new ChainMovedError(`blocks up to ${range.to} changed since they were read`);
      }
    },

    join(range: FetchedRange, following: FetchedRange): void {
      if (following.headers.get(following.from)!.parentHash !== range.headers.get(range.to)!.hash) {
        throw new ChainMovedError(`block ${following.from} does not follow block ${range.to}`);
      }
      range.to = following.to;
      for (const entry of following.logs) range.logs.push(entry);
      for (const [number, header] of following.headers) range.headers.set(number, header);
      for (const contract of following.created) range.created.push(contract);
    },

    decodeAll(raw: readonly RpcLog[]): DecodedLog[] {
      const known = contracts.live();
      return raw.map((entry) => decode(entry, known)).filter((entry) => entry !== undefined);
    },
  };
}

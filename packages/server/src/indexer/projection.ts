import type { Abi, ContractEventArgsFromTopics, ContractEventName, Hex, PublicClient } from "viem";
import type { BatchStore, Row, StateTableName } from "./store.ts";

/**
 * One decoded log, as the engine carries it. Addresses are lowercase; uint values of more than 48
 * bits bigint. Handlers see it typed from their ABI (`EventLog`).
 */
export interface IndexedLog {
  address: string;
  event: string;
  args: Record<string, unknown>;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date;
  logIndex: number;
  transactionHash: string;
}

export interface Discovered {
  address: string;
  kind: string;
  /** The contract this one belongs to (a booster token's drop). */
  parent?: string | null;
  /** What the creating log named it (a registered ClaimDrops: its runtime id). */
  label?: string | null;
  /**
   * The first block whose logs of this contract are indexed (a drop listed by address, and its
   * token: the listed start block); its logs of earlier blocks are ignored. Absent: every block the
   * scope reads.
   */
  from?: bigint;
}

/** A contract view read through the scope's RPC, at the latest block (`ChainRpc.readContract`). */
export type ReadContract = PublicClient["readContract"];

/** A state row a handler reads, loaded in bulk before its batch is applied. */
export interface Preload {
  table: StateTableName;
  key: Row;
}

/**
 * What one scope indexes and how its logs change the projection: one
 * implementation per generation (classic-projection.ts, market-projection.ts,
 * predict-projection.ts), each declaring one handler per event it acts on
 * (`contractHandlers`, `dispatchByKind`). The engine knows nothing of any generation: it reads
 * the logs of `contracts` and of what `creates` discovers, and apply.ts hands
 * each handled log to `apply` after loading what `preloads` declares.
 *
 * Invariants a projection keeps:
 * - `creates` depends on the log alone: it runs when the log is read, possibly
 *   ranges ahead of the write, so the new contracts' logs are read in the same
 *   range.
 * - Every row `apply` reads with `store.get` is declared by `preloads` of that
 *   log, or was put by an earlier log of the same batch (a game created and
 *   minted in one range). `store.get` of anything else throws.
 * - `apply` records a log in at most one append table (a claim, a trade); a
 *   log for which it appends nothing is recorded in `chain_events` by apply.ts.
 *   State rows are written only through `store.put`, so reorgs can undo them.
 */
export interface Projection {
  /** `head.scope`, built by chains/roles.ts `scopeIds`. */
  id: string;
  generation: "classic" | "runtime" | "predict";
  chainId: number;
  startBlock: bigint;
  finalityDepth: number;
  /**
   * How far the scope indexes: `latest` (default) follows the chain's newest
   * block and undoes reorgs through the unfinalised window; `finalized` stops
   * at `latest - finalityDepth`, so every row is the chain's state at a final
   * block and nothing is ever undone short of a reorg deeper than the depth
   * (which resets the scope). The head's `observed_head` still records the
   * chain's newest block, so the lag stays visible.
   */
  reads?: "latest" | "finalized";
  /** Contracts known from the deployment. */
  contracts: Discovered[];
  /**
   * Contracts of the deployment that only a view names (a listed drop's token, its
   * `boosterTokenAddress()`): read before the scope's first range is read, then indexed like
   * `contracts`. A rejection fails the step, which is retried; nothing is read before it succeeds.
   */
  resolveContracts?(read: ReadContract): Promise<Discovered[]>;
  /**
   * Reads from contract views what `apply` needs for these logs beyond what they carry (a drop's
   * offers and tokens per mint), so that `apply` stays synchronous: called with each range's logs
   * (and a recovered transaction's) after they are read and before they are applied, outside the
   * write's transaction. A rejection fails the step exactly as a failed log read does: the range is
   * read again and nothing of it is written.
   */
  prefetch?(logs: readonly { log: IndexedLog; contract: Discovered }[], read: ReadContract): Promise<void>;
  /** The ABI of each contract kind: the logs that are decoded and recorded. */
  abis: Record<string, Abi>;
  /**
   * Events `apply` acts on, by contract kind: those it has a handler for (`dispatchByKind`); other
   * decoded logs are only recorded in `chain_events`.
   */
  handles: Record<string, readonly string[]>;
  /** Contracts this log creates (a factory's games and markets). */
  creates(log: IndexedLog, contract: Discovered): Discovered[];
  /** State rows `apply` reads for this log. */
  preloads(log: IndexedLog, contract: Discovered): Preload[];
  /**
   * State rows `apply` reads for this log that only rows of `preloads` name (the packs of an open
   * batch): called once those are loaded, reading them with `store.get`.
   */
  preloadsAfter?(store: BatchStore, log: IndexedLog, contract: Discovered): Preload[];
  /** Applies one handled log through the batch's store: its event's handler. */
  apply(store: BatchStore, log: IndexedLog, contract: Discovered): void;
}

/**
 * A log of event `N` of `A`, as that event's handler sees it: `args` are its decoded arguments, typed
 * from the `as const` ABI (uint values of more than 48 bits bigint, narrower ones number). Without
 * `N`, the union of `A`'s events, which `switch (log.event)` narrows.
 */
export type EventLog<A extends Abi, N extends ContractEventName<A> = ContractEventName<A>> = {
  [E in N]: Omit<IndexedLog, "event" | "args"> & { event: E; args: ContractEventArgsFromTopics<A, E> };
}[N];

/**
 * A decoded value as `chain_events.args` keeps it (JSON): uint values of more than 48 bits as
 * decimal strings, arrays element by element, tuples field by field.
 */
export type StoredValue<T> = T extends bigint
  ? string
  : T extends readonly unknown[] | Record<string, unknown>
    ? { [K in keyof T]: StoredValue<T[K]> }
    : T;

/**
 * A log of event `N` of `A` as read back from `chain_events`: its name and its stored arguments,
 * typed from the `as const` ABI. Without `N`, the union of `A`'s events, which `switch (event)`
 * narrows.
 */
export type StoredEvent<A extends Abi, N extends ContractEventName<A> = ContractEventName<A>> = {
  [E in N]: { event: E; args: StoredValue<ContractEventArgsFromTopics<A, E>> };
}[N];

/** The handler of event `N` of `A`: applies one log through the batch's store, with what its kind's handlers share. */
export type EventHandler<A extends Abi, N extends ContractEventName<A>, C> = (
  store: BatchStore,
  log: EventLog<A, N>,
  context: C,
) => void;

/** One handler per event of `A` that the projection acts on; logs of other events are only recorded. */
export type EventHandlers<A extends Abi, C> = { [N in ContractEventName<A>]?: EventHandler<A, N, C> };

/** The logs of one contract kind: the ABI they are decoded with and one handler per event it acts on. */
export interface ContractHandlers<A extends Abi, C> {
  abi: A;
  /**
   * What every handler of the kind is given beside the log (a drop's game and the helpers that
   * change it), computed before the handler runs; `undefined` when the log changes nothing.
   */
  context(store: BatchStore, log: EventLog<A>, contract: Discovered): C | undefined;
  on: EventHandlers<A, C>;
  /** Contracts a log of the kind creates (a factory's games and markets); none when absent. */
  creates?(log: EventLog<A>, contract: Discovered): Discovered[];
  /** State rows the handler of this log reads (`Projection.preloads`); none when absent. */
  preloads?(log: EventLog<A>, contract: Discovered): Preload[];
  /** State rows that only rows of `preloads` name (`Projection.preloadsAfter`); none when absent. */
  preloadsAfter?(store: BatchStore, log: EventLog<A>, contract: Discovered): Preload[];
}

/** A contract kind's handlers as the engine sees them: the events handled, and the kind's steps of `Projection`. */
export interface KindHandlers extends Pick<Projection, "creates" | "preloads" | "preloadsAfter" | "apply"> {
  abi: Abi;
  events: readonly string[];
}

/**
 * A log of a contract whose logs are decoded with `abi`, typed as the union of its events. The one
 * place a decoded log meets its ABI's types: `createLogDecoder(abi)` produced its `event` and `args`.
 */
export const eventLog = <A extends Abi>(_abi: A, log: IndexedLog): EventLog<A> => log as EventLog<A>;

/** Erases the types of one kind's handlers for the engine; its events are the keys of `on`. */
export function contractHandlers<const A extends Abi, C>({
  abi,
  context,
  on,
  creates,
  preloads,
  preloadsAfter,
}: ContractHandlers<A, C>): KindHandlers {
  return {
    abi,
    events: Object.keys(on),
    creates: (log, contract) => creates?.(eventLog(abi, log), contract) ?? [],
    preloads: (log, contract) => preloads?.(eventLog(abi, log), contract) ?? [],
    // Only a kind that declares it gets a second loading pass.
    ...(preloadsAfter && {
      preloadsAfter: (store, log, contract) => preloadsAfter(store, eventLog(abi, log), contract),
    }),
    apply(store, log, contract) {
      const typed = eventLog(abi, log);
      // The handler of the log's event takes that event's log: `on` maps each name to its own.
      const handler = on[typed.event] as EventHandler<A, ContractEventName<A>, C> | undefined;
      if (!handler) return;
      const shared = context(store, typed, contract);
      if (shared !== undefined) handler(store, typed, shared);
    },
  };
}

/**
 * The ABIs, handled events and per-log steps of a projection from its handlers by contract kind:
 * the events it handles are exactly those it has a handler for, and each step of a log is its
 * contract kind's (nothing for a kind without handlers).
 */
export function dispatchByKind(
  kinds: Record<string, KindHandlers>,
): Pick<Projection, "abis" | "handles" | "creates" | "preloads" | "preloadsAfter" | "apply"> {
  const entries = Object.entries(kinds);
  return {
    abis: Object.fromEntries(entries.map(([kind, { abi }]) => [kind, abi])),
    handles: Object.fromEntries(entries.map(([kind, { events }]) => [kind, events])),
    creates: (log, contract) => kinds[contract.kind]?.creates(log, contract) ?? [],
    preloads: (log, contract) => kinds[contract.kind]?.preloads(log, contract) ?? [],
    // A projection none of whose kinds declares `preloadsAfter` has no second loading pass.
    ...(entries.some(([, handlers]) => handlers.preloadsAfter) && {
      preloadsAfter: (store: BatchStore, log: IndexedLog, contract: Discovered) =>
        kinds[contract.kind]?.preloadsAfter?.(store, log, contract) ?? [],
    }),
    apply(store, log, contract) {
      kinds[contract.kind]?.apply(store, log, contract);
    },
  };
}

/** An address or other hex value lowercase, as the projection keeps every one. */
export const lowercase = (value: Hex): string => value.toLowerCase();

/** A uint column of a state row (a decimal string) as a bigint. */
export const uintOf = (row: Row, column: string): bigint => BigInt(row[column] as string | bigint);

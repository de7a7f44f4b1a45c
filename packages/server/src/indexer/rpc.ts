import {
  BaseError,
  createPublicClient,
  type Hex,
  http,
  LimitExceededRpcError,
  numberToHex,
  type PublicClient,
  ResponseBodyTooLargeError,
  TimeoutError,
} from "viem";

/** A log as JSON-RPC returns it (eth_getLogs, receipts): quantities in hex, not formatted by viem. */
export interface RpcLog {
  address: string;
  topics: readonly Hex[];
  data: Hex;
  blockNumber: Hex | null;
  blockHash: Hex | null;
  logIndex: Hex | null;
  transactionHash: Hex | null;
}

export interface BlockHeader {
  hash: string;
  parentHash: string;
  time: Date;
}

/**
 * The chain's RPC could not answer a call: unreachable, timed out, or it answered an error. The RPC
 * boundary's one failure, as `DatabaseUnavailableError` is the database's: retrying later may help,
 * and a route that meets it answers 503 with `Retry-After`. Its message is the RPC's own short one
 * (never the request URL, which may hold a provider key).
 */
export class RpcUnavailableError extends Error {
  override readonly name: string = "RpcUnavailableError";
  readonly retryable = true;
  constructor(cause: unknown) {
    super(describeFailure(cause), { cause });
  }
}

/**
 * Reading contract views failed (`Projection.resolveContracts`, `Projection.prefetch`): the step
 * fails as a failed log read does and is retried, and a route answers 503; the message says what
 * was being read.
 */
export class ViewReadError extends RpcUnavailableError {
  override readonly name = "ViewReadError";
  constructor(cause: unknown) {
    super(cause);
    this.message = `reading contract views: ${describeFailure(cause)}`;
  }
}

/** Runs one RPC call; any failure becomes an `RpcUnavailableError`. */
async function rpcCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new RpcUnavailableError(error);
  }
}

/**
 * The JSON-RPC calls the indexer makes, raw: no viem formatting of logs,
 * which costs more than decoding them. Nothing here retries (viem's own
 * retries are off): a failed call fails the engine's step, which retries the
 * whole step with `retryDelay`, records the failure in the head row and drops
 * what it read ahead.
 */
export interface ChainRpc {
  /** A block's header, or undefined when the chain has no such block. */
  header(blockNumber: bigint): Promise<BlockHeader | undefined>;
  /** The chain's newest block number. */
  latestBlock(): Promise<bigint>;
  /** The logs of `addresses` in blocks `from` to `to`, both included. */
  getLogs(addresses: readonly string[], from: bigint, to: bigint): Promise<RpcLog[]>;
  /**
   * A transaction's receipt; undefined when the RPC answers that it has no such transaction. An RPC
   * that cannot answer rejects with `RpcUnavailableError`, never "not found".
   */
  receipt(hash: Hex): Promise<{ blockNumber: bigint; logs: RpcLog[] } | undefined>;
  /** A contract view at the latest block (`eth_call`); calls made together travel in one batch. */
  readContract: PublicClient["readContract"];
}

export function createChainRpc({
  rpcUrl,
  client,
}: {
  rpcUrl: string;
  client?: PublicClient | undefined;
}): ChainRpc {
  const transport = (batch: boolean) =>
    http(rpcUrl, { retryCount: 0, ...(batch ? { batch: { batchSize: 200 } } : {}) });
  // Headers are many small requests: batched. Log ranges are few large ones: each on its own
  // connection, so answers arrive (and are decoded) one by one.
  const small = client ?? (createPublicClient({ transport: transport(true) }) as PublicClient);
  const large = client ?? (createPublicClient({ transport: transport(false) }) as PublicClient);
  return {
    async header(blockNumber) {
      const block = await rpcCall(() =>
        small.request({ method: "eth_getBlockByNumber", params: [numberToHex(blockNumber), false] }),
      );
      if (!block?.hash) return undefined;
      return {
        hash: block.hash,
        parentHash: block.parentHash,
        time: new Date(Number(BigInt(block.timestamp)) * 1000),
      };
    },
    latestBlock: async () => BigInt(await rpcCall(() => small.request({ method: "eth_blockNumber" }))),
    getLogs: async (addresses, from, to) =>
      (await large.request({
        method: "eth_getLogs",
        params: [{ address: addresses as Hex[], fromBlock: numberToHex(from), toBlock: numberToHex(to) }],
      })) as RpcLog[],
    async receipt(hash) {
      const receipt = await rpcCall(() =>
        small.request({ method: "eth_getTransactionReceipt", params: [hash] }),
      );
      return receipt
        ? { blockNumber: BigInt(receipt.blockNumber), logs: receipt.logs as RpcLog[] }
        : undefined;
    },
    readContract: small.readContract,
  };
}

/** Provider answers that say the requested log range is too large (wording differs per provider). */
const RANGE_ERROR = /range|too many|limit exceeded|exceed|response size|10000 results|block range/i;

/** True when a failed eth_getLogs asked for too much: too many logs, too large an answer, or too slow. */
export function isRangeTooLarge(error: unknown): boolean {
  if (error instanceof BaseError) {
    const cause = error.walk(
      (inner) =>
        inner instanceof ResponseBodyTooLargeError ||
        inner instanceof TimeoutError ||
        inner instanceof LimitExceededRpcError,
    );
    if (cause) return true;
  }
  return RANGE_ERROR.test(error instanceof Error ? error.message : String(error));
}

/**
 * One line saying why indexing failed. viem errors carry a short message and
 * the provider's details; their full message also names the request URL,
 * which may hold a provider API key, so it is never used.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof BaseError)
    return error.details ? `${error.shortMessage}: ${error.details}` : error.shortMessage;
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  return String(error);
}

/** Wait before the first retry of a failed step; doubled after each failure up to `MAX_RETRY_DELAY_MS`. */
export const FIRST_RETRY_DELAY_MS = 250;
export const MAX_RETRY_DELAY_MS = 30_000;

/** The wait after one more failure. */
export const retryDelay = (previousMs: number) => Math.min(MAX_RETRY_DELAY_MS, previousMs * 2);

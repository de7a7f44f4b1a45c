import type { Address, TransactionReceipt } from "viem";
import { encodeAbiParameters, hexToBigInt, keccak256, numberToHex } from "viem";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import type { ChainClients } from "./clients.ts";
import { waitForSuccess } from "./clients.ts";
import { entropyProviderAbi } from "./generated/abis.ts";
import type { ChainLogger } from "./logger.ts";
import type { Repeating } from "./repeat.ts";
import { repeatEvery } from "./repeat.ts";

/** The fee the dev EntropyProvider charges per request (0.00002 ETH), as Pyth Entropy charges on Base. */
export const DEV_ENTROPY_FEE = 20_000_000_000_000n;

export interface FulfilledRequest {
  /** The request's sequence number. */
  requestId: bigint;
  /** The answer as a uint256; the contracts carry it as the bytes32 of the same bits. */
  randomNumber: bigint;
  /** Carries the drop's RandomnessFulfilled and RarityAssigned logs. */
  receipt: TransactionReceipt;
}

export interface FulfilEntropyOptions {
  clients: ChainClients;
  entropyProvider: Address;
  /** Seeds the random numbers, so a seeded demo replays the same rarities. */
  seed?: bigint;
  /** Caps the transactions sent in one call. */
  maxRequests?: number;
  logger?: ChainLogger;
}

/** The number the dev fulfiller answers request `requestId` with: keccak256(abi.encode(seed, requestId)). */
export function entropyFor(seed: bigint, requestId: bigint): bigint {
  return hexToBigInt(
    keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [seed, requestId])),
  );
}

/**
 * Answers every pending randomness request of the EntropyProvider from the fulfiller account, oldest
 * first, waiting for each receipt; the provider then calls back the requesting drop, which assigns the
 * open batch's rarities in the same transaction. A request whose callback reverts is logged and skipped, so
 * one broken consumer cannot hold up the others.
 */
export async function fulfilEntropy(options: FulfilEntropyOptions): Promise<FulfilledRequest[]> {
  const { clients, entropyProvider } = options;
  const seed = options.seed ?? 0n;
  const maxRequests = options.maxRequests ?? 100;
  const read = { address: entropyProvider, abi: entropyProviderAbi } as const;
  const [oldestPending, requestCount] = await Promise.all([
    clients.publicClient.readContract({ ...read, functionName: "oldestPending" }),
    clients.publicClient.readContract({ ...read, functionName: "requestCount" }),
  ]);
  const wallet = clients.wallet(DEV_ACCOUNT_ROLES.entropyFulfiller);
  const fulfilled: FulfilledRequest[] = [];
  for (
    let requestId = oldestPending;
    requestId <= requestCount && fulfilled.length < maxRequests;
    requestId++
  ) {
    const [, , done] = await clients.publicClient.readContract({
      ...read,
      functionName: "requests",
      args: [requestId],
    });
    if (done) continue;
    const randomNumber = entropyFor(seed, requestId);
    try {
      const hash = await wallet.writeContract({
        ...read,
        functionName: "fulfil",
        args: [requestId, numberToHex(randomNumber, { size: 32 })],
      });
      fulfilled.push({ requestId, randomNumber, receipt: await waitForSuccess(clients.publicClient, hash) });
    } catch (error) {
      options.logger?.warn({
        msg: "entropy request not fulfilled",
        requestId: requestId.toString(),
        err: String(error),
      });
    }
  }
  return fulfilled;
}

/**
 * Keeps fulfilling randomness requests every `intervalMs`, for dev chains running without the demo
 * simulator (which fulfils on its own; run only one of the two, they share the fulfiller account).
 */
export function startEntropyFulfiller(
  options: Omit<FulfilEntropyOptions, "maxRequests"> & { intervalMs?: number },
): Repeating {
  return repeatEvery(
    options.intervalMs ?? 1000,
    async () => {
      const done = await fulfilEntropy(options);
      if (done.length > 0) {
        options.logger?.debug({
          msg: "entropy fulfilled",
          requestIds: done.map((d) => d.requestId.toString()),
        });
      }
    },
    (error) => options.logger?.warn({ msg: "entropy fulfilment failed", err: String(error) }),
  );
}

import { DEFAULT_ODDS_BPS, dropFactoryAbi, liveDropCreatorAbi } from "@mkt/chain";
import {
  createPublicClient,
  type Hex,
  http,
  type PublicClient,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from "viem";
import { UnavailableError } from "../../errors.ts";

/**
 * A game a deployment transaction created, as confirm checks it: the live `DropCreated` (creator,
 * addresses, names) with our `DropConfigured` of the same drop (game id, allowlist root, odds).
 */
export interface GameDeployment {
  gameId: bigint;
  drop: string;
  token: string;
  creator: string;
  nftName: string;
  nftSymbol: string;
  tokenName: string;
  tokenSymbol: string;
  merkleRoot: string;
  oddsBps: number[];
}

export type DeploymentReceipt =
  | { found: false }
  | { found: true; reverted: boolean; from: string; games: GameDeployment[] };

/** Reads a deployment transaction's receipt on the classic chain. */
export interface DeploymentReader {
  /** The chain whose receipts it reads. */
  chainId: number;
  /** The drop factory (lowercase) whose `DropCreated` logs count. */
  factory: string;
  /** What a creation transaction deployed, from its receipt's `DropCreated` logs of our factory; `found: false` without a receipt. */
  read(txHash: Hex): Promise<DeploymentReceipt>;
}

/**
 * The classic chain's deployments through its RPC: the receipt, and the
 * `DropCreated` logs emitted by our factory only (a log of the same shape
 * from another contract is ignored), each completed by the factory's
 * `DropConfigured` of the same drop. A `DropCreated` without one (a creation
 * contract that only speaks the live interface) has game id 0, no allowlist
 * and the default odds, as such a drop has. An RPC failure is a 503 (retry), never
 * "no receipt".
 */
export function createDeploymentReader({
  rpcUrl,
  chainId,
  factory,
  client,
}: {
  rpcUrl: string;
  chainId: number;
  factory: string;
  client?: PublicClient;
}): DeploymentReader {
  const rpc = client ?? (createPublicClient({ transport: http(rpcUrl, { retryCount: 1 }) }) as PublicClient);
  const ours = factory.toLowerCase();
  return {
    chainId,
    factory: ours,
    async read(txHash) {
      let receipt: Awaited<ReturnType<PublicClient["getTransactionReceipt"]>>;
      try {
        receipt = await rpc.getTransactionReceipt({ hash: txHash });
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return { found: false };
        throw new UnavailableError("the classic chain's RPC could not be read", { cause: error });
      }
      const logs = receipt.logs.filter((log) => log.address.toLowerCase() === ours);
      const configured = new Map(
        parseEventLogs({ abi: dropFactoryAbi, logs, eventName: "DropConfigured" }).map(({ args }) => [
          args.dropContract.toLowerCase(),
          args,
        ]),
      );
      const games = parseEventLogs({ abi: liveDropCreatorAbi, logs, eventName: "DropCreated" }).map(
        ({ args }): GameDeployment => {
          const drop = args.dropContract.toLowerCase();
          const config = configured.get(drop);
          return {
            gameId: config?.gameId ?? 0n,
            drop,
            token: args.tokenContract.toLowerCase(),
            creator: args.creator.toLowerCase(),
            nftName: args.nftName,
            nftSymbol: args.nftSymbol,
            tokenName: args.tokenName,
            tokenSymbol: args.tokenSymbol,
            merkleRoot: (config?.extensions.merkleRoot ?? `0x${"0".repeat(64)}`).toLowerCase(),
            oddsBps: (config?.extensions.oddsBps ?? DEFAULT_ODDS_BPS).map(Number),
          };
        },
      );
      return { found: true, reverted: receipt.status !== "success", from: receipt.from.toLowerCase(), games };
    },
  };
}

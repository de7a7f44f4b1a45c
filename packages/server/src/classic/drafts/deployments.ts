import { dropFactoryAbi } from "@mkt/chain";
import {
  createPublicClient,
  type Hex,
  http,
  type PublicClient,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from "viem";
import { UnavailableError } from "../../errors.ts";

/** A `GameCreated` of a deployment transaction, as confirm checks it. */
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
  chainId: number;
  /** The drop factory (lowercase) whose `GameCreated` logs count. */
  factory: string;
  read(txHash: Hex): Promise<DeploymentReceipt>;
}

/**
 * The classic chain's deployments through its RPC: the receipt, and the
 * `GameCreated` logs emitted by our factory only (a log of the same shape
 * from another contract is ignored). An RPC failure is a 503 (retry), never
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
      const games = parseEventLogs({ abi: dropFactoryAbi, logs, eventName: "GameCreated" }).map(
        ({ args }) => ({
          gameId: args.gameId,
          drop: args.drop.toLowerCase(),
          token: args.token.toLowerCase(),
          creator: args.creator.toLowerCase(),
          nftName: args.params.nftName,
          nftSymbol: args.params.nftSymbol,
          tokenName: args.params.tokenName,
          tokenSymbol: args.params.tokenSymbol,
          merkleRoot: args.params.merkleRoot.toLowerCase(),
          oddsBps: args.params.oddsBps.map(Number),
        }),
      );
      return { found: true, reverted: receipt.status !== "success", from: receipt.from.toLowerCase(), games };
    },
  };
}

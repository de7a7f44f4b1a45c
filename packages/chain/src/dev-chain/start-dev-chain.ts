import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address } from "viem";
import { parseEther } from "viem";
import { accountPrivateKey, DEV_ACCOUNT_COUNT, DEV_MNEMONIC, deriveDevAccounts } from "../accounts.ts";
import type { ChainLogger } from "../logger.ts";
import { createSilentLogger } from "../logger.ts";
import type { Eip1193Provider } from "./hardhat-network.ts";
import { loadHardhatNetwork } from "./hardhat-network.ts";

export interface DevChainOptions {
  chainId: number;
  /** 0 picks a free port; read the actual one from `rpcUrl`. */
  port: number;
  host?: string;
  mnemonic?: string;
  /** Interval mining period; 0 turns it off. Transactions are always mined at once (automine). */
  intervalMs?: number;
  accountCount?: number;
  accountBalance?: bigint;
  logger?: ChainLogger;
}

export interface DevChain {
  chainId: number;
  rpcUrl: string;
  /** In-process EIP-1193 provider: same chain as `rpcUrl`, without the HTTP hop. */
  provider: Eip1193Provider;
  accounts: readonly Address[];
  /**
   * Calls `listener` with the number of every block mined from now on (by a
   * transaction or the interval), in-process, as soon as it is mined: an
   * indexer in the same process reacts at once instead of at its next poll.
   * Returns the function that stops the calls.
   */
  onBlock(listener: (blockNumber: bigint) => void): () => void;
  /** Stops mining and the HTTP listener; idempotent. */
  close(): Promise<void>;
}

const DEFAULT_INTERVAL_MS = 1000;
const DEFAULT_BALANCE = parseEther("10000");

/**
 * Starts an in-process EVM chain (Hardhat 2 network on EDR) served as JSON-RPC over HTTP, with the
 * mnemonic's first accounts funded, automine plus interval mining, and the evm_snapshot / evm_revert /
 * evm_mine methods tests use to stage reorgs.
 *
 * @example
 * const chain = await startDevChain({ chainId: 8453, port: 0 });
 * // ... use chain.rpcUrl
 * await chain.close();
 */
export async function startDevChain(options: DevChainOptions): Promise<DevChain> {
  const { chainId, port } = options;
  const host = options.host ?? "127.0.0.1";
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const logger = options.logger ?? createSilentLogger();
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`invalid dev chain id: ${chainId}`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid dev chain port: ${port}`);
  if (!Number.isInteger(intervalMs) || intervalMs < 0)
    throw new Error(`invalid mining interval: ${intervalMs}`);

  const accounts = deriveDevAccounts(
    options.mnemonic ?? DEV_MNEMONIC,
    options.accountCount ?? DEV_ACCOUNT_COUNT,
  );
  const balance = options.accountBalance ?? DEFAULT_BALANCE;
  const network = loadHardhatNetwork();
  const provider = await network.createHardhatNetworkProvider(
    {
      // Prague is what Base runs; the contracts are compiled for Cancun, which it includes.
      hardfork: "prague",
      chainId,
      networkId: chainId,
      blockGasLimit: 60_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: intervalMs,
      mempoolOrder: "priority",
      chains: network.defaultChains,
      genesisAccounts: accounts.map((account) => ({ privateKey: accountPrivateKey(account), balance })),
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  );

  const handleHttp = network.createJsonRpcHandler(provider);
  const server = createServer((req, res) => {
    handleHttp(req, res).catch((error: unknown) => {
      logger.error({ msg: "dev chain request failed", chainId, err: String(error) });
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const stopMining = () => provider.request({ method: "evm_setIntervalMining", params: [0] });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) => {
        reject(
          error.code === "EADDRINUSE"
            ? new Error(`dev chain ${chainId}: port ${port} on ${host} is already in use`)
            : error,
        );
      });
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    await stopMining();
    throw error;
  }
  const { port: actualPort } = server.address() as AddressInfo;
  const rpcUrl = `http://${host.includes(":") ? `[${host}]` : host}:${actualPort}`;
  logger.info({ msg: "dev chain started", chainId, rpcUrl, intervalMs });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await stopMining();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Clients keep HTTP connections alive; without this, close waits for their idle timeout.
        server.closeAllConnections();
      });
      logger.info({ msg: "dev chain stopped", chainId });
    })();
    return closing;
  };

  // One newHeads subscription, taken on the first listener, serves every listener.
  const listeners = new Set<(blockNumber: bigint) => void>();
  let subscription: Promise<unknown> | undefined;
  const onBlock = (listener: (blockNumber: bigint) => void) => {
    listeners.add(listener);
    subscription ??= provider.request({ method: "eth_subscribe", params: ["newHeads"] }).then((id) => {
      provider.on("message", ({ type, data }) => {
        if (type !== "eth_subscription" || data.subscription !== id) return;
        const number = (data.result as { number?: string } | null)?.number;
        if (number === undefined) return;
        for (const each of listeners) each(BigInt(number));
      });
    });
    subscription.catch((error: unknown) =>
      logger.warn({ msg: "dev chain block subscription failed", chainId, err: String(error) }),
    );
    return () => {
      listeners.delete(listener);
    };
  };

  return { chainId, rpcUrl, provider, accounts: accounts.map((account) => account.address), onBlock, close };
}

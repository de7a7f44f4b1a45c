import type { Chain, Hash, HDAccount, PublicClient, TransactionReceipt, Transport, WalletClient } from "viem";
import { createPublicClient, createWalletClient, defineChain, http } from "viem";
import { DEV_MNEMONIC, deriveDevAccounts, devAccount } from "./accounts.ts";

export type ChainPublicClient = PublicClient<Transport, Chain>;
export type ChainWalletClient = WalletClient<Transport, Chain, HDAccount>;

export interface ChainClients {
  /** The chain the clients talk to (its id and RPC URL). */
  chain: Chain;
  /** Reads: blocks, logs, receipts, contract views. */
  publicClient: ChainPublicClient;
  /** The mnemonic's accounts, by index. */
  accounts: readonly HDAccount[];
  /** Wallet client of the mnemonic account at `index`. */
  wallet(index: number): ChainWalletClient;
}

export interface ChainClientsOptions {
  rpcUrl: string;
  chainId: number;
  mnemonic?: string;
  /** Receipt and block polling; dev chains mine at once, so a short interval keeps waits short. */
  pollingIntervalMs?: number;
}

export function createChainClients(options: ChainClientsOptions): ChainClients {
  const chain = defineChain({
    id: options.chainId,
    name: `mkt-${options.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  // No retries: dev chains answer reverts with JSON-RPC internal errors, which viem would retry with backoff.
  const transport = http(options.rpcUrl, { retryCount: 0 });
  const pollingInterval = options.pollingIntervalMs ?? 100;
  const accounts = deriveDevAccounts(options.mnemonic ?? DEV_MNEMONIC);
  // No response cache: tests and the simulator read state right after their own transactions.
  const publicClient = createPublicClient({ chain, transport, pollingInterval, cacheTime: 0 });
  const wallets = new Map<number, ChainWalletClient>();
  const wallet = (index: number) => {
    let client = wallets.get(index);
    if (client === undefined) {
      client = createWalletClient({
        chain,
        transport,
        account: devAccount(accounts, index),
        pollingInterval,
      });
      wallets.set(index, client);
    }
    return client;
  };
  return { chain, publicClient, accounts, wallet };
}

/** Waits for the receipt and turns a reverted transaction into an error. */
export async function waitForSuccess(
  publicClient: ChainPublicClient,
  hash: Hash,
): Promise<TransactionReceipt> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

import { type ChainDeployment, deriveDevAccounts } from "@mkt/chain";
import { createMktClient, MktApiError, type MktClient } from "@mkt/client";
import {
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  type HttpTransport,
  http,
  type LocalAccount,
  type PublicClient,
  parseEther,
  type TransactionReceipt,
  type WalletClient,
} from "viem";
import { DEMO_CLASSIC_WALLET_INDICES } from "./classic-scenario.ts";

/** The balance a demo wallet that sends transactions is topped up to on the dev chain. */
const FUNDING = parseEther("10");

/** A signed-in demo wallet: its own client (one bearer token per client). */
export interface Actor {
  account: LocalAccount;
  client: MktClient;
}

export const errorCode = (error: unknown) => (error instanceof MktApiError ? error.code : undefined);

/** The mnemonic's accounts at `DEMO_CLASSIC_WALLET_INDICES`. */
export const defaultDemoClassicWallets = (): LocalAccount[] =>
  deriveDevAccounts(undefined, Math.max(...DEMO_CLASSIC_WALLET_INDICES) + 1).filter((_, index) =>
    (DEMO_CLASSIC_WALLET_INDICES as readonly number[]).includes(index),
  );

/** The demo wallets' API clients, one per wallet, to the app's own listener. */
export const demoActors = (
  wallets: LocalAccount[],
  { baseUrl, apiKey }: { baseUrl: string; apiKey: string },
) => wallets.map((account): Actor => ({ account, client: createMktClient({ baseUrl, apiKey }) }));

/** The wallet's lowercase address. */
export const short = (actor: Actor) => actor.account.address.toLowerCase();

/** Runs `call` as `actor`, signing in again once when its token has expired. */
export async function as<T>(actor: Actor, call: (client: MktClient) => Promise<T>): Promise<T> {
  try {
    return await call(actor.client);
  } catch (error) {
    if (!(error instanceof MktApiError) || error.status !== 401 || errorCode(error) !== "UNAUTHORIZED")
      throw error;
    await actor.client.classic.auth.signIn(actor.account);
    return call(actor.client);
  }
}

export interface DemoChain {
  /** Reads of the dev chain (polling every 100 ms, no cache). */
  publicClient: PublicClient<HttpTransport, Chain>;
  /** A client that signs and sends as `account`. */
  walletClient(account: LocalAccount): WalletClient<HttpTransport, Chain, LocalAccount>;
  /** Waits for the transaction's receipt; throws when it reverted. */
  send(hash: Promise<Hex>): Promise<TransactionReceipt>;
  /** Tops a wallet up on the dev chain (Hardhat's `hardhat_setBalance`): it is past the funded accounts. */
  fund(account: LocalAccount): Promise<void>;
}

/** The classic dev chain as the demo wallets use it: reads, sends that must succeed, and funding. */
export function createDemoChain(deployment: ChainDeployment): DemoChain {
  const chainId = deployment.chainId;
  const chain: Chain = defineChain({
    id: chainId,
    name: `mkt-${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [deployment.rpcUrl] } },
  });
  const transport = http(deployment.rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 100, cacheTime: 0 });
  const walletClient = (account: LocalAccount) =>
    createWalletClient({ chain, transport, account, pollingInterval: 100 });
  const send = async (hash: Promise<Hex>) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`);
    return receipt;
  };
  const fund = async (account: LocalAccount) => {
    if ((await publicClient.getBalance({ address: account.address })) >= FUNDING / 2n) return;
    await createTestClient({ chain, transport, mode: "hardhat" }).setBalance({
      address: account.address,
      value: FUNDING,
    });
  };
  return { publicClient, walletClient, send, fund };
}

import {
  createChainClients,
  DEV_ACCOUNT_ROLES,
  deploySmartWallet,
  deploySmartWalletFactory,
  predictSmartWallet,
  startDevChain,
  wrapErc6492Signature,
} from "@mkt/chain";
import { type Hex, numberToHex, pad, zeroHash } from "viem";
import { createWalletVerifier } from "../identity/index.ts";
import type { Clock } from "../quotas/limiter.ts";
import { setupApp, type TestApp } from "./app.ts";

/** Contract wallets on a dev chain, and an app that verifies their signatures through that chain. */
export interface ContractWallets {
  app: TestApp;
  /** A key of `app` with a raised multiplier. */
  key: string;
  /** The owner whose EOA signatures both wallets accept. */
  owner: ReturnType<ReturnType<typeof createChainClients>["wallet"]>;
  /** Another dev account, not an owner of either wallet. */
  intruder: ReturnType<ReturnType<typeof createChainClients>["wallet"]>;
  /** A deployed ERC-1271 wallet of `owner`. */
  deployed: Hex;
  /** A wallet of `owner` not deployed yet (ERC-6492): its signatures need `wrap`. */
  counterfactual: Hex;
  /** Wraps an owner's signature for the counterfactual wallet (ERC-6492). */
  wrap(signature: Hex): Hex;
}

/**
 * Runs `test` with a deployed and a counterfactual smart wallet on a fresh
 * dev chain (8453) and an app whose wallet verifier reads that chain;
 * closes both afterwards. `salt` picks the counterfactual wallet.
 */
export async function withContractWallets(
  { clock, salt: saltNumber }: { clock: Clock; salt: number },
  test: (wallets: ContractWallets) => Promise<void>,
): Promise<void> {
  const chain = await startDevChain({ chainId: 8453, port: 0, intervalMs: 0 });
  let app: TestApp | undefined;
  try {
    app = await setupApp({ clock, walletVerifier: createWalletVerifier({ rpcUrl: chain.rpcUrl }) });
    const key = (await app.createKey({ multiplier: 100 })).key;
    const clients = createChainClients({ rpcUrl: chain.rpcUrl, chainId: 8453, pollingIntervalMs: 20 });
    const factory = await deploySmartWalletFactory({ clients });
    const owner = clients.wallet(DEV_ACCOUNT_ROLES.firstUser);
    const deployed = await deploySmartWallet({
      clients,
      factory,
      owner: owner.account.address,
      salt: zeroHash,
    });
    const salt = pad(numberToHex(saltNumber), { size: 32 });
    const counterfactual = predictSmartWallet({ factory, owner: owner.account.address, salt });
    if ((await clients.publicClient.getCode({ address: counterfactual })) !== undefined)
      throw new Error("the counterfactual wallet is already deployed");
    await test({
      app,
      key,
      owner,
      intruder: clients.wallet(DEV_ACCOUNT_ROLES.firstUser + 1),
      deployed,
      counterfactual,
      wrap: (signature) => wrapErc6492Signature({ factory, owner: owner.account.address, salt, signature }),
    });
  } finally {
    await app?.close();
    await chain.close();
  }
}

import type { HDAccount, Hex } from "viem";
import { toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** The standard development mnemonic; its accounts are public knowledge, never use them on a real chain. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
export const DEV_ACCOUNT_COUNT = 20;

/**
 * Which mnemonic account plays which part on a dev chain. Keeping the roles on separate accounts keeps
 * their nonces independent, so the entropy fulfiller never races the deployer or the demo users.
 */
export const DEV_ACCOUNT_ROLES = {
  deployer: 0,
  entropyFulfiller: 1,
  marketOperator: 2,
  firstUser: 3,
} as const;

export function deriveDevAccounts(mnemonic: string = DEV_MNEMONIC, count: number = DEV_ACCOUNT_COUNT): HDAccount[] {
  return Array.from({ length: count }, (_, addressIndex) => mnemonicToAccount(mnemonic, { addressIndex }));
}

export function accountPrivateKey(account: HDAccount): Hex {
  const key = account.getHdKey().privateKey;
  if (key === null) throw new Error(`account ${account.address} has no private key`);
  return toHex(key);
}

export function devAccount(accounts: readonly HDAccount[], index: number): HDAccount {
  const account = accounts[index];
  if (account === undefined) throw new Error(`dev account ${index} is not derived (only ${accounts.length})`);
  return account;
}

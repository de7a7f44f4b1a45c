/**
 * The Classic ownership rule: a creator resource (a draft, a game, a chat to
 * moderate) belongs to the account when its creator wallet is one of the
 * wallets linked to the account now.
 */
export function controlsWallet(account: { wallets: readonly string[] }, address: string): boolean {
  const wanted = address.toLowerCase();
  return account.wallets.some((wallet) => wallet.toLowerCase() === wanted);
}

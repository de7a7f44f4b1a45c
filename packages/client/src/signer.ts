import type { Account, Chain, LocalAccount, Transport, WalletClient } from "viem";
import type { SmartAccount } from "viem/account-abstraction";

/**
 * The one signer type of every signed flow of the SDK: market sign-in and
 * account deletion, release actions, pack edits and the classic sign-in.
 * All of them sign an EIP-191 text message (`personal_sign`) the protocol's
 * builders write; the wallet signing in or acting is the signer's address.
 *
 * - a viem local account: `privateKeyToAccount`, `mnemonicToAccount`, or
 *   `toAccount({ address, signMessage, … })` for a custom signer (an HSM, a
 *   contract wallet whose owner signs: `address` is then the contract's);
 * - a viem smart account (`viem/account-abstraction`): its address is the
 *   contract wallet, verified by the server with ERC-1271 / ERC-6492;
 * - a viem `WalletClient` with an account (`createWalletClient({ account,
 *   transport: custom(window.ethereum) })`): the wallet is asked to sign.
 *
 * @example
 * ```ts
 * import { privateKeyToAccount } from "viem/accounts";
 * const signer: MktSigner = privateKeyToAccount(process.env.PRIVATE_KEY as `0x${string}`);
 * await client.market.signIn(signer, { origin: "https://app.example" });
 * await client.classic.auth.signIn(signer);
 * ```
 */
export type MktSigner = LocalAccount | SmartAccount | WalletClient<Transport, Chain | undefined, Account>;

/** How long a signed message stays valid; the same for every signed flow. */
export interface SigningOptions {
  /** Seconds the signed message stays valid, from now (more than 0, at most 300; default 120). */
  ttlSeconds?: number;
  /** The clock, in Unix epoch milliseconds (default `Date.now`). */
  now?: () => number;
}

/** What every flow needs of a signer: the wallet's address and an EIP-191 signature of a text. */
export interface MessageSigning {
  /** The wallet's address, lowercase. */
  address: string;
  sign(message: string): Promise<string>;
}

type SigningClient = WalletClient<Transport, Chain | undefined, Account>;

/** A client sends JSON-RPC requests; an account does not. */
const isClient = (signer: MktSigner): signer is SigningClient => "request" in signer;

/** The one adapter from `MktSigner` to what the flows use. */
export function toMessageSigning(signer: MktSigner): MessageSigning {
  if (isClient(signer)) {
    const account = signer.account;
    if (!account)
      throw new TypeError(
        "the WalletClient has no account: create it with createWalletClient({ account, transport })",
      );
    return {
      address: account.address.toLowerCase(),
      sign: (message) => signer.signMessage({ account, message }),
    };
  }
  return { address: signer.address.toLowerCase(), sign: (message) => signer.signMessage({ message }) };
}

/** What a signed message states besides its content: the wallet, a fresh nonce and the expiry. */
export interface SignedFields {
  address: string;
  nonce: string;
  /** Unix epoch milliseconds. */
  expires: number;
}

/**
 * Signs one message: a fresh UUID v4 nonce, an expiry `ttlSeconds` ahead, and
 * the wallet's signature over the text `message` builds from those fields
 * (one of the protocol's builders).
 */
export async function signFields(
  signer: MktSigner,
  message: (fields: SignedFields) => string,
  { ttlSeconds = 120, now = Date.now }: SigningOptions = {},
): Promise<SignedFields & { signature: string }> {
  if (!(ttlSeconds > 0 && ttlSeconds <= 300)) throw new RangeError("ttlSeconds must be in (0, 300]");
  const signing = toMessageSigning(signer);
  const fields = {
    address: signing.address,
    nonce: crypto.randomUUID(),
    expires: Math.floor(now() + ttlSeconds * 1000),
  };
  return { ...fields, signature: await signing.sign(message(fields)) };
}

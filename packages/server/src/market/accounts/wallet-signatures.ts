import {
  type Address,
  createPublicClient,
  type Hex,
  hashMessage,
  http,
  isAddressEqual,
  recoverAddress,
  size,
} from "viem";
import { UnavailableError } from "../../errors.ts";

/** Checks that `signature` is `address`'s EIP-191 signature of `message`. */
export interface WalletSignatureVerifier {
  verify(input: { address: string; message: string; signature: string }): Promise<boolean>;
}

export interface WalletVerifierOptions {
  /**
   * JSON-RPC of the chain whose contract wallets may sign in (8453). Without
   * it only EOAs can sign in: contract-wallet signatures need the chain.
   */
  rpcUrl?: string;
  timeoutMs?: number;
}

/**
 * EOAs are checked locally by ECDSA recovery (no RPC). Anything else goes to
 * the chain through viem's `verifyHash`, which runs the ERC-6492 universal
 * validator in a deployless `eth_call`: it accepts ERC-1271 signatures of
 * deployed contract wallets and ERC-6492 wrapped signatures of counterfactual
 * ones (deploying them in the call's sandbox first). That is the check the
 * usual SIWE libraries get wrong: they stop after ECDSA recovery or call
 * `isValidSignature` on an address that has no code yet.
 *
 * An RPC failure is a 503 (fail closed), never a "signature invalid".
 */
export function createWalletVerifier({ rpcUrl, timeoutMs = 5_000 }: WalletVerifierOptions = {}) {
  const client = rpcUrl
    ? createPublicClient({ transport: http(rpcUrl, { retryCount: 1, timeout: timeoutMs }) })
    : undefined;
  return {
    async verify({ address, message, signature }) {
      const hash = hashMessage(message);
      const sig = signature as Hex;
      if (size(sig) === 65) {
        try {
          if (isAddressEqual(await recoverAddress({ hash, signature: sig }), address as Address)) return true;
        } catch {
          // Not a recoverable ECDSA signature: maybe a contract wallet's.
        }
      }
      if (!client) return false;
      try {
        return await client.verifyHash({ address: address as Address, hash, signature: sig });
      } catch (error) {
        throw new UnavailableError("the chain RPC could not verify the signature; try again shortly", {
          cause: error,
        });
      }
    },
  } satisfies WalletSignatureVerifier;
}

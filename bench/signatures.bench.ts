import { signInMessage } from "@mkt/protocol";
import { type Address, hashMessage, isAddressEqual, recoverAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createWalletVerifier } from "../packages/server/src/identity/index.ts";

const ORIGIN = "http://localhost:8080";
/**
 * EOA signature verifications per second on one core that sign-in must reach
 * (docs/benchmarks.md, Targets).
 */
export const EOA_VERIFICATION_TARGET = 1_500;

/**
 * EOA sign-in signature verification per second on one core: the server's
 * verifier (`createWalletVerifier` without an RPC: EIP-191 hash, local
 * recovery with libsecp256k1 in WebAssembly, address compare) in a tight
 * loop over `signatures` distinct pre-made sign-in signatures, in this one
 * process. Baseline, measured in the same run over the same signatures: the
 * same check with viem's pure-JS `recoverAddress`, which the verifier used
 * before. Each is timed for at least `seconds`, whole passes over the set.
 */
export async function benchSignatures({ signatures = 1_000, seconds = 2 } = {}) {
  const samples = await Promise.all(
    Array.from({ length: signatures }, async (_, index) => {
      const account = privateKeyToAccount(generatePrivateKey());
      const message = signInMessage({
        origin: ORIGIN,
        address: account.address.toLowerCase(),
        nonce: crypto.randomUUID(),
        expires: Date.now() + 60_000 + index,
      });
      return {
        address: account.address.toLowerCase(),
        message,
        signature: await account.signMessage({ message }),
      };
    }),
  );
  const verifier = createWalletVerifier();

  const timed = async (check: (sample: (typeof samples)[number]) => Promise<boolean>) => {
    let verified = 0;
    const started = performance.now();
    do {
      for (const sample of samples) {
        if (!(await check(sample))) throw new Error("a valid signature did not verify");
        verified += 1;
      }
    } while (performance.now() - started < seconds * 1000);
    return verified / ((performance.now() - started) / 1000);
  };

  const viemBaseline = (sample: (typeof samples)[number]) =>
    recoverAddress({ hash: hashMessage(sample.message), signature: sample.signature }).then((recovered) =>
      isAddressEqual(recovered, sample.address as Address),
    );
  // Warm both paths (JIT, WebAssembly instantiation) before timing.
  for (const sample of samples.slice(0, 50)) {
    await verifier.verify(sample);
    await viemBaseline(sample);
  }
  const perSecond = await timed((sample) => verifier.verify(sample));
  const baseline = await timed(viemBaseline);
  const met = perSecond >= EOA_VERIFICATION_TARGET;
  return {
    name: "EOA sign-in signature verification, one core",
    lines: [
      `verifier (libsecp256k1 WASM), ${signatures} distinct signatures   ${perSecond.toFixed(0)} /s   target ${EOA_VERIFICATION_TARGET} /s ${met ? "met" : "NOT met"}`,
      `baseline: viem recoverAddress (pure JS)    ${baseline.toFixed(0)} /s   ratio ${(perSecond / baseline).toFixed(2)}`,
    ],
    summary: `${perSecond.toFixed(0)}/s per core (target ${EOA_VERIFICATION_TARGET}), ${(perSecond / baseline).toFixed(2)}x viem`,
    met,
  };
}

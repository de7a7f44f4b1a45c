import { MAX_ACCOUNT_WALLETS } from "@mkt/protocol";
import type { SessionService } from "../../identity/index.ts";
import type { MarketFeature } from "../feature.ts";

/** `wallet-link` and `wallet-unlink`: the account's wallets, each proven by its own signature. */
export function walletFeature(sessions: SessionService): MarketFeature {
  return {
    actions: {
      "wallet-link": async ({ session, origin, ip }, action) =>
        sessions.wallets.link(session, action.proof, { origin, ip }),
      "wallet-unlink": async ({ session }, action) => sessions.wallets.unlink(session, action.address),
    },
    actionResults: {
      "wallet-link": `\`{address, linked: true}\`. The proof is a sign-in message signed by the wallet to add, for this session's origin, with its own fresh nonce; 409 if the wallet belongs to another account, or if the account already holds ${MAX_ACCOUNT_WALLETS} wallets (the cap per account, primary included).`,
      "wallet-unlink":
        "`{address, unlinked: true, sessionsRevoked}`: that wallet's sessions are signed out; the primary wallet cannot be unlinked (409).",
    },
    jobs: [{ name: "used-nonce sweep", intervalMs: 60_000, run: () => sessions.envelopes.sweepNonces() }],
  };
}

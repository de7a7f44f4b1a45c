import type { CommandSpec } from "../command.ts";
import { type Context, integerFlag, stringFlag, type Values } from "../context.ts";
import { UsageError } from "../errors.ts";
import { fields, when } from "../render.ts";
import { type SignedIn, signInClassic, signInMarket } from "../sessions.ts";
import { WALLET_OPTIONS, walletFrom } from "../wallet.ts";

/** `--origin`, checked to be a website origin (scheme, host and port, nothing else). */
export function originFlag(values: Values): string | undefined {
  const given = stringFlag(values, "origin");
  if (given === undefined) return undefined;
  let origin: string | undefined;
  try {
    origin = new URL(given).origin;
  } catch {}
  if (origin === undefined || origin === "null" || origin !== given.replace(/\/$/, ""))
    throw new UsageError(`--origin must be a website origin such as http://localhost:8080, got "${given}"`);
  return origin;
}

/** The website origin a market session is bound to: `--origin`, else the public URL's own origin. */
export function marketOrigin(context: Context, values: Values): string {
  return originFlag(values) ?? new URL(context.settings.url).origin;
}

export const ORIGIN_OPTION = {
  origin: {
    type: "string",
    value: "<origin>",
    description:
      "Website origin the session is bound to (one of the server's ALLOWED_ORIGINS; default: --url's)",
  },
} as const;

export const signInCommand: CommandSpec = {
  words: ["sign-in"],
  summary: "Sign a wallet in and print the session token and its expiry",
  usage: "(--dev-wallet <index> | MKT_PRIVATE_KEY=0x…) [--surface market|classic] [--origin <origin>]",
  description:
    "Signs the sign-in message with a wallet and prints the session token and when it expires.\n" +
    "market (default): POST /market/account/session, a 30-day account session bound to the website\n" +
    "origin; use it with Authorization: Bearer <token>, Origin: <origin> and X-MKT-Wallet: <address>.\n" +
    "classic: POST /classic/auth/sign-in, a 24-hour bearer token for the classic API, sent with the key.\n" +
    "The wallet is the development mnemonic's account --dev-wallet <index> (dev chains only), or the\n" +
    "private key in MKT_PRIVATE_KEY (taken from the environment only, never from a flag).\n" +
    "The token goes to standard output only; keep it out of logs and URLs.\n" +
    "With --json: {surface, address, token, expiresAt (ISO 8601), origin, accountId (classic)}.",
  credentials: "the API key, and a wallet",
  options: {
    ...WALLET_OPTIONS,
    surface: {
      type: "string",
      value: "market|classic",
      description: "Which API to sign in to (default market)",
    },
    ...ORIGIN_OPTION,
    "chain-id": {
      type: "string",
      value: "<id>",
      description: "classic: the chain named in the message (default 8453)",
    },
  },
  examples: [
    "mkt sign-in --dev-wallet 3",
    "MKT_PRIVATE_KEY=0x… mkt sign-in --surface classic --json | jq -r .token",
  ],
  async run(context, { values }) {
    const surface = stringFlag(values, "surface") ?? "market";
    if (surface !== "market" && surface !== "classic")
      throw new UsageError(`--surface must be market or classic, got "${surface}"`);
    const chainId = integerFlag(values, "chain-id", 1, Number.MAX_SAFE_INTEGER);
    if (surface === "market" && chainId !== undefined)
      throw new UsageError("--chain-id applies to --surface classic");
    const origin = surface === "market" ? marketOrigin(context, values) : originFlag(values);
    // Both checked before the wallet is derived, so a bad command line fails at once.
    context.requireKey(`${surface} sign-in`);
    const account = walletFrom(values, context.io.env, context.secrets);
    const session: SignedIn =
      surface === "market"
        ? await signInMarket(context, account, origin!)
        : await signInClassic(context, account, { origin, chainId });
    context.print(session, () =>
      fields([
        ["token", session.token],
        ["expires", when(session.expiresAt, context.io.now())],
        ["address", session.address],
        ["surface", session.surface],
        ...(session.origin !== undefined ? [["origin", session.origin] as [string, string]] : []),
        ...(session.accountId !== undefined ? [["account", session.accountId] as [string, string]] : []),
      ]),
    );
  },
};

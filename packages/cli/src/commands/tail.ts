import { classicChatStreamPath, LIVE_STREAM, PREDICT_STREAM } from "@mkt/protocol";
import type { CommandSpec } from "../command.ts";
import { type Context, integerFlag, stringFlag, type Values } from "../context.ts";
import { UsageError } from "../errors.ts";
import { signInMarket } from "../sessions.ts";
import { follow, type StreamEvent } from "../sse.ts";
import { WALLET_OPTIONS, walletFrom } from "../wallet.ts";
import { marketOrigin, ORIGIN_OPTION } from "./sign-in.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function address(values: Values, name: string): string | undefined {
  const value = stringFlag(values, name);
  if (value !== undefined && !ADDRESS.test(value))
    throw new UsageError(`--${name} must be a 0x-prefixed 20-byte address, got "${value}"`);
  return value?.toLowerCase();
}

/** The account stream's credentials: a session from the environment, or a fresh sign-in. */
async function accountHeaders(context: Context, values: Values): Promise<Record<string, string>> {
  const origin = marketOrigin(context, values);
  const token = context.io.env["MKT_SESSION_TOKEN"]?.trim();
  if (token) {
    context.secrets.add(token);
    const wallet = address(values, "wallet");
    if (wallet === undefined)
      throw new UsageError(
        "with MKT_SESSION_TOKEN, --wallet <address> names the session's wallet (X-MKT-Wallet)",
      );
    return { authorization: `Bearer ${token}`, origin, "x-mkt-wallet": wallet };
  }
  if (values["dev-wallet"] === undefined && !context.io.env["MKT_PRIVATE_KEY"])
    throw new UsageError(
      "the account stream needs a session: set MKT_SESSION_TOKEN with --wallet <address>, or sign in on the way with --dev-wallet <index> or MKT_PRIVATE_KEY",
    );
  context.requireKey("tail account");
  const session = await signInMarket(context, walletFrom(values, context.io.env, context.secrets), origin);
  context.note(`mkt: signed in as ${session.address} for this stream`);
  return { authorization: `Bearer ${session.token}`, origin, "x-mkt-wallet": session.address };
}

/** `HH:MM:SS.mmm  event  #id  data`, one line per event. */
function eventLine(event: StreamEvent, now: number): string {
  const time = new Date(now).toISOString().slice(11, 23);
  const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
  return `${time}  ${event.event.padEnd(10)}  ${event.id === undefined ? "" : `#${event.id}  `}${data}\n`;
}

export const tailCommand: CommandSpec = {
  words: ["tail"],
  summary: "Print a live stream's events as they come, resuming with Last-Event-ID",
  usage: "<stream> [<game>] [options]",
  description:
    "Follows one of the server's event streams and prints each event as it comes, until Ctrl-C:\n" +
    `  market          ${LIVE_STREAM.path}: releases, indexer heads (--owner: that wallet's claims too)\n` +
    `  account         ${LIVE_STREAM.accountPath}: the same plus the account's DMs, unread count, drafts;\n` +
    "                  needs a session: MKT_SESSION_TOKEN and --wallet, or --dev-wallet / MKT_PRIVATE_KEY\n" +
    "  chat <game>     /classic/chat/<game>/stream: a classic game chat's messages (address or slug)\n" +
    `  predict         ${PREDICT_STREAM.path}: the prediction feed's markets, resolutions, trades, heads\n` +
    "  /<path>         any other event stream of the public listener, by its path\n" +
    "A dropped or silent connection is reopened after the server's retry delay, with backoff, sending\n" +
    "Last-Event-ID, so no event the server still holds is missed (each reconnection is noted on\n" +
    "standard error). `position` events (a resume point past events meant for other streams) are not\n" +
    "shown, but they move the resume point. A `resync` event means events were missed: re-read.\n" +
    "The command ends with status 1 when the server ends the stream for good (`end`: key revoked,\n" +
    "session ended, feed switched off) or refuses it (401, 403, 404, ...), and with 0 on Ctrl-C or\n" +
    "after --count events.\n" +
    "With --json: one JSON object per event per line (NDJSON): {event, id, data}, position events\n" +
    "included (uncounted), so a script can keep the last id and pass it back with --last-event-id.",
  credentials: "the API key; the account stream also a session",
  positionals: [
    { name: "stream", description: "market, account, chat, predict, or a path starting with /" },
    { name: "game", description: "chat only: the game's drop address or slug", optional: true },
  ],
  options: {
    owner: {
      type: "string",
      value: "<address>",
      description: "market/account: also claims events of this wallet",
    },
    "last-event-id": { type: "string", value: "<id>", description: "Resume after this event id" },
    count: { type: "string", value: "<n>", description: "Stop after n events (position events not counted)" },
    wallet: { type: "string", value: "<address>", description: "account: the wallet of MKT_SESSION_TOKEN" },
    ...WALLET_OPTIONS,
    ...ORIGIN_OPTION,
  },
  examples: [
    "mkt tail market",
    "mkt tail market --owner 0x90f79bf6eb2c4f870365e785982e1f101e93b906 --json",
    "mkt tail account --dev-wallet 3",
    "mkt tail chat 0x5fbdb2315678afecb367f032d93f642f64180aa3",
    "mkt tail predict --json --last-event-id 1234 | jq -c .",
  ],
  async run(context, { values, positionals }) {
    const [stream, game] = positionals as [string, string | undefined];
    const count = integerFlag(values, "count", 1, Number.MAX_SAFE_INTEGER);
    const owner = address(values, "owner");
    if (game !== undefined && stream !== "chat") throw new UsageError(`unexpected argument "${game}"`);
    let path: string;
    let query: Record<string, string | undefined> = {};
    let headers: Record<string, string> = {};
    switch (stream) {
      case "market":
        path = LIVE_STREAM.path;
        query = { owner };
        break;
      case "account":
        path = LIVE_STREAM.accountPath;
        query = { owner };
        break;
      case "chat":
        if (game === undefined)
          throw new UsageError("tail chat needs the game: mkt tail chat <address or slug>");
        path = classicChatStreamPath(game);
        break;
      case "predict":
        path = PREDICT_STREAM.path;
        break;
      default:
        if (!stream.startsWith("/"))
          throw new UsageError(
            `unknown stream "${stream}": give market, account, chat <game>, predict or a /path`,
          );
        path = stream;
    }
    if (owner !== undefined && stream !== "market" && stream !== "account")
      throw new UsageError("--owner applies to the market and account streams");
    const endpoint = context.api("required", `tail ${stream}`);
    if (stream === "account") headers = await accountHeaders(context, values);
    let shown = 0;
    await follow(context, endpoint, {
      path,
      query,
      headers,
      lastEventId: stringFlag(values, "last-event-id"),
      onEvent(event) {
        if (event.event === "position") {
          if (context.json) context.emit(event, () => "");
          return undefined;
        }
        context.emit(event, () => eventLine(event, context.io.now()));
        if (event.event === "resync") context.note("mkt: events were missed (resync): re-read what you show");
        shown += 1;
        return count !== undefined && shown >= count ? "stop" : undefined;
      },
    });
  },
};

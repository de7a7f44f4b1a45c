import {
  adminClassicReportsPageSchema,
  adminClassicReportsQuerySchema,
  adminInviteRequestSchema,
  adminXVerifyRequestSchema,
  classicGameFlagsSchema,
} from "@mkt/protocol";
import type { CommandSpec } from "../command.ts";
import { booleanFlag, integerFlag, requiredFlag, stringFlag } from "../context.ts";
import { UsageError } from "../errors.ts";
import { shaped } from "../http.ts";
import { fields, table, yesNo } from "../render.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function addressArgument(value: string, what: string): string {
  if (!ADDRESS.test(value))
    throw new UsageError(`${what} must be a 0x-prefixed 20-byte address, got "${value}"`);
  return value.toLowerCase();
}

/** The issues of a failed protocol-schema check, as one usage error. */
function invalid(error: { issues: readonly { message: string }[] }): UsageError {
  return new UsageError(error.issues.map((issue) => issue.message).join("; "));
}

interface FeedFlags {
  enabled: boolean;
  publicEnabled: boolean;
}

function feedFlags(body: unknown): FeedFlags {
  const { enabled, publicEnabled } = (body ?? {}) as Partial<FeedFlags>;
  return { enabled: enabled === true, publicEnabled: publicEnabled === true };
}

const feedText = (flags: FeedFlags) =>
  fields([
    ["enabled", yesNo(flags.enabled)],
    [
      "public",
      flags.enabled ? yesNo(flags.publicEnabled) : `${yesNo(flags.publicEnabled)} (the feed is off)`,
    ],
  ]);

const reportCommand = (status: "resolved" | "dismissed", verb: string): CommandSpec => ({
  words: ["reports", verb],
  summary: `Close a classic report as ${status} (operator)`,
  usage: "<id>",
  description:
    `Closes a report (PATCH /admin/classic/reports/{id} {status: "${status}"}); the account may then\n` +
    "report the same target again. With --json: {report}.",
  credentials: "the operator token",
  positionals: [{ name: "id", description: "The report's id (rpt_…; mkt reports list shows it)" }],
  examples: [`mkt reports ${verb} rpt_01J…`],
  async run(context, { positionals }) {
    const id = positionals[0]!;
    const { body } = await context.call(context.admin(), {
      method: "PATCH",
      path: `/admin/classic/reports/${encodeURIComponent(id)}`,
      body: { status },
    });
    context.print(body, () => `Report ${id} is ${status}.\n`);
  },
});

export const operatorCommands: CommandSpec[] = [
  {
    words: ["feed", "show"],
    summary: "The prediction feed's switches (operator)",
    usage: "",
    description:
      "Reads GET /admin/predict/runtime: whether the feed serves at all (enabled) and whether it\n" +
      "serves every key (public) or only first-party keys. With --json: {enabled, publicEnabled}.",
    credentials: "the operator token",
    examples: ["mkt feed show"],
    async run(context) {
      const { body } = await context.call(context.admin(), { method: "GET", path: "/admin/predict/runtime" });
      const flags = feedFlags(body);
      context.print(flags, () => feedText(flags));
    },
  },
  {
    words: ["feed", "set"],
    summary: "Switch the prediction feed on or off, or open or close it to the public (operator)",
    usage: "[--enabled true|false] [--public true|false]",
    description:
      "Changes the feed's switches (PUT /admin/predict/runtime); every replica follows within a second,\n" +
      "and open streams the change no longer admits get `end` and close. Give at least one.\n" +
      "409 when the deployment follows no prediction chain. With --json: {enabled, publicEnabled}.",
    credentials: "the operator token",
    options: {
      enabled: { type: "string", value: "true|false", description: "Serve the feed at all" },
      public: {
        type: "string",
        value: "true|false",
        description: "Serve every key (false: first-party keys only)",
      },
    },
    examples: ["mkt feed set --enabled false", "mkt feed set --enabled true --public false"],
    async run(context, { values }) {
      const patch = { enabled: booleanFlag(values, "enabled"), publicEnabled: booleanFlag(values, "public") };
      if (patch.enabled === undefined && patch.publicEnabled === undefined)
        throw new UsageError("give --enabled, --public or both");
      const { body } = await context.call(context.admin(), {
        method: "PUT",
        path: "/admin/predict/runtime",
        body: patch,
      });
      const flags = feedFlags(body);
      context.print(flags, () => feedText(flags));
    },
  },
  {
    words: ["feed", "image"],
    summary: "Set or remove a prediction market's image (operator)",
    usage: "<market> (--url <image url> | --clear)",
    description:
      "Sets a market's image (PUT /admin/predict/markets/{address}/media): an http(s) URL on a host of\n" +
      "the server's IMAGE_PROXY_HOSTS, port 80 or 443; --clear removes it. With --json: {market, imageUrl}.",
    credentials: "the operator token",
    positionals: [{ name: "market", description: "The market contract's address" }],
    options: {
      url: { type: "string", value: "<image url>", description: "The image" },
      clear: { type: "boolean", description: "Remove the image" },
    },
    examples: [
      "mkt feed image 0xMarket… --url https://images.example.com/m.png",
      "mkt feed image 0xMarket… --clear",
    ],
    async run(context, { values, positionals }) {
      const market = addressArgument(positionals[0]!, "<market>");
      const url = stringFlag(values, "url");
      if ((url === undefined) === (values["clear"] !== true))
        throw new UsageError("give either --url or --clear");
      const { body } = await context.call(context.admin(), {
        method: "PUT",
        path: `/admin/predict/markets/${market}/media`,
        body: { imageUrl: url ?? null },
      });
      const answer = body as { market?: string; imageUrl?: string | null };
      context.print(body, () =>
        fields([
          ["market", String(answer.market)],
          ["image", answer.imageUrl ?? "(none)"],
        ]),
      );
    },
  },
  {
    words: ["games", "flags"],
    summary: "Set a classic game's flags: featured, verified, verified artist, marketfit (operator)",
    usage:
      "<chain id> <address> [--featured true|false] [--verified true|false] [--verified-artist true|false] [--marketfit true|false]",
    description:
      "Sets a game's flags (PATCH /admin/classic/games/{chainId}/{address}); flags not given keep their\n" +
      "value, and giving none shows them. Cached classic reads follow at once. 404 for a drop the\n" +
      "indexer has not seen. With --json: {chainId, contractAddress, isFeatured, isVerified,\n" +
      "isVerifiedArtist, isMarketfit}.",
    credentials: "the operator token",
    positionals: [
      { name: "chain id", description: "The game's chain (8453 for the classic chain)" },
      { name: "address", description: "The game's drop contract address" },
    ],
    options: {
      featured: { type: "string", value: "true|false", description: "isFeatured" },
      verified: { type: "string", value: "true|false", description: "isVerified" },
      "verified-artist": { type: "string", value: "true|false", description: "isVerifiedArtist" },
      marketfit: { type: "string", value: "true|false", description: "isMarketfit" },
    },
    examples: [
      "mkt games flags 8453 0x5fbdb2315678afecb367f032d93f642f64180aa3 --featured true --verified true",
    ],
    async run(context, { values, positionals }) {
      const chainText = positionals[0]!;
      const chainId = /^[1-9]\d{0,15}$/.test(chainText) ? Number(chainText) : Number.NaN;
      if (!Number.isSafeInteger(chainId))
        throw new UsageError(`<chain id> must be a positive integer, got "${chainText}"`);
      const contract = addressArgument(positionals[1]!, "<address>");
      const patch = {
        isFeatured: booleanFlag(values, "featured"),
        isVerified: booleanFlag(values, "verified"),
        isVerifiedArtist: booleanFlag(values, "verified-artist"),
        isMarketfit: booleanFlag(values, "marketfit"),
      };
      const { body } = await context.call(context.admin(), {
        method: "PATCH",
        path: `/admin/classic/games/${chainId}/${contract}`,
        body: patch,
      });
      const flags = shaped(classicGameFlagsSchema, body, "PATCH /admin/classic/games/{chainId}/{address}");
      context.print(flags, () =>
        fields([
          ["game", `${flags.chainId}:${flags.contractAddress}`],
          ["featured", yesNo(flags.isFeatured)],
          ["verified", yesNo(flags.isVerified)],
          ["verified artist", yesNo(flags.isVerifiedArtist)],
          ["marketfit", yesNo(flags.isMarketfit)],
        ]),
      );
    },
  },
  {
    words: ["games", "unboxing"],
    summary: "Allow or disallow unboxing classic packs (operator)",
    usage: "--disallowed true|false",
    description:
      "Sets the classic API's unboxing switch (PUT /admin/classic/unboxing-disallowed), which\n" +
      "GET /classic/unboxing-disallowed reports to clients; every replica follows within a second.\n" +
      "With --json: {disallowed}.",
    credentials: "the operator token",
    options: {
      disallowed: { type: "string", value: "true|false", description: "Whether unboxing is disallowed" },
    },
    examples: ["mkt games unboxing --disallowed true"],
    async run(context, { values }) {
      const disallowed = booleanFlag(values, "disallowed");
      if (disallowed === undefined) throw new UsageError("--disallowed true|false is required");
      const { body } = await context.call(context.admin(), {
        method: "PUT",
        path: "/admin/classic/unboxing-disallowed",
        body: { disallowed },
      });
      context.print(body, () => `Unboxing is ${disallowed ? "disallowed" : "allowed"}.\n`);
    },
  },
  {
    words: ["reports", "list"],
    summary: "List classic reports, newest first (operator)",
    usage: "[--status open|resolved|dismissed] [--page <n>] [--limit <n>]",
    description:
      "Lists the reports accounts filed (GET /admin/classic/reports), newest first, at most 100 a page.\n" +
      "With --json: {reports: [...], pagination}.",
    credentials: "the operator token",
    options: {
      status: { type: "string", value: "open|resolved|dismissed", description: "Only reports in this state" },
      page: { type: "string", value: "<n>", description: "Page, from 1" },
      limit: { type: "string", value: "<n>", description: "Reports per page, 1-100 (default 50)" },
    },
    examples: ["mkt reports list --status open", "mkt reports list --json | jq '.reports[].id'"],
    async run(context, { values }) {
      const query = {
        status: stringFlag(values, "status"),
        page: integerFlag(values, "page", 1, 1_000_000),
        limit: integerFlag(values, "limit", 1, 100),
      };
      const checked = adminClassicReportsQuerySchema.safeParse(query);
      if (!checked.success) throw invalid(checked.error);
      const { body } = await context.call(context.admin(), {
        method: "GET",
        path: "/admin/classic/reports",
        query,
      });
      const page = shaped(adminClassicReportsPageSchema, body, "GET /admin/classic/reports");
      context.print(page, () =>
        page.reports.length === 0
          ? "No reports.\n"
          : table(
              ["ID", "STATUS", "CREATED", "TARGET", "REASON"],
              page.reports.map(({ id, status, createdAt, target, reason, details }) => [
                id,
                status,
                createdAt,
                `${target.chainId}:${target.contractAddress}${target.tokenId === null ? "" : ` #${target.tokenId}`}`,
                details ? `${reason}: ${details}` : reason,
              ]),
            ),
      );
    },
  },
  reportCommand("resolved", "resolve"),
  reportCommand("dismissed", "dismiss"),
  {
    words: ["invites", "create"],
    summary: "Create an invite code for market accounts (operator)",
    usage: "[--max-uses <n>]",
    description:
      "Creates an invite (POST /admin/invites), good for --max-uses redemptions (1-1000, default 1).\n" +
      "The code is shown once. With --json: {inviteId, code, maxUses, uses, status, createdAt}.",
    credentials: "the operator token",
    options: { "max-uses": { type: "string", value: "<n>", description: "Redemptions, 1-1000 (default 1)" } },
    examples: ["mkt invites create --max-uses 25"],
    async run(context, { values }) {
      const request = { maxUses: integerFlag(values, "max-uses", 1, 1000) ?? 1 };
      const checked = adminInviteRequestSchema.safeParse(request);
      if (!checked.success) throw invalid(checked.error);
      const { body } = await context.call(context.admin(), {
        method: "POST",
        path: "/admin/invites",
        body: request,
      });
      const invite = body as Record<string, unknown>;
      context.print(body, () => fields(Object.entries(invite).map(([name, value]) => [name, String(value)])));
    },
  },
  {
    words: ["social", "verify-x"],
    summary: "Vouch that a wallet's account holds an X account (operator)",
    usage: "--address <wallet> --username <x username>",
    description:
      "Marks the X username verified for the account holding the wallet (POST /admin/social/x/verify).\n" +
      "404 when no account holds the wallet, 409 when another account has this username verified.\n" +
      "With --json: {accountId, xUsername, xVerified, verifiedBy}.",
    credentials: "the operator token",
    options: {
      address: { type: "string", value: "<wallet>", description: "A wallet of the account" },
      username: { type: "string", value: "<x username>", description: "The X username" },
    },
    examples: ["mkt social verify-x --address 0x90f79bf6eb2c4f870365e785982e1f101e93b906 --username mkt_dev"],
    async run(context, { values }) {
      const request = {
        address: requiredFlag(values, "address", "wallet"),
        username: requiredFlag(values, "username", "x username"),
      };
      const checked = adminXVerifyRequestSchema.safeParse(request);
      if (!checked.success) throw invalid(checked.error);
      const { body } = await context.call(context.admin(), {
        method: "POST",
        path: "/admin/social/x/verify",
        body: request,
      });
      const verified = body as Record<string, unknown>;
      context.print(body, () =>
        fields(Object.entries(verified).map(([name, value]) => [name, String(value)])),
      );
    },
  },
];

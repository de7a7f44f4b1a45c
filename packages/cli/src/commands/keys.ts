import {
  type AdminKey,
  adminKeyListSchema,
  adminKeySchema,
  type CreatedKey,
  createdKeySchema,
  createKeyRequestSchema,
} from "@mkt/protocol";
import type { CommandSpec } from "../command.ts";
import { booleanFlag, type Context, integerFlag, requiredFlag, stringFlag } from "../context.ts";
import { UsageError } from "../errors.ts";
import { shaped } from "../http.ts";
import { fields, table, yesNo } from "../render.ts";

const keyFields = (key: AdminKey): [string, string][] => [
  ["id", key.id],
  ["prefix", key.prefix],
  ["description", key.description],
  ["email", key.email],
  ["multiplier", String(key.multiplier)],
  ["first-party", yesNo(key.firstParty)],
  ["revoked", key.revoked ? `yes (${key.revokedAt})` : "no"],
  ["created", key.createdAt],
  ["updated", key.updatedAt],
];

async function patchKey(context: Context, id: string, patch: Record<string, unknown>): Promise<AdminKey> {
  const { body } = await context.call(context.admin(), {
    method: "PATCH",
    path: `/admin/keys/${encodeURIComponent(id)}`,
    body: patch,
  });
  return shaped(adminKeySchema, body, "PATCH /admin/keys/{id}");
}

export const keysCommands: CommandSpec[] = [
  {
    words: ["keys", "create"],
    summary: "Create an API key (POST /keys); the key is printed once",
    usage: "--description <text> --email <address>",
    description:
      "Creates an API key that works at once on all three APIs at multiplier 1. The key is shown only\n" +
      "in this answer (the server stores its hash): store it now, for example in MKT_API_KEY.\n" +
      "With --json: {id, key, multiplier, createdAt}.",
    credentials: "none (key creation is limited per client IP)",
    options: {
      description: {
        type: "string",
        value: "<text>",
        description: "Project name and what the key is for (1-500)",
      },
      email: { type: "string", value: "<address>", description: "Contact address of the key holder" },
    },
    examples: [
      'mkt keys create --description "price dashboard" --email dev@example.com',
      "export MKT_API_KEY=$(mkt keys create --description ci --email ci@example.com --json | jq -r .key)",
    ],
    async run(context, { values }) {
      const request = {
        description: requiredFlag(values, "description", "text"),
        email: requiredFlag(values, "email", "address"),
      };
      const checked = createKeyRequestSchema.safeParse(request);
      if (!checked.success)
        throw new UsageError(checked.error.issues.map((issue) => issue.message).join("; "));
      const { body } = await context.call(context.api("none"), {
        method: "POST",
        path: "/keys",
        body: checked.data,
      });
      const created: CreatedKey = shaped(createdKeySchema, body, "POST /keys");
      context.secrets.add(created.key);
      context.print(created, () =>
        fields([
          ["id", created.id],
          ["key", created.key],
          ["multiplier", String(created.multiplier)],
          ["created", created.createdAt],
        ]),
      );
      if (!context.json)
        context.note("Store the key now: it is shown only once (the server keeps only its hash).");
    },
  },
  {
    words: ["keys", "revoke"],
    summary: "Revoke the API key in use (DELETE /keys/current), or any key by id as the operator",
    usage: "[--id <key id>]",
    description:
      "Without --id: revokes the key given with MKT_API_KEY or --key, with the key itself (after a\n" +
      "leak, say). With --id: the operator revokes that key (PATCH /admin/keys/{id} {revoked: true});\n" +
      "mkt keys set <id> --revoked false restores it. Either takes effect at once on the replica that\n" +
      "took it and within a second on every other.\n" +
      "With --json: {revoked: true} for the key in use; the key's operator record with --id.",
    credentials: "the API key to revoke; with --id, the operator token",
    options: { id: { type: "string", value: "<key id>", description: "Revoke this key as the operator" } },
    examples: ["MKT_API_KEY=mkt_… mkt keys revoke", "mkt keys revoke --id key_01J…"],
    async run(context, { values }) {
      const id = stringFlag(values, "id");
      if (id !== undefined) {
        const key = await patchKey(context, id, { revoked: true });
        context.print(key, () => `Key ${key.id} (${key.prefix}…) is revoked.\n`);
        return;
      }
      await context.call(context.api("required", "keys revoke"), { method: "DELETE", path: "/keys/current" });
      context.print({ revoked: true }, () => "The API key is revoked.\n");
    },
  },
  {
    words: ["keys", "list"],
    summary: "List API keys, never their secrets (operator)",
    usage: "[--limit <n>] [--cursor <cursor>] [--all]",
    description:
      "Lists keys in creation order (GET /admin/keys): id, the key's first characters, description,\n" +
      "e-mail, multiplier, first-party mark and revocation. --all follows every page.\n" +
      "With --json: {keys: [...], next} (next is null on the last page, and with --all).",
    credentials: "the operator token",
    options: {
      limit: { type: "string", value: "<n>", description: "Keys per page, 1-500 (default 100)" },
      cursor: { type: "string", value: "<cursor>", description: "The next page: `next` of the previous one" },
      all: { type: "boolean", description: "Follow every page" },
    },
    examples: ["mkt keys list", "mkt keys list --all --json | jq '.keys[] | select(.revoked)'"],
    async run(context, { values }) {
      const limit = integerFlag(values, "limit", 1, 500);
      let cursor = stringFlag(values, "cursor");
      const keys: AdminKey[] = [];
      let next: string | null = null;
      do {
        const { body } = await context.call(context.admin(), {
          method: "GET",
          path: "/admin/keys",
          query: { limit, cursor },
        });
        const page = shaped(adminKeyListSchema, body, "GET /admin/keys");
        keys.push(...page.keys);
        next = page.next;
        cursor = next ?? undefined;
      } while (values["all"] === true && next !== null);
      context.print({ keys, next }, () => {
        const rows = keys.map((key) => [
          key.id,
          `${key.prefix}…`,
          String(key.multiplier),
          yesNo(key.firstParty),
          yesNo(key.revoked),
          key.createdAt,
          `${key.description} <${key.email}>`,
        ]);
        const listing = table(["ID", "PREFIX", "MULT", "1ST-PARTY", "REVOKED", "CREATED", "HOLDER"], rows);
        return next === null ? listing : `${listing}more: mkt keys list --cursor ${next}\n`;
      });
    },
  },
  {
    words: ["keys", "set"],
    summary: "Change a key's multiplier, revocation or first-party mark (operator)",
    usage: "<id> [--multiplier <n>] [--revoked true|false] [--first-party true|false]",
    description:
      "Changes a key (PATCH /admin/keys/{id}): its quota multiplier (every budget of the key times n),\n" +
      "its revocation, and whether it is first-party (it may use the prediction feed while the feed is\n" +
      "not public). Give at least one. At once on this replica, within a second on every other.\n" +
      "With --json: the key's operator record.",
    credentials: "the operator token",
    positionals: [{ name: "id", description: "The key's id (mkt keys list shows it)" }],
    options: {
      multiplier: { type: "string", value: "<n>", description: "Quota multiplier, 1-1000000" },
      revoked: { type: "string", value: "true|false", description: "Revoke, or restore, the key" },
      "first-party": { type: "string", value: "true|false", description: "Mark the key first-party" },
    },
    examples: ["mkt keys set key_01J… --multiplier 10", "mkt keys set key_01J… --revoked false --json"],
    async run(context, { values, positionals }) {
      const patch = {
        multiplier: integerFlag(values, "multiplier", 1, 1_000_000),
        revoked: booleanFlag(values, "revoked"),
        firstParty: booleanFlag(values, "first-party"),
      };
      if (Object.values(patch).every((value) => value === undefined))
        throw new UsageError("give --multiplier, --revoked or --first-party");
      const key = await patchKey(context, positionals[0]!, patch);
      context.print(key, () => fields(keyFields(key)));
    },
  },
];

import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { Database } from "../db/index.ts";

export interface ServerSecrets {
  /** A 32-byte key for `purpose`, derived from the deployment's secret `name`. */
  key(name: string, purpose: string): Promise<Buffer>;
}

/**
 * Per-deployment secrets: 32 random bytes per name, generated once by the
 * first replica that asks (`INSERT … ON CONFLICT DO NOTHING`, so racing
 * replicas agree on one) and kept in `server_secrets`, so every replica and
 * every restart derives the same keys. They need no configuration; they are
 * never sent nor logged. A purpose gets its own key, derived with HKDF.
 */
export function createServerSecrets({ db }: { db: Database }): ServerSecrets {
  const loaded = new Map<string, Promise<Buffer>>();
  const load = async (name: string): Promise<Buffer> =>
    db.withConnection(async (connection) => {
      await connection.query(
        "INSERT INTO server_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        [name, randomBytes(32).toString("base64url")],
      );
      const { rows } = await connection.query<{ secret: string }>(
        "SELECT secret FROM server_secrets WHERE name = $1",
        [name],
      );
      const secret = rows[0]?.secret;
      if (secret === undefined) throw new Error(`server secret ${name} was not stored`);
      return Buffer.from(secret, "base64url");
    });
  const secretOf = (name: string) => {
    let secret = loaded.get(name);
    if (!secret) {
      secret = load(name);
      // A failed load (database down) is retried by the next caller.
      secret.catch(() => loaded.delete(name));
      loaded.set(name, secret);
    }
    return secret;
  };
  return {
    async key(name: string, purpose: string): Promise<Buffer> {
      return Buffer.from(hkdfSync("sha256", await secretOf(name), Buffer.alloc(0), purpose, 32));
    },
  };
}

/** HMAC-SHA256 of `text` under `key`, base64url. */
export const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest("base64url");

import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../db/index.ts";
import { AppError, badRequest, conflict } from "../errors.ts";
import { clientGroup } from "../quotas/client-group.ts";
import type { Clock } from "../quotas/limiter.ts";

declare module "fastify" {
  interface FastifyRequest {
    idempotency: { scope: string; keyHash: string; secret: Buffer } | undefined;
  }
}

const HEADER = "idempotency-key";
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Response headers replayed with the stored body. */
const REPLAYED_HEADERS = ["content-type", "location"];

export interface IdempotencyOptions {
  db: Database;
  clock: Clock;
  ttlMs?: number;
}

export interface Idempotency {
  /**
   * The hook before a POST's handler: claims the request's Idempotency-Key,
   * or replays the stored response of an earlier request with the same key
   * and body (422 with another body, 409 while the first is in flight).
   */
  preHandler(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * The hook that stores a route's response for replay, leaving out the
   * top-level body fields `withheld` names: they are never stored, and a
   * replay answers without them.
   */
  onSendWithholding(
    withheld: readonly string[],
  ): (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;
  /** Deletes expired records; run periodically. */
  sweep(): Promise<number>;
}

/**
 * Idempotent POSTs (draft-ietf-httpapi-idempotency-key-header). The first
 * request with a key claims it with a pending record; its response is stored
 * and replayed to any retry with the same body for 24 hours.
 *
 * The stored body is sealed with AES-256-GCM under a key derived from the
 * Idempotency-Key, which is itself stored only as a hash. Secrets are never
 * stored, sealed or not: a route names the fields a replay leaves out (the
 * new API key of `POST /keys`), because a client-chosen Idempotency-Key can
 * be guessed.
 */
export function createIdempotency({ db, clock, ttlMs = 24 * 3_600_000 }: IdempotencyOptions): Idempotency {
  const seal = (secret: Buffer, plaintext: string) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", secret, iv);
    const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64");
  };
  const open = (secret: Buffer, stored: string) => {
    const raw = Buffer.from(stored, "base64");
    const decipher = createDecipheriv("aes-256-gcm", secret, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  };

  const claim = async (scope: string, keyHash: string, fingerprint: string) => {
    const inserted = await db.kysely
      .insertInto("idempotency_records")
      .values({
        scope,
        idempotency_key: keyHash,
        fingerprint,
        state: "pending",
        status: null,
        headers: null,
        body: null,
        expires_at: new Date(clock.now() + ttlMs),
      })
      .onConflict((oc) => oc.columns(["scope", "idempotency_key"]).doNothing())
      .returning("scope")
      .executeTakeFirst();
    return inserted !== undefined;
  };

  return {
    async preHandler(request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers[HEADER];
      if (header === undefined) return;
      const raw = Array.isArray(header) ? (header[0] ?? "") : header;
      const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
      if (!KEY_PATTERN.test(value)) {
        throw badRequest("Idempotency-Key must be 1 to 255 printable ASCII characters");
      }
      // A session narrows the scope: two users of one application never share a key space.
      const base = request.apiKey ? `key:${request.apiKey.id}` : `ip:${clientGroup(request.ip)}`;
      const sessionId = request.session?.id ?? request.classicAccount?.sessionId;
      const scope = sessionId === undefined ? base : `${base}:session:${sessionId}`;
      const keyHash = createHash("sha256").update(value).digest("hex");
      const secret = Buffer.from(hkdfSync("sha256", value, scope, "mkt idempotent response", 32));
      const fingerprint = createHash("sha256")
        .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
        .digest("hex");

      for (let attempt = 0; attempt < 2; attempt++) {
        if (await claim(scope, keyHash, fingerprint)) {
          request.idempotency = { scope, keyHash, secret };
          return;
        }
        const existing = await db.kysely
          .selectFrom("idempotency_records")
          .selectAll()
          .where("scope", "=", scope)
          .where("idempotency_key", "=", keyHash)
          .executeTakeFirst();
        if (!existing) continue;
        if (existing.expires_at.getTime() <= clock.now()) {
          await db.kysely
            .deleteFrom("idempotency_records")
            .where("scope", "=", scope)
            .where("idempotency_key", "=", keyHash)
            .where("expires_at", "<=", new Date(clock.now()))
            .execute();
          continue;
        }
        if (existing.fingerprint !== fingerprint) {
          throw new AppError(
            "unprocessable",
            "this Idempotency-Key was already used with a different request",
          );
        }
        if (existing.state === "pending" || existing.status === null || existing.body === null) {
          throw conflict("a request with this Idempotency-Key is still being processed; retry later");
        }
        for (const [name, headerValue] of Object.entries(existing.headers ?? {}))
          reply.header(name, headerValue);
        reply.header("Idempotent-Replayed", "true");
        return reply.code(existing.status).send(open(secret, existing.body));
      }
      throw conflict("could not claim this Idempotency-Key; retry");
    },

    onSendWithholding(withheld: readonly string[]) {
      return (request: FastifyRequest, reply: FastifyReply, payload: unknown) =>
        store(request, reply, payload, withheld);
    },

    async sweep(): Promise<number> {
      const result = await db.kysely
        .deleteFrom("idempotency_records")
        .where("expires_at", "<=", new Date(clock.now()))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };

  async function store(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    withheld: readonly string[],
  ) {
    const claimed = request.idempotency;
    if (!claimed) return payload;
    request.idempotency = undefined;
    const where = db.kysely
      .deleteFrom("idempotency_records")
      .where("scope", "=", claimed.scope)
      .where("idempotency_key", "=", claimed.keyHash);
    const text =
      typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : null;
    // A server failure must not be replayed: release the key so a retry does the work.
    if (reply.statusCode >= 500 || text === null) {
      await where.execute();
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await db.kysely
      .updateTable("idempotency_records")
      .set({
        state: "done",
        status: reply.statusCode,
        headers: JSON.stringify(headers),
        body: seal(claimed.secret, withheld.length === 0 ? text : withhold(text, withheld)),
      })
      .where("scope", "=", claimed.scope)
      .where("idempotency_key", "=", claimed.keyHash)
      .execute();
    return payload;
  }
}

/** The JSON body without the named top-level fields (a body that is not a JSON object is stored as is). */
function withhold(text: string, fields: readonly string[]): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (body === null || typeof body !== "object" || Array.isArray(body)) return text;
    const kept = { ...(body as Record<string, unknown>) };
    for (const field of fields) delete kept[field];
    return JSON.stringify(kept);
  } catch {
    return text;
  }
}

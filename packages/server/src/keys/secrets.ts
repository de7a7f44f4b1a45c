import { createHash, hash, randomBytes, timingSafeEqual } from "node:crypto";
import { API_KEY_PREFIX, apiKeyPattern } from "@mkt/protocol";

/** The length of every API key: the prefix and 32 random bytes in base64url (43 characters). */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + 43;

/** A new API key: 32 random bytes, base64url, behind a recognisable prefix. */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
}

export function isWellFormedApiKey(value: string): boolean {
  return apiKeyPattern.test(value);
}

/**
 * Keys carry 256 bits of entropy, so one SHA-256 is enough to make the stored
 * value useless to whoever reads the database; a slow password hash would
 * only put a CPU cost on every uncached request.
 */
export function hashSecret(secret: string): string {
  // The one-shot form: no Hash object per call, which under load cost more in
  // garbage collection than the hashing itself.
  return hash("sha256", secret, "hex");
}

/** Compares two secrets in time independent of where they differ. */
export function secretsEqual(a: string, b: string): boolean {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right);
}

export function newKeyId(): string {
  return `key_${randomBytes(12).toString("hex")}`;
}

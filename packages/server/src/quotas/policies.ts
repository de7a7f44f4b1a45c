import type { MarketBucket } from "@mkt/protocol";

/**
 * Quota policies of the three surfaces, exactly as their documents state
 * them. All budgets are per replica (the market document says so; the others
 * count per client IP, which a replica sees on its own), sliding windows.
 * Every per-IP budget counts a client group (`clientGroup`): an IPv6 /64 is
 * one client.
 */
export interface Budget {
  limit: number;
  windowMs: number;
}

const perMinute = (limit: number): Budget => ({ limit, windowMs: 60_000 });

export interface QuotaPolicies {
  market: Record<MarketBucket, Budget>;
  classic: { read: Budget; search: Budget; metadata: Budget; report: Budget; stream: Budget };
  predict: { all: Budget; stream: Budget };
  /**
   * The first-party proxy (`/app/api`) without a signed-in session, per client group: well below a
   * key's budget, since any script can send the headers a browser sends.
   */
  proxyAnonymous: Record<MarketBucket, Budget>;
  /** `POST /keys` per client group. */
  keyCreation: Budget;
  /** `DELETE /keys/current` per client group, charged before the key is looked up. */
  keyRevocation: Budget;
  /**
   * Failed key (and proxy session) attempts per client group before every key-gated request from
   * it is refused.
   */
  failedKeyAttempts: Budget;
}

export const defaultPolicies: QuotaPolicies = {
  market: { read: perMinute(100), write: perMinute(25), stream: perMinute(10) },
  classic: {
    read: perMinute(100),
    search: perMinute(25),
    metadata: perMinute(2_000),
    report: { limit: 10, windowMs: 3_600_000 },
    /** Opening a game chat stream: the market's stream bucket. */
    stream: perMinute(10),
  },
  predict: {
    all: perMinute(100),
    /** Opening the feed's stream (`GET /predict/v9/stream`): the market's stream bucket. */
    stream: perMinute(10),
  },
  proxyAnonymous: { read: perMinute(30), write: perMinute(10), stream: perMinute(5) },
  keyCreation: { limit: 10, windowMs: 3_600_000 },
  keyRevocation: perMinute(10),
  failedKeyAttempts: perMinute(20),
};

export type ClassicClass = keyof QuotaPolicies["classic"];

/**
 * Limiter counter ids that more than one place charges or reads: the guard
 * and the API-key fast path must use the very same counters.
 */
export const counterIds = {
  /** Failed key attempts of one client IP. */
  failedAttempts: (ip: string) => `failed:${ip}`,
  /** A market bucket of one API key. */
  marketKey: (bucket: MarketBucket, keyId: string) => `market:${bucket}:key:${keyId}`,
};

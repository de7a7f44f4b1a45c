import { randomBytes } from "node:crypto";
import { CLASSIC_LIVE_CHALLENGE_LIFETIME_MS, CLASSIC_LIVE_CHALLENGES_PER_ADDRESS } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database, Executor } from "../../db/index.ts";
import type { Clock } from "../../quotas/limiter.ts";

/** Expired challenges deleted by each issue: more than one, so expired rows go faster than rows come. */
const SWEEP_BATCH = 100;

/** A sign-in challenge the server issued (migration 0037). */
export interface SignInChallenge {
  id: string;
  address: string;
  nonce: string;
  /** Unix milliseconds. */
  expiresAt: number;
}

/** The live sign-in's challenges, kept in the database so that any replica verifies them. */
export interface SignInChallenges {
  /**
   * Issues a challenge for `address` (lowercase), valid
   * CLASSIC_LIVE_CHALLENGE_LIFETIME_MS. The address keeps at most
   * CLASSIC_LIVE_CHALLENGES_PER_ADDRESS unexpired ones: the oldest beyond go.
   */
  issue(address: string): Promise<SignInChallenge>;
  /** The address's unexpired challenges, newest first (at most CLASSIC_LIVE_CHALLENGES_PER_ADDRESS). */
  unexpired(address: string): Promise<SignInChallenge[]>;
  /** Spends a challenge in the caller's transaction: false when it was spent meanwhile or has expired. */
  consume(tx: Executor, challenge: Pick<SignInChallenge, "id">): Promise<boolean>;
}

interface ChallengeRow {
  id: string | number | bigint;
  address: string;
  nonce: string;
  expires_at: Date | string;
}

const challengeOf = (row: ChallengeRow): SignInChallenge => ({
  id: String(row.id),
  address: row.address,
  nonce: row.nonce,
  expiresAt: new Date(row.expires_at).getTime(),
});

export function createSignInChallenges({ db, clock }: { db: Database; clock: Clock }): SignInChallenges {
  return {
    async issue(address) {
      const now = new Date(clock.now());
      const expires = new Date(now.getTime() + CLASSIC_LIVE_CHALLENGE_LIFETIME_MS);
      const nonce = randomBytes(32).toString("hex");
      return db.kysely.transaction().execute(async (tx) => {
        // One issue per address at a time, so the per-address bound holds under concurrency.
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`classic-challenges:${address}`}))`.execute(tx);
        await sql`
          DELETE FROM classic_sign_in_challenges WHERE id IN (
            SELECT id FROM classic_sign_in_challenges WHERE expires_at <= ${now}
             ORDER BY expires_at LIMIT ${SWEEP_BATCH})`.execute(tx);
        const { rows } = await sql<ChallengeRow>`
          INSERT INTO classic_sign_in_challenges (nonce, address, issued_at, expires_at)
          VALUES (${nonce}, ${address}, ${now}, ${expires})
          RETURNING id, address, nonce, expires_at`.execute(tx);
        await sql`
          DELETE FROM classic_sign_in_challenges
           WHERE address = ${address}
             AND (expires_at <= ${now} OR id NOT IN (
                   SELECT id FROM classic_sign_in_challenges WHERE address = ${address}
                    ORDER BY id DESC LIMIT ${CLASSIC_LIVE_CHALLENGES_PER_ADDRESS}))`.execute(tx);
        return challengeOf(rows[0] as ChallengeRow);
      });
    },

    async unexpired(address) {
      const { rows } = await sql<ChallengeRow>`
        SELECT id, address, nonce, expires_at FROM classic_sign_in_challenges
         WHERE address = ${address} AND expires_at > ${new Date(clock.now())}
         ORDER BY id DESC LIMIT ${CLASSIC_LIVE_CHALLENGES_PER_ADDRESS}`.execute(db.kysely);
      return rows.map(challengeOf);
    },

    async consume(tx, { id }) {
      const { rows } = await sql<{ id: string }>`
        DELETE FROM classic_sign_in_challenges
         WHERE id = ${id} AND expires_at > ${new Date(clock.now())}
        RETURNING id`.execute(tx);
      return rows.length > 0;
    },
  };
}

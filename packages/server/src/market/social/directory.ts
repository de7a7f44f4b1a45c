import type { Executor } from "../../db/index.ts";
import { notFound, unauthorized } from "../../errors.ts";
import type { Session } from "../../identity/index.ts";

export type { Executor } from "../../db/index.ts";

/** An account as the social areas see it. */
export interface SocialAccount {
  id: string;
  /** The primary wallet: the address shown for the account. */
  address: string;
  username: string | null;
  dmPolicy: "everyone" | "following" | "nobody";
}

/** The account a wallet (lowercase) belongs to, or undefined when no account holds it. */
export async function findAccount(db: Executor, wallet: string): Promise<SocialAccount | undefined> {
  const row = await db
    .selectFrom("account_wallets as w")
    .innerJoin("accounts as a", "a.id", "w.account_id")
    .select(["a.id", "a.primary_address", "a.username", "a.dm_policy"])
    .where("w.address", "=", wallet)
    .executeTakeFirst();
  return row && { id: row.id, address: row.primary_address, username: row.username, dmPolicy: row.dm_policy };
}

/** Like `findAccount`, a 404 when no account holds the wallet. */
export async function requireAccount(db: Executor, wallet: string): Promise<SocialAccount> {
  const account = await findAccount(db, wallet);
  if (!account) throw notFound(`no account has the wallet ${wallet}`);
  return account;
}

/** Who acts: the caller's account and the wallet its session is bound to. */
export interface Actor {
  accountId: string;
  wallet: string;
}

/** Blocks between two accounts, in each direction. */
export async function blocksBetween(db: Executor, me: string, other: string) {
  const rows = await db
    .selectFrom("blocks")
    .select("account_id")
    .where((eb) =>
      eb.or([
        eb.and([eb("account_id", "=", me), eb("blocked_id", "=", other)]),
        eb.and([eb("account_id", "=", other), eb("blocked_id", "=", me)]),
      ]),
    )
    .execute();
  return {
    iBlocked: rows.some((row) => row.account_id === me),
    blockedMe: rows.some((row) => row.account_id === other),
  };
}

/** The actor of a session route: account and chat sessions always carry both (the session hook ran). */
export function actorOf(session: Session | undefined): Actor {
  if (!session?.accountId || !session.wallet) throw unauthorized("this route needs an account's session");
  return { accountId: session.accountId, wallet: session.wallet };
}

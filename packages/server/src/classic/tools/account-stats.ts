import type { ClassicAccountStats } from "@mkt/protocol";
import { sql } from "kysely";
import type { Database } from "../../db/index.ts";
import type { ClassicStatsService } from "../stats/index.ts";

const count = (value: string | number | null | undefined) => Number(value ?? 0);
const wei = (value: string | null | undefined) => BigInt(value ?? "0").toString();

export interface ClassicAccountStatsService {
  /** The account's own figures across its linked wallets on `chainId`, beside the platform totals. */
  of(account: { id: string; wallets: readonly string[] }, chainId: number): Promise<ClassicAccountStats>;
}

/**
 * The signed-in account's own figures across its linked wallets, beside the
 * platform totals of `GET /classic/stats` (which need the ETH/USD price: 503
 * `PRICE_UNAVAILABLE` without one).
 */
export function createClassicAccountStats({
  db,
  stats,
}: {
  db: Database;
  stats: ClassicStatsService;
}): ClassicAccountStatsService {
  return {
    async of(
      account: { id: string; wallets: readonly string[] },
      chainId: number,
    ): Promise<ClassicAccountStats> {
      const wallets = account.wallets.length > 0 ? [...account.wallets] : [""];
      const [platform, { rows }] = await Promise.all([
        stats.platform(chainId),
        sql<{
          held: string;
          opened: string;
          burned: string;
          spent: string | null;
          rewards: string | null;
          games: string;
          reactions: string;
          reports: string;
        }>`
          SELECT p.held, p.opened, p.burned, p.spent, p.rewards, g.games, r.reactions, q.reports
          FROM (
            SELECT count(*) FILTER (WHERE status <> 'burned') AS held,
                   count(*) FILTER (WHERE status IN ('opened', 'rarity_assigned')) AS opened,
                   count(*) FILTER (WHERE status = 'burned') AS burned,
                   sum(acquired_price) AS spent,
                   sum(reward_amount) FILTER (WHERE status = 'burned') AS rewards
            FROM classic_packs WHERE chain_id = ${chainId} AND owner IN (${sql.join(wallets)})
          ) p, (
            SELECT count(*) AS games FROM classic_games
            WHERE chain_id = ${chainId} AND creator IN (${sql.join(wallets)})
          ) g, (
            SELECT count(*) AS reactions FROM classic_reactions WHERE account_id = ${account.id}
          ) r, (
            SELECT count(*) AS reports FROM classic_reports WHERE account_id = ${account.id}
          ) q`.execute(db.kysely),
      ]);
      const row = rows[0];
      return {
        success: true,
        account: { id: account.id, wallets: [...account.wallets] },
        mine: {
          chainId,
          packsHeld: count(row?.held),
          packsOpened: count(row?.opened),
          packsBurned: count(row?.burned),
          spentWei: wei(row?.spent),
          rewardsWei: wei(row?.rewards),
          gamesCreated: count(row?.games),
          reactionsMade: count(row?.reactions),
          reportsMade: count(row?.reports),
        },
        platform,
      };
    },
  };
}

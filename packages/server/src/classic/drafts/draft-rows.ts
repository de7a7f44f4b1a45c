import {
  CLASSIC_DRAFT_MAX_ACCOUNT_BYTES,
  CLASSIC_ERROR_CODES,
  CLASSIC_ZERO_ROOT,
  type ClassicDraft,
} from "@mkt/protocol";
import { type RawBuilder, sql } from "kysely";
import { AppError, notFound } from "../../errors.ts";
import { controlsWallet } from "../auth/ownership.ts";

/** Who asks: the signed-in account and every wallet linked to it now (lowercase). */
export interface CreatorActor {
  accountId: string;
  wallets: readonly string[];
}

/** What a draft's autosaves write: everything the creator chooses before deploying. */
export type Content = Pick<
  ClassicDraft,
  "tokenName" | "tokenSymbol" | "nftName" | "nftSymbol" | "slug" | "game" | "cards" | "oddsBps" | "packAmount"
>;

export interface DraftRow {
  id: string;
  chain_id: number;
  creator: string;
  revision: number;
  content: Content | string;
  whitelist_enabled: boolean;
  allowlist_count: number;
  merkle_root: string | null;
  finalized_at: Date | string | null;
  tx_hash: string | null;
  contract_address: string | null;
  token_address: string | null;
  game_id: string | null;
  deployed_root: string | null;
  confirmed_at: Date | string | null;
  published_version: number | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const COLUMNS = sql.raw(
  "id, chain_id, creator, revision, content, whitelist_enabled, allowlist_count, merkle_root, finalized_at, tx_hash, contract_address, token_address, game_id::text AS game_id, deployed_root, confirmed_at, published_version, created_at, updated_at",
);

const iso = (value: Date | string) => new Date(value).toISOString();
export const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
export const contentOf = (row: DraftRow): Content =>
  typeof row.content === "string" ? (JSON.parse(row.content) as Content) : row.content;

export const forbidden = (message: string) =>
  new AppError("forbidden", message, { code: CLASSIC_ERROR_CODES.forbidden });
export const conflict = (code: string, message: string) => new AppError("conflict", message, { code });
export const draftNotFound = () => notFound("no such draft", CLASSIC_ERROR_CODES.draftNotFound);
export const draftConfirmed = () =>
  conflict(
    CLASSIC_ERROR_CODES.draftConfirmed,
    "the draft is confirmed: its deployment is fixed; revise the game with PUT /classic/metadata/{addressOrSlug}",
  );

/** The root a deployment of this draft must carry. */
export const expectedRoot = (row: Pick<DraftRow, "whitelist_enabled" | "merkle_root">) =>
  row.whitelist_enabled && row.merkle_root ? row.merkle_root : CLASSIC_ZERO_ROOT;

export function record(row: DraftRow): ClassicDraft {
  const content = contentOf(row);
  return {
    draftId: row.id,
    chainId: row.chain_id,
    revision: row.revision,
    status: row.tx_hash ? "confirmed" : "draft",
    creator: row.creator,
    tokenName: content.tokenName,
    tokenSymbol: content.tokenSymbol,
    nftName: content.nftName,
    nftSymbol: content.nftSymbol,
    slug: content.slug,
    oddsBps: content.oddsBps,
    // Drafts saved before packAmount existed have none.
    packAmount: content.packAmount ?? null,
    game: content.game,
    cards: content.cards,
    whitelist: {
      whitelistEnabled: row.whitelist_enabled,
      merkleRoot: expectedRoot(row),
      entriesCount: row.allowlist_count,
      finalizedAt: row.finalized_at ? iso(row.finalized_at) : null,
    },
    deployment:
      row.tx_hash && row.contract_address && row.confirmed_at
        ? {
            txHash: row.tx_hash,
            contractAddress: row.contract_address,
            tokenAddress: row.token_address ?? "",
            gameId: row.game_id ?? "",
            merkleRoot: row.deployed_root ?? CLASSIC_ZERO_ROOT,
            confirmedAt: iso(row.confirmed_at),
            version: row.published_version,
          }
        : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export const inWallets = (column: RawBuilder<unknown>, wallets: readonly string[]) =>
  sql`${column} IN (${sql.join(wallets.map((wallet) => sql`${wallet}`))})`;

export type Executor = Parameters<RawBuilder<unknown>["execute"]>[0];

/** The draft, if the actor may reach it: 404 unknown, 403 another creator's. */
export async function loadDraft(
  executor: Executor,
  actor: CreatorActor,
  draftId: string,
  { lock = false } = {},
): Promise<DraftRow> {
  const { rows } = await sql<DraftRow>`
    SELECT ${COLUMNS} FROM classic_drafts WHERE id = ${draftId} ${lock ? sql`FOR UPDATE` : sql``}`.execute(
    executor,
  );
  const row = rows[0];
  if (!row) throw draftNotFound();
  if (!controlsWallet(actor, row.creator))
    throw forbidden("the draft's creator is not a wallet linked to the signed-in account");
  return row;
}

/**
 * Serialises an account's draft writes (creates, autosaves, allowlists), so
 * its caps (count and stored bytes) hold under concurrency. Taken before any
 * draft row lock.
 */
export const lockAccount = (tx: Executor, actor: CreatorActor) =>
  sql`SELECT pg_advisory_xact_lock(hashtext(${`classic-drafts:${actor.accountId}`}))`.execute(tx);

/** Bytes the unconfirmed drafts of the account's wallets take as stored (`stored_bytes`, migration 0030). */
async function storedBytes(tx: Executor, actor: CreatorActor): Promise<number> {
  const { rows } = await sql<{ n: string | number | null }>`
    SELECT sum(stored_bytes) AS n FROM classic_drafts
     WHERE tx_hash IS NULL AND ${inWallets(sql.ref("creator"), actor.wallets)}`.execute(tx);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Runs a draft write (under the account's lock) and refuses it, rolling the
 * transaction back, when it grows the account's stored bytes beyond
 * `CLASSIC_DRAFT_MAX_ACCOUNT_BYTES`. A write that does not grow them (an
 * autosave that shrinks a draft) is always allowed.
 */
export async function withinStorage<T>(
  tx: Executor,
  actor: CreatorActor,
  write: () => Promise<T>,
): Promise<T> {
  const before = await storedBytes(tx, actor);
  const result = await write();
  const after = await storedBytes(tx, actor);
  if (after > CLASSIC_DRAFT_MAX_ACCOUNT_BYTES && after > before)
    throw conflict(
      CLASSIC_ERROR_CODES.draftStorageLimit,
      `the unconfirmed drafts of an account's wallets take at most ${CLASSIC_DRAFT_MAX_ACCOUNT_BYTES} bytes (16 MiB) together; with this change they would take ${after}: delete drafts or shrink their cards or allowlists first`,
    );
  return result;
}

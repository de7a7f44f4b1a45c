import { randomBytes } from "node:crypto";
import {
  CLASSIC_DRAFT_MAX_ACCOUNT_BYTES,
  CLASSIC_DRAFTS_PER_ACCOUNT,
  CLASSIC_ERROR_CODES,
  CLASSIC_ZERO_ROOT,
  type ClassicAllowlistProof,
  type ClassicAllowlistResult,
  type ClassicConfirm,
  type ClassicDraft,
  type ClassicDraftSummary,
  type ClassicRevision,
  classicCreatorUrls,
  type classicDraftPollRequestSchema,
  type classicRevisionRequestSchema,
  type classicWhitelistRequestSchema,
  isPlainHttpUrl,
} from "@mkt/protocol";
import { type RawBuilder, sql } from "kysely";
import type { Hex } from "viem";
import type { z } from "zod";
import type { Database } from "../../db/index.ts";
import { AppError, badRequest, notFound, UnavailableError } from "../../errors.ts";
import type { Clock } from "../../quotas/limiter.ts";
import { controlsWallet } from "../auth/ownership.ts";
import {
  type ClassicMetadataStore,
  checkCards,
  storedCardsSchema,
  storedGameMetadataSchema,
} from "../games/metadata-store.ts";
import { createAllowlistCache } from "./allowlist.ts";
import type { DeploymentReader, GameDeployment } from "./deployments.ts";

/** Who asks: the signed-in account and every wallet linked to it now (lowercase). */
export interface CreatorActor {
  accountId: string;
  wallets: readonly string[];
}

export type DraftPollInput = z.output<typeof classicDraftPollRequestSchema>;
export type WhitelistInput = z.output<typeof classicWhitelistRequestSchema>;
export type RevisionInput = z.output<typeof classicRevisionRequestSchema>;

/** A stale publish claim (a replica that died mid-publish) may be taken over after this. */
const PUBLISH_CLAIM_MS = 30_000;

type Content = Pick<
  ClassicDraft,
  "tokenName" | "tokenSymbol" | "nftName" | "nftSymbol" | "slug" | "game" | "cards" | "oddsBps"
>;

interface DraftRow {
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

const COLUMNS = sql.raw(
  "id, chain_id, creator, revision, content, whitelist_enabled, allowlist_count, merkle_root, finalized_at, tx_hash, contract_address, token_address, game_id::text AS game_id, deployed_root, confirmed_at, published_version, created_at, updated_at",
);

const iso = (value: Date | string) => new Date(value).toISOString();
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
const contentOf = (row: DraftRow): Content =>
  typeof row.content === "string" ? (JSON.parse(row.content) as Content) : row.content;

const forbidden = (message: string) =>
  new AppError("forbidden", message, { code: CLASSIC_ERROR_CODES.forbidden });
const conflict = (code: string, message: string) => new AppError("conflict", message, { code });
const draftNotFound = () => notFound("no such draft", CLASSIC_ERROR_CODES.draftNotFound);
const draftConfirmed = () =>
  conflict(
    CLASSIC_ERROR_CODES.draftConfirmed,
    "the draft is confirmed: its deployment is fixed; revise the game with PUT /classic/metadata/{addressOrSlug}",
  );

/** The root a deployment of this draft must carry. */
const expectedRoot = (row: Pick<DraftRow, "whitelist_enabled" | "merkle_root">) =>
  row.whitelist_enabled && row.merkle_root ? row.merkle_root : CLASSIC_ZERO_ROOT;

function record(row: DraftRow): ClassicDraft {
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

const inWallets = (column: RawBuilder<unknown>, wallets: readonly string[]) =>
  sql`${column} IN (${sql.join(wallets.map((wallet) => sql`${wallet}`))})`;

type Executor = Parameters<RawBuilder<unknown>["execute"]>[0];

/**
 * Serialises an account's draft writes (creates, autosaves, allowlists), so
 * its caps (count and stored bytes) hold under concurrency. Taken before any
 * draft row lock.
 */
const lockAccount = (tx: Executor, actor: CreatorActor) =>
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
async function withinStorage<T>(tx: Executor, actor: CreatorActor, write: () => Promise<T>): Promise<T> {
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

/**
 * The Classic creator workflow (section 3): drafts and their autosaves,
 * allowlists and proofs, the confirmation of a deployment, and later
 * revisions. Ownership (section 5): a draft or game is reachable only when
 * its creator wallet is linked to the asking account now (403 otherwise).
 */
export function createClassicDraftService({
  db,
  clock,
  chainId,
  plainHttpUrls = false,
  metadata,
  deployments,
  onPublishFailure,
}: {
  db: Database;
  clock: Clock;
  /** The classic chain: drafts are for its factory. */
  chainId: number;
  /**
   * Whether creator URLs may be plain `http://` (true only while the classic
   * chain is a dev chain of this process); otherwise only `https://`.
   */
  plainHttpUrls?: boolean;
  metadata: ClassicMetadataStore;
  /** The classic chain's receipts; undefined without a classic deployment (confirm answers 503). */
  deployments: DeploymentReader | undefined;
  /** A publish after confirm failed for a reason a retry cannot fix (logged by the caller). */
  onPublishFailure?: (draftId: string, error: unknown) => void;
}) {
  const trees = createAllowlistCache();
  const now = () => new Date(clock.now()).toISOString();

  /** The protocol schema takes http(s) creator URLs; on a production chain plain http is refused too (400). */
  const checkUrlSchemes = (content: Parameters<typeof classicCreatorUrls>[0]) => {
    if (plainHttpUrls) return;
    const plain = classicCreatorUrls(content).find(({ url }) => isPlainHttpUrl(url));
    if (plain)
      throw badRequest(
        `${plain.field} must be an https:// URL: plain http:// is accepted only on a dev chain`,
      );
  };

  /** The draft, if the actor may reach it: 404 unknown, 403 another creator's. */
  async function load(
    executor: Parameters<RawBuilder<unknown>["execute"]>[0],
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
   * Publishes a confirmed draft's metadata once its game is indexed. One
   * replica publishes (a claim on the draft row); the others see it pending
   * or published. Returns the published version, or null while the game is
   * not indexed (or another replica is publishing).
   */
  async function settle(draftId: string): Promise<number | null> {
    const stale = new Date(clock.now() - PUBLISH_CLAIM_MS).toISOString();
    const { rows } = await sql<DraftRow>`
      UPDATE classic_drafts d SET publish_claimed_at = ${now()}
       WHERE d.id = ${draftId} AND d.tx_hash IS NOT NULL AND d.published_version IS NULL
         AND (d.publish_claimed_at IS NULL OR d.publish_claimed_at < ${stale})
         AND EXISTS (SELECT 1 FROM classic_games g
                      WHERE g.chain_id = d.chain_id AND g.drop_address = d.contract_address)
      RETURNING ${COLUMNS}`.execute(db.kysely);
    const row = rows[0];
    if (!row?.contract_address) {
      const { rows: current } = await sql<{ published_version: number | null }>`
        SELECT published_version FROM classic_drafts WHERE id = ${draftId}`.execute(db.kysely);
      return current[0]?.published_version ?? null;
    }
    const content = contentOf(row);
    const revision = { game: content.game, cards: content.cards };
    let version: number;
    try {
      try {
        ({ version } = await metadata.publish(row.chain_id, row.contract_address, {
          ...revision,
          ...(content.slug ? { slug: content.slug } : {}),
        }));
      } catch (error) {
        // The slug was free at confirm; if another game took it since, the game keeps its default slug.
        if (!(error instanceof AppError && error.kind === "conflict" && content.slug)) throw error;
        ({ version } = await metadata.publish(row.chain_id, row.contract_address, revision));
      }
    } catch (error) {
      await sql`UPDATE classic_drafts SET publish_claimed_at = NULL WHERE id = ${draftId}`.execute(db.kysely);
      onPublishFailure?.(draftId, error);
      throw error;
    }
    await sql`
      UPDATE classic_drafts SET published_version = ${version}, publish_claimed_at = NULL, updated_at = ${now()}
       WHERE id = ${draftId}`.execute(db.kysely);
    return version;
  }

  /**
   * For `/ready`: publishes a confirmed draft of this game if it is still
   * unpublished. True while the game has a confirmed draft whose metadata
   * is not published yet.
   */
  async function pendingPublication(gameChainId: number, address: string): Promise<boolean> {
    const { rows } = await sql<{ id: string }>`
      SELECT id FROM classic_drafts
       WHERE chain_id = ${gameChainId} AND contract_address = ${address} AND published_version IS NULL`.execute(
      db.kysely,
    );
    const row = rows[0];
    if (!row) return false;
    return (await settle(row.id).catch(() => null)) === null;
  }

  function confirmation(row: DraftRow, version: number | null): ClassicConfirm {
    return {
      success: true,
      receiptFound: true,
      message:
        version === null
          ? "deployment confirmed; the metadata is published once the game is indexed (poll /contractAddress/{address}/ready)"
          : "deployment confirmed and metadata published",
      draftId: row.id,
      txHash: row.tx_hash ?? "",
      chainId: row.chain_id,
      contractAddress: row.contract_address,
      tokenAddress: row.token_address,
      gameId: row.game_id,
      merkleRoot: row.deployed_root,
      published: version !== null,
      version,
    };
  }

  /** The deployment's checks against the draft (section 3 step 4), in order. */
  function checkDeployment(actor: CreatorActor, row: DraftRow, game: GameDeployment) {
    if (!controlsWallet(actor, game.creator))
      throw forbidden("the game was deployed by a wallet not linked to the signed-in account");
    const root = expectedRoot(row);
    if (game.merkleRoot !== root.toLowerCase())
      throw conflict(
        CLASSIC_ERROR_CODES.merkleRootMismatch,
        `the deployment's merkleRoot ${game.merkleRoot} is not the draft's ${root}`,
      );
    const content = contentOf(row);
    for (const field of ["nftName", "nftSymbol", "tokenName", "tokenSymbol"] as const) {
      if (game[field] !== content[field])
        throw conflict(
          CLASSIC_ERROR_CODES.deploymentMismatch,
          `the deployment's ${field} is not the draft's (autosave the draft to match, then confirm again)`,
        );
    }
    if (game.oddsBps.join() !== content.oddsBps.join())
      throw conflict(CLASSIC_ERROR_CODES.deploymentMismatch, "the deployment's oddsBps are not the draft's");
  }

  return {
    /**
     * Creates (no `draftId`) or autosaves a draft. A save applies only when
     * its revision is greater than the stored one; otherwise the stored draft
     * is answered with `applied: false` (a repeated or stale save alike).
     */
    async poll(
      actor: CreatorActor,
      input: DraftPollInput,
    ): Promise<{ applied: boolean; draft: ClassicDraft }> {
      if (!controlsWallet(actor, input.creator))
        throw forbidden("creator must be a wallet linked to the signed-in account");
      checkUrlSchemes(input);
      const content: Content = {
        tokenName: input.tokenName,
        tokenSymbol: input.tokenSymbol,
        nftName: input.nftName,
        nftSymbol: input.nftSymbol,
        slug: input.slug,
        game: input.game,
        cards: input.cards,
        oddsBps: input.oddsBps,
      };
      return db.kysely.transaction().execute(async (tx) => {
        const at = now();
        await lockAccount(tx, actor);
        if (input.draftId === undefined) {
          const { rows: counted } = await sql<{ n: string | number }>`
            SELECT count(*) AS n FROM classic_drafts
             WHERE tx_hash IS NULL AND ${inWallets(sql.ref("creator"), actor.wallets)}`.execute(tx);
          if (Number(counted[0]?.n ?? 0) >= CLASSIC_DRAFTS_PER_ACCOUNT)
            throw conflict(
              CLASSIC_ERROR_CODES.draftLimit,
              `an account's wallets hold at most ${CLASSIC_DRAFTS_PER_ACCOUNT} unconfirmed drafts; delete one first`,
            );
          const id = randomBytes(12).toString("hex");
          const { rows } = await withinStorage(tx, actor, () =>
            sql<DraftRow>`
              INSERT INTO classic_drafts (id, chain_id, creator, revision, content, created_at, updated_at)
              VALUES (${id}, ${chainId}, ${input.creator}, ${input.revision}, ${json(content)}, ${at}, ${at})
              RETURNING ${COLUMNS}`.execute(tx),
          );
          return { applied: true, draft: record(rows[0] as DraftRow) };
        }
        const row = await load(tx, actor, input.draftId, { lock: true });
        if (row.tx_hash) throw draftConfirmed();
        if (input.revision <= row.revision) return { applied: false, draft: record(row) };
        const { rows } = await withinStorage(tx, actor, () =>
          sql<DraftRow>`
            UPDATE classic_drafts
               SET creator = ${input.creator}, revision = ${input.revision}, content = ${json(content)}, updated_at = ${at}
             WHERE id = ${row.id}
            RETURNING ${COLUMNS}`.execute(tx),
        );
        return { applied: true, draft: record(rows[0] as DraftRow) };
      });
    },

    /** The drafts of the account's wallets, most recently changed first. */
    async list(
      actor: CreatorActor,
      { page, limit }: { page: number; limit: number },
    ): Promise<{ drafts: ClassicDraftSummary[]; total: number }> {
      const mine = inWallets(sql.ref("creator"), actor.wallets);
      const [{ rows }, { rows: counted }] = await Promise.all([
        sql<DraftRow & { cards_count: number }>`
          SELECT ${COLUMNS}, jsonb_array_length(content -> 'cards') AS cards_count
            FROM classic_drafts WHERE ${mine}
           ORDER BY updated_at DESC, id DESC
           LIMIT ${limit} OFFSET ${(page - 1) * limit}`.execute(db.kysely),
        sql<{ n: string | number }>`SELECT count(*) AS n FROM classic_drafts WHERE ${mine}`.execute(
          db.kysely,
        ),
      ]);
      return {
        drafts: rows.map((row) => {
          const { game: _game, cards: _cards, ...summary } = record(row);
          return { ...summary, cardsCount: Number(row.cards_count) };
        }),
        total: Number(counted[0]?.n ?? 0),
      };
    },

    async get(actor: CreatorActor, draftId: string): Promise<ClassicDraft> {
      return record(await load(db.kysely, actor, draftId));
    },

    /** Deletes an unconfirmed draft (a confirmed one is the record of its game: 409). */
    async remove(actor: CreatorActor, draftId: string): Promise<void> {
      await db.kysely.transaction().execute(async (tx) => {
        const row = await load(tx, actor, draftId, { lock: true });
        if (row.tx_hash) throw draftConfirmed();
        await sql`DELETE FROM classic_drafts WHERE id = ${row.id}`.execute(tx);
      });
    },

    /**
     * Replaces the allowlist: duplicates collapse (first entry wins; the
     * answer says `alreadyExists`), the root is the StandardMerkleTree root
     * of the addresses, and the tree awaits finalize again.
     */
    async setWhitelist(actor: CreatorActor, input: WhitelistInput): Promise<ClassicAllowlistResult> {
      checkUrlSchemes({ entries: input.entries });
      const unique = new Map<string, WhitelistInput["entries"][number]>();
      for (const entry of input.entries) if (!unique.has(entry.address)) unique.set(entry.address, entry);
      if (input.whitelistEnabled && unique.size === 0)
        throw badRequest("an enabled allowlist needs at least one entry (nobody could mint)");
      const entries = [...unique.values()];
      const root = entries.length > 0 ? trees.build([...unique.keys()]).root.toLowerCase() : null;
      return db.kysely.transaction().execute(async (tx) => {
        await lockAccount(tx, actor);
        const row = await load(tx, actor, input.draftId, { lock: true });
        if (row.tx_hash) throw draftConfirmed();
        await withinStorage(tx, actor, () =>
          sql`
            UPDATE classic_drafts
               SET whitelist_enabled = ${input.whitelistEnabled}, allowlist = ${json(entries)},
                   allowlist_count = ${entries.length}, merkle_root = ${root}, finalized_at = NULL,
                   updated_at = ${now()}
             WHERE id = ${row.id}`.execute(tx),
        );
        const duplicates = input.entries.length - entries.length;
        return {
          success: true,
          message:
            duplicates > 0
              ? `allowlist replaced; ${duplicates} duplicate address(es) collapsed`
              : "allowlist replaced",
          whitelistEnabled: input.whitelistEnabled,
          merkleRoot: expectedRoot({ whitelist_enabled: input.whitelistEnabled, merkle_root: root }),
          entriesCount: entries.length,
          total: input.entries.length,
          alreadyExists: duplicates > 0,
        };
      });
    },

    /** Rebuilds the tree from the stored entries and records it as final (idempotent). */
    async finalize(actor: CreatorActor, draftId: string): Promise<ClassicAllowlistResult> {
      return db.kysely.transaction().execute(async (tx) => {
        const row = await load(tx, actor, draftId, { lock: true });
        const { rows } = await sql<{ allowlist: { address: string }[] | string }>`
          SELECT allowlist FROM classic_drafts WHERE id = ${row.id}`.execute(tx);
        const raw = rows[0]?.allowlist ?? [];
        const entries = typeof raw === "string" ? (JSON.parse(raw) as { address: string }[]) : raw;
        const root =
          entries.length > 0 ? trees.build(entries.map((entry) => entry.address)).root.toLowerCase() : null;
        if (row.tx_hash && expectedRoot({ ...row, merkle_root: root }) !== row.deployed_root)
          throw draftConfirmed();
        await sql`
          UPDATE classic_drafts SET merkle_root = ${root}, finalized_at = ${now()} WHERE id = ${row.id}`.execute(
          tx,
        );
        return {
          success: true,
          message: "allowlist tree rebuilt and persisted",
          whitelistEnabled: row.whitelist_enabled,
          merkleRoot: expectedRoot({ whitelist_enabled: row.whitelist_enabled, merkle_root: root }),
          entriesCount: entries.length,
          total: entries.length,
          alreadyExists: false,
        };
      });
    },

    /** The proof `BoosterDrop.mint` takes from `address` (no ownership: minters ask). */
    async proof(draftId: string, address: string): Promise<ClassicAllowlistProof> {
      const { rows } = await sql<Pick<DraftRow, "whitelist_enabled" | "merkle_root">>`
        SELECT whitelist_enabled, merkle_root FROM classic_drafts WHERE id = ${draftId}`.execute(db.kysely);
      const row = rows[0];
      if (!row) throw draftNotFound();
      if (!row.whitelist_enabled || !row.merkle_root)
        return {
          success: true,
          address,
          whitelistEnabled: false,
          merkleRoot: CLASSIC_ZERO_ROOT,
          allowlisted: false,
          proof: [],
        };
      const tree = await trees.get(draftId, row.merkle_root, async () => {
        const { rows: stored } = await sql<{ address: string }>`
          SELECT e ->> 'address' AS address
            FROM classic_drafts, jsonb_array_elements(allowlist) AS e WHERE id = ${draftId}`.execute(
          db.kysely,
        );
        return stored.map((entry) => entry.address);
      });
      const proof = tree.proofFor(address as Hex);
      return {
        success: true,
        address,
        whitelistEnabled: true,
        merkleRoot: row.merkle_root,
        allowlisted: proof !== undefined,
        proof: (proof ?? []).map((node) => node.toLowerCase()),
      };
    },

    /**
     * Attaches a deployment transaction to a draft after reading its receipt
     * (section 3 step 4). Idempotent: the same draft and transaction answer
     * the same result; another transaction for a confirmed draft is 409.
     */
    async confirm(
      actor: CreatorActor,
      { draftId, txHash }: { draftId: string; txHash: string },
    ): Promise<ClassicConfirm> {
      const row = await load(db.kysely, actor, draftId);
      if (row.tx_hash) {
        if (row.tx_hash !== txHash)
          throw conflict(
            CLASSIC_ERROR_CODES.draftConfirmed,
            "the draft is already confirmed with another transaction",
          );
        return confirmation(row, await settle(row.id));
      }
      if (!deployments)
        throw new UnavailableError("this server has no classic chain to read the deployment from");
      const receipt = await deployments.read(txHash as Hex);
      if (!receipt.found)
        return {
          success: true,
          receiptFound: false,
          message: "no receipt yet: the transaction is pending or unknown; confirm again once it is mined",
          draftId: row.id,
          txHash,
          chainId: row.chain_id,
          contractAddress: null,
          tokenAddress: null,
          gameId: null,
          merkleRoot: null,
          published: false,
          version: null,
        };
      if (receipt.reverted)
        throw conflict(
          CLASSIC_ERROR_CODES.transactionReverted,
          "the transaction reverted: nothing was deployed",
        );
      const [game, ...others] = receipt.games;
      if (!game || others.length > 0)
        throw conflict(
          CLASSIC_ERROR_CODES.notAGameDeployment,
          "the transaction did not create exactly one game through this server's drop factory",
        );
      checkDeployment(actor, row, game);
      const content = contentOf(row);
      const cards = storedCardsSchema.safeParse(content.cards);
      if (!cards.success) throw badRequest("the draft's cards are incomplete: 1 to 1000 cards are needed");
      checkCards(cards.data);
      storedGameMetadataSchema.parse(content.game);
      const confirmed = await db.kysely.transaction().execute(async (tx) => {
        const current = await load(tx, actor, draftId, { lock: true });
        if (current.tx_hash) {
          if (current.tx_hash !== txHash)
            throw conflict(
              CLASSIC_ERROR_CODES.draftConfirmed,
              "the draft is already confirmed with another transaction",
            );
          return current;
        }
        if (expectedRoot(current) !== expectedRoot(row) || current.revision !== row.revision)
          throw conflict(
            CLASSIC_ERROR_CODES.deploymentMismatch,
            "the draft changed while confirming; try again",
          );
        if (content.slug) {
          const { rows: taken } = await sql<{ n: number }>`
            SELECT 1 AS n FROM classic_slugs WHERE chain_id = ${row.chain_id} AND slug = ${content.slug}
            UNION ALL
            SELECT 1 AS n FROM classic_games WHERE chain_id = ${row.chain_id} AND slug = ${content.slug}
            UNION ALL
            SELECT 1 AS n FROM classic_drafts
             WHERE chain_id = ${row.chain_id} AND tx_hash IS NOT NULL AND id <> ${row.id}
               AND content ->> 'slug' = ${content.slug}`.execute(tx);
          if (taken.length > 0)
            throw conflict(CLASSIC_ERROR_CODES.slugTaken, "the draft's slug is taken: autosave another one");
        }
        const { rows: claimed } = await sql<{ id: string }>`
          SELECT id FROM classic_drafts
           WHERE chain_id = ${row.chain_id} AND (tx_hash = ${txHash} OR contract_address = ${game.drop})`.execute(
          tx,
        );
        if (claimed.length > 0)
          throw conflict(
            CLASSIC_ERROR_CODES.draftConfirmed,
            "this deployment is already attached to another draft",
          );
        const { rows } = await sql<DraftRow>`
          UPDATE classic_drafts
             SET tx_hash = ${txHash}, contract_address = ${game.drop}, token_address = ${game.token},
                 game_id = ${game.gameId.toString()}, deployed_root = ${game.merkleRoot},
                 confirmed_at = ${now()}, updated_at = ${now()}
           WHERE id = ${row.id}
          RETURNING ${COLUMNS}`.execute(tx);
        return rows[0] as DraftRow;
      });
      return confirmation(confirmed, await settle(confirmed.id));
    },

    pendingPublication,

    /**
     * Publishes a revision of a game whose creator is a wallet linked to
     * the actor (404 unknown game, 403 another creator's, 409 `VERSION_CONFLICT`
     * when `version` is not the next one).
     */
    async revise(
      actor: CreatorActor,
      contractAddress: string,
      input: RevisionInput,
    ): Promise<ClassicRevision> {
      const { rows } = await sql<{ creator: string }>`
        SELECT creator FROM classic_games WHERE chain_id = ${chainId} AND drop_address = ${contractAddress}`.execute(
        db.kysely,
      );
      const game = rows[0];
      if (!game) throw notFound("no such game", CLASSIC_ERROR_CODES.gameNotFound);
      if (!controlsWallet(actor, game.creator))
        throw forbidden("the game's creator is not a wallet linked to the signed-in account");
      checkUrlSchemes(input);
      // A confirmed draft's metadata is the game's first revision: published before any revision.
      await pendingPublication(chainId, contractAddress);
      const published = await metadata.publish(chainId, contractAddress, {
        game: input.game,
        cards: input.cards,
        ...(input.effectiveFrom ? { effectiveFrom: input.effectiveFrom } : {}),
        ...(input.effectiveUntil ? { effectiveUntil: input.effectiveUntil } : {}),
        ...(input.version !== undefined ? { expectedVersion: input.version } : {}),
      });
      return {
        success: true,
        chainId,
        contractAddress,
        version: published.version,
        effectiveFrom: published.effectiveFrom.toISOString(),
        effectiveUntil: published.effectiveUntil?.toISOString() ?? null,
      };
    },
  };
}

export type ClassicDraftService = ReturnType<typeof createClassicDraftService>;

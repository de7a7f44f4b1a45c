import {
  boosterTokenAbi,
  type ChainDeployment,
  compileSource,
  DEV_ACCOUNT_ROLES,
  dropFactoryAbi,
  fulfilEntropy,
  liveBoosterDropAbi,
  liveBoosterTokenAbi,
  liveDropCreatorAbi,
  waitForSuccess,
} from "@mkt/chain";
import { type ClassicGamesPage, defaultGameSlug } from "@mkt/protocol";
import {
  type Address,
  createPublicClient,
  custom,
  getAddress,
  type Hex,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDatabase } from "../_test/database.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { expectProjectionEqualsFreshIndex, expectProjectionMatchesChain } from "../_test/projection-check.ts";
import { scopeIds } from "../chains/index.ts";
import { CLASSIC_INDEXER_SOURCE } from "../classic/routes.ts";
import { createScopeIndexer } from "../indexer/engine.ts";
import { scopesOf } from "../indexer/projections.ts";
import { createLogger } from "../logging/index.ts";
import { systemClock } from "../quotas/limiter.ts";

/** The drop's owner (who may pause it), the creation's caller, a collector and a second holder. */
const OWNER = DEV_ACCOUNT_ROLES.firstUser;
const CREATOR = DEV_ACCOUNT_ROLES.firstUser + 1;
const COLLECTOR = DEV_ACCOUNT_ROLES.firstUser + 2;
const HOLDER = DEV_ACCOUNT_ROLES.firstUser + 3;
const ZERO_ROOT = `0x${"0".repeat(64)}`;
const DEFAULT_ODDS = [6000, 2500, 1000, 400, 100];

/**
 * A creation contract that speaks only the live interface, as the one on Base does: the live
 * `createDropWithConfig` deploys through the reference factory (whose own logs no deployment below
 * follows) and this contract emits the live `DropCreated` alone, never our `DropConfigured`.
 */
const LIVE_CREATOR_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ReferenceFactory {
    struct DropConfig {
        string baseURI;
        uint256 tokensPerMint;
        uint256 commonOffer;
        uint256 rareOffer;
        uint256 epicOffer;
        uint256 legendaryOffer;
        uint256 mythicOffer;
    }

    function createDropWithConfig(
        string memory tokenName,
        string memory tokenSymbol,
        string memory nftName,
        string memory nftSymbol,
        address owner,
        uint256 packAmount,
        DropConfig memory config
    ) external payable returns (address tokenContract, address dropContract);
}

contract LiveDropCreator {
    event DropCreated(
        address indexed creator,
        address indexed dropContract,
        address indexed tokenContract,
        string nftName,
        string nftSymbol,
        string tokenName,
        string tokenSymbol
    );

    ReferenceFactory public immutable factory;

    constructor(ReferenceFactory factory_) {
        factory = factory_;
    }

    /// Packs are bought afterwards with the drop's own mint: the factory would mint them to this contract.
    function createDropWithConfig(
        string memory tokenName,
        string memory tokenSymbol,
        string memory nftName,
        string memory nftSymbol,
        address owner,
        uint256 packAmount,
        ReferenceFactory.DropConfig memory config
    ) external returns (address tokenContract, address dropContract) {
        require(packAmount == 0, "LiveDropCreator: no packs");
        (tokenContract, dropContract) =
            factory.createDropWithConfig(tokenName, tokenSymbol, nftName, nftSymbol, owner, 0, config);
        emit DropCreated(msg.sender, dropContract, tokenContract, nftName, nftSymbol, tokenName, tokenSymbol);
    }
}
`;

/** A drop's configuration with five distinct offers, none of them a multiple another rule would give. */
const configOf = (tokensPerMint: bigint, slug: string) => ({
  baseURI: `https://api.mkt.test/classic/metadata/${slug}/`,
  tokensPerMint,
  commonOffer: tokensPerMint / 7n,
  rareOffer: tokensPerMint / 3n,
  epicOffer: tokensPerMint + 11n,
  legendaryOffer: 3n * tokensPerMint + 13n,
  mythicOffer: 10n * tokensPerMint + 17n,
});

/** What the indexer must read from a drop's views, read here with the live fragments. */
async function viewsOf(chain: TestChain, drop: Address) {
  const read = chain.clients.publicClient.readContract;
  const onDrop = { address: drop, abi: liveBoosterDropAbi } as const;
  const [nftName, nftSymbol, token, tokensPerMint, ...offers] = await Promise.all([
    read({ ...onDrop, functionName: "name" }),
    read({ ...onDrop, functionName: "symbol" }),
    read({ ...onDrop, functionName: "boosterTokenAddress" }),
    read({ ...onDrop, functionName: "tokensPerMint" }),
    read({ ...onDrop, functionName: "COMMON_OFFER" }),
    read({ ...onDrop, functionName: "RARE_OFFER" }),
    read({ ...onDrop, functionName: "EPIC_OFFER" }),
    read({ ...onDrop, functionName: "LEGENDARY_OFFER" }),
    read({ ...onDrop, functionName: "MYTHIC_OFFER" }),
  ]);
  const onToken = { address: token, abi: liveBoosterTokenAbi } as const;
  const [tokenName, tokenSymbol] = await Promise.all([
    read({ ...onToken, functionName: "name" }),
    read({ ...onToken, functionName: "symbol" }),
  ]);
  return { nftName, nftSymbol, token, tokenName, tokenSymbol, tokensPerMint, offers };
}

describe("Classic drops of the live contracts on the dev chain", () => {
  let chain: TestChain;
  const logger = createLogger({ level: "silent" });

  const publicClient = () => chain.clients.publicClient;
  const send = async (hash: Promise<Hex>) => waitForSuccess(publicClient(), await hash);
  /** The indexer's RPC, refusing every `eth_call` until `letViewsThrough()`. */
  const viewsFailingClient = () => {
    let viewsFail = true;
    const client = createPublicClient({
      transport: custom({
        request: async ({ method, params }) => {
          if (method === "eth_call" && viewsFail) throw new Error("eth_call refused by test");
          return chain.chain.provider.request({ method, params } as never);
        },
      }),
    });
    return {
      client,
      letViewsThrough: () => {
        viewsFail = false;
      },
    };
  };
  const addressOf = (account: number) => chain.clients.accounts[account]!.address;
  const factory = () => chain.deployment.contracts["DropFactory"]!.address;

  /** The ETH a transaction's mint paid: the drop's purchase of its tokens (`TokensPurchased`, the drop as buyer). */
  const mintPayment = (receipt: TransactionReceipt, drop: Address) =>
    parseEventLogs({ abi: liveBoosterTokenAbi, logs: receipt.logs, eventName: "TokensPurchased" })
      .filter((event) => event.args.buyer.toLowerCase() === drop.toLowerCase())
      .reduce((sum, event) => sum + event.args.ethPaid, 0n);
  const mintedIds = (receipt: TransactionReceipt) =>
    parseEventLogs({ abi: liveBoosterDropAbi, logs: receipt.logs, eventName: "BoosterDropsMinted" }).flatMap(
      (event) => {
        const ids: bigint[] = [];
        for (let id = event.args.startTokenId; id <= event.args.endTokenId; id++) ids.push(id);
        return ids;
      },
    );

  /** `mint(amount)` paying `getMintPrice(amount)`, as live clients do. */
  const mint = async (drop: Address, amount: bigint, account = COLLECTOR) => {
    const onDrop = { address: drop, abi: liveBoosterDropAbi } as const;
    const price = await publicClient().readContract({
      ...onDrop,
      functionName: "getMintPrice",
      args: [amount],
    });
    const receipt = await send(
      chain.clients
        .wallet(account)
        .writeContract({ ...onDrop, functionName: "mint", args: [amount], value: price }),
    );
    expect(mintPayment(receipt, drop)).toBe(price);
    return { ids: mintedIds(receipt), paid: price, receipt };
  };

  beforeAll(async () => {
    chain = await setupDevChain(8453);
  }, 120_000);
  afterAll(async () => {
    await chain?.close();
  });

  describe("a drop listed by address in a deployment without a DropFactory", () => {
    let t: TestApp;
    let listed: ChainDeployment;
    let drop: Address;
    let creation: TransactionReceipt;
    /** Every ETH mint of the drop, in order: what it paid and for how many packs. */
    const mints: { paid: bigint; amount: bigint }[] = [];
    let opened: bigint[] = [];
    let sold: bigint;
    let transferred: bigint;
    let otherDrop: Address;
    let firstMint: TransactionReceipt;

    beforeAll(async () => {
      // The drop, created through the reference factory with packs bought in the creation.
      const config = configOf(parseEther("1000"), "listed-booster");
      creation = await send(
        chain.clients.wallet(CREATOR).writeContract({
          address: factory(),
          abi: liveDropCreatorAbi,
          functionName: "createDropWithConfig",
          args: ["Listed Tickets", "LTIX", "Listed Booster", "LBOX", addressOf(OWNER), 2n, config],
          // More than the two packs cost: the factory refunds the rest.
          value: parseEther("0.1"),
        }),
      );
      const [created] = parseEventLogs({
        abi: liveDropCreatorAbi,
        logs: creation.logs,
        eventName: "DropCreated",
      });
      drop = created!.args.dropContract;
      mints.push({ paid: mintPayment(creation, drop), amount: 2n });

      // Another drop of the same factory, created and minted after it: never indexed.
      const other = await send(
        chain.clients.wallet(CREATOR).writeContract({
          address: factory(),
          abi: liveDropCreatorAbi,
          functionName: "createDropWithConfig",
          args: ["Other Tickets", "OTIX", "Other Booster", "OBOX", addressOf(OWNER), 1n, config],
          value: parseEther("0.1"),
        }),
      );
      otherDrop = parseEventLogs({ abi: liveDropCreatorAbi, logs: other.logs, eventName: "DropCreated" })[0]!
        .args.dropContract;
      await mint(otherDrop, 2n);

      // The drop's life through the live functions: mints, an open with its entropy fee, the rarity's
      // fulfilment, a sale for the offer, a transfer, a token purchase, and a last mint.
      const first = await mint(drop, 3n);
      firstMint = first.receipt;
      mints.push({ paid: first.paid, amount: 3n });
      opened = first.ids.slice(0, 2);
      const onDrop = { address: drop, abi: liveBoosterDropAbi } as const;
      const fee = await publicClient().readContract({ ...onDrop, functionName: "getEntropyFee" });
      await send(
        chain.clients
          .wallet(COLLECTOR)
          .writeContract({ ...onDrop, functionName: "open", args: [opened], value: fee }),
      );
      const fulfilled = await fulfilEntropy({
        clients: chain.clients,
        entropyProvider: chain.deployment.contracts["EntropyProvider"]!.address,
        seed: 7n,
      });
      expect(fulfilled.length).toBeGreaterThan(0);
      sold = opened[0]!;
      await send(
        chain.clients
          .wallet(COLLECTOR)
          .writeContract({ ...onDrop, functionName: "sellAndClaimOffer", args: [sold] }),
      );
      transferred = first.ids[2]!;
      await send(
        chain.clients.wallet(COLLECTOR).writeContract({
          ...onDrop,
          functionName: "transferFrom",
          args: [addressOf(COLLECTOR), addressOf(HOLDER), transferred],
        }),
      );
      const token = await publicClient().readContract({ ...onDrop, functionName: "boosterTokenAddress" });
      const onToken = { address: token, abi: liveBoosterTokenAbi } as const;
      const tokens = parseEther("250");
      const cost = await publicClient().readContract({
        ...onToken,
        functionName: "getTokenBuyQuote",
        args: [tokens],
      });
      await send(
        chain.clients
          .wallet(HOLDER)
          .writeContract({ ...onToken, functionName: "buy", args: [tokens, addressOf(HOLDER)], value: cost }),
      );
      const last = await mint(drop, 1n, HOLDER);
      mints.push({ paid: last.paid, amount: 1n });

      // Base's shape: no creation contract to follow, the drop listed from its creation block.
      listed = {
        ...chain.deployment,
        contracts: {},
        runtimes: [],
        classicDrops: [{ address: getAddress(drop), startBlock: Number(creation.blockNumber) }],
      };
      t = await setupApp({ deployments: [listed] });
      const [counter] = t.app.services.revisions.counters([CLASSIC_INDEXER_SOURCE]);
      const before = counter!.value;
      for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
      // The commit's NOTIFY moves the classic read cache; reads after it see the rows.
      await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), {
        interval: 5,
        timeout: 10_000,
      });
    }, 180_000);
    afterAll(async () => {
      await t?.close();
    });

    const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      (await t.db.withConnection((c) => c.query<T>(sql, params))).rows;

    it("indexes only the listed drop and its token, under the zero address's scope", async () => {
      const scope = scopeIds.classic(8453, zeroAddress);
      expect(t.app.services.indexer!.scopes.map((projection) => projection.id)).toEqual([scope]);
      const views = await viewsOf(chain, drop);
      // The factory made other drops before and after this one (the reference samples, "Other Booster").
      const gameCount = await publicClient().readContract({
        address: factory(),
        abi: dropFactoryAbi,
        functionName: "gameCount",
      });
      expect(gameCount).toBeGreaterThan(2n);
      expect(await query("SELECT scope, drop_address FROM classic_games")).toEqual([
        { scope, drop_address: drop.toLowerCase() },
      ]);
      expect(await query("SELECT address FROM indexer_contracts")).toEqual([]);
      const addresses = await query<{ address: string }>(
        "SELECT DISTINCT address FROM chain_events ORDER BY 1",
      );
      expect(addresses.map((row) => row.address)).toEqual(
        [drop.toLowerCase(), views.token.toLowerCase()].sort(),
      );
      expect(addresses.map((row) => row.address)).not.toContain(otherDrop.toLowerCase());
      const [head] = await query<{ scope: string; next_block: string; failure: string | null }>(
        "SELECT scope, next_block, failure FROM indexer_heads",
      );
      expect(head).toEqual({
        scope,
        next_block: String((await publicClient().getBlockNumber()) + 1n),
        failure: null,
      });
    });

    it("projects the game from the drop's views and its logs, value by value", async () => {
      const views = await viewsOf(chain, drop);
      const token = views.token;
      const [ethReserve, tokensSold] = await Promise.all([
        publicClient().readContract({ address: token, abi: boosterTokenAbi, functionName: "ethReserve" }),
        publicClient().readContract({ address: token, abi: boosterTokenAbi, functionName: "tokensSold" }),
      ]);
      const block = await publicClient().getBlock({ blockNumber: creation.blockNumber });
      const [game] = await query("SELECT * FROM classic_games");
      const lastMint = mints.at(-1)!;
      expect(game).toMatchObject({
        chain_id: 8453,
        drop_address: drop.toLowerCase(),
        // Only our extension event says a game id, odds, allowlist or curve: the live defaults.
        game_id: "0",
        token_address: token.toLowerCase(),
        // The drop's `owner()`, not the creation's caller.
        creator: addressOf(OWNER).toLowerCase(),
        nft_name: "Listed Booster",
        nft_symbol: "LBOX",
        token_name: "Listed Tickets",
        token_symbol: "LTIX",
        tokens_per_mint: views.tokensPerMint.toString(),
        offers: views.offers.map(String),
        odds_bps: DEFAULT_ODDS,
        merkle_root: ZERO_ROOT,
        virtual_eth: "0",
        virtual_tokens: "0",
        graduation_eth: "0",
        first_token_id: "1",
        slug: defaultGameSlug("Listed Booster", drop.toLowerCase().slice(2, 10)),
        is_active: true,
        is_graduated: false,
        eth_reserve: ethReserve.toString(),
        tokens_sold: tokensSold.toString(),
        packs_minted: "6",
        packs_opened: "2",
        packs_burned: "1",
        mint_volume: mints.reduce((sum, entry) => sum + entry.paid, 0n).toString(),
        // No known curve: the last ETH mint's price per pack.
        price_per_pack: (lastMint.paid / lastMint.amount).toString(),
        mint_payment_tx: null,
        mint_payment_wei: null,
        // The first log of the drop or its token the projection handles: the creation's pack purchase.
        created_block: creation.blockNumber.toString(),
        created_tx: creation.transactionHash,
        created_at: new Date(Number(block.timestamp) * 1000),
      });
      expect(views).toMatchObject({
        nftName: "Listed Booster",
        tokenName: "Listed Tickets",
        tokenSymbol: "LTIX",
      });
      expect(views.offers.every((offer) => offer > 0n)).toBe(true);
    });

    it("projects every pack: owner, status, rarity as getTokenRarity says, and the sale's reward", async () => {
      const views = await viewsOf(chain, drop);
      const packs = await query<Record<string, unknown>>(
        "SELECT token_id, owner, status, rarity, batch_id, reward_amount FROM classic_packs ORDER BY token_id",
      );
      expect(packs.map((pack) => pack["token_id"])).toEqual(["1", "2", "3", "4", "5", "6"]);
      const [saleLog] = await publicClient().getContractEvents({
        address: drop,
        abi: liveBoosterDropAbi,
        eventName: "BoosterDropSold",
        fromBlock: creation.blockNumber,
      });
      for (const pack of packs) {
        const tokenId = BigInt(String(pack["token_id"]));
        const [rarity] = await publicClient().readContract({
          address: drop,
          abi: liveBoosterDropAbi,
          functionName: "getTokenRarity",
          args: [tokenId],
        });
        const isOpened = opened.includes(tokenId);
        if (isOpened) expect(rarity, `pack ${tokenId} has its rarity`).toBeGreaterThan(0);
        const owner =
          tokenId === sold
            ? addressOf(COLLECTOR)
            : await publicClient().readContract({
                address: drop,
                abi: liveBoosterDropAbi,
                functionName: "ownerOf",
                args: [tokenId],
              });
        expect(pack, `pack ${tokenId}`).toEqual({
          token_id: tokenId.toString(),
          owner: owner.toLowerCase(),
          // Opened, then its batch's randomness arrived.
          status: tokenId === sold ? "burned" : isOpened ? "rarity_assigned" : "minted",
          rarity,
          batch_id: isOpened ? "1" : "0",
          // A card sold for its rarity's offer, in the drop's token.
          reward_amount: tokenId === sold ? views.offers[rarity - 1]!.toString() : null,
        });
      }
      expect(saleLog!.args.offerAmount).toBe(views.offers[saleLog!.args.rarity! - 1]);
      expect(packs.find((pack) => pack["token_id"] === transferred.toString())!["owner"]).toBe(
        addressOf(HOLDER).toLowerCase(),
      );
    });

    it("lists the game in GET /classic/games", async () => {
      const { publicUrl } = await t.app.listen();
      const { key } = await t.createKey();
      const response = await fetch(`${publicUrl}/classic/games?limit=100`, { headers: { "api-key": key } });
      expect(response.status).toBe(200);
      const page = (await response.json()) as ClassicGamesPage;
      const views = await viewsOf(chain, drop);
      const lastMint = mints.at(-1)!;
      expect(page.pagination.total).toBe(1);
      expect(page.games).toHaveLength(1);
      expect(page.games[0]).toMatchObject({
        gameId: "0",
        dropContractAddress: drop.toLowerCase(),
        tokenAddress: views.token.toLowerCase(),
        ownerAddress: addressOf(OWNER).toLowerCase(),
        nftName: "Listed Booster",
        nftSymbol: "LBOX",
        tokenName: "Listed Tickets",
        tokenSymbol: "LTIX",
        slug: defaultGameSlug("Listed Booster", drop.toLowerCase().slice(2, 10)),
        chainId: 8453,
        pricePerPack: (lastMint.paid / lastMint.amount).toString(),
        isActive: true,
        isGraduated: false,
      });
    });

    it("matches the chain log by log and row by row (projection check)", async () => {
      await expectProjectionMatchesChain(t.db, { clients: chain.clients, deployment: listed });
    });

    it("reads nothing until the listed drop's token is found: a failed view read fails the step, and is retried", async () => {
      const database = await setupDatabase();
      const { client, letViewsThrough } = viewsFailingClient();
      const indexer = createScopeIndexer({
        db: database.db,
        logger,
        clock: systemClock,
        scope: scopesOf([listed])[0]!,
        rpcUrl: "",
        client: client as never,
      });
      const rows = async (sql: string) => (await database.db.withConnection((c) => c.query(sql))).rows;
      try {
        await expect(indexer.syncOnce()).rejects.toThrow(
          `reading contract views: drop ${drop.toLowerCase()}: `,
        );
        expect(await rows("SELECT next_block FROM indexer_heads")).toEqual([
          { next_block: creation.blockNumber.toString() },
        ]);
        expect(await rows("SELECT count(*)::int AS n FROM chain_events")).toEqual([{ n: 0 }]);
        letViewsThrough();
        await indexer.syncOnce();
        expect(await rows("SELECT packs_minted, mint_volume FROM classic_games")).toEqual([
          { packs_minted: "6", mint_volume: mints.reduce((sum, entry) => sum + entry.paid, 0n).toString() },
        ]);
      } finally {
        await indexer.stop();
        await database.close();
      }
    });

    it("listed from a later block, ignores the drop's and its token's earlier logs", async () => {
      const database = await setupDatabase();
      // Beside a drop listed from block 0 (the factory's first sample game), so that the scope reads
      // the blocks of this drop's creation too.
      const [sample] = await publicClient().readContract({
        address: factory(),
        abi: dropFactoryAbi,
        functionName: "games",
        args: [1n],
      });
      const later: ChainDeployment = {
        ...listed,
        classicDrops: [
          { address: sample, startBlock: 0 },
          { address: getAddress(drop), startBlock: Number(firstMint.blockNumber) },
        ],
      };
      const [scope] = scopesOf([later]);
      expect(scope!.startBlock).toBe(0n);
      const indexer = createScopeIndexer({
        db: database.db,
        logger,
        clock: systemClock,
        scope: scope!,
        rpcUrl: chain.deployment.rpcUrl,
      });
      const rows = async (sql: string) => (await database.db.withConnection((c) => c.query(sql))).rows;
      try {
        await indexer.syncOnce();
        const block = await publicClient().getBlock({ blockNumber: firstMint.blockNumber });
        const [game] = await rows(`SELECT * FROM classic_games WHERE drop_address = '${drop.toLowerCase()}'`);
        expect(game).toMatchObject({
          // Its first handled log is the first mint's purchase: the creation's two packs are not seen.
          created_block: firstMint.blockNumber.toString(),
          created_tx: firstMint.transactionHash,
          created_at: new Date(Number(block.timestamp) * 1000),
          packs_minted: "4",
          packs_opened: "2",
          packs_burned: "1",
          mint_volume: (mints[1]!.paid + mints[2]!.paid).toString(),
        });
        const packs = await rows(
          `SELECT token_id FROM classic_packs WHERE contract_address = '${drop.toLowerCase()}' ORDER BY token_id`,
        );
        expect(packs.map((row) => row["token_id"])).toEqual(["3", "4", "5", "6"]);
        const token = (await viewsOf(chain, drop)).token.toLowerCase();
        const earliest = await rows(
          `SELECT address, min(block_number)::text AS block FROM chain_events
            WHERE address IN ('${drop.toLowerCase()}', '${token}') GROUP BY address ORDER BY address`,
        );
        expect(earliest).toEqual(
          [drop.toLowerCase(), token].sort().map((address) => ({
            address,
            block: firstMint.blockNumber.toString(),
          })),
        );
        // The sample drop, listed from block 0, is read from its creation (its initialization's logs),
        // and has no game row while no log of it or its token was one the projection handles.
        const sampleLogs = await rows(
          `SELECT DISTINCT event FROM chain_events WHERE address = '${sample.toLowerCase()}' ORDER BY event`,
        );
        expect(sampleLogs).toEqual([{ event: "EntropyAddressUpdated" }, { event: "EntropyProviderUpdated" }]);
        expect(await rows(`SELECT drop_address FROM classic_games`)).toEqual([
          { drop_address: drop.toLowerCase() },
        ]);
      } finally {
        await indexer.stop();
        await database.close();
      }
    });
    it("indexes a drop added to the list later from the head on, and from its start once the scope is re-indexed", async () => {
      const database = await setupDatabase();
      const otherCreation = (
        await publicClient().getContractEvents({
          address: factory(),
          abi: liveDropCreatorAbi,
          eventName: "DropCreated",
          args: { dropContract: otherDrop },
          fromBlock: 0n,
        })
      )[0]!;
      const more: ChainDeployment = {
        ...listed,
        classicDrops: [
          ...listed.classicDrops!,
          { address: otherDrop, startBlock: Number(otherCreation.blockNumber) },
        ],
      };
      const sync = async (deployment: ChainDeployment) => {
        const [scope] = scopesOf([deployment]);
        const indexer = createScopeIndexer({
          db: database.db,
          logger,
          clock: systemClock,
          scope: scope!,
          rpcUrl: chain.deployment.rpcUrl,
        });
        try {
          await indexer.syncOnce();
        } finally {
          await indexer.stop();
        }
      };
      const otherGame = async () =>
        (
          await database.db.withConnection((c) =>
            c.query("SELECT packs_minted FROM classic_games WHERE drop_address = $1", [
              otherDrop.toLowerCase(),
            ]),
          )
        ).rows;
      try {
        await sync(listed);
        // The same scope (the zero address's): its head is past the added drop's history.
        expect(scopesOf([more])[0]!.id).toBe(scopesOf([listed])[0]!.id);
        await sync(more);
        expect(await otherGame()).toEqual([]);
        // Re-indexing as docs/operations.md says: the head marked as on another chain, so the next
        // writer resets the scope and rebuilds it from its start block.
        await database.db.withConnection((c) =>
          c.query("UPDATE indexer_heads SET genesis_hash = 'reindex' WHERE scope = $1", [
            scopesOf([more])[0]!.id,
          ]),
        );
        await sync(more);
        expect(await otherGame()).toEqual([{ packs_minted: "3" }]);
        await expectProjectionEqualsFreshIndex(database.db, [more]);
      } finally {
        await database.close();
      }
    });
  });

  describe("a DropCreated without DropConfigured, from a creation contract that speaks only the live interface", () => {
    let deployment: ChainDeployment;
    let drop: Address;
    const config = configOf(parseEther("400"), "live-booster");

    beforeAll(async () => {
      const { LiveDropCreator: creator } = compileSource("LiveDropCreator.sol", LIVE_CREATOR_SOURCE);
      const deployed = await send(
        chain.clients.wallet(DEV_ACCOUNT_ROLES.deployer).deployContract({
          abi: creator!.abi,
          bytecode: creator!.bytecode,
          args: [factory()],
        }),
      );
      deployment = {
        ...chain.deployment,
        contracts: {
          DropFactory: { address: deployed.contractAddress!, startBlock: Number(deployed.blockNumber) },
        },
        runtimes: [],
      };
      // The live creation call, against the live-only creation contract.
      const created = await send(
        chain.clients.wallet(CREATOR).writeContract({
          address: deployed.contractAddress!,
          abi: liveDropCreatorAbi,
          functionName: "createDropWithConfig",
          args: ["Live Tickets", "LVTIX", "Live Booster", "LVBOX", addressOf(OWNER), 0n, config],
        }),
      );
      const [event] = parseEventLogs({
        abi: liveDropCreatorAbi,
        logs: created.logs,
        eventName: "DropCreated",
      }).filter((log) => log.address.toLowerCase() === deployed.contractAddress!.toLowerCase());
      drop = event!.args.dropContract;
      await mint(drop, 2n);
    }, 120_000);

    it("gets its offers and tokens per mint from the drop's views, not zeros; a failed view read writes nothing and is retried", async () => {
      const database = await setupDatabase();
      const { client, letViewsThrough } = viewsFailingClient();
      const [scope] = scopesOf([deployment]);
      expect(scope!.id).toBe(scopeIds.classic(8453, deployment.contracts["DropFactory"]!.address));
      const indexer = createScopeIndexer({
        db: database.db,
        logger,
        clock: systemClock,
        scope: scope!,
        rpcUrl: "",
        client: client as never,
      });
      const rows = (sql: string) => database.db.withConnection(async (c) => (await c.query(sql)).rows);
      try {
        // The range with the creation is read, its views cannot be: nothing of it is written.
        await expect(indexer.syncOnce()).rejects.toThrow(
          /reading contract views: drop 0x[0-9a-f]{40}: .*eth_call refused by test/,
        );
        expect(await rows("SELECT * FROM classic_games")).toEqual([]);
        expect(await rows("SELECT * FROM chain_events")).toEqual([]);
        const [head] = (await rows("SELECT next_block FROM indexer_heads")) as { next_block: string }[];
        expect(BigInt(head!.next_block)).toBe(BigInt(deployment.contracts["DropFactory"]!.startBlock));

        letViewsThrough();
        await indexer.syncOnce();
        const views = await viewsOf(chain, drop);
        expect(views.tokensPerMint).toBe(config.tokensPerMint);
        expect(views.offers).toEqual([
          config.commonOffer,
          config.rareOffer,
          config.epicOffer,
          config.legendaryOffer,
          config.mythicOffer,
        ]);
        const [game] = await rows("SELECT * FROM classic_games");
        expect(game).toMatchObject({
          drop_address: drop.toLowerCase(),
          game_id: "0",
          token_address: views.token.toLowerCase(),
          creator: addressOf(OWNER).toLowerCase(),
          nft_name: "Live Booster",
          nft_symbol: "LVBOX",
          token_name: "Live Tickets",
          token_symbol: "LVTIX",
          tokens_per_mint: config.tokensPerMint.toString(),
          offers: views.offers.map(String),
          packs_minted: "2",
        });
        // The creation contract's DropCreated is the game's creation; no DropConfigured was emitted by it.
        const events = await rows(
          `SELECT event FROM chain_events WHERE address = '${deployment.contracts["DropFactory"]!.address.toLowerCase()}'`,
        );
        expect(events).toEqual([{ event: "DropCreated" }]);
        await expectProjectionMatchesChain(database.db, { clients: chain.clients, deployment });
      } finally {
        await indexer.stop();
        await database.close();
      }
    });
  });
});

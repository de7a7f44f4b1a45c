import {
  boosterDropAbi,
  boosterTokenAbi,
  DEV_ACCOUNT_ROLES,
  drawCard,
  dropFactoryAbi,
  fulfilEntropy,
  liveBoosterDropAbi,
  liveBoosterTokenAbi,
  RARITY_NAMES,
  SAMPLE_BIG_FIRST_TOKEN_ID,
  waitForSuccess,
} from "@mkt/chain";
import { createMktClient } from "@mkt/client";
import {
  type ClassicActivityEvent,
  type ClassicCard,
  type ClassicCollectionEvents,
  type ClassicContractMetadata,
  type ClassicGame,
  type ClassicGameDetail,
  type ClassicGamesPage,
  type ClassicHoldings,
  type ClassicOwnerPage,
  type ClassicRangePack,
  type ClassicRangePage,
  type ClassicRecent,
  type ClassicSearchPage,
  type ClassicTokenMetadata,
  defaultGameSlug,
} from "@mkt/protocol";
import {
  type Abi,
  type Address,
  decodeEventLog,
  getAddress,
  type Hex,
  hexToBigInt,
  parseEventLogs,
} from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { CLASSIC_INDEXER_SOURCE } from "../classic/routes.ts";

/** setupApp's PUBLIC_URL: the drop factory's metadata base points under it, as `npm start` deploys it. */
const PUBLIC_URL = "https://api.mkt.test";
/** Account 2 (the market operator) is never used by the simulator: its packs are this test's doing. */
const COLLECTOR = DEV_ACCOUNT_ROLES.marketOperator;
const DEPLOYER = DEV_ACCOUNT_ROLES.deployer;

type PackStatus = "minted" | "rarity_assigned" | "opened" | "burned";

/** A game as its contracts report it now. */
interface ChainGame {
  gameId: bigint;
  drop: Address;
  token: Address;
  creator: Address;
  nftName: string;
  nftSymbol: string;
  tokenName: string;
  tokenSymbol: string;
  /** The ETH one pack costs now: `getMintPrice(1)`. */
  pricePerPack: bigint;
  active: boolean;
  graduated: boolean;
  firstTokenId: bigint;
  nextTokenId: bigint;
  /** The documented formulas (OpenAPI `/games`) on the token's and its pool's state. */
  marketCap: bigint;
  preorderProgress: number;
}

/** A pack as its drop reports it now (a burned pack's owner: the seller, from its BoosterDropSold log). */
interface ChainPack {
  drop: string;
  tokenId: bigint;
  owner: string;
  status: PackStatus;
  rarity: number;
  tokenSeed: bigint;
}

/** What a game read must say of a game: the fields the chain decides. */
const gameFacts = (game: ClassicGame | ClassicSearchPage["games"][number]) => ({
  gameId: game.gameId,
  dropContractAddress: game.dropContractAddress,
  tokenAddress: game.tokenAddress,
  ownerAddress: game.ownerAddress,
  nftName: game.nftName,
  nftSymbol: game.nftSymbol,
  tokenName: game.tokenName,
  tokenSymbol: game.tokenSymbol,
  slug: game.slug,
  chainId: game.chainId,
  pricePerPack: game.pricePerPack,
  isActive: game.isActive,
  isGraduated: game.isGraduated,
  marketCap: game.marketCap,
  preorderProgress: game.preorderProgress,
});
const expectedFacts = (game: ChainGame) => ({
  gameId: game.gameId.toString(),
  dropContractAddress: game.drop.toLowerCase(),
  tokenAddress: game.token.toLowerCase(),
  ownerAddress: game.creator.toLowerCase(),
  nftName: game.nftName,
  nftSymbol: game.nftSymbol,
  tokenName: game.tokenName,
  tokenSymbol: game.tokenSymbol,
  slug: defaultGameSlug(game.nftName, game.gameId),
  chainId: 8453,
  pricePerPack: game.pricePerPack.toString(),
  isActive: game.active,
  isGraduated: game.graduated,
  marketCap: game.marketCap.toString(),
  preorderProgress: game.preorderProgress,
});
/** Newest first: games are created one per transaction, so game id order is creation order. */
const newestFirst = (a: ChainGame, b: ChainGame) => (a.gameId < b.gameId ? 1 : -1);
const byTokenId = (a: ChainPack, b: ChainPack) =>
  a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0;
/** What a pack read must say of a pack: token id (exact, as its decimal twin), owner, status, rarity. */
const packFacts = (pack: Pick<ClassicRangePack, "tokenIdString" | "owner" | "status" | "rarity">) => ({
  tokenId: pack.tokenIdString,
  owner: pack.owner,
  status: pack.status,
  rarity: pack.rarity,
});
const chainPackFacts = (pack: ChainPack) => ({
  tokenId: pack.tokenId.toString(),
  owner: pack.owner,
  status: pack.status,
  rarity: pack.rarity,
});
const position = (event: Pick<ClassicActivityEvent, "blockNumber" | "logIndex">) =>
  `${event.blockNumber}:${event.logIndex}`;

/**
 * The Classic API's reads end to end: dev-chain
 * transactions (the seeded simulator's and this test's own) → the indexer
 * (driven by hand) → `/classic/…` over real HTTP. Every expectation is read
 * from the contracts with viem, never from the projection.
 */
describe("Classic reads end to end on the dev chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let genesis: ChainGame;
  let deep: ChainGame;
  let collector: string;

  const publicClient = () => chain.clients.publicClient;
  const send = async (hash: Promise<Hex>) => waitForSuccess(publicClient(), await hash);

  // Chain side ------------------------------------------------------------

  const chainGames = async (): Promise<ChainGame[]> => {
    const factory = chain.deployment.contracts["DropFactory"]!.address;
    const count = await publicClient().readContract({
      address: factory,
      abi: dropFactoryAbi,
      functionName: "gameCount",
    });
    const games: ChainGame[] = [];
    for (let gameId = 1n; gameId <= count; gameId++) {
      const [drop, token] = await publicClient().readContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "games",
        args: [gameId],
      });
      const onDrop = { address: drop, abi: boosterDropAbi } as const;
      const onToken = { address: token, abi: boosterTokenAbi } as const;
      const read = publicClient().readContract;
      const [creator, nftName, nftSymbol, active, firstTokenId, nextTokenId] = await Promise.all([
        read({ ...onDrop, functionName: "creator" }),
        read({ ...onDrop, functionName: "name" }),
        read({ ...onDrop, functionName: "symbol" }),
        read({ ...onDrop, functionName: "active" }),
        read({ ...onDrop, functionName: "firstTokenId" }),
        read({ ...onDrop, functionName: "nextTokenId" }),
      ]);
      const [tokenName, tokenSymbol, marketType] = await Promise.all([
        read({ ...onToken, functionName: "name" }),
        read({ ...onToken, functionName: "symbol" }),
        read({ ...onToken, functionName: "marketType" }),
      ]);
      const graduated = marketType === 1;
      const [virtualEth, virtualTokens, graduationEth, ethReserve, tokensSold, pool] = await Promise.all([
        read({ ...onToken, functionName: "virtualEth" }),
        read({ ...onToken, functionName: "virtualTokens" }),
        read({ ...onToken, functionName: "graduationEth" }),
        read({ ...onToken, functionName: "ethReserve" }),
        read({ ...onToken, functionName: "tokensSold" }),
        read({ ...onToken, functionName: "poolAddress" }),
      ]);
      // A pack's ETH price now, on the curve or (after graduation) in the pool.
      const pricePerPack = await read({ ...onDrop, functionName: "getMintPrice", args: [1n] });
      let marketCap: bigint;
      let preorderProgress: number;
      if (graduated) {
        // The pool prices the token: what it holds is what graduation gave it.
        const [poolEth, poolTokens] = await Promise.all([
          publicClient().getBalance({ address: pool }),
          read({ ...onToken, functionName: "balanceOf", args: [pool] }),
        ]);
        marketCap = (poolEth * (tokensSold + poolTokens)) / poolTokens;
        preorderProgress = 100;
      } else {
        marketCap = ((virtualEth + ethReserve) * tokensSold) / (virtualTokens - tokensSold);
        preorderProgress = Math.min(100, Number((ethReserve * 10_000n) / graduationEth) / 100);
      }
      games.push({
        gameId,
        drop,
        token,
        creator,
        nftName,
        nftSymbol,
        tokenName,
        tokenSymbol,
        pricePerPack,
        active,
        graduated,
        firstTokenId,
        nextTokenId,
        marketCap,
        preorderProgress,
      });
    }
    return games;
  };

  const chainGame = async (nftName: string) => {
    const game = (await chainGames()).find((g) => g.nftName === nftName);
    if (!game) throw new Error(`no game ${nftName} on the chain`);
    return game;
  };

  /** Every pack the drop ever minted, token id ascending. */
  const chainPacks = async (game: ChainGame): Promise<ChainPack[]> => {
    const drop = game.drop;
    const { nextTokenId } = await chainGame(game.nftName);
    const sold = await publicClient().getContractEvents({
      address: drop,
      abi: liveBoosterDropAbi,
      eventName: "BoosterDropSold",
      fromBlock: 0n,
    });
    const sellerOf = new Map(sold.map((log) => [log.args.tokenId!, log.args.burner!.toLowerCase()]));
    const ids: bigint[] = [];
    for (let id = game.firstTokenId; id < nextTokenId; id++) ids.push(id);
    return Promise.all(
      ids.map(async (tokenId) => {
        const onDrop = { address: drop, abi: liveBoosterDropAbi } as const;
        const [batchId, [rarity, , tokenSpecificRandomness]] = await Promise.all([
          publicClient().readContract({
            address: drop,
            abi: boosterDropAbi,
            functionName: "batchOf",
            args: [tokenId],
          }),
          publicClient().readContract({ ...onDrop, functionName: "getTokenRarity", args: [tokenId] }),
        ]);
        const owner = await publicClient()
          .readContract({ address: drop, abi: boosterDropAbi, functionName: "ownerOf", args: [tokenId] })
          .then(
            (found) => found.toLowerCase(),
            () => undefined,
          );
        // Opening precedes the rarity: a pack in an open batch is opened, with rarity 0 until the batch's
        // randomness arrives, then rarity_assigned.
        const status: PackStatus =
          owner === undefined
            ? "burned"
            : rarity > 0
              ? "rarity_assigned"
              : batchId > 0n
                ? "opened"
                : "minted";
        return {
          drop: drop.toLowerCase(),
          tokenId,
          owner: owner ?? sellerOf.get(tokenId)!,
          status,
          rarity,
          tokenSeed: hexToBigInt(tokenSpecificRandomness),
        };
      }),
    );
  };

  /** Mints `amount` packs as `account` at `getMintPrice(amount)`; returns their token ids. */
  const mint = async (game: ChainGame, amount: bigint, account = COLLECTOR) => {
    const onDrop = { address: game.drop, abi: liveBoosterDropAbi } as const;
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
    const [minted] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: receipt.logs,
      eventName: "BoosterDropsMinted",
    });
    const ids: bigint[] = [];
    for (let id = minted!.args.startTokenId; id <= minted!.args.endTokenId; id++) ids.push(id);
    return ids;
  };
  /** Opens packs as `account`, paying the entropy fee: they are opened now, their rarity comes with `fulfil`. */
  const open = async (game: ChainGame, tokenIds: bigint[], account = COLLECTOR) => {
    const onDrop = { address: game.drop, abi: liveBoosterDropAbi } as const;
    const fee = await publicClient().readContract({ ...onDrop, functionName: "getEntropyFee" });
    await send(
      chain.clients
        .wallet(account)
        .writeContract({ ...onDrop, functionName: "open", args: [tokenIds], value: fee }),
    );
  };
  /** Answers pending randomness as the simulator does: the drops assign their open batches' rarities. */
  const fulfil = () =>
    fulfilEntropy({
      clients: chain.clients,
      entropyProvider: chain.deployment.contracts["EntropyProvider"]!.address,
      seed: 13n,
    });
  const setActive = (game: ChainGame, active: boolean) =>
    send(
      chain.clients.wallet(DEPLOYER).writeContract({
        address: game.drop,
        abi: boosterDropAbi,
        functionName: "setActive",
        args: [active],
      }),
    );

  /**
   * The activity logs of some games, decoded from the chain: position (`block:logIndex`), record type,
   * drop, and the ETH and ticket amounts the record carries.
   */
  const chainActivity = async (games: ChainGame[]) => {
    const factory = chain.deployment.contracts["DropFactory"]!.address;
    const kinds = new Map<string, { abi: Abi; drop: string }>();
    for (const game of games) {
      kinds.set(game.drop.toLowerCase(), { abi: boosterDropAbi, drop: game.drop.toLowerCase() });
      kinds.set(game.token.toLowerCase(), { abi: boosterTokenAbi, drop: game.drop.toLowerCase() });
    }
    const drops = new Set(games.map((game) => game.drop.toLowerCase()));
    const logs = await publicClient().getLogs({
      address: [factory, ...games.flatMap((game) => [game.drop, game.token])],
      fromBlock: 0n,
    });
    const zero = "0x0000000000000000000000000000000000000000";
    const decoded = logs.map((log) => {
      const address = log.address.toLowerCase();
      const abi = address === factory.toLowerCase() ? dropFactoryAbi : kinds.get(address)!.abi;
      const { eventName, args } = decodeEventLog({ abi, data: log.data, topics: log.topics }) as unknown as {
        eventName: string;
        args: Record<string, unknown>;
      };
      return { log, address, eventName, args };
    });
    // The drop's own token trades: an ETH mint's purchase and a `sellForEth` sale, told by the mint's and
    // the sale's records (ETH by transaction and drop), not as trades of their own.
    const dropTrade = ({ address, eventName, args }: (typeof decoded)[number]) => {
      const drop = kinds.get(address)?.drop;
      if (drop === undefined || kinds.get(address)!.abi !== boosterTokenAbi) return false;
      if (eventName === "TokensPurchased") return String(args["buyer"]).toLowerCase() === drop;
      return eventName === "TokensSold" && String(args["seller"]).toLowerCase() === drop;
    };
    const dropEth = new Map<string, string>();
    for (const entry of decoded.filter(dropTrade)) {
      const key = `${entry.log.transactionHash}:${kinds.get(entry.address)!.drop}:${entry.eventName}`;
      dropEth.set(key, String(entry.args["ethPaid"] ?? entry.args["ethReceived"]));
    }
    const out: {
      position: string;
      type: string;
      drop: string;
      ethAmount: string | null;
      tokenAmount: string | null;
    }[] = [];
    for (const entry of decoded) {
      const { log, address, eventName, args } = entry;
      const amount = (name: string) => String(args[name]);
      const record = (type: string, ethAmount: string | null = null, tokenAmount: string | null = null) => ({
        type,
        ethAmount,
        tokenAmount,
      });
      const ethOfDrop = (event: string) =>
        dropEth.get(`${log.transactionHash}:${kinds.get(address)?.drop}:${event}`);
      const found = (() => {
        if (dropTrade(entry)) return undefined;
        switch (eventName) {
          case "DropCreated":
            return drops.has(String(args["dropContract"]).toLowerCase()) ? record("game_created") : undefined;
          case "BoosterDropsMinted":
            // The ETH the drop paid its token for the packs; a mint with tokens paid none.
            return record("mint", ethOfDrop("TokensPurchased") ?? "0");
          case "RarityAssigned":
            return record("rarity_assigned");
          case "BoosterDropOpened":
            return record("open");
          case "BoosterDropSold":
            // The offer is in the drop's token; ETH only when `sellForEth` sold it.
            return record("sell_back", ethOfDrop("TokensSold") ?? null, amount("offerAmount"));
          case "Transfer":
            // A drop's transfers between holders; a mint's and a burn's are told by BoosterDropsMinted and BoosterDropSold.
            return kinds.get(address)!.abi === boosterDropAbi &&
              String(args["from"]).toLowerCase() !== zero &&
              String(args["to"]).toLowerCase() !== zero
              ? record("transfer")
              : undefined;
          case "ActiveChanged":
            return record(args["active"] ? "resume" : "pause");
          case "TokensPurchased":
            return record("curve_purchase", amount("ethPaid"), amount("amount"));
          case "TokensSold":
            return record("curve_sale", amount("ethReceived"), amount("amount"));
          case "MarketGraduated":
            return record("graduation", amount("ethAmount"), amount("tokenAmount"));
          default:
            return undefined;
        }
      })();
      if (found !== undefined) {
        const drop = kinds.get(address)?.drop ?? String(args["dropContract"]).toLowerCase();
        out.push({ position: `${log.blockNumber}:${log.logIndex}`, drop, ...found });
      }
    }
    return out;
  };

  // App side --------------------------------------------------------------

  /** Indexes every scope to the chain's head, then waits until this replica's read cache has seen the commit. */
  let syncedTo = -1n;
  const sync = async () => {
    const latest = await publicClient().getBlockNumber();
    if (latest === syncedTo) return;
    const [counter] = t.app.services.revisions.counters([CLASSIC_INDEXER_SOURCE]);
    const before = counter!.value;
    for (const indexer of t.app.services.indexer!.indexers) await indexer.syncOnce();
    syncedTo = latest;
    // The commit's NOTIFY moves the classic read-cache source; answers cached before it are dropped then.
    await vi.waitFor(() => expect(counter!.value).toBeGreaterThan(before), { interval: 5, timeout: 10_000 });
  };

  const get = async <T>(path: string, { key = true }: { key?: boolean } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: key ? { "api-key": apiKey } : {} });
    const text = await response.text();
    return {
      status: response.status,
      text,
      body: JSON.parse(text) as T,
    };
  };
  const ok = async <T>(path: string, options?: { key?: boolean }) => {
    const response = await get<T>(path, options);
    expect(response.status, `${path}: ${response.text.slice(0, 300)}`).toBe(200);
    return response.body;
  };

  /** Every pack of a `/range` query, walking its pages. */
  const rangeAll = async (query: string) => {
    const packs: ClassicRangePack[] = [];
    for (let page = 1; ; page++) {
      const answer = await ok<ClassicRangePage>(`/classic/range?${query}&limit=7&page=${page}`);
      packs.push(...answer.boosterBoxes);
      if (page >= answer.pagination.totalPages) {
        expect(answer.pagination.total).toBe(packs.length);
        return packs;
      }
    }
  };

  // Setup -----------------------------------------------------------------

  beforeAll(async () => {
    chain = await setupDevChain(8453, { metadataBaseUrl: `${PUBLIC_URL}/classic/metadata/` });
    await chain.simulate(40, 13n);
    collector = chain.clients.accounts[COLLECTOR]!.address.toLowerCase();

    // Both values of isActive and isGraduated onchain, whatever the simulator did.
    genesis = await chainGame("Genesis Booster");
    deep = await chainGame("Deep Booster");
    if (!genesis.active) await setActive(genesis, true);
    if (!deep.active) await setActive(deep, true);
    const allowlisted = await chainGame("Allowlist Booster");
    if (allowlisted.active) await setActive(allowlisted, false);
    if (!genesis.graduated) {
      // A purchase that reaches the graduation target: TokensPurchased and MarketGraduated logs, a
      // graduated game. It buys one token more than the missing ETH buys, so the reserve passes the target.
      const onToken = { address: genesis.token, abi: liveBoosterTokenAbi } as const;
      const [target, reserve] = await Promise.all([
        publicClient().readContract({
          address: genesis.token,
          abi: boosterTokenAbi,
          functionName: "graduationEth",
        }),
        publicClient().readContract({
          address: genesis.token,
          abi: boosterTokenAbi,
          functionName: "ethReserve",
        }),
      ]);
      const tokens =
        (await publicClient().readContract({
          ...onToken,
          functionName: "getEthBuyQuote",
          args: [target - reserve],
        })) + 1n;
      const cost = await publicClient().readContract({
        ...onToken,
        functionName: "getTokenBuyQuote",
        args: [tokens],
      });
      await send(
        chain.clients.wallet(COLLECTOR).writeContract({
          ...onToken,
          functionName: "buy",
          args: [tokens, getAddress(collector)],
          value: cost,
        }),
      );
    }

    // The collector's packs: opened with their rarity, sold, transferred away, one opened whose
    // rarity is pending, and unopened ones.
    const genesisIds = await mint(genesis, 3n);
    const deepIds = await mint(deep, 2n);
    await open(genesis, genesisIds.slice(0, 2));
    await fulfil();
    // The first pack's offer, minted in the drop's token.
    await send(
      chain.clients.wallet(COLLECTOR).writeContract({
        address: genesis.drop,
        abi: liveBoosterDropAbi,
        functionName: "sellAndClaimOffer",
        args: [genesisIds[0]!],
      }),
    );
    await send(
      chain.clients.wallet(COLLECTOR).writeContract({
        address: deep.drop,
        abi: boosterDropAbi,
        functionName: "transferFrom",
        args: [getAddress(collector), chain.clients.accounts[DEPLOYER]!.address, deepIds[1]!],
      }),
    );
    await open(genesis, genesisIds.slice(2));
    await mint(genesis, 1n);
    genesis = await chainGame("Genesis Booster");
    deep = await chainGame("Deep Booster");

    t = await setupApp({ deployments: [chain.deployment] });
    ({ publicUrl: baseUrl } = await t.app.listen());
    apiKey = (await t.createKey({ multiplier: 100 })).key;
    await sync();
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  // 1. Games ---------------------------------------------------------------

  it("lists the chain's games in /games, /search, by slug and address, and in /featured once flagged", async () => {
    const games = (await chainGames()).sort(newestFirst);
    expect(games.length).toBeGreaterThan(3);
    expect(new Set(games.map((game) => game.active))).toEqual(new Set([true, false]));
    expect(new Set(games.map((game) => game.graduated))).toEqual(new Set([true, false]));

    const all = await ok<ClassicGamesPage>("/classic/games?limit=100");
    expect(all.games.map(gameFacts)).toEqual(games.map(expectedFacts));
    expect(all.pagination).toEqual({ page: 1, limit: 100, total: games.length, totalPages: 1 });
    // Pages of two walk the same list.
    const paged: ClassicGame[] = [];
    for (let page = 1; page <= Math.ceil(games.length / 2); page++)
      paged.push(...(await ok<ClassicGamesPage>(`/classic/games?limit=2&page=${page}`)).games);
    expect(paged.map(gameFacts)).toEqual(games.map(expectedFacts));
    // The filters.
    for (const active of [true, false]) {
      const page = await ok<ClassicGamesPage>(`/classic/games?limit=100&active=${active}`);
      expect(page.games.map(gameFacts)).toEqual(games.filter((g) => g.active === active).map(expectedFacts));
    }
    const ungraduated = await ok<ClassicGamesPage>("/classic/games?limit=100&includeGraduated=false");
    expect(ungraduated.games.map(gameFacts)).toEqual(games.filter((g) => !g.graduated).map(expectedFacts));

    // Search by a name fragment (any of the names, symbols, slug; case-insensitive) and by creator.
    const matches = (game: ChainGame, q: string) =>
      [
        game.nftName,
        game.tokenName,
        game.nftSymbol,
        game.tokenSymbol,
        defaultGameSlug(game.nftName, game.gameId),
      ].some((field) => field.toLowerCase().includes(q.toLowerCase()));
    const fragments = new Set([
      "eep",
      "BOOSTER",
      ...games.map((game) => game.nftName.split(" ")[0]!.slice(1)),
    ]);
    for (const q of fragments) {
      const found = await ok<ClassicSearchPage>(`/classic/search?q=${encodeURIComponent(q)}&limit=100`);
      expect(found.games.map(gameFacts), `q=${q}`).toEqual(
        games.filter((game) => matches(game, q)).map(expectedFacts),
      );
      expect(found.pagination.total).toBe(found.games.length);
    }
    for (const creator of new Set(games.map((game) => game.creator))) {
      const found = await ok<ClassicSearchPage>(`/classic/search?ownerAddress=${creator}&limit=100`);
      const own = games.filter((game) => game.creator === creator);
      expect(found.games.map(gameFacts), `creator ${creator}`).toEqual(own.map(expectedFacts));
      const both = await ok<ClassicSearchPage>(
        `/classic/search?ownerAddress=${creator.toLowerCase()}&q=deep&limit=100`,
      );
      expect(both.games.map(gameFacts)).toEqual(own.filter((g) => matches(g, "deep")).map(expectedFacts));
    }

    // By slug and by address (checksummed: any case).
    for (const game of games) {
      const slug = defaultGameSlug(game.nftName, game.gameId);
      for (const key of [slug, game.drop]) {
        const detail = await ok<ClassicGameDetail>(`/classic/contractAddress/${key}`);
        expect(gameFacts(detail.contractInfo), key).toEqual(expectedFacts(game));
      }
    }
    expect((await get(`/classic/contractAddress/${defaultGameSlug("Nobody", 999n)}`)).status).toBe(404);

    // Featured: none until the operator flags one.
    expect((await ok<{ games: ClassicGame[] }>("/classic/featured")).games).toEqual([]);
    for (const game of [deep, genesis]) {
      const flagged = await t.admin("PATCH", `/admin/classic/games/8453/${game.drop.toLowerCase()}`, {
        isFeatured: true,
      });
      expect(flagged.statusCode).toBe(200);
    }
    const flagged = games.filter((game) => game.drop === deep.drop || game.drop === genesis.drop);
    const featured = await ok<{ games: ClassicGame[] }>("/classic/featured?sortBy=newest");
    expect(featured.games.map(gameFacts)).toEqual(flagged.map(expectedFacts));
    expect(featured.games.every((game) => game.isFeatured)).toBe(true);
    const listed = await ok<ClassicGamesPage>("/classic/games?limit=100&featured=true");
    expect(listed.games.map(gameFacts)).toEqual(flagged.map(expectedFacts));
    const others = await ok<ClassicGamesPage>("/classic/games?limit=100&featured=false");
    expect(others.games.map(gameFacts)).toEqual(
      games.filter((game) => !flagged.includes(game)).map(expectedFacts),
    );
  });
  // 2. Packs ---------------------------------------------------------------

  it("serves the chain's packs in /range: every filter and sort gives the set and order the chain gives", async () => {
    for (const game of [genesis, deep]) {
      const packs = (await chainPacks(game)).sort(byTokenId);
      const drop = game.drop.toLowerCase();
      const statuses = new Set(packs.map((pack) => pack.status));
      const range = (query: string) => rangeAll(`contractAddress=${drop}&${query}`);

      const asc = await range("sortBy=tokenId&sortOrder=asc");
      expect(asc.map(packFacts), game.nftName).toEqual(packs.map(chainPackFacts));
      expect(asc.every((pack) => pack.contractAddress === drop && pack.chainId === 8453)).toBe(true);
      // Seeds and rolls are the chain's: randomValue = tokenSeed mod 10000.
      for (const [i, pack] of packs.entries()) {
        expect(asc[i]!.tokenSpecificRandomness).toBe(pack.rarity > 0 ? pack.tokenSeed.toString() : null);
        expect(asc[i]!.randomValue).toBe(pack.rarity > 0 ? (pack.tokenSeed % 10_000n).toString() : null);
        expect(asc[i]!.rarityName).toBe(RARITY_NAMES[pack.rarity]);
      }
      // By slug, descending (the default order is by latest update; token id desc here).
      const desc = await rangeAll(
        `contractAddress=${defaultGameSlug(game.nftName, game.gameId)}&sortBy=tokenId&sortOrder=desc`,
      );
      expect(desc.map(packFacts)).toEqual([...packs].reverse().map(chainPackFacts));

      for (const status of ["minted", "rarity_assigned", "burned"] as const) {
        const found = await range(`status=${status}&sortBy=tokenId&sortOrder=asc`);
        expect(found.map(packFacts), `${game.nftName} ${status}`).toEqual(
          packs.filter((pack) => pack.status === status).map(chainPackFacts),
        );
      }
      for (const rarity of [0, 1, 2, 3, 4]) {
        const found = await range(`rarity=${rarity}&sortBy=tokenId&sortOrder=asc`);
        expect(found.map(packFacts), `${game.nftName} rarity ${rarity}`).toEqual(
          packs.filter((pack) => pack.rarity === rarity).map(chainPackFacts),
        );
      }
      // rarity desc, ties by token id desc.
      const byRarity = await range("sortBy=rarity&sortOrder=desc");
      expect(byRarity.map(packFacts)).toEqual(
        [...packs].sort((a, b) => b.rarity - a.rarity || byTokenId(b, a)).map(chainPackFacts),
      );

      const picked = [packs[0]!, packs.at(-1)!, packs[Math.floor(packs.length / 2)]!];
      const missing = game.nextTokenId + 5n;
      const listed = await range(
        `tokenIds=${[...picked.map((pack) => pack.tokenId), missing].join(",")}&sortBy=tokenId&sortOrder=asc`,
      );
      expect(listed.map(packFacts)).toEqual([...new Set(picked)].sort(byTokenId).map(chainPackFacts));

      const [from, to] = [packs[1]!.tokenId, packs.at(-2)!.tokenId];
      const window = await range(`startTokenId=${from}&endTokenId=${to}&sortBy=tokenId&sortOrder=asc`);
      expect(window.map(packFacts)).toEqual(
        packs.filter((pack) => pack.tokenId >= from && pack.tokenId <= to).map(chainPackFacts),
      );
      // Filters combine.
      const combined = await range(
        `startTokenId=${from}&status=rarity_assigned&sortBy=tokenId&sortOrder=asc`,
      );
      expect(combined.map(packFacts)).toEqual(
        packs.filter((p) => p.tokenId >= from && p.status === "rarity_assigned").map(chainPackFacts),
      );
      // Every state is reached: the collector's last opening of Genesis waits for its randomness.
      if (game === genesis)
        expect([...statuses].sort()).toEqual(["burned", "minted", "opened", "rarity_assigned"]);
    }
  });

  it("lists an owner's packs in /collection/{owner} and /owner/{owner} with the chain's rarities", async () => {
    const games = await chainGames();
    const everyPack = (await Promise.all(games.map(chainPacks))).flat();
    const ofOwner = (owner: string) =>
      everyPack
        .filter((pack) => pack.owner === owner)
        .sort((a, b) => (a.drop < b.drop ? -1 : a.drop > b.drop ? 1 : byTokenId(a, b)));
    const holdingFacts = (box: ClassicHoldings["boxes"][number]) => ({
      ...packFacts(box),
      rarityName: box.rarityName,
      drop: box.contractAddress,
    });
    const expectedHolding = (pack: ChainPack) => ({
      ...chainPackFacts(pack),
      rarityName: RARITY_NAMES[pack.rarity],
      drop: pack.drop,
    });
    // A pack's reward: its rarity's offer in the drop's token (fixed at creation, so also the one paid).
    const offers = new Map<string, bigint[]>();
    for (const game of games) {
      const onDrop = { address: game.drop, abi: liveBoosterDropAbi } as const;
      offers.set(
        game.drop.toLowerCase(),
        await Promise.all([
          0n,
          publicClient().readContract({ ...onDrop, functionName: "COMMON_OFFER" }),
          publicClient().readContract({ ...onDrop, functionName: "RARE_OFFER" }),
          publicClient().readContract({ ...onDrop, functionName: "EPIC_OFFER" }),
          publicClient().readContract({ ...onDrop, functionName: "LEGENDARY_OFFER" }),
          publicClient().readContract({ ...onDrop, functionName: "MYTHIC_OFFER" }),
        ]),
      );
    }
    const firstIdOf = new Map(games.map((game) => [game.drop.toLowerCase(), game.firstTokenId]));
    const deployer = chain.clients.accounts[DEPLOYER]!.address.toLowerCase();
    const simulated = everyPack.find((pack) => pack.owner !== collector && pack.owner !== deployer)!.owner;
    for (const owner of [collector, deployer, simulated]) {
      const own = ofOwner(owner);
      expect(own.length, owner).toBeGreaterThan(0);
      for (const game of [genesis, deep]) {
        const drop = game.drop.toLowerCase();
        const holdings = await ok<ClassicHoldings>(
          `/classic/collection/${getAddress(owner)}?contractAddress=${game.drop}`,
        );
        expect(holdings).toMatchObject({ ownerAddress: owner, contractAddress: drop, chainId: 8453 });
        expect(holdings.boxes.map(holdingFacts), `${owner} in ${game.nftName}`).toEqual(
          own.filter((pack) => pack.drop === drop).map(expectedHolding),
        );
        for (const box of holdings.boxes) {
          expect(box.contract.dropContractAddress).toBe(drop);
          // The drawn card has the pack's rarity; none before it is assigned.
          if (box.rarity === 0) expect(box.metadata).toBeNull();
          else expect(box.metadata?.rarityCode).toBe(box.rarity);
        }
      }
      const everywhere = await ok<ClassicHoldings>(`/classic/collection/${owner}`);
      expect(everywhere.contractAddress).toBeNull();
      expect(everywhere.boxes.map(holdingFacts)).toEqual(own.map(expectedHolding));
      expect(everywhere.boxes.map((box) => [box.rewardAmount, box.isFirstEdition])).toEqual(
        own.map((pack) => [
          pack.rarity > 0 ? offers.get(pack.drop)![pack.rarity]!.toString() : null,
          pack.tokenId < firstIdOf.get(pack.drop)! + 1000n,
        ]),
      );
      expect(everywhere.pagination.total).toBe(own.length);

      const listed: ClassicRangePack[] = [];
      for (let page = 1; ; page++) {
        const answer = await ok<ClassicOwnerPage>(`/classic/owner/${owner}?limit=3&page=${page}`);
        listed.push(...answer.boosterBoxes);
        if (page >= answer.pagination.totalPages) break;
      }
      const key = (pack: { drop: string; tokenId: string }) => `${pack.drop}:${pack.tokenId}`;
      expect(
        listed
          .map((pack) => ({ ...packFacts(pack), drop: pack.contractAddress, rarityName: pack.rarityName }))
          .sort((a, b) => key(a).localeCompare(key(b))),
      ).toEqual(own.map(expectedHolding).sort((a, b) => key(a).localeCompare(key(b))));
      // Newest change first.
      const times = listed.map((pack) => pack.latestUpdateTimestamp);
      expect(times).toEqual([...times].sort().reverse());
    }
  });
  // 3. Activity cursors -------------------------------------------------------

  it("walks a game's events cursor without duplicates while new activity arrives", async () => {
    const drop = genesis.drop.toLowerCase();
    const walked: ClassicActivityEvent[] = [];
    let cursor: string | null = null;
    let arrivals = 0;
    for (let page = 0; ; page++) {
      const answer: ClassicCollectionEvents = await ok<ClassicCollectionEvents>(
        `/classic/collection/${drop}/events?limit=4${cursor ? `&cursor=${cursor}` : ""}`,
      );
      walked.push(...answer.events);
      expect(answer.events.every((event) => event.contractAddress === drop)).toBe(true);
      expect(answer.head).toBe(Number(await publicClient().getBlockNumber()));
      cursor = answer.nextCursor;
      if (answer.hasMore) continue;
      // At the end of what is indexed: new activity (a mint, then its rarities), then walk on.
      if (arrivals === 2) break;
      arrivals += 1;
      await mint(genesis, 2n);
      if (arrivals === 2) await fulfil();
      await sync();
      if (page > 100) throw new Error("the cursor does not end");
    }
    const positions = walked.map(position);
    expect(new Set(positions).size).toBe(positions.length);

    // The whole list, read at the end in one walk, is what was walked; both are the chain's activity.
    const full: ClassicActivityEvent[] = [];
    for (let next: string | null = null, more = true; more; ) {
      const answer: ClassicCollectionEvents = await ok<ClassicCollectionEvents>(
        `/classic/collection/${drop}/events?limit=200${next ? `&cursor=${next}` : ""}`,
      );
      full.push(...answer.events);
      next = answer.nextCursor;
      more = answer.hasMore;
    }
    expect(walked).toEqual(full);
    const onChain = await chainActivity([await chainGame(genesis.nftName)]);
    expect(full.map((event) => [position(event), event.type, event.ethAmount, event.tokenAmount])).toEqual(
      onChain.map((event) => [event.position, event.type, event.ethAmount, event.tokenAmount]),
    );
    // This test's and beforeAll's activity on the game is all there.
    const types = new Set(full.map((event) => event.type));
    const kinds = [
      "game_created",
      "mint",
      "rarity_assigned",
      "open",
      "sell_back",
      "curve_purchase",
      "graduation",
    ];
    expect(kinds.filter((type) => !types.has(type as ClassicActivityEvent["type"]))).toEqual([]);
  });

  it("walks the /recent cursor without duplicates while new activity arrives", async () => {
    const walked: ClassicActivityEvent[] = [];
    let cursor: string | null = null;
    for (let page = 0; ; page++) {
      const answer: ClassicRecent = await ok<ClassicRecent>(
        `/classic/recent?limit=25${cursor ? `&cursor=${cursor}` : ""}`,
      );
      walked.push(...answer.events);
      cursor = answer.nextCursor;
      if (cursor === null) break;
      // New activity lands between pages, newer than every page walked.
      if (page < 2) {
        await mint(deep, 1n);
        await fulfil();
        await sync();
      }
      if (page > 100) throw new Error("the cursor does not end");
    }
    const ids = walked.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);

    const full: ClassicActivityEvent[] = [];
    for (let next: string | null = null, first = true; first || next !== null; first = false) {
      const answer: ClassicRecent = await ok<ClassicRecent>(
        `/classic/recent?limit=100${next ? `&cursor=${next}` : ""}`,
      );
      full.push(...answer.events);
      next = answer.nextCursor;
    }
    // What was walked is the whole list from the walk's first event on: nothing skipped, nothing twice;
    // what arrived during the walk is above it.
    const start = full.findIndex((event) => event.id === walked[0]!.id);
    expect(start).toBeGreaterThan(0);
    expect(walked).toEqual(full.slice(start));
    const arrived = full.slice(0, start);
    expect(arrived.filter((event) => event.type === "mint").map((event) => event.contractAddress)).toEqual([
      deep.drop.toLowerCase(),
      deep.drop.toLowerCase(),
    ]);
    // The whole list is every game's activity on the chain, newest first.
    const onChain = await chainActivity(await chainGames());
    const newest = (a: string, b: string) => {
      const [ba, la] = a.split(":").map(BigInt) as [bigint, bigint];
      const [bb, lb] = b.split(":").map(BigInt) as [bigint, bigint];
      return ba !== bb ? (ba > bb ? -1 : 1) : la > lb ? -1 : 1;
    };
    expect(full.map((event) => [position(event), event.type, event.contractAddress])).toEqual(
      onChain
        .sort((a, b) => newest(a.position, b.position))
        .map((event) => [event.position, event.type, event.drop]),
    );
    // Its cursor is `<block time ms>-<objectId>`, objectId = block (16 hex) + log index (8 hex).
    for (const event of full) {
      expect(event.id).toBe(
        `${event.blockNumber.toString(16).padStart(16, "0")}${event.logIndex.toString(16).padStart(8, "0")}`,
      );
    }
  });
  // 4. Token ids above 2^53 -----------------------------------------------------

  it("gives a token id above 2^53 back exact in the HTTP body", async () => {
    const [first, second] = await mint(deep, 2n);
    await sync();
    expect(first).toBeGreaterThan(SAMPLE_BIG_FIRST_TOKEN_ID);
    // Two ids a float cannot tell apart.
    expect(Number(first)).toBe(Number(second));
    const drop = deep.drop.toLowerCase();
    const exactIn = (text: string, id: bigint) => {
      expect(text).toContain(`"tokenId":${id},`);
      expect(text).toContain(`"tokenIdString":"${id}"`);
    };
    for (const id of [first!, second!]) {
      // The id in a query, in a range: exactly that pack.
      for (const query of [`tokenIds=${id}`, `startTokenId=${id}&endTokenId=${id}`]) {
        const range = await get<ClassicRangePage>(`/classic/range?contractAddress=${drop}&${query}`);
        expect(range.body.boosterBoxes.map((pack) => pack.tokenIdString)).toEqual([id.toString()]);
        exactIn(range.text, id);
        expect(range.text.match(/"tokenId":(\d+)/g)).toEqual([`"tokenId":${id}`]);
      }
      const metadata = await ok<ClassicTokenMetadata>(`/classic/metadata/${drop}/${id}`, { key: false });
      expect(metadata.name.endsWith(`#${id}`)).toBe(true);
    }
    const holdings = await get<ClassicHoldings>(`/classic/collection/${collector}?contractAddress=${drop}`);
    exactIn(holdings.text, first!);
    exactIn(holdings.text, second!);
    const owned = await get<ClassicOwnerPage>(`/classic/owner/${collector}?limit=100`);
    exactIn(owned.text, first!);
    // Every Deep Booster id in the holdings body is one the chain holds for the collector.
    const chainIds = (await chainPacks(deep)).filter((p) => p.owner === collector).map((p) => p.tokenId);
    expect([...holdings.text.matchAll(/"tokenId":(\d+)/g)].map((m) => BigInt(m[1]!))).toEqual(chainIds);
    // Through the SDK: bigint ids, exact.
    const client = createMktClient({ baseUrl, apiKey });
    const page = await client.classic.packs.range({
      contractAddress: drop,
      tokenIds: [first!, second!],
      sortBy: "tokenId",
      sortOrder: "asc",
    });
    expect(page.boosterBoxes.map((pack) => pack.tokenId)).toEqual([first, second]);
    const sdkHoldings = await client.classic.packs.holdings(collector, { contractAddress: drop });
    expect(sdkHoldings.boxes.map((box) => box.tokenId)).toEqual(chainIds);
    // Activity writes pack ids as decimal strings.
    const events = await get<ClassicRecent>("/classic/recent?limit=5");
    expect(events.body.events.find((event) => event.type === "mint")?.tokenIds).toEqual([
      first!.toString(),
      second!.toString(),
    ]);
  });

  // 5. Marketplace metadata -----------------------------------------------------

  it("serves what tokenURI and contractURI point at, as an NFT marketplace reads them", async () => {
    /** The path of a URL on PUBLIC_URL, which the test server answers. */
    const pathOf = (uri: string) => {
      expect(uri.startsWith(`${PUBLIC_URL}/classic/`), uri).toBe(true);
      return uri.slice(PUBLIC_URL.length);
    };
    const attribute = (metadata: ClassicTokenMetadata, trait: string) =>
      metadata.attributes.find((entry) => entry.trait_type === trait)?.value;
    let checked = 0;
    for (const game of [genesis, deep]) {
      const drop = game.drop.toLowerCase();
      const cards = (await ok<{ cards: ClassicCard[] }>(`/classic/metadata/${drop}/cards`)).cards;
      const packs = (await chainPacks(game)).filter((pack) => pack.status !== "burned");
      // One pack of each status, and opened ones both before and after their rarity.
      const statuses = new Set<string>();
      for (const pack of packs) {
        const kind = `${pack.status}:${pack.rarity > 0}`;
        if (statuses.has(kind)) continue;
        statuses.add(kind);
        checked += 1;
        const uri = await publicClient().readContract({
          address: game.drop,
          abi: boosterDropAbi,
          functionName: "tokenURI",
          args: [pack.tokenId],
        });
        // The drop's baseURI is the metadata base and the game's default slug (as the deploy sets it).
        expect(pathOf(uri)).toBe(
          `/classic/metadata/${defaultGameSlug(game.nftName, game.gameId)}/${pack.tokenId}`,
        );
        const metadata = await ok<ClassicTokenMetadata>(pathOf(uri), { key: false });
        const where = `${game.nftName} #${pack.tokenId} (${pack.status})`;
        expect(attribute(metadata, "Rarity"), where).toBe(RARITY_NAMES[pack.rarity]);
        expect(attribute(metadata, "Status"), where).toBe(pack.status);
        expect(attribute(metadata, "First Edition"), where).toBe(
          pack.tokenId < game.firstTokenId + 1000n ? "Yes" : "No",
        );
        if (pack.rarity === 0) {
          expect(metadata.name, where).toBe(`${game.nftName} Pack #${pack.tokenId}`);
          expect(attribute(metadata, "Card ID")).toBeUndefined();
        } else {
          // The card rule on the chain's seed, over the game's cards as the API lists them.
          const draw = drawCard({
            tokenSeed: pack.tokenSeed,
            tokenId: pack.tokenId,
            rarity: pack.rarity,
            cards: cards.map((card) => ({
              startId: card.startId,
              endId: card.endId,
              rarity: card.rarityCode,
            })),
            firstTokenId: game.firstTokenId,
          });
          const card = cards[draw.cardIndex!]!;
          expect(card.rarityCode).toBe(pack.rarity);
          expect(metadata.name, where).toBe(`${card.name} #${pack.tokenId}`);
          expect(attribute(metadata, "Card ID"), where).toBe(draw.cardId);
          expect(attribute(metadata, "Wear"), where).toBe(draw.wear);
          expect(attribute(metadata, "Wear Value"), where).toBe(draw.wearValue);
          expect(attribute(metadata, "Foil"), where).toBe(draw.foil);
          expect(attribute(metadata, "Randomness"), where).toBe((pack.tokenSeed % 10_000n).toString());
          expect(metadata.image, where).toBe(
            pack.status === "minted" ? card.unopenedImageUrl : card.imageUrl,
          );
        }
        // The image is served too, with no credential.
        const image = await fetch(`${baseUrl}${pathOf(metadata.image)}`);
        expect(image.status, metadata.image).toBe(200);
        expect(image.headers.get("content-type")).toMatch(/^image\//);
      }
      expect(statuses.size).toBeGreaterThanOrEqual(2);

      // A token never minted: the chain has no URI for it, the route no JSON.
      await expect(
        publicClient().readContract({
          address: game.drop,
          abi: boosterDropAbi,
          functionName: "tokenURI",
          args: [(await chainGame(game.nftName)).nextTokenId],
        }),
      ).rejects.toThrow();
      const unknown = await get<{ error: string }>(
        `/classic/metadata/${drop}/${(await chainGame(game.nftName)).nextTokenId}`,
        { key: false },
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe("PACK_NOT_FOUND");

      const contractUri = await publicClient().readContract({
        address: game.drop,
        abi: boosterDropAbi,
        functionName: "contractURI",
      });
      expect(pathOf(contractUri)).toBe(`/classic/metadata/${defaultGameSlug(game.nftName, game.gameId)}`);
      const collection = await ok<ClassicContractMetadata>(pathOf(contractUri), { key: false });
      expect(collection).toMatchObject({
        name: game.nftName,
        symbol: game.nftSymbol,
        fee_recipient: game.creator.toLowerCase(),
        collaborators: [game.creator.toLowerCase()],
        seller_fee_basis_points: 0,
      });
      expect(collection.image).not.toBeNull();
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });
});

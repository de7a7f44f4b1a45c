import type { Address, Hex } from "viem";
import { getAddress, parseEther, parseEventLogs, zeroHash } from "viem";
import type { Allowlist } from "../allowlist.ts";
import { buildAllowlist } from "../allowlist.ts";
import type { RarityOdds } from "../classic-math.ts";
import { DEFAULT_ODDS_BPS, defaultOffers } from "../classic-math.ts";
import {
  DEFAULT_METADATA_BASE_URI,
  devAllowlist,
  dropBaseUri,
  SAMPLE_VIRTUAL_ETH,
  SAMPLE_VIRTUAL_TOKENS,
} from "../deploy.ts";
import { fulfilEntropy } from "../entropy.ts";
import { boosterDropAbi, dropFactoryAbi } from "../generated/abis.ts";
import { liveBoosterDropAbi, liveBoosterTokenAbi, liveDropCreatorAbi } from "../live-abi.ts";
import type { ActionChoice, ActionReport, Activity, SimulationContext } from "./context.ts";
import { addressOf } from "./context.ts";

interface Game {
  gameId: bigint;
  drop: Address;
  token: Address;
  tokensPerMint: bigint;
  merkleRoot: Hex;
  /** Whether the token trades on its pool (`marketType` 1) rather than its curve. */
  graduated: boolean;
  active: boolean;
  /** The creator's account index, when it is one of the mnemonic's accounts (it alone pauses the drop). */
  creator: number | undefined;
  /** Whether this simulator has minted packs of it (games nobody minted yet are minted first). */
  minted: boolean;
}

/** A pack's stage as the simulator saw it: minted, opened (rarity pending), then assigned. */
interface Pack {
  drop: Address;
  tokenId: bigint;
  /** The open batch, once opened. */
  batchId: bigint | undefined;
  owner: number;
  stage: "minted" | "opened" | "assigned";
}

const MAX_GAMES = 8;
const ADJECTIVES = ["Neon", "Lunar", "Feral", "Quiet", "Molten", "Paper", "Velvet", "Static"] as const;
const NOUNS = ["Foxes", "Comets", "Relics", "Golems", "Orchids", "Pilots", "Tides", "Masks"] as const;
/** Rarity odds of simulated games (Common..Mythic, basis points): the default and a few others. */
const ODDS: readonly RarityOdds[] = [
  DEFAULT_ODDS_BPS,
  [7000, 2000, 700, 250, 50],
  [4500, 3000, 1500, 700, 300],
  [8000, 1500, 500, 0, 0],
];
/** First pack ids of simulated games: mostly the default (0 = 1), sometimes far above 2^53. */
const FIRST_TOKEN_IDS = [0n, 0n, 1001n, 10n ** 21n] as const;
/** Live clients add about 2% to a quoted ETH price and accept about 1% less on a sale. */
const withSlippage = (wei: bigint) => (wei * 102n) / 100n;
const lessSlippage = (wei: bigint) => (wei * 99n) / 100n;

/** Classic generation traffic, sent as the live clients send it: games (created with the live call or
 * with our extensions: varied odds, first pack ids, allowlists), pack mints (ETH, token or allowlisted),
 * opens paying the entropy fee, randomness, sales for the offer or for ETH, pack transfers, pauses,
 * allowlist changes and token trades on the curve and, after graduation, on the pool. Packs are tracked
 * from the simulator's own receipts and re-checked onchain before use, since anyone else on the chain may
 * move them. */
export function createClassicActivity(
  context: SimulationContext,
  factory: Address,
  entropy: Address,
): Activity {
  const { clients, prng, users } = context;
  const { publicClient } = clients;
  const games: Game[] = [];
  const packs = new Map<string, Pack>();
  const tokenHolders = new Map<string, { gameId: bigint; seller: number }>();
  const allowlists = new Map<Hex, Allowlist>();
  const sampleAllowlist = devAllowlist(clients);
  allowlists.set(sampleAllowlist.root, sampleAllowlist);
  const packKey = (drop: Address, tokenId: bigint) => `${drop.toLowerCase()}:${tokenId}`;

  async function loadGame(gameId: bigint): Promise<Game> {
    const [drop, token] = await publicClient.readContract({
      address: factory,
      abi: dropFactoryAbi,
      functionName: "games",
      args: [gameId],
    });
    const [tokensPerMint, merkleRoot, active, creator, marketType] = await Promise.all([
      publicClient.readContract({ address: drop, abi: liveBoosterDropAbi, functionName: "tokensPerMint" }),
      publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "merkleRoot" }),
      publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "active" }),
      publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "creator" }),
      publicClient.readContract({ address: token, abi: liveBoosterTokenAbi, functionName: "marketType" }),
    ]);
    const creatorIndex = clients.accounts.findIndex((account) => account.address === getAddress(creator));
    return {
      gameId,
      drop,
      token,
      tokensPerMint,
      merkleRoot,
      graduated: marketType === 1,
      active,
      creator: creatorIndex < 0 ? undefined : creatorIndex,
      minted: false,
    };
  }

  /** Users who can mint `game` right now: everyone, or the members of a known allowlist. */
  function mintersOf(game: Game): number[] {
    if (!game.active) return [];
    if (game.merkleRoot === zeroHash) return [...users];
    const allowlist = allowlists.get(game.merkleRoot);
    if (allowlist === undefined) return [];
    return users.filter((index) => allowlist.proofFor(addressOf(context, index)) !== undefined);
  }

  async function stillOwned(pack: Pack): Promise<boolean> {
    const owner = await publicClient
      .readContract({
        address: pack.drop,
        abi: liveBoosterDropAbi,
        functionName: "ownerOf",
        args: [pack.tokenId],
      })
      .catch(() => undefined);
    if (owner !== undefined && getAddress(owner) === addressOf(context, pack.owner)) return true;
    packs.delete(packKey(pack.drop, pack.tokenId));
    return false;
  }

  function tokenBalance(game: Game, index: number): Promise<bigint> {
    return publicClient.readContract({
      address: game.token,
      abi: liveBoosterTokenAbi,
      functionName: "balanceOf",
      args: [addressOf(context, index)],
    });
  }

  /** Mints with ETH at `getMintPrice` (allowlisted drops through `mintAllowlisted`), or pays in the drop's
   * token when the minter holds enough of it. */
  async function mint(): Promise<ActionReport> {
    const mintable = games.filter((game) => mintersOf(game).length > 0);
    const fresh = mintable.filter((game) => !game.minted);
    const game = prng.pick(fresh.length > 0 ? fresh : mintable);
    const minter = prng.pick(mintersOf(game));
    const amount = BigInt(prng.int(1, 4));
    const wallet = clients.wallet(minter);
    const gated = game.merkleRoot !== zeroHash;
    const tokenCost = game.tokensPerMint * amount;
    const payWithToken = !gated && prng.chance(0.5) && (await tokenBalance(game, minter)) >= tokenCost;
    let hash: Promise<Hex>;
    if (payWithToken) {
      await context.send(
        wallet.writeContract({
          address: game.token,
          abi: liveBoosterTokenAbi,
          functionName: "approve",
          args: [game.drop, tokenCost],
        }),
      );
      hash = wallet.writeContract({
        address: game.drop,
        abi: liveBoosterDropAbi,
        functionName: "mintWithToken",
        args: [amount],
      });
    } else {
      const price = await publicClient.readContract({
        address: game.drop,
        abi: liveBoosterDropAbi,
        functionName: "getMintPrice",
        args: [amount],
      });
      hash = gated
        ? wallet.writeContract({
            address: game.drop,
            abi: boosterDropAbi,
            functionName: "mintAllowlisted",
            args: [amount, allowlists.get(game.merkleRoot)?.proofFor(addressOf(context, minter)) ?? []],
            value: withSlippage(price),
          })
        : wallet.writeContract({
            address: game.drop,
            abi: liveBoosterDropAbi,
            functionName: "mint",
            args: [amount],
            value: withSlippage(price),
          });
    }
    const receipt = await context.send(hash);
    const [minted] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: receipt.logs,
      eventName: "BoosterDropsMinted",
    });
    if (minted === undefined) throw new Error("mint emitted no BoosterDropsMinted event");
    game.minted = true;
    noteGraduation(game, receipt.logs);
    const { startTokenId, endTokenId } = minted.args;
    for (let tokenId = startTokenId; tokenId <= endTokenId; tokenId++) {
      packs.set(packKey(game.drop, tokenId), {
        drop: game.drop,
        tokenId,
        batchId: undefined,
        owner: minter,
        stage: "minted",
      });
    }
    return {
      action: "mint",
      gameId: game.gameId.toString(),
      minter,
      amount: amount.toString(),
      startTokenId: startTokenId.toString(),
      allowlisted: gated,
      paidWith: payWithToken ? "token" : "eth",
    };
  }

  /** Marks `game` graduated when `logs` carry its token's MarketGraduated. */
  function noteGraduation(game: Game, logs: Parameters<typeof parseEventLogs>[0]["logs"]) {
    const graduated = parseEventLogs({ abi: liveBoosterTokenAbi, logs, eventName: "MarketGraduated" });
    if (graduated.some((event) => getAddress(event.address) === getAddress(game.token)))
      game.graduated = true;
  }

  /** Games whose creator the simulator can act for: paused ones to resume, minted ones to pause. */
  function pausable(): Game[] {
    const ours = games.filter((game) => game.creator !== undefined);
    const paused = ours.filter((game) => !game.active);
    return paused.length > 0 ? paused : ours.filter((game) => game.minted);
  }

  /** A creator pauses a drop's minting, or resumes a paused one. */
  async function setActive(): Promise<ActionReport> {
    const game = prng.pick(pausable());
    const active = !game.active;
    await context.send(
      clients.wallet(game.creator!).writeContract({
        address: game.drop,
        abi: boosterDropAbi,
        functionName: "setActive",
        args: [active],
      }),
    );
    game.active = active;
    return { action: "setActive", gameId: game.gameId.toString(), active };
  }

  /** Allowlist-gated games whose creator the simulator acts for and whose list it knows. */
  function gatedOwnGames(): Game[] {
    return games.filter(
      (game) => game.creator !== undefined && game.merkleRoot !== zeroHash && allowlists.has(game.merkleRoot),
    );
  }

  /** A creator changes a gated drop's allowlist: one member leaves, another joins, and the new root goes onchain. */
  async function setMerkleRoot(): Promise<ActionReport> {
    const game = prng.pick(gatedOwnGames());
    const current = allowlists.get(game.merkleRoot)!;
    const creatorAddress = addressOf(context, game.creator!);
    const leaving = current.addresses.filter((address) => address !== creatorAddress);
    const gone = leaving.length > 1 ? prng.pick(leaving) : undefined;
    const outsiders = users.filter((index) => !current.addresses.includes(addressOf(context, index)));
    const joining = outsiders.length > 0 ? addressOf(context, prng.pick(outsiders)) : undefined;
    const members = [
      ...current.addresses.filter((address) => address !== gone),
      ...(joining ? [joining] : []),
    ];
    const allowlist = buildAllowlist(members);
    allowlists.set(allowlist.root, allowlist);
    await context.send(
      clients.wallet(game.creator!).writeContract({
        address: game.drop,
        abi: boosterDropAbi,
        functionName: "setMerkleRoot",
        args: [allowlist.root],
      }),
    );
    game.merkleRoot = allowlist.root;
    return {
      action: "setMerkleRoot",
      gameId: game.gameId.toString(),
      members: members.length,
      ...(joining ? { joined: joining } : {}),
      ...(gone ? { left: gone } : {}),
    };
  }

  /** Opens some of one owner's unopened packs of one drop, paying the entropy fee. */
  async function open(): Promise<ActionReport> {
    const pack = prng.pick([...packs.values()].filter((p) => p.stage === "minted"));
    const candidates = [...packs.values()].filter(
      (p) => p.stage === "minted" && p.drop === pack.drop && p.owner === pack.owner,
    );
    const owned: Pack[] = [];
    for (const candidate of candidates.slice(0, 5)) if (await stillOwned(candidate)) owned.push(candidate);
    if (owned.length === 0) return { action: "open", skipped: true };
    const fee = await publicClient.readContract({
      address: pack.drop,
      abi: liveBoosterDropAbi,
      functionName: "getEntropyFee",
    });
    const receipt = await context.send(
      clients.wallet(pack.owner).writeContract({
        address: pack.drop,
        abi: liveBoosterDropAbi,
        functionName: "open",
        args: [owned.map((p) => p.tokenId)],
        value: fee,
      }),
    );
    const [opened] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: receipt.logs,
      eventName: "BoosterDropOpened",
    });
    if (opened === undefined) throw new Error("open emitted no BoosterDropOpened event");
    for (const p of owned) {
      p.stage = "opened";
      p.batchId = opened.args.batchId;
    }
    return {
      action: "open",
      owner: pack.owner,
      packs: owned.length,
      batchId: opened.args.batchId.toString(),
    };
  }

  /** Sells an opened card whose rarity is known: for its offer in the drop's token, or for ETH. */
  async function sell(): Promise<ActionReport> {
    const pack = prng.pick([...packs.values()].filter((p) => p.stage === "assigned"));
    if (!(await stillOwned(pack))) return { action: "sell", skipped: true };
    const game = games.find((g) => g.drop === pack.drop);
    if (game === undefined) return { action: "sell", skipped: true };
    const [rarity] = await publicClient.readContract({
      address: pack.drop,
      abi: liveBoosterDropAbi,
      functionName: "getTokenRarity",
      args: [pack.tokenId],
    });
    const offerName = (
      ["COMMON_OFFER", "RARE_OFFER", "EPIC_OFFER", "LEGENDARY_OFFER", "MYTHIC_OFFER"] as const
    )[rarity - 1];
    if (offerName === undefined) return { action: "sell", skipped: true };
    const [offer, reserve] = await Promise.all([
      publicClient.readContract({ address: pack.drop, abi: liveBoosterDropAbi, functionName: offerName }),
      publicClient.readContract({
        address: game.token,
        abi: liveBoosterTokenAbi,
        functionName: "balanceOf",
        args: [pack.drop],
      }),
    ]);
    if (reserve < offer) return { action: "sell", skipped: true };
    const wallet = clients.wallet(pack.owner);
    const forEth = prng.chance(0.4);
    if (forEth) {
      const quote = await publicClient.readContract({
        address: game.token,
        abi: liveBoosterTokenAbi,
        functionName: "getTokenSellQuote",
        args: [offer],
      });
      const receipt = await context.send(
        wallet.writeContract({
          address: pack.drop,
          abi: liveBoosterDropAbi,
          functionName: "sellForEth",
          args: [pack.tokenId, addressOf(context, pack.owner), lessSlippage(quote)],
        }),
      );
      noteGraduation(game, receipt.logs);
    } else {
      await context.send(
        wallet.writeContract({
          address: pack.drop,
          abi: liveBoosterDropAbi,
          functionName: "sellAndClaimOffer",
          args: [pack.tokenId],
        }),
      );
      tokenHolders.set(`${game.gameId}:${pack.owner}`, { gameId: game.gameId, seller: pack.owner });
    }
    packs.delete(packKey(pack.drop, pack.tokenId));
    return {
      action: "sell",
      owner: pack.owner,
      tokenId: pack.tokenId.toString(),
      rarity,
      for: forEth ? "eth" : "offer",
    };
  }

  async function transferPack(): Promise<ActionReport> {
    const pack = prng.pick([...packs.values()]);
    const to = prng.pick(users.filter((index) => index !== pack.owner));
    if (!(await stillOwned(pack))) return { action: "transferPack", skipped: true };
    await context.send(
      clients.wallet(pack.owner).writeContract({
        address: pack.drop,
        abi: liveBoosterDropAbi,
        functionName: "transferFrom",
        args: [addressOf(context, pack.owner), addressOf(context, to), pack.tokenId],
      }),
    );
    const from = pack.owner;
    pack.owner = to;
    return { action: "transferPack", from, to, tokenId: pack.tokenId.toString() };
  }

  /** Buys an exact token amount worth a small ETH budget, on the curve or, once graduated, the pool. */
  async function buyToken(): Promise<ActionReport> {
    const game = prng.pick(games);
    const buyer = prng.pick(users);
    const budget = parseEther(prng.pick(["0.002", "0.005", "0.01", "0.02", "0.05", "0.1"]));
    const onToken = { address: game.token, abi: liveBoosterTokenAbi } as const;
    const tokenAmount = await publicClient.readContract({
      ...onToken,
      functionName: "getEthBuyQuote",
      args: [budget],
    });
    const cost = await publicClient.readContract({
      ...onToken,
      functionName: "getTokenBuyQuote",
      args: [tokenAmount],
    });
    const receipt = await context.send(
      clients.wallet(buyer).writeContract({
        ...onToken,
        functionName: "buy",
        args: [tokenAmount, addressOf(context, buyer)],
        value: withSlippage(cost),
      }),
    );
    tokenHolders.set(`${game.gameId}:${buyer}`, { gameId: game.gameId, seller: buyer });
    const wasGraduated = game.graduated;
    noteGraduation(game, receipt.logs);
    return {
      action: "buyToken",
      gameId: game.gameId.toString(),
      buyer,
      tokenAmount: tokenAmount.toString(),
      graduated: game.graduated && !wasGraduated,
    };
  }

  /** Holdings of the drops' tokens the simulator bought or was paid as offers. */
  function sellableHoldings(): { key: string; game: Game; seller: number }[] {
    return [...tokenHolders.entries()].flatMap(([key, { gameId, seller }]) => {
      const game = games.find((g) => g.gameId === gameId);
      return game === undefined ? [] : [{ key, game, seller }];
    });
  }

  async function sellToken(): Promise<ActionReport> {
    const { key, game, seller } = prng.pick(sellableHoldings());
    const balance = await tokenBalance(game, seller);
    const tokensToSell = (balance * BigInt(prng.int(20, 80))) / 100n;
    if (tokensToSell === 0n) {
      tokenHolders.delete(key);
      return { action: "sellToken", skipped: true };
    }
    const quote = await publicClient.readContract({
      address: game.token,
      abi: liveBoosterTokenAbi,
      functionName: "getTokenSellQuote",
      args: [tokensToSell],
    });
    await context.send(
      clients.wallet(seller).writeContract({
        address: game.token,
        abi: liveBoosterTokenAbi,
        functionName: "sell",
        args: [tokensToSell, addressOf(context, seller), lessSlippage(quote)],
      }),
    );
    return { action: "sellToken", gameId: game.gameId.toString(), seller, tokensIn: tokensToSell.toString() };
  }

  /** Creates a game, as the live creation call does (default extensions, a few packs bought for the
   * creator) or with our extensions (an allowlist, other odds, a far first pack id, a lower graduation). */
  async function createGame(): Promise<ActionReport> {
    const creator = prng.pick(users);
    const creatorAddress = addressOf(context, creator);
    const adjective = prng.pick(ADJECTIVES);
    const noun = prng.pick(NOUNS);
    const symbol = `${adjective.slice(0, 2)}${noun.slice(0, 2)}${games.length + 1}`.toUpperCase();
    const nftName = `${adjective} ${noun} Booster`;
    const tokensPerMint = parseEther(prng.pick(["500000", "1000000", "2000000", "5000000"]));
    const nextGameId =
      (await publicClient.readContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "gameCount",
      })) + 1n;
    const [commonOffer, rareOffer, epicOffer, legendaryOffer, mythicOffer] = defaultOffers(tokensPerMint);
    const config = {
      baseURI: dropBaseUri(DEFAULT_METADATA_BASE_URI, nftName, nextGameId),
      tokensPerMint,
      commonOffer,
      rareOffer,
      epicOffer,
      legendaryOffer,
      mythicOffer,
    };
    const names = [`${adjective} ${noun}`, symbol, nftName, `${symbol}BOX`] as const;
    const live = prng.chance(0.4);
    const wallet = clients.wallet(creator);
    let report: ActionReport;
    let hash: Promise<Hex>;
    if (live) {
      const packAmount = BigInt(prng.int(0, 2));
      // The first packs of a fresh default curve: 1 ETH against 10^9 tokens, so well under 0.02 ETH each.
      const value = packAmount * parseEther("0.02");
      hash = wallet.writeContract({
        address: factory,
        abi: liveDropCreatorAbi,
        functionName: "createDropWithConfig",
        args: [...names, creatorAddress, packAmount, config],
        value,
      });
      report = { action: "createGame", live: true, creator, packAmount: packAmount.toString() };
    } else {
      let merkleRoot: Hex = zeroHash;
      if (prng.chance(0.4)) {
        const others = users.filter((index) => index !== creator);
        const members = [creator, ...Array.from({ length: 5 }, () => prng.pick(others))];
        const allowlist = buildAllowlist(members.map((index) => addressOf(context, index)));
        allowlists.set(allowlist.root, allowlist);
        merkleRoot = allowlist.root;
      }
      const oddsBps = prng.pick(ODDS);
      const firstTokenId = prng.pick(FIRST_TOKEN_IDS);
      hash = wallet.writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "createDropWithExtensions",
        args: [
          ...names,
          creatorAddress,
          0n,
          config,
          {
            merkleRoot,
            oddsBps,
            firstTokenId,
            virtualEth: SAMPLE_VIRTUAL_ETH,
            virtualTokens: SAMPLE_VIRTUAL_TOKENS,
            graduationEth: parseEther(prng.pick(["0.05", "0.1", "0.3"])),
          },
        ],
      });
      report = {
        action: "createGame",
        live: false,
        creator,
        allowlisted: merkleRoot !== zeroHash,
        odds: oddsBps.join("/"),
        firstTokenId: firstTokenId.toString(),
      };
    }
    const receipt = await context.send(hash);
    const [created] = parseEventLogs({
      abi: dropFactoryAbi,
      logs: receipt.logs,
      eventName: "DropConfigured",
    });
    if (created === undefined) throw new Error("drop creation emitted no DropConfigured event");
    const game = await loadGame(created.args.gameId);
    games.push(game);
    for (const event of parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: receipt.logs,
      eventName: "BoosterDropsMinted",
    })) {
      game.minted = true;
      for (let tokenId = event.args.startTokenId; tokenId <= event.args.endTokenId; tokenId++) {
        packs.set(packKey(game.drop, tokenId), {
          drop: game.drop,
          tokenId,
          batchId: undefined,
          owner: creator,
          stage: "minted",
        });
      }
    }
    return { ...report, gameId: created.args.gameId.toString() };
  }

  return {
    async init() {
      const count = await publicClient.readContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "gameCount",
      });
      for (let gameId = 1n; gameId <= count; gameId++) games.push(await loadGame(gameId));
    },

    async beforeStep() {
      const fulfilled = await fulfilEntropy({
        clients,
        entropyProvider: entropy,
        seed: context.seed,
        logger: context.logger,
      });
      return fulfilled.map(({ requestId, receipt }) => {
        const assigned = parseEventLogs({
          abi: liveBoosterDropAbi,
          logs: receipt.logs,
          eventName: "RarityAssigned",
        });
        let count = 0;
        for (const event of assigned) {
          const drop = getAddress(event.address);
          for (const pack of packs.values()) {
            if (pack.stage === "opened" && pack.drop === drop && pack.batchId === event.args.batchId) {
              pack.stage = "assigned";
              count++;
            }
          }
        }
        return { action: "fulfilEntropy", requestId: requestId.toString(), packs: count };
      });
    },

    choices(): ActionChoice[] {
      const stages = new Set([...packs.values()].map((p) => p.stage));
      return [
        { action: "mint", weight: games.some((g) => mintersOf(g).length > 0) ? 30 : 0, run: mint },
        { action: "open", weight: stages.has("minted") ? 14 : 0, run: open },
        { action: "sell", weight: stages.has("assigned") ? 8 : 0, run: sell },
        { action: "transferPack", weight: packs.size > 0 ? 6 : 0, run: transferPack },
        { action: "buyToken", weight: games.length > 0 ? 14 : 0, run: buyToken },
        { action: "sellToken", weight: sellableHoldings().length > 0 ? 7 : 0, run: sellToken },
        { action: "createGame", weight: games.length < MAX_GAMES ? 3 : 0, run: createGame },
        { action: "setMerkleRoot", weight: gatedOwnGames().length > 0 ? 3 : 0, run: setMerkleRoot },
        {
          action: "setActive",
          weight: pausable().length === 0 ? 0 : games.some((g) => !g.active) ? 6 : 2,
          run: setActive,
        },
      ];
    },
  };
}

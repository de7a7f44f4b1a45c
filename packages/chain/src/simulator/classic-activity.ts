import type { Address, Hex } from "viem";
import { getAddress, parseEther, parseEventLogs, zeroHash } from "viem";
import type { Allowlist } from "../allowlist.ts";
import { buildAllowlist } from "../allowlist.ts";
import type { RarityOdds } from "../classic-math.ts";
import { DEFAULT_ODDS_BPS, defaultOffers } from "../classic-math.ts";
import { devAllowlist } from "../deploy.ts";
import { fulfilEntropy } from "../entropy.ts";
import { boosterDropAbi, boosterTokenAbi, dropFactoryAbi } from "../generated/abis.ts";
import type { ActionChoice, ActionReport, Activity, SimulationContext } from "./context.ts";
import { addressOf } from "./context.ts";

interface Game {
  gameId: bigint;
  drop: Address;
  token: Address;
  pricePerPack: bigint;
  merkleRoot: Hex;
  graduated: boolean;
  active: boolean;
  /** The creator's account index, when it is one of the mnemonic's accounts (it alone pauses the drop). */
  creator: number | undefined;
  /** Whether this simulator has minted packs of it (games nobody minted yet are minted first). */
  minted: boolean;
}

interface Pack {
  drop: Address;
  tokenId: bigint;
  batchId: bigint;
  owner: number;
  stage: "minted" | "assigned" | "opened";
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

/** Classic generation traffic: games (with varied odds and first pack ids), pack mints (some
 * allowlisted), randomness, opens, sell-backs, pack transfers, pauses, allowlist changes and bonding-curve trades. Packs are tracked from the simulator's own receipts and
 * re-checked onchain before use, since anyone else on the chain may move them. */
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
    const [pricePerPack, merkleRoot, active, creator, graduated] = await Promise.all([
      publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "pricePerPack" }),
      publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "merkleRoot" }),
      publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "active" }),
      publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "creator" }),
      publicClient.readContract({ address: token, abi: boosterTokenAbi, functionName: "graduated" }),
    ]);
    const creatorIndex = clients.accounts.findIndex((account) => account.address === getAddress(creator));
    return {
      gameId,
      drop,
      token,
      pricePerPack,
      merkleRoot,
      graduated,
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
        abi: boosterDropAbi,
        functionName: "ownerOf",
        args: [pack.tokenId],
      })
      .catch(() => undefined);
    if (owner !== undefined && getAddress(owner) === addressOf(context, pack.owner)) return true;
    packs.delete(packKey(pack.drop, pack.tokenId));
    return false;
  }

  async function mint(): Promise<ActionReport> {
    const mintable = games.filter((game) => mintersOf(game).length > 0);
    const fresh = mintable.filter((game) => !game.minted);
    const game = prng.pick(fresh.length > 0 ? fresh : mintable);
    const minter = prng.pick(mintersOf(game));
    const amount = BigInt(prng.int(1, 4));
    const proof = allowlists.get(game.merkleRoot)?.proofFor(addressOf(context, minter)) ?? [];
    const receipt = await context.send(
      clients.wallet(minter).writeContract({
        address: game.drop,
        abi: boosterDropAbi,
        functionName: "mint",
        args: [amount, proof],
        value: game.pricePerPack * amount,
      }),
    );
    const [minted] = parseEventLogs({ abi: boosterDropAbi, logs: receipt.logs, eventName: "Minted" });
    if (minted === undefined) throw new Error("mint emitted no Minted event");
    game.minted = true;
    const { startTokenId, endTokenId, batchId } = minted.args;
    for (let tokenId = startTokenId; tokenId <= endTokenId; tokenId++) {
      packs.set(packKey(game.drop, tokenId), {
        drop: game.drop,
        tokenId,
        batchId,
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
      allowlisted: game.merkleRoot !== zeroHash,
    };
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

  async function open(): Promise<ActionReport> {
    const pack = prng.pick([...packs.values()].filter((p) => p.stage === "assigned"));
    const batch = [...packs.values()].filter(
      (p) =>
        p.stage === "assigned" &&
        p.drop === pack.drop &&
        p.owner === pack.owner &&
        p.batchId === pack.batchId,
    );
    const owned: Pack[] = [];
    for (const candidate of batch) if (await stillOwned(candidate)) owned.push(candidate);
    if (owned.length === 0) return { action: "open", skipped: true };
    await context.send(
      clients.wallet(pack.owner).writeContract({
        address: pack.drop,
        abi: boosterDropAbi,
        functionName: "open",
        args: [owned.map((p) => p.tokenId)],
      }),
    );
    for (const p of owned) p.stage = "opened";
    return { action: "open", owner: pack.owner, packs: owned.length };
  }

  async function sellBack(): Promise<ActionReport> {
    const pack = prng.pick([...packs.values()].filter((p) => p.stage === "opened"));
    if (!(await stillOwned(pack))) return { action: "sellBack", skipped: true };
    const [, rarity] = await publicClient.readContract({
      address: pack.drop,
      abi: boosterDropAbi,
      functionName: "packs",
      args: [pack.tokenId],
    });
    const [offer, reserve] = await Promise.all([
      publicClient.readContract({
        address: pack.drop,
        abi: boosterDropAbi,
        functionName: "offers",
        args: [BigInt(rarity)],
      }),
      publicClient.getBalance({ address: pack.drop }),
    ]);
    if (reserve < offer) return { action: "sellBack", skipped: true };
    await context.send(
      clients.wallet(pack.owner).writeContract({
        address: pack.drop,
        abi: boosterDropAbi,
        functionName: "sellBack",
        args: [pack.tokenId],
      }),
    );
    packs.delete(packKey(pack.drop, pack.tokenId));
    return { action: "sellBack", owner: pack.owner, tokenId: pack.tokenId.toString(), rarity };
  }

  async function transferPack(): Promise<ActionReport> {
    const pack = prng.pick([...packs.values()]);
    const to = prng.pick(users.filter((index) => index !== pack.owner));
    if (!(await stillOwned(pack))) return { action: "transferPack", skipped: true };
    await context.send(
      clients.wallet(pack.owner).writeContract({
        address: pack.drop,
        abi: boosterDropAbi,
        functionName: "transferFrom",
        args: [addressOf(context, pack.owner), addressOf(context, to), pack.tokenId],
      }),
    );
    const from = pack.owner;
    pack.owner = to;
    return { action: "transferPack", from, to, tokenId: pack.tokenId.toString() };
  }

  async function buyToken(): Promise<ActionReport> {
    const game = prng.pick(games.filter((g) => !g.graduated));
    const buyer = prng.pick(users);
    const ethIn = parseEther(prng.pick(["0.002", "0.005", "0.01", "0.02", "0.05"]));
    const quote = await publicClient.readContract({
      address: game.token,
      abi: boosterTokenAbi,
      functionName: "quoteBuy",
      args: [ethIn],
    });
    const receipt = await context.send(
      clients.wallet(buyer).writeContract({
        address: game.token,
        abi: boosterTokenAbi,
        functionName: "buy",
        args: [(quote * 99n) / 100n],
        value: ethIn,
      }),
    );
    tokenHolders.set(`${game.gameId}:${buyer}`, { gameId: game.gameId, seller: buyer });
    const graduated =
      parseEventLogs({ abi: boosterTokenAbi, logs: receipt.logs, eventName: "Graduated" }).length > 0;
    if (graduated) game.graduated = true;
    return { action: "buyToken", gameId: game.gameId.toString(), buyer, ethIn: ethIn.toString(), graduated };
  }

  /** Holdings the simulator bought on curves that are still open. */
  function sellableHoldings(): { key: string; game: Game; seller: number }[] {
    return [...tokenHolders.entries()].flatMap(([key, { gameId, seller }]) => {
      const game = games.find((g) => g.gameId === gameId);
      return game === undefined || game.graduated ? [] : [{ key, game, seller }];
    });
  }

  async function sellToken(): Promise<ActionReport> {
    const { key, game, seller } = prng.pick(sellableHoldings());
    const balance = await publicClient.readContract({
      address: game.token,
      abi: boosterTokenAbi,
      functionName: "balanceOf",
      args: [addressOf(context, seller)],
    });
    const tokensIn = (balance * BigInt(prng.int(20, 80))) / 100n;
    if (tokensIn === 0n) {
      tokenHolders.delete(key);
      return { action: "sellToken", skipped: true };
    }
    const quote = await publicClient.readContract({
      address: game.token,
      abi: boosterTokenAbi,
      functionName: "quoteSell",
      args: [tokensIn],
    });
    await context.send(
      clients.wallet(seller).writeContract({
        address: game.token,
        abi: boosterTokenAbi,
        functionName: "sell",
        args: [tokensIn, (quote * 99n) / 100n],
      }),
    );
    return { action: "sellToken", gameId: game.gameId.toString(), seller, tokensIn: tokensIn.toString() };
  }

  async function createGame(): Promise<ActionReport> {
    const creator = prng.pick(users);
    const adjective = prng.pick(ADJECTIVES);
    const noun = prng.pick(NOUNS);
    const symbol = `${adjective.slice(0, 2)}${noun.slice(0, 2)}${games.length + 1}`.toUpperCase();
    let merkleRoot: Hex = zeroHash;
    if (prng.chance(0.3)) {
      const others = users.filter((index) => index !== creator);
      const members = [creator, ...Array.from({ length: 5 }, () => prng.pick(others))];
      const allowlist = buildAllowlist(members.map((index) => addressOf(context, index)));
      allowlists.set(allowlist.root, allowlist);
      merkleRoot = allowlist.root;
    }
    const pricePerPack = parseEther(prng.pick(["0.0005", "0.001", "0.002", "0.005"]));
    const oddsBps = prng.pick(ODDS);
    const firstTokenId = prng.pick(FIRST_TOKEN_IDS);
    const receipt = await context.send(
      clients.wallet(creator).writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "createGame",
        args: [
          {
            nftName: `${adjective} ${noun} Booster`,
            nftSymbol: `${symbol}BOX`,
            tokenName: `${adjective} ${noun}`,
            tokenSymbol: symbol,
            pricePerPack,
            merkleRoot,
            offers: defaultOffers(pricePerPack),
            oddsBps,
            virtualEth: parseEther("1"),
            virtualTokens: parseEther("1000000000"),
            graduationEth: parseEther(prng.pick(["0.05", "0.1", "0.3"])),
            firstTokenId,
          },
        ],
      }),
    );
    const [created] = parseEventLogs({ abi: dropFactoryAbi, logs: receipt.logs, eventName: "GameCreated" });
    if (created === undefined) throw new Error("createGame emitted no GameCreated event");
    games.push(await loadGame(created.args.gameId));
    return {
      action: "createGame",
      gameId: created.args.gameId.toString(),
      creator,
      allowlisted: merkleRoot !== zeroHash,
      odds: oddsBps.join("/"),
      firstTokenId: firstTokenId.toString(),
    };
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
          abi: boosterDropAbi,
          logs: receipt.logs,
          eventName: "RarityAssigned",
        });
        for (const event of assigned) {
          const pack = packs.get(packKey(getAddress(event.address), event.args.tokenId));
          if (pack?.stage === "minted") pack.stage = "assigned";
        }
        return { action: "fulfilEntropy", requestId: requestId.toString(), packs: assigned.length };
      });
    },

    choices(): ActionChoice[] {
      const stages = new Set([...packs.values()].map((p) => p.stage));
      const tradable = games.some((g) => !g.graduated);
      return [
        { action: "mint", weight: games.some((g) => mintersOf(g).length > 0) ? 30 : 0, run: mint },
        { action: "open", weight: stages.has("assigned") ? 14 : 0, run: open },
        { action: "sellBack", weight: stages.has("opened") ? 8 : 0, run: sellBack },
        { action: "transferPack", weight: packs.size > 0 ? 6 : 0, run: transferPack },
        { action: "buyToken", weight: tradable ? 14 : 0, run: buyToken },
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

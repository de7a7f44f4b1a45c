import type { Abi, Address, Hex, TransactionReceipt } from "viem";
import {
  hexToBigInt,
  isAddressEqual,
  numberToHex,
  parseEther,
  parseEventLogs,
  zeroAddress,
  zeroHash,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contractAddress,
  readGame,
  setupDevChain,
  type TestChain,
  waitForBlockNumber,
} from "./_test/setup.ts";
import { DEV_ACCOUNT_ROLES } from "./accounts.ts";
import { buildAllowlist } from "./allowlist.ts";
import type { CurveState, RarityOdds } from "./classic-math.ts";
import {
  curveAfterTokenBuy,
  curveQuoteBuy,
  curveQuoteSell,
  curveTokenBuyCost,
  DEFAULT_ODDS_BPS,
  defaultOffers,
  deriveRarity,
  graduationTokenLiquidity,
} from "./classic-math.ts";
import { waitForSuccess } from "./clients.ts";
import {
  CLASSIC_CHAIN_ID,
  DEFAULT_METADATA_BASE_URI,
  devAllowlist,
  dropBaseUri,
  SAMPLE_BIG_FIRST_TOKEN_ID,
  SAMPLE_VIRTUAL_ETH,
  SAMPLE_VIRTUAL_TOKENS,
} from "./deploy.ts";
import { DEV_ENTROPY_FEE, fulfilEntropy, startEntropyFulfiller } from "./entropy.ts";
import {
  boosterDropAbi,
  boosterTokenAbi,
  dropFactoryAbi,
  entropyProviderAbi,
  graduationPoolAbi,
} from "./generated/abis.ts";
import { liveBoosterDropAbi, liveBoosterTokenAbi, liveDropCreatorAbi } from "./live-abi.ts";

let t: TestChain;
beforeAll(async () => {
  t = await setupDevChain(CLASSIC_CHAIN_ID);
});
afterAll(async () => {
  await t?.close();
});

const user = DEV_ACCOUNT_ROLES.firstUser;
const outsider = 15;
const address = (index: number): Address => t.clients.accounts[index]!.address;

/** The events `contract` emitted in `receipt`, decoded with `abi` (ERC-20 and ERC-721 share topics). */
function eventsOf<const abi extends Abi>(abi: abi, receipt: TransactionReceipt, contract: Address) {
  return parseEventLogs({ abi, logs: receipt.logs.filter((log) => isAddressEqual(log.address, contract)) });
}

/** A live client's ETH mint: `getMintPrice(amount)` plus 2% slippage, the excess refunded. */
async function mint(drop: Address, accountIndex: number, amount: bigint) {
  const price = await t.clients.publicClient.readContract({
    address: drop,
    abi: liveBoosterDropAbi,
    functionName: "getMintPrice",
    args: [amount],
  });
  const hash = await t.clients.wallet(accountIndex).writeContract({
    address: drop,
    abi: liveBoosterDropAbi,
    functionName: "mint",
    args: [amount],
    value: (price * 102n) / 100n,
  });
  return { price, receipt: await waitForSuccess(t.clients.publicClient, hash) };
}

/** A live client's open: pays `getEntropyFee()`. */
async function open(drop: Address, accountIndex: number, tokenIds: bigint[]) {
  const fee = await t.clients.publicClient.readContract({
    address: drop,
    abi: liveBoosterDropAbi,
    functionName: "getEntropyFee",
  });
  const hash = await t.clients.wallet(accountIndex).writeContract({
    address: drop,
    abi: liveBoosterDropAbi,
    functionName: "open",
    args: [tokenIds],
    value: fee,
  });
  return waitForSuccess(t.clients.publicClient, hash);
}

async function fulfil(seed?: bigint) {
  return fulfilEntropy({
    clients: t.clients,
    entropyProvider: contractAddress(t.deployment, "EntropyProvider"),
    ...(seed === undefined ? {} : { seed }),
  });
}

async function tokenRarity(drop: Address, tokenId: bigint) {
  return t.clients.publicClient.readContract({
    address: drop,
    abi: liveBoosterDropAbi,
    functionName: "getTokenRarity",
    args: [tokenId],
  });
}

async function curveState(token: Address): Promise<CurveState> {
  const onToken = { address: token, abi: boosterTokenAbi } as const;
  const { publicClient } = t.clients;
  const [virtualEth, virtualTokens, ethReserve, tokensSold] = await Promise.all([
    publicClient.readContract({ ...onToken, functionName: "virtualEth" }),
    publicClient.readContract({ ...onToken, functionName: "virtualTokens" }),
    publicClient.readContract({ ...onToken, functionName: "ethReserve" }),
    publicClient.readContract({ ...onToken, functionName: "tokensSold" }),
  ]);
  return { virtualEth, virtualTokens, ethReserve, tokensSold };
}

interface GameOptions {
  oddsBps?: RarityOdds;
  firstTokenId?: bigint;
  graduationEth?: bigint;
  virtualTokens?: bigint;
  tokensPerMint?: bigint;
  merkleRoot?: Hex;
}

/** Creates a game with our extensions from `creatorIndex`; returns its drop, token and DropConfigured args. */
async function createGame(creatorIndex: number, options: GameOptions = {}) {
  const tokensPerMint = options.tokensPerMint ?? parseEther("1000000");
  const [commonOffer, rareOffer, epicOffer, legendaryOffer, mythicOffer] = defaultOffers(tokensPerMint);
  const receipt = await waitForSuccess(
    t.clients.publicClient,
    await t.clients.wallet(creatorIndex).writeContract({
      address: contractAddress(t.deployment, "DropFactory"),
      abi: dropFactoryAbi,
      functionName: "createDropWithExtensions",
      args: [
        "Odds",
        "ODD",
        "Odds Booster",
        "ODDBOX",
        address(creatorIndex),
        0n,
        {
          baseURI: "http://api.test/classic/metadata/odds-booster/",
          tokensPerMint,
          commonOffer,
          rareOffer,
          epicOffer,
          legendaryOffer,
          mythicOffer,
        },
        {
          merkleRoot: options.merkleRoot ?? zeroHash,
          oddsBps: options.oddsBps ?? DEFAULT_ODDS_BPS,
          firstTokenId: options.firstTokenId ?? 0n,
          virtualEth: SAMPLE_VIRTUAL_ETH,
          virtualTokens: options.virtualTokens ?? SAMPLE_VIRTUAL_TOKENS,
          graduationEth: options.graduationEth ?? 0n,
        },
      ],
    }),
  );
  const [configured] = parseEventLogs({
    abi: dropFactoryAbi,
    logs: receipt.logs,
    eventName: "DropConfigured",
  });
  const { dropContract: drop, tokenContract: token } = configured!.args;
  return { drop, token, configured: configured!.args };
}

/** Mints `amount` packs, opens them all and answers the randomness; returns the ids and the random number. */
async function mintOpenAndFulfil(drop: Address, amount: bigint) {
  const { receipt } = await mint(drop, user, amount);
  const [minted] = parseEventLogs({
    abi: liveBoosterDropAbi,
    logs: receipt.logs,
    eventName: "BoosterDropsMinted",
  });
  const { startTokenId, endTokenId } = minted!.args;
  const tokenIds: bigint[] = [];
  for (let id = startTokenId; id <= endTokenId; id++) tokenIds.push(id);
  await open(drop, user, tokenIds);
  const fulfilment = (await fulfil()).at(-1)!;
  const [assigned] = parseEventLogs({
    abi: liveBoosterDropAbi,
    logs: fulfilment.receipt.logs,
    eventName: "RarityAssigned",
  });
  return { tokenIds, assigned: assigned!.args, randomNumber: fulfilment.randomNumber };
}

describe("a pack's live lifecycle", () => {
  it("mint -> open (entropy fee) -> randomness callback -> rarity -> sellAndClaimOffer", async () => {
    const { drop, token } = await readGame(t, 1n);
    const { publicClient } = t.clients;
    const buyer = address(user);
    const tokensPerMint = parseEther("1000000");

    // Mint: the ETH price of 3 packs is the curve's price of their tokens, which the drop keeps.
    const before = await publicClient.getBalance({ address: buyer });
    const expectedPrice = curveTokenBuyCost(await curveState(token), 3n * tokensPerMint);
    const { price, receipt: minted } = await mint(drop, user, 3n);
    expect(price).toBe(expectedPrice);
    expect(await publicClient.getBalance({ address: buyer })).toBe(
      before - price - minted.gasUsed * minted.effectiveGasPrice,
    );
    expect(eventsOf(liveBoosterDropAbi, minted, drop).map((e) => [e.eventName, e.args])).toEqual([
      ["Transfer", { from: zeroAddress, to: buyer, tokenId: 1n }],
      ["BoosterDropTransfer", { from: zeroAddress, to: buyer, tokenId: 1n }],
      ["Transfer", { from: zeroAddress, to: buyer, tokenId: 2n }],
      ["BoosterDropTransfer", { from: zeroAddress, to: buyer, tokenId: 2n }],
      ["Transfer", { from: zeroAddress, to: buyer, tokenId: 3n }],
      ["BoosterDropTransfer", { from: zeroAddress, to: buyer, tokenId: 3n }],
      ["BoosterDropsMinted", { minter: buyer, amount: 3n, startTokenId: 1n, endTokenId: 3n }],
    ]);
    expect(
      parseEventLogs({ abi: liveBoosterTokenAbi, logs: minted.logs, eventName: "TokensPurchased" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ buyer: drop, amount: 3n * tokensPerMint, ethPaid: price }]);
    expect(
      await publicClient.readContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "balanceOf",
        args: [drop],
      }),
    ).toBe(3n * tokensPerMint);
    expect(await tokenRarity(drop, 1n)).toEqual([0, 0n, zeroHash]);

    // Open: pays the entropy fee; rarity stays 0 until the callback.
    const entropyProvider = contractAddress(t.deployment, "EntropyProvider");
    const opened = await open(drop, user, [1n, 2n]);
    expect(eventsOf(liveBoosterDropAbi, opened, drop).map((e) => [e.eventName, e.args])).toEqual([
      ["BoosterDropOpened", { from: buyer, tokenIds: [1n, 2n], batchId: 1n }],
      ["RandomnessRequested", { requester: buyer, batchId: 1n, sequenceNumber: 1n }],
    ]);
    expect(await publicClient.getBalance({ address: entropyProvider })).toBe(DEV_ENTROPY_FEE);
    expect(await tokenRarity(drop, 1n)).toEqual([0, 0n, zeroHash]);

    // The callback assigns the whole batch from one random number.
    const [fulfilment] = await fulfil(7n);
    expect(fulfilment?.requestId).toBe(1n);
    const randomNumber = numberToHex(fulfilment!.randomNumber, { size: 32 });
    expect(eventsOf(liveBoosterDropAbi, fulfilment!.receipt, drop).map((e) => [e.eventName, e.args])).toEqual(
      [
        ["RandomnessFulfilled", { sequenceNumber: 1n, randomNumber }],
        ["RarityAssigned", { batchId: 1n, randomNumber }],
      ],
    );
    expect(
      parseEventLogs({ abi: entropyProviderAbi, logs: fulfilment!.receipt.logs }).map((e) => e.eventName),
    ).toEqual(["EntropyFulfilled"]);
    expect(await fulfil()).toEqual([]);
    const draws = [1n, 2n].map((tokenId) => deriveRarity(fulfilment!.randomNumber, tokenId));
    for (const [i, tokenId] of [1n, 2n].entries()) {
      const draw = draws[i]!;
      expect(await tokenRarity(drop, tokenId)).toEqual([
        draw.rarity,
        draw.randomValue,
        numberToHex(draw.tokenSeed, { size: 32 }),
      ]);
    }
    expect(await tokenRarity(drop, 3n)).toEqual([0, 0n, zeroHash]);

    // Sell: the card burns and its rarity's offer is minted to the seller, out of the drop's reserve.
    const rarity = draws[0]!.rarity;
    const offer = defaultOffers(tokensPerMint)[rarity - 1]!;
    const sold = await waitForSuccess(
      publicClient,
      await t.clients.wallet(user).writeContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "sellAndClaimOffer",
        args: [1n],
      }),
    );
    expect(eventsOf(liveBoosterDropAbi, sold, drop).map((e) => [e.eventName, e.args])).toEqual([
      ["Transfer", { from: buyer, to: zeroAddress, tokenId: 1n }],
      ["BoosterDropTransfer", { from: buyer, to: zeroAddress, tokenId: 1n }],
      ["BoosterDropSold", { burner: buyer, tokenId: 1n, rarity, offerAmount: offer }],
    ]);
    expect(
      parseEventLogs({ abi: liveBoosterTokenAbi, logs: sold.logs, eventName: "OfferMinted" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ recipient: buyer, amount: offer }]);
    const balanceOf = (account: Address) =>
      publicClient.readContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "balanceOf",
        args: [account],
      });
    expect(await balanceOf(buyer)).toBe(offer);
    expect(await balanceOf(drop)).toBe(3n * tokensPerMint - offer);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "totalSupply" }),
    ).toBe(2n);
  });

  it("refuses opens without the fee or of others' or opened packs, and sales before the rarity", async () => {
    const { drop } = await readGame(t, 1n);
    const { receipt } = await mint(drop, user + 1, 1n);
    const [event] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: receipt.logs,
      eventName: "BoosterDropsMinted",
    });
    const tokenId = event!.args.startTokenId;
    const wallet = t.clients.wallet(user + 1);
    const sell = () =>
      wallet.writeContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "sellAndClaimOffer",
        args: [tokenId],
      });
    await expect(sell()).rejects.toThrow("Drop: not opened");
    await expect(
      wallet.writeContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "open",
        args: [[tokenId]],
      }),
    ).rejects.toThrow("Drop: entropy fee");
    await expect(open(drop, user, [tokenId])).rejects.toThrow("Drop: not owner");
    await open(drop, user + 1, [tokenId]);
    await expect(open(drop, user + 1, [tokenId])).rejects.toThrow("Drop: already opened");
    await expect(sell()).rejects.toThrow("Drop: rarity pending");
    await fulfil();
    const [rarity] = await tokenRarity(drop, tokenId);
    expect(rarity).toBeGreaterThan(0);
  });

  it("sellForEth sells the offer's tokens on the curve and pays the recipient", async () => {
    const { drop, token } = await createGame(user + 6, { oddsBps: [10000, 0, 0, 0, 0] });
    const { tokenIds } = await mintOpenAndFulfil(drop, 2n);
    const { publicClient } = t.clients;
    const offer = await publicClient.readContract({
      address: drop,
      abi: liveBoosterDropAbi,
      functionName: "COMMON_OFFER",
    });
    const expectedEth = curveQuoteSell(await curveState(token), offer);
    expect(
      await publicClient.readContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "getTokenSellQuote",
        args: [offer],
      }),
    ).toBe(expectedEth);
    const recipient = address(outsider);
    const sellForEth = (tokenId: bigint, minPayoutSize: bigint) =>
      t.clients.wallet(user).writeContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "sellForEth",
        args: [tokenId, recipient, minPayoutSize],
      });
    await expect(sellForEth(tokenIds[0]!, expectedEth + 1n)).rejects.toThrow("Token: slippage");
    const before = await publicClient.getBalance({ address: recipient });
    const sold = await waitForSuccess(publicClient, await sellForEth(tokenIds[0]!, expectedEth));
    expect(await publicClient.getBalance({ address: recipient })).toBe(before + expectedEth);
    expect(
      parseEventLogs({ abi: liveBoosterTokenAbi, logs: sold.logs, eventName: "TokensSold" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ seller: drop, recipient, amount: offer, ethReceived: expectedEth }]);
    expect(
      parseEventLogs({ abi: liveBoosterDropAbi, logs: sold.logs, eventName: "BoosterDropSold" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ burner: address(user), tokenId: tokenIds[0], rarity: 1, offerAmount: offer }]);
  });
});

describe("other live mints", () => {
  it("mintWithToken takes tokensPerMint per pack of the drop's token", async () => {
    const { drop, token } = await readGame(t, 1n);
    const { publicClient } = t.clients;
    const wallet = t.clients.wallet(user + 7);
    const buyer = address(user + 7);
    const tokensPerMint = await publicClient.readContract({
      address: drop,
      abi: liveBoosterDropAbi,
      functionName: "tokensPerMint",
    });
    const cost = await publicClient.readContract({
      address: token,
      abi: liveBoosterTokenAbi,
      functionName: "getTokenBuyQuote",
      args: [2n * tokensPerMint],
    });
    await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "buy",
        args: [2n * tokensPerMint, buyer],
        value: cost,
      }),
    );
    await expect(
      wallet.writeContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "mintWithToken",
        args: [2n],
      }),
    ).rejects.toThrow("ERC20: allowance");
    await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "approve",
        args: [drop, 2n * tokensPerMint],
      }),
    );
    const reserveBefore = await publicClient.readContract({
      address: token,
      abi: liveBoosterTokenAbi,
      functionName: "balanceOf",
      args: [drop],
    });
    const minted = await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "mintWithToken",
        args: [2n],
      }),
    );
    const [event] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: minted.logs,
      eventName: "BoosterDropsMinted",
    });
    expect(event?.args).toMatchObject({ minter: buyer, amount: 2n });
    expect(
      await publicClient.readContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "balanceOf",
        args: [buyer],
      }),
    ).toBe(0n);
    expect(
      await publicClient.readContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "balanceOf",
        args: [drop],
      }),
    ).toBe(reserveBefore + 2n * tokensPerMint);
  });

  it("the referrer overload mints to the recipient", async () => {
    const { drop } = await readGame(t, 1n);
    const { publicClient } = t.clients;
    const price = await publicClient.readContract({
      address: drop,
      abi: liveBoosterDropAbi,
      functionName: "getMintPrice",
      args: [1n],
    });
    const receipt = await waitForSuccess(
      publicClient,
      await t.clients.wallet(user).writeContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "mint",
        args: [1n, address(outsider), address(user + 1), zeroAddress],
        value: price,
      }),
    );
    const [event] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: receipt.logs,
      eventName: "BoosterDropsMinted",
    });
    expect(event?.args.minter).toBe(address(outsider));
    expect(
      await publicClient.readContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "ownerOf",
        args: [event!.args.startTokenId],
      }),
    ).toBe(address(outsider));
  });
});

describe("allowlisted mint (extension)", () => {
  it("accepts a StandardMerkleTree proof under its own selector, and refuses the live mints", async () => {
    const { drop } = await readGame(t, 2n);
    const allowlist = devAllowlist(t.clients);
    expect(
      await t.clients.publicClient.readContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "merkleRoot",
      }),
    ).toBe(allowlist.root);
    await expect(mint(drop, user, 1n)).rejects.toThrow("Drop: allowlist only");

    const mintAllowlisted = async (accountIndex: number, proof: Hex[]) => {
      const price = await t.clients.publicClient.readContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "getMintPrice",
        args: [1n],
      });
      const hash = await t.clients.wallet(accountIndex).writeContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "mintAllowlisted",
        args: [1n, proof],
        value: price,
      });
      return waitForSuccess(t.clients.publicClient, hash);
    };
    const receipt = await mintAllowlisted(user, allowlist.proofFor(address(user))!);
    expect(
      parseEventLogs({ abi: liveBoosterDropAbi, logs: receipt.logs, eventName: "BoosterDropsMinted" })[0]
        ?.args.minter,
    ).toBe(address(user));
    await expect(mintAllowlisted(user, allowlist.proofFor(address(user + 1))!)).rejects.toThrow(
      "Drop: not allowlisted",
    );
    await expect(mintAllowlisted(outsider, [])).rejects.toThrow("Drop: not allowlisted");

    // The owner (the deployer for sample games) replaces the root; a single-leaf tree has an empty proof.
    const next = buildAllowlist([address(outsider)]);
    const updated = await waitForSuccess(
      t.clients.publicClient,
      await t.clients.wallet(DEV_ACCOUNT_ROLES.deployer).writeContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "setMerkleRoot",
        args: [next.root],
      }),
    );
    expect(
      parseEventLogs({ abi: boosterDropAbi, logs: updated.logs, eventName: "MerkleRootUpdated" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ merkleRoot: next.root }]);
    expect(next.proofFor(address(outsider))).toEqual([]);
    await mintAllowlisted(outsider, []);
  });
});

describe("createDropWithConfig", () => {
  it("deploys a token and drop with the default extensions and buys packAmount packs for the creator", async () => {
    const { publicClient } = t.clients;
    const creatorIndex = user + 2;
    const creator = address(creatorIndex);
    const tokensPerMint = parseEther("500000");
    const [commonOffer, rareOffer, epicOffer, legendaryOffer, mythicOffer] = defaultOffers(tokensPerMint);
    const config = {
      baseURI: "http://api.test/classic/metadata/live-booster/",
      tokensPerMint,
      commonOffer,
      rareOffer,
      epicOffer,
      legendaryOffer,
      mythicOffer,
    };
    // A fresh default curve: 1 ETH against 10^9 tokens, nothing sold yet.
    const expectedPrice = curveTokenBuyCost(
      {
        virtualEth: parseEther("1"),
        virtualTokens: parseEther("1000000000"),
        ethReserve: 0n,
        tokensSold: 0n,
      },
      4n * tokensPerMint,
    );
    const before = await publicClient.getBalance({ address: creator });
    const gameCount = await publicClient.readContract({
      address: contractAddress(t.deployment, "DropFactory"),
      abi: dropFactoryAbi,
      functionName: "gameCount",
    });
    const receipt = await waitForSuccess(
      publicClient,
      await t.clients.wallet(creatorIndex).writeContract({
        address: contractAddress(t.deployment, "DropFactory"),
        abi: liveDropCreatorAbi,
        functionName: "createDropWithConfig",
        args: ["Live", "LIVE", "Live Booster", "LIVEBOX", creator, 4n, config],
        value: expectedPrice + parseEther("0.01"),
      }),
    );
    expect(await publicClient.getBalance({ address: creator })).toBe(
      before - expectedPrice - receipt.gasUsed * receipt.effectiveGasPrice,
    );
    const [created] = parseEventLogs({
      abi: liveDropCreatorAbi,
      logs: receipt.logs,
      eventName: "DropCreated",
    });
    expect(created?.args).toMatchObject({
      creator,
      nftName: "Live Booster",
      nftSymbol: "LIVEBOX",
      tokenName: "Live",
      tokenSymbol: "LIVE",
    });
    const { dropContract: drop, tokenContract: token } = created!.args;
    const [configured] = parseEventLogs({
      abi: dropFactoryAbi,
      logs: receipt.logs,
      eventName: "DropConfigured",
    });
    expect(configured?.args).toEqual({
      gameId: gameCount + 1n,
      dropContract: drop,
      tokenContract: token,
      owner: creator,
      config,
      extensions: {
        merkleRoot: zeroHash,
        oddsBps: DEFAULT_ODDS_BPS,
        firstTokenId: 0n,
        virtualEth: parseEther("1"),
        virtualTokens: parseEther("1000000000"),
        graduationEth: parseEther("10"),
      },
    });
    expect(
      parseEventLogs({ abi: liveBoosterDropAbi, logs: receipt.logs, eventName: "BoosterDropsMinted" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ minter: creator, amount: 4n, startTokenId: 1n, endTokenId: 4n }]);
    const onDrop = { address: drop, abi: liveBoosterDropAbi } as const;
    expect(await publicClient.readContract({ ...onDrop, functionName: "balanceOf", args: [creator] })).toBe(
      4n,
    );
    expect(await publicClient.readContract({ ...onDrop, functionName: "boosterTokenAddress" })).toBe(token);
    expect(await publicClient.readContract({ ...onDrop, functionName: "entropyAddress" })).toBe(
      contractAddress(t.deployment, "EntropyProvider"),
    );
    expect(await publicClient.readContract({ ...onDrop, functionName: "entropyProvider" })).toBe(
      t.clients.accounts[DEV_ACCOUNT_ROLES.entropyFulfiller]!.address,
    );
    expect(await publicClient.readContract({ ...onDrop, functionName: "getEntropyFee" })).toBe(
      DEV_ENTROPY_FEE,
    );
    expect(await publicClient.readContract({ ...onDrop, functionName: "MYTHIC_OFFER" })).toBe(mythicOffer);
    expect(await publicClient.readContract({ ...onDrop, functionName: "name" })).toBe("Live Booster");
    expect(await publicClient.readContract({ ...onDrop, functionName: "tokenURI", args: [4n] })).toBe(
      `${config.baseURI}4`,
    );
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "contractURI" }),
    ).toBe("http://api.test/classic/metadata/live-booster");
    expect(
      await publicClient.readContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "marketType",
      }),
    ).toBe(0);
    expect(
      await publicClient.readContract({
        address: token,
        abi: liveBoosterTokenAbi,
        functionName: "balanceOf",
        args: [drop],
      }),
    ).toBe(4n * tokensPerMint);
    await expect(
      t.clients.wallet(creatorIndex).writeContract({
        address: contractAddress(t.deployment, "DropFactory"),
        abi: liveDropCreatorAbi,
        functionName: "createDropWithConfig",
        args: ["Live", "LIVE", "Live Booster", "LIVEBOX", creator, 4n, config],
        value: expectedPrice / 2n,
      }),
    ).rejects.toThrow("Factory: wrong payment");
  });
});

describe("bonding curve and graduation", () => {
  it("trades on the curve by the curve math, graduates into the pool, then trades on the pool", async () => {
    const { publicClient } = t.clients;
    const traderIndex = user + 3;
    const trader = address(traderIndex);
    const wallet = t.clients.wallet(traderIndex);
    const { drop, token } = await createGame(traderIndex, {
      virtualTokens: parseEther("1000000"),
      graduationEth: parseEther("0.5"),
      tokensPerMint: parseEther("100"),
    });
    const onToken = { address: token, abi: liveBoosterTokenAbi } as const;
    let state = await curveState(token);
    expect(state).toEqual({
      virtualEth: parseEther("1"),
      virtualTokens: parseEther("1000000"),
      ethReserve: 0n,
      tokensSold: 0n,
    });
    expect(await publicClient.readContract({ ...onToken, functionName: "bondingCurve" })).toBe(token);
    expect(
      await publicClient.readContract({
        ...onToken,
        functionName: "getEthBuyQuote",
        args: [parseEther("0.2")],
      }),
    ).toBe(curveQuoteBuy(state, parseEther("0.2")));

    const amount = parseEther("100000");
    const cost = curveTokenBuyCost(state, amount);
    expect(
      await publicClient.readContract({ ...onToken, functionName: "getTokenBuyQuote", args: [amount] }),
    ).toBe(cost);
    await expect(
      wallet.writeContract({ ...onToken, functionName: "buy", args: [amount, trader], value: cost - 1n }),
    ).rejects.toThrow("Token: insufficient ETH");
    const bought = await waitForSuccess(
      publicClient,
      await wallet.writeContract({ ...onToken, functionName: "buy", args: [amount, trader], value: cost }),
    );
    state = curveAfterTokenBuy(state, amount).state;
    expect(await curveState(token)).toEqual(state);
    expect(eventsOf(liveBoosterTokenAbi, bought, token).map((e) => [e.eventName, e.args])).toEqual([
      ["Transfer", { from: zeroAddress, to: trader, value: amount }],
      [
        "BoosterTokenTransfer",
        {
          from: zeroAddress,
          to: trader,
          value: amount,
          balanceOfFrom: 0n,
          balanceOfTo: amount,
          totalSupply: amount,
        },
      ],
      ["TokensPurchased", { buyer: trader, amount, ethPaid: cost }],
    ]);

    const tokensIn = amount / 3n;
    const expectedEth = curveQuoteSell(state, tokensIn);
    const recipient = address(outsider);
    const recipientBefore = await publicClient.getBalance({ address: recipient });
    const sold = await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        ...onToken,
        functionName: "sell",
        args: [tokensIn, recipient, expectedEth],
      }),
    );
    state = { ...state, ethReserve: state.ethReserve - expectedEth, tokensSold: state.tokensSold - tokensIn };
    expect(await curveState(token)).toEqual(state);
    expect(await publicClient.getBalance({ address: recipient })).toBe(recipientBefore + expectedEth);
    expect(
      parseEventLogs({ abi: liveBoosterTokenAbi, logs: sold.logs, eventName: "TokensSold" })[0]?.args,
    ).toEqual({
      seller: trader,
      recipient,
      amount: tokensIn,
      ethReceived: expectedEth,
    });

    // A buy that lifts the reserve past 0.5 ETH graduates the token in the same transaction.
    const crossing = parseEther("300000");
    const crossingCost = curveTokenBuyCost(state, crossing);
    state = curveAfterTokenBuy(state, crossing).state;
    expect(state.ethReserve).toBeGreaterThanOrEqual(parseEther("0.5"));
    const graduating = await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        ...onToken,
        functionName: "buy",
        args: [crossing, trader, address(user), zeroAddress],
        value: crossingCost,
      }),
    );
    const [graduated] = parseEventLogs({
      abi: liveBoosterTokenAbi,
      logs: graduating.logs,
      eventName: "MarketGraduated",
    });
    const pool = await publicClient.readContract({ ...onToken, functionName: "poolAddress" });
    const tokenLiquidity = graduationTokenLiquidity(state);
    expect(graduated?.args).toEqual({
      nftAddress: drop,
      tokenAddress: token,
      pool,
      ethAmount: state.ethReserve,
      tokenAmount: tokenLiquidity,
      positionId: 0n,
    });
    expect(
      parseEventLogs({ abi: liveBoosterTokenAbi, logs: graduating.logs, eventName: "LiquiditySetup" })[0]
        ?.args,
    ).toEqual({ pool, ethAmount: state.ethReserve, tokenAmount: tokenLiquidity });
    expect(await publicClient.readContract({ ...onToken, functionName: "marketType" })).toBe(1);
    expect(await publicClient.getBalance({ address: pool })).toBe(state.ethReserve);
    expect(await publicClient.readContract({ ...onToken, functionName: "balanceOf", args: [pool] })).toBe(
      tokenLiquidity,
    );

    // On the pool: constant product over its own reserves, buy rounded up and sell down.
    let ethPool = state.ethReserve;
    let tokenPool = tokenLiquidity;
    const poolBuy = parseEther("1000");
    const poolCost = (ethPool * poolBuy + (tokenPool - poolBuy) - 1n) / (tokenPool - poolBuy);
    expect(
      await publicClient.readContract({ ...onToken, functionName: "getTokenBuyQuote", args: [poolBuy] }),
    ).toBe(poolCost);
    const traderTokens = await publicClient.readContract({
      ...onToken,
      functionName: "balanceOf",
      args: [trader],
    });
    await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        ...onToken,
        functionName: "buy",
        args: [poolBuy, trader],
        value: poolCost + 5n,
      }),
    );
    ethPool += poolCost;
    tokenPool -= poolBuy;
    expect(await publicClient.readContract({ ...onToken, functionName: "balanceOf", args: [trader] })).toBe(
      traderTokens + poolBuy,
    );
    const poolSell = parseEther("2000");
    const poolEthOut = (ethPool * poolSell) / (tokenPool + poolSell);
    await waitForSuccess(
      publicClient,
      await wallet.writeContract({
        ...onToken,
        functionName: "sell",
        args: [poolSell, recipient, poolEthOut],
      }),
    );
    ethPool -= poolEthOut;
    tokenPool += poolSell;
    const onPool = { address: pool, abi: graduationPoolAbi } as const;
    expect(await publicClient.readContract({ ...onPool, functionName: "ethReserve" })).toBe(ethPool);
    expect(await publicClient.readContract({ ...onPool, functionName: "tokenReserve" })).toBe(tokenPool);
    expect(await publicClient.getBalance({ address: pool })).toBe(ethPool);

    // Packs still mint after graduation, priced by the pool.
    const { price } = await mint(drop, traderIndex, 1n);
    expect(price).toBe(
      (ethPool * parseEther("100") + (tokenPool - parseEther("100")) - 1n) / (tokenPool - parseEther("100")),
    );
  });
});

describe("rarity odds (extension)", () => {
  it("assigns rarities by the game's own odds, as deriveRarity computes them", async () => {
    const odds: RarityOdds = [1000, 1000, 1000, 1000, 6000];
    const { drop, configured } = await createGame(user + 4, { oddsBps: odds });
    expect(configured.extensions.oddsBps).toEqual(odds);
    expect(
      await t.clients.publicClient.readContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "oddsBps",
      }),
    ).toEqual(odds);
    const { tokenIds, randomNumber } = await mintOpenAndFulfil(drop, 20n);
    const rarities = await Promise.all(tokenIds.map(async (id) => (await tokenRarity(drop, id))[0]));
    expect(rarities).toEqual(tokenIds.map((id) => deriveRarity(randomNumber, id, odds).rarity));
    // With 60% Mythic, 20 packs all drawn under the default odds (1% Mythic) would differ somewhere.
    expect(rarities).not.toEqual(tokenIds.map((id) => deriveRarity(randomNumber, id).rarity));
  });

  it("never draws a tier with 0 bps, and the contract's deriveRarity view agrees offchain", async () => {
    const { drop } = await createGame(user + 4, { oddsBps: [0, 0, 10000, 0, 0] });
    const { tokenIds } = await mintOpenAndFulfil(drop, 5n);
    expect(await Promise.all(tokenIds.map(async (id) => (await tokenRarity(drop, id))[0]))).toEqual([
      3, 3, 3, 3, 3,
    ]);
    const skewed: RarityOdds = [2500, 0, 2500, 0, 5000];
    const { drop: skewedDrop } = await createGame(user + 4, { oddsBps: skewed });
    for (const [randomNumber, tokenId] of [
      [1n, 1n],
      [2n ** 255n + 17n, 99n],
      [123456789n, 2n ** 64n + 1n],
      [7n, 3n],
      [8n, 4n],
    ] as const) {
      const [rarity, randomValue, tokenSpecificRandomness] = await t.clients.publicClient.readContract({
        address: skewedDrop,
        abi: boosterDropAbi,
        functionName: "deriveRarity",
        args: [numberToHex(randomNumber, { size: 32 }), tokenId],
      });
      expect({ tokenSeed: hexToBigInt(tokenSpecificRandomness), randomValue, rarity }).toEqual(
        deriveRarity(randomNumber, tokenId, skewed),
      );
      expect([1, 3, 5]).toContain(rarity);
    }
  });

  it("refuses odds that do not sum to 10000", async () => {
    await expect(createGame(user + 4, { oddsBps: [6000, 2500, 1000, 400, 99] })).rejects.toThrow(
      "Factory: odds must sum to 10000",
    );
  });
});

describe("token and contract metadata URIs (extension)", () => {
  it("point under the drop's baseURI: <api>/metadata/<slug>/<tokenId>", async () => {
    const { publicClient } = t.clients;
    const { drop } = await readGame(t, 1n);
    const baseURI = dropBaseUri(DEFAULT_METADATA_BASE_URI, "Genesis Booster", 1n);
    expect(baseURI).toBe(`${DEFAULT_METADATA_BASE_URI}genesis-booster-1/`);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "baseURI" }),
    ).toBe(baseURI);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "contractURI" }),
    ).toBe(`${DEFAULT_METADATA_BASE_URI}genesis-booster-1`);
    expect(
      await publicClient.readContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "tokenURI",
        args: [2n],
      }),
    ).toBe(`${baseURI}2`);
    await expect(
      publicClient.readContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "tokenURI",
        args: [10n ** 30n],
      }),
    ).rejects.toThrow("ERC721: nonexistent token");
    for (const [interfaceId, supported] of [
      ["0x01ffc9a7", true],
      ["0x80ac58cd", true],
      ["0x5b5e139f", true],
      ["0xffffffff", false],
    ] as const) {
      expect(
        await publicClient.readContract({
          address: drop,
          abi: boosterDropAbi,
          functionName: "supportsInterface",
          args: [interfaceId],
        }),
      ).toBe(supported);
    }
  });

  it("keeps the factory's metadata prefix, which only its owner changes", async () => {
    const { publicClient } = t.clients;
    const factory = contractAddress(t.deployment, "DropFactory");
    expect(
      await publicClient.readContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "metadataBaseURI",
      }),
    ).toBe(DEFAULT_METADATA_BASE_URI);
    await expect(
      t.clients.wallet(user).writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "setMetadataBaseURI",
        args: ["https://evil.example/"],
      }),
    ).rejects.toThrow("Factory: not owner");
    const next = "https://api.example/classic/metadata/";
    const receipt = await waitForSuccess(
      publicClient,
      await t.clients.wallet(DEV_ACCOUNT_ROLES.deployer).writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "setMetadataBaseURI",
        args: [next],
      }),
    );
    expect(
      parseEventLogs({ abi: dropFactoryAbi, logs: receipt.logs, eventName: "MetadataBaseURIUpdated" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ metadataBaseURI: next }]);
    await waitForSuccess(
      publicClient,
      await t.clients.wallet(DEV_ACCOUNT_ROLES.deployer).writeContract({
        address: factory,
        abi: dropFactoryAbi,
        functionName: "setMetadataBaseURI",
        args: [DEFAULT_METADATA_BASE_URI],
      }),
    );
  });
});

describe("pausing a drop (extension)", () => {
  it("lets only the owner pause and resume minting", async () => {
    const { publicClient } = t.clients;
    const { drop } = await createGame(user + 5);
    const setActive = (accountIndex: number, active: boolean) =>
      t.clients.wallet(accountIndex).writeContract({
        address: drop,
        abi: boosterDropAbi,
        functionName: "setActive",
        args: [active],
      });
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "active" }),
    ).toBe(true);
    await expect(setActive(user, false)).rejects.toThrow("Drop: not owner");
    const paused = await waitForSuccess(publicClient, await setActive(user + 5, false));
    expect(
      parseEventLogs({ abi: boosterDropAbi, logs: paused.logs, eventName: "ActiveChanged" }).map(
        (e) => e.args,
      ),
    ).toEqual([{ active: false }]);
    await expect(mint(drop, user, 1n)).rejects.toThrow("Drop: not active");
    await waitForSuccess(publicClient, await setActive(user + 5, true));
    const { receipt } = await mint(drop, user, 1n);
    expect(
      parseEventLogs({ abi: liveBoosterDropAbi, logs: receipt.logs, eventName: "BoosterDropsMinted" }),
    ).toHaveLength(1);
  });
});

describe("pack ids past 2^64", () => {
  it("mints, opens, assigns and names exact ids from the sample game's first token id", async () => {
    const { publicClient } = t.clients;
    const { drop } = await readGame(t, 3n);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "firstTokenId" }),
    ).toBe(SAMPLE_BIG_FIRST_TOKEN_ID);
    const { tokenIds, randomNumber } = await mintOpenAndFulfil(drop, 3n);
    const ids = [0n, 1n, 2n].map((i) => SAMPLE_BIG_FIRST_TOKEN_ID + i);
    expect(tokenIds).toEqual(ids);
    expect(ids[0]!.toString()).toBe("18446744073709551617");
    const odds = await publicClient.readContract({
      address: drop,
      abi: boosterDropAbi,
      functionName: "oddsBps",
    });
    expect(await Promise.all(ids.map(async (id) => (await tokenRarity(drop, id))[0]))).toEqual(
      ids.map((tokenId) => deriveRarity(randomNumber, tokenId, odds).rarity),
    );
    expect(
      await publicClient.readContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "ownerOf",
        args: [ids[2]!],
      }),
    ).toBe(address(user));
    expect(
      await publicClient.readContract({
        address: drop,
        abi: liveBoosterDropAbi,
        functionName: "tokenURI",
        args: [ids[1]!],
      }),
    ).toBe(`${DEFAULT_METADATA_BASE_URI}deep-booster-3/18446744073709551618`);
    expect(
      await publicClient.readContract({ address: drop, abi: boosterDropAbi, functionName: "totalSupply" }),
    ).toBe(3n);
  });
});

describe("startEntropyFulfiller", () => {
  it("assigns rarities to packs opened while it runs, until stopped", async () => {
    const { drop } = await readGame(t, 1n);
    const { publicClient } = t.clients;
    const entropyProvider = contractAddress(t.deployment, "EntropyProvider");
    const { receipt } = await mint(drop, user + 3, 2n);
    const [minted] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: receipt.logs,
      eventName: "BoosterDropsMinted",
    });
    const fulfiller = startEntropyFulfiller({ clients: t.clients, entropyProvider, intervalMs: 5 });
    try {
      const opened = await open(drop, user + 3, [minted!.args.startTokenId, minted!.args.endTokenId]);
      const [event] = parseEventLogs({
        abi: liveBoosterDropAbi,
        logs: opened.logs,
        eventName: "BoosterDropOpened",
      });
      // Interval mining is off here, so each new block is one of the fulfiller's transactions; it
      // answers older pending requests first.
      const batchFulfilled = async () =>
        (
          await publicClient.readContract({
            address: drop,
            abi: boosterDropAbi,
            functionName: "batches",
            args: [event!.args.batchId],
          })
        )[2];
      let fulfilled = false;
      for (let block = opened.blockNumber + 1n; !fulfilled && block <= opened.blockNumber + 5n; block++) {
        await waitForBlockNumber(publicClient, block);
        fulfilled = await batchFulfilled();
      }
      expect(fulfilled).toBe(true);
    } finally {
      await fulfiller.stop();
    }
    const [pending, count] = await Promise.all([
      publicClient.readContract({
        address: entropyProvider,
        abi: entropyProviderAbi,
        functionName: "oldestPending",
      }),
      publicClient.readContract({
        address: entropyProvider,
        abi: entropyProviderAbi,
        functionName: "requestCount",
      }),
    ]);
    expect(pending).toBe(count + 1n);
  });
});

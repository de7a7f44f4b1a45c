import { parseAbi } from "viem";

/**
 * The public interfaces of the live Classic contracts on Base, as public client code calls them:
 * signatures and event shapes only (types and `indexed` flags fix every selector and topic; parameter
 * names are the live ones). This module is the one place they are written down: the reference
 * contracts are checked against it, the server decodes live logs with it, and client-flow tests use
 * only these fragments, so anything that works here works against the live contracts.
 */

/** A drop (the pack NFT, IBoosterDropV2). Rarity 1 Common .. 5 Mythic; 0 until assigned after `open`. */
export const liveBoosterDropAbi = parseAbi([
  "event RandomnessRequested(address indexed requester, uint256 batchId, uint64 sequenceNumber)",
  "event RandomnessFulfilled(uint64 sequenceNumber, bytes32 randomNumber)",
  "event BoosterDropsMinted(address indexed minter, uint256 amount, uint256 startTokenId, uint256 endTokenId)",
  "event BoosterDropTransfer(address indexed from, address indexed to, uint256 tokenId)",
  "event BoosterDropSold(address indexed burner, uint256 tokenId, uint8 rarity, uint256 offerAmount)",
  "event BoosterDropSoldBatch(address indexed burner, uint256[] tokenIds, uint8[] rarities, uint256 finalOfferAmount)",
  "event BoosterDropOpened(address indexed from, uint256[] tokenIds, uint256 batchId)",
  "event RarityAssigned(uint256 batchId, bytes32 randomNumber)",
  "event EntropyAddressUpdated(address newEntropyAddress)",
  "event EntropyProviderUpdated(address newProvider)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)",
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
  "function mint(uint256 amount) payable",
  "function mint(uint256 amount, address recipient, address referrer, address originReferrer) payable",
  "function mintWithToken(uint256 amount)",
  "function open(uint256[] tokenIds) payable",
  "function sellAndClaimOffer(uint256 tokenId)",
  "function sellForEth(uint256 tokenId, address recipient, uint256 minPayoutSize)",
  "function getMintPrice(uint256 amount) view returns (uint256)",
  "function tokensPerMint() view returns (uint256)",
  "function getEntropyFee() view returns (uint256)",
  "function COMMON_OFFER() view returns (uint256)",
  "function RARE_OFFER() view returns (uint256)",
  "function EPIC_OFFER() view returns (uint256)",
  "function LEGENDARY_OFFER() view returns (uint256)",
  "function MYTHIC_OFFER() view returns (uint256)",
  "function boosterTokenAddress() view returns (address)",
  "function entropyAddress() view returns (address)",
  "function entropyProvider() view returns (address)",
  "function getTokenRarity(uint256 tokenId) view returns (uint8 rarity, uint256 randomValue, bytes32 tokenSpecificRandomness)",
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function tokenURI(uint256 tokenId) view returns (string)",
  "function balanceOf(address owner) view returns (uint256)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function approve(address to, uint256 tokenId)",
  "function setApprovalForAll(address operator, bool approved)",
  "function transferFrom(address from, address to, uint256 tokenId)",
  "function safeTransferFrom(address from, address to, uint256 tokenId)",
  "function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)",
  "function initialize((address owner, string nftName, string nftSymbol, address tokenAddress, string baseURI, uint256 tokensPerMint, uint256 commonOffer, uint256 rareOffer, uint256 epicOffer, uint256 legendaryOffer, uint256 mythicOffer, address entropyAddress) config)",
]);

/** A drop's ERC-20 (IBoosterTokenV2): a bonding curve (`marketType` 0), then a pool after graduation (1). */
export const liveBoosterTokenAbi = parseAbi([
  "event OfferMinted(address indexed recipient, uint256 amount)",
  "event LiquiditySetup(address indexed pool, uint256 ethAmount, uint256 tokenAmount)",
  "event PositionFeesCollected(uint256 indexed positionId, uint256 amount0, uint256 amount1)",
  "event TokensPurchased(address indexed buyer, uint256 amount, uint256 ethPaid)",
  "event TokensSold(address indexed seller, address indexed recipient, uint256 amount, uint256 ethReceived)",
  "event TokensSold(address indexed from, uint256 amount)",
  "event UniswapPositionConfigured(address positionManager, address swapRouter, uint256 positionId)",
  "event MarketGraduated(address indexed nftAddress, address indexed tokenAddress, address indexed pool, uint256 ethAmount, uint256 tokenAmount, uint256 positionId)",
  "event BoosterTokenFeesDispersed(uint256 ownerFee, uint256 protocolFee, address owner, address protocolFeeRecipient, uint256 referrerFee, uint256 originReferrerFee, address referrer, address originReferrer)",
  "event BoosterTokenTransfer(address indexed from, address indexed to, uint256 value, uint256 balanceOfFrom, uint256 balanceOfTo, uint256 totalSupply)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "function marketType() view returns (uint8)",
  "function buy(uint256 tokenAmount, address recipient) payable",
  "function buy(uint256 tokenAmount, address recipient, address referrer, address originReferrer) payable",
  "function sell(uint256 tokensToSell, address recipient, uint256 minPayoutSize) returns (uint256)",
  "function sell(uint256 tokensToSell, address recipient, uint256 minPayoutSize, address referrer, address originReferrer) returns (uint256)",
  "function getEthBuyQuote(uint256 ethAmount) view returns (uint256)",
  "function getTokenBuyQuote(uint256 tokenAmount) view returns (uint256)",
  "function getTokenSellQuote(uint256 tokenAmount) view returns (uint256)",
  "function bondingCurve() view returns (address)",
  "function poolAddress() view returns (address)",
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
]);

/** The creation contract: deploys a token and its drop and buys `packAmount` packs for the caller. */
export const liveDropCreatorAbi = parseAbi([
  "event DropCreated(address indexed creator, address indexed dropContract, address indexed tokenContract, string nftName, string nftSymbol, string tokenName, string tokenSymbol)",
  "function createDropWithConfig(string tokenName, string tokenSymbol, string nftName, string nftSymbol, address owner, uint256 packAmount, (string baseURI, uint256 tokensPerMint, uint256 commonOffer, uint256 rareOffer, uint256 epicOffer, uint256 legendaryOffer, uint256 mythicOffer) config) payable returns (address tokenContract, address dropContract)",
]);

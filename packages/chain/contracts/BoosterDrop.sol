// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BoosterToken} from "./BoosterToken.sol";
import {ERC721} from "./ERC721.sol";
import {MerkleProof} from "./MerkleProof.sol";
import {EntropyProvider, IEntropyConsumer} from "./EntropyProvider.sol";
import {Strings} from "./Strings.sol";

/// One game's booster packs, with the live IBoosterDropV2 interface. Lifecycle of a pack: minted (rarity 0)
/// -> opened by its owner, who pays the entropy fee (rarity still 0) -> rarity assigned when the open
/// batch's randomness arrives -> burned when sold for its rarity's offer in the drop's token
/// (`sellAndClaimOffer`) or for that offer's ETH value (`sellForEth`).
///
/// Mint payments buy the drop's token: `mint` spends ETH on `tokensPerMint` tokens per pack at the token's
/// price, `mintWithToken` takes the tokens themselves. The drop keeps them as the reserve that pays offers.
///
/// Extensions beside the live interface: an optional Merkle allowlist (`mintAllowlisted`), per-game rarity
/// odds, pause and resume (`setActive`), and ERC-721 / ERC-7572 metadata URIs under `baseURI`.
contract BoosterDrop is ERC721, IEntropyConsumer {
    uint8 public constant RARITY_UNASSIGNED = 0;
    uint8 public constant RARITY_COMMON = 1;
    uint8 public constant RARITY_RARE = 2;
    uint8 public constant RARITY_EPIC = 3;
    uint8 public constant RARITY_LEGENDARY = 4;
    uint8 public constant RARITY_MYTHIC = 5;

    /// The live `initialize` argument.
    struct Config {
        address owner;
        string nftName;
        string nftSymbol;
        address tokenAddress;
        string baseURI;
        uint256 tokensPerMint;
        uint256 commonOffer;
        uint256 rareOffer;
        uint256 epicOffer;
        uint256 legendaryOffer;
        uint256 mythicOffer;
        address entropyAddress;
    }

    /// One `open` call: its packs share the randomness of one entropy request.
    struct Batch {
        address opener;
        uint64 sequenceNumber;
        bool fulfilled;
        bytes32 randomNumber;
    }

    uint256 public immutable gameId;
    address public immutable factory;
    /// Pack ids start here; any uint256 but 0.
    uint256 public immutable firstTokenId;
    /// Exclusive upper bounds of the basis-point roll for Common, Rare, Epic and Legendary (Mythic: the rest).
    uint256 private immutable _commonBound;
    uint256 private immutable _rareBound;
    uint256 private immutable _epicBound;
    uint256 private immutable _legendaryBound;

    address public owner;
    address public boosterTokenAddress;
    address public entropyAddress;
    address public entropyProvider;
    string public baseURI;
    uint256 public tokensPerMint;
    /// Offer in token base units by rarity code; index 0 (unassigned) is always 0.
    uint256[6] private _offers;
    bytes32 public merkleRoot;
    /// Minting is open while true; the owner pauses and resumes it.
    bool public active;
    uint256 public nextTokenId;
    uint256 public packsBurned;
    uint256 public batchCount;
    /// The open batch of each opened pack; 0 while unopened.
    mapping(uint256 => uint256) public batchOf;
    mapping(uint256 => Batch) public batches;
    mapping(uint64 => uint256) public batchOfSequence;

    event RandomnessRequested(address indexed requester, uint256 batchId, uint64 sequenceNumber);
    event RandomnessFulfilled(uint64 sequenceNumber, bytes32 randomNumber);
    event BoosterDropsMinted(address indexed minter, uint256 amount, uint256 startTokenId, uint256 endTokenId);
    event BoosterDropTransfer(address indexed from, address indexed to, uint256 tokenId);
    event BoosterDropSold(address indexed burner, uint256 tokenId, uint8 rarity, uint256 offerAmount);
    event BoosterDropSoldBatch(address indexed burner, uint256[] tokenIds, uint8[] rarities, uint256 finalOfferAmount);
    event BoosterDropOpened(address indexed from, uint256[] tokenIds, uint256 batchId);
    event RarityAssigned(uint256 batchId, bytes32 randomNumber);
    event EntropyAddressUpdated(address newEntropyAddress);
    event EntropyProviderUpdated(address newProvider);
    event MerkleRootUpdated(bytes32 merkleRoot);
    event ActiveChanged(bool active);

    /// `oddsBps` must sum to 10000 (the factory checks it); `firstTokenId_` 0 means 1.
    constructor(uint256 gameId_, bytes32 merkleRoot_, uint16[5] memory oddsBps_, uint256 firstTokenId_) {
        gameId = gameId_;
        factory = msg.sender;
        merkleRoot = merkleRoot_;
        uint256 first = firstTokenId_ == 0 ? 1 : firstTokenId_;
        firstTokenId = first;
        nextTokenId = first;
        uint256 common = oddsBps_[0];
        uint256 rare = common + oddsBps_[1];
        uint256 epic = rare + oddsBps_[2];
        _commonBound = common;
        _rareBound = rare;
        _epicBound = epic;
        _legendaryBound = epic + oddsBps_[3];
    }

    /// Called once, by the factory that deployed the drop, in the same transaction.
    function initialize(Config calldata config) external {
        require(msg.sender == factory, "Drop: not factory");
        require(boosterTokenAddress == address(0), "Drop: initialized");
        require(config.tokenAddress != address(0), "Drop: no token");
        owner = config.owner;
        name = config.nftName;
        symbol = config.nftSymbol;
        boosterTokenAddress = config.tokenAddress;
        baseURI = config.baseURI;
        tokensPerMint = config.tokensPerMint;
        _offers = [
            0,
            config.commonOffer,
            config.rareOffer,
            config.epicOffer,
            config.legendaryOffer,
            config.mythicOffer
        ];
        entropyAddress = config.entropyAddress;
        entropyProvider = EntropyProvider(config.entropyAddress).getDefaultProvider();
        active = true;
        emit EntropyAddressUpdated(config.entropyAddress);
        emit EntropyProviderUpdated(entropyProvider);
        if (merkleRoot != bytes32(0)) emit MerkleRootUpdated(merkleRoot);
    }

    // --- live views ---

    function COMMON_OFFER() external view returns (uint256) {
        return _offers[RARITY_COMMON];
    }

    function RARE_OFFER() external view returns (uint256) {
        return _offers[RARITY_RARE];
    }

    function EPIC_OFFER() external view returns (uint256) {
        return _offers[RARITY_EPIC];
    }

    function LEGENDARY_OFFER() external view returns (uint256) {
        return _offers[RARITY_LEGENDARY];
    }

    function MYTHIC_OFFER() external view returns (uint256) {
        return _offers[RARITY_MYTHIC];
    }

    /// The ETH `mint(amount)` costs: the token's price of `tokensPerMint * amount` tokens right now.
    function getMintPrice(uint256 amount) public view returns (uint256) {
        return BoosterToken(boosterTokenAddress).getTokenBuyQuote(tokensPerMint * amount);
    }

    function getEntropyFee() public view returns (uint256) {
        return EntropyProvider(entropyAddress).getFee(entropyProvider);
    }

    /// 0 for all three until the pack's open batch has its randomness.
    function getTokenRarity(uint256 tokenId)
        public
        view
        returns (uint8 rarity, uint256 randomValue, bytes32 tokenSpecificRandomness)
    {
        Batch storage batch = batches[batchOf[tokenId]];
        if (!batch.fulfilled) return (RARITY_UNASSIGNED, 0, bytes32(0));
        return deriveRarity(batch.randomNumber, tokenId);
    }

    /// tokenSpecificRandomness = keccak256(abi.encode(batchRandomNumber, tokenId)); randomValue is it mod
    /// 10000, a roll in basis points compared with the game's cumulative odds (Common first): the first tier
    /// whose cumulative bound exceeds the roll. A tier with 0 bps is never drawn.
    function deriveRarity(bytes32 randomNumber, uint256 tokenId)
        public
        view
        returns (uint8 rarity, uint256 randomValue, bytes32 tokenSpecificRandomness)
    {
        tokenSpecificRandomness = keccak256(abi.encode(randomNumber, tokenId));
        randomValue = uint256(tokenSpecificRandomness) % 10000;
        if (randomValue < _commonBound) rarity = RARITY_COMMON;
        else if (randomValue < _rareBound) rarity = RARITY_RARE;
        else if (randomValue < _epicBound) rarity = RARITY_EPIC;
        else if (randomValue < _legendaryBound) rarity = RARITY_LEGENDARY;
        else rarity = RARITY_MYTHIC;
    }

    // --- extension views ---

    /// The drop's owner, under the name the server's reads use.
    function creator() external view returns (address) {
        return owner;
    }

    function totalSupply() external view returns (uint256) {
        return nextTokenId - firstTokenId - packsBurned;
    }

    /// Offer in token base units by rarity code (0 for unassigned).
    function offerOf(uint8 rarity) external view returns (uint256) {
        return _offers[rarity];
    }

    /// Rarity odds in basis points for Common, Rare, Epic, Legendary, Mythic.
    function oddsBps() external view returns (uint16[5] memory odds) {
        odds[0] = uint16(_commonBound);
        odds[1] = uint16(_rareBound - _commonBound);
        odds[2] = uint16(_epicBound - _rareBound);
        odds[3] = uint16(_legendaryBound - _epicBound);
        odds[4] = uint16(10000 - _legendaryBound);
    }

    /// ERC-721 metadata: `<baseURI><tokenId in decimal>`.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        ownerOf(tokenId);
        return string.concat(baseURI, Strings.toDecimal(tokenId));
    }

    /// ERC-7572 contract-level metadata: `baseURI` without its trailing slash (`<api>/metadata/<slug>`).
    function contractURI() external view returns (string memory) {
        bytes memory uri = bytes(baseURI);
        if (uri.length == 0 || uri[uri.length - 1] != "/") return baseURI;
        bytes memory trimmed = new bytes(uri.length - 1);
        for (uint256 i = 0; i < trimmed.length; i++) {
            trimmed[i] = uri[i];
        }
        return string(trimmed);
    }

    // --- owner extensions ---

    function setActive(bool active_) external {
        require(msg.sender == owner, "Drop: not owner");
        active = active_;
        emit ActiveChanged(active_);
    }

    function setMerkleRoot(bytes32 merkleRoot_) external {
        require(msg.sender == owner, "Drop: not owner");
        merkleRoot = merkleRoot_;
        emit MerkleRootUpdated(merkleRoot_);
    }

    // --- minting ---

    function mint(uint256 amount) external payable {
        _requireOpenMint();
        _mintWithEth(amount, msg.sender);
    }

    /// The dev chain takes no fees, so the referrers earn nothing; packs go to `recipient`.
    function mint(uint256 amount, address recipient, address, address) external payable {
        _requireOpenMint();
        _mintWithEth(amount, recipient);
    }

    function mintWithToken(uint256 amount) external {
        _requireOpenMint();
        uint256 cost = tokensPerMint * amount;
        require(BoosterToken(boosterTokenAddress).transferFrom(msg.sender, address(this), cost), "Drop: payment");
        _mintPacks(msg.sender, amount);
    }

    /// The allowlist's mint: `proof` shows that the caller is a leaf of `merkleRoot` (a StandardMerkleTree
    /// over ["address"]); ignored while the drop has no allowlist.
    function mintAllowlisted(uint256 amount, bytes32[] calldata proof) external payable {
        require(active, "Drop: not active");
        bytes32 root = merkleRoot;
        if (root != bytes32(0)) {
            require(MerkleProof.verify(proof, root, MerkleProof.addressLeaf(msg.sender)), "Drop: not allowlisted");
        }
        _mintWithEth(amount, msg.sender);
    }

    /// The live mints carry no proof, so an allowlisted drop takes them only from its factory (the creator's
    /// packs bought at creation).
    function _requireOpenMint() private view {
        require(active, "Drop: not active");
        require(merkleRoot == bytes32(0) || msg.sender == factory, "Drop: allowlist only");
    }

    /// Buys the packs' tokens at `getMintPrice` into the drop's reserve; ETH above the price is refunded.
    function _mintWithEth(uint256 amount, address recipient) private {
        uint256 price = getMintPrice(amount);
        require(msg.value >= price, "Drop: wrong payment");
        BoosterToken(boosterTokenAddress).buy{value: price}(tokensPerMint * amount, address(this));
        _mintPacks(recipient, amount);
        if (msg.value > price) {
            (bool ok,) = msg.sender.call{value: msg.value - price}("");
            require(ok, "Drop: refund failed");
        }
    }

    function _mintPacks(address recipient, uint256 amount) private {
        require(amount > 0, "Drop: bad amount");
        uint256 start = nextTokenId;
        uint256 end = start + amount - 1;
        nextTokenId = end + 1;
        for (uint256 tokenId = start; tokenId <= end; tokenId++) {
            _mint(recipient, tokenId);
        }
        emit BoosterDropsMinted(recipient, amount, start, end);
    }

    // --- opening and randomness ---

    /// Opens the caller's packs as one batch and requests its randomness, paying `getEntropyFee()` (ETH
    /// above it is refunded). Rarities stay 0 until the entropy callback.
    function open(uint256[] calldata tokenIds) external payable {
        require(tokenIds.length > 0, "Drop: nothing to open");
        uint256 fee = getEntropyFee();
        require(msg.value >= fee, "Drop: entropy fee");
        uint256 batchId = ++batchCount;
        for (uint256 i = 0; i < tokenIds.length; i++) {
            uint256 tokenId = tokenIds[i];
            require(ownerOf(tokenId) == msg.sender, "Drop: not owner");
            require(batchOf[tokenId] == 0, "Drop: already opened");
            batchOf[tokenId] = batchId;
        }
        uint64 sequenceNumber = EntropyProvider(entropyAddress).requestWithCallback{value: fee}(
            entropyProvider, keccak256(abi.encode(address(this), batchId))
        );
        batches[batchId] = Batch({opener: msg.sender, sequenceNumber: sequenceNumber, fulfilled: false, randomNumber: 0});
        batchOfSequence[sequenceNumber] = batchId;
        emit BoosterDropOpened(msg.sender, tokenIds, batchId);
        emit RandomnessRequested(msg.sender, batchId, sequenceNumber);
        if (msg.value > fee) {
            (bool ok,) = msg.sender.call{value: msg.value - fee}("");
            require(ok, "Drop: refund failed");
        }
    }

    function _entropyCallback(uint64 sequenceNumber, address, bytes32 randomNumber) external {
        require(msg.sender == entropyAddress, "Drop: not entropy");
        uint256 batchId = batchOfSequence[sequenceNumber];
        require(batchId != 0, "Drop: unknown request");
        Batch storage batch = batches[batchId];
        require(!batch.fulfilled, "Drop: batch fulfilled");
        batch.fulfilled = true;
        batch.randomNumber = randomNumber;
        emit RandomnessFulfilled(sequenceNumber, randomNumber);
        emit RarityAssigned(batchId, randomNumber);
    }

    // --- selling ---

    /// Burns the caller's opened card and mints its rarity's offer to the caller in the drop's token.
    function sellAndClaimOffer(uint256 tokenId) external {
        (uint8 rarity, uint256 offer) = _burnForOffer(tokenId);
        BoosterToken(boosterTokenAddress).mintOffer(msg.sender, offer);
        emit BoosterDropSold(msg.sender, tokenId, rarity, offer);
    }

    /// Burns the caller's opened card and sells its offer's tokens, paying `recipient` at least
    /// `minPayoutSize` wei.
    function sellForEth(uint256 tokenId, address recipient, uint256 minPayoutSize) external {
        (uint8 rarity, uint256 offer) = _burnForOffer(tokenId);
        BoosterToken(boosterTokenAddress).sell(offer, recipient, minPayoutSize);
        emit BoosterDropSold(msg.sender, tokenId, rarity, offer);
    }

    function _burnForOffer(uint256 tokenId) private returns (uint8 rarity, uint256 offer) {
        require(ownerOf(tokenId) == msg.sender, "Drop: not owner");
        require(batchOf[tokenId] != 0, "Drop: not opened");
        (rarity,,) = getTokenRarity(tokenId);
        require(rarity != RARITY_UNASSIGNED, "Drop: rarity pending");
        offer = _offers[rarity];
        require(BoosterToken(boosterTokenAddress).balanceOf(address(this)) >= offer, "Drop: reserve too low");
        _burn(tokenId);
        packsBurned++;
    }

    function _afterTokenTransfer(address from, address to, uint256 tokenId) internal override {
        emit BoosterDropTransfer(from, to, tokenId);
    }
}

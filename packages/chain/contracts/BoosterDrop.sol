// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {DropFactory} from "./DropFactory.sol";
import {ERC721} from "./ERC721.sol";
import {MerkleProof} from "./MerkleProof.sol";
import {EntropyProvider, IEntropyConsumer} from "./EntropyProvider.sol";
import {Strings} from "./Strings.sol";

/// One game's booster packs. Lifecycle of a pack: minted (rarity 0) -> rarity assigned when the batch's
/// randomness arrives -> opened by its owner -> burned when sold back for its rarity's offer.
/// Metadata lives offchain: `tokenURI` and `contractURI` point under the factory's `metadataBaseURI`.
contract BoosterDrop is ERC721, IEntropyConsumer {
    uint8 public constant RARITY_UNASSIGNED = 0;
    uint8 public constant RARITY_COMMON = 1;
    uint8 public constant RARITY_RARE = 2;
    uint8 public constant RARITY_EPIC = 3;
    uint8 public constant RARITY_LEGENDARY = 4;
    uint8 public constant RARITY_MYTHIC = 5;
    /// Bounds the gas of the randomness callback, which assigns every pack of a batch.
    uint256 public constant MAX_MINT = 20;

    struct Pack {
        uint64 batchId;
        uint8 rarity;
        bool opened;
        uint256 tokenSeed;
    }

    struct Batch {
        address minter;
        /// Pack ids start at the game's `firstTokenId`, which may be any uint256.
        uint256 startTokenId;
        uint32 amount;
        bool fulfilled;
        uint256 requestId;
        uint256 randomNumber;
    }

    uint256 public immutable gameId;
    address public immutable factory;
    address public immutable creator;
    address public immutable token;
    EntropyProvider public immutable entropy;
    uint256 public immutable pricePerPack;
    uint256 public immutable firstTokenId;
    /// Exclusive upper bounds of the basis-point roll for Common, Rare, Epic and Legendary (Mythic: the rest).
    uint256 private immutable _commonBound;
    uint256 private immutable _rareBound;
    uint256 private immutable _epicBound;
    uint256 private immutable _legendaryBound;
    bytes32 public merkleRoot;
    /// Minting is open while true; the creator pauses and resumes it.
    bool public active = true;
    uint256 public nextTokenId;
    uint256 public batchCount;
    uint256 public packsBurned;
    /// Sell-back offer in wei by rarity code; index 0 (unassigned) is always 0.
    uint256[6] public offers;
    mapping(uint256 => Pack) public packs;
    mapping(uint256 => Batch) public batches;
    mapping(uint256 => uint256) public batchOfRequest;

    event Minted(
        address indexed minter,
        uint256 amount,
        uint256 startTokenId,
        uint256 endTokenId,
        uint256 indexed batchId,
        uint256 pricePerPack
    );
    event RandomnessRequested(uint256 indexed batchId, uint256 indexed requestId);
    event RandomnessFulfilled(uint256 indexed batchId, uint256 randomNumber);
    event RarityAssigned(
        uint256 indexed tokenId, uint256 indexed batchId, uint8 rarity, uint256 tokenSeed, uint256 randomValue
    );
    event Opened(address indexed owner, uint256[] tokenIds, uint256 indexed batchId);
    event SoldBack(address indexed owner, uint256 indexed tokenId, uint8 rarity, uint256 offer);
    event MerkleRootUpdated(bytes32 merkleRoot);
    event ActiveChanged(bool active);

    /// `params.oddsBps` must sum to 10000 (the factory checks it).
    constructor(
        uint256 gameId_,
        address creator_,
        address token_,
        EntropyProvider entropy_,
        DropFactory.GameParams memory params
    ) ERC721(params.nftName, params.nftSymbol) {
        gameId = gameId_;
        factory = msg.sender;
        creator = creator_;
        token = token_;
        entropy = entropy_;
        pricePerPack = params.pricePerPack;
        merkleRoot = params.merkleRoot;
        uint256 first = params.firstTokenId == 0 ? 1 : params.firstTokenId;
        firstTokenId = first;
        nextTokenId = first;
        for (uint256 i = 0; i < 5; i++) {
            offers[i + 1] = params.offers[i];
        }
        uint16[5] memory odds = params.oddsBps;
        uint256 common = odds[0];
        uint256 rare = common + odds[1];
        uint256 epic = rare + odds[2];
        _commonBound = common;
        _rareBound = rare;
        _epicBound = epic;
        _legendaryBound = epic + odds[3];
    }

    /// Accepts ETH so a creator can top up the reserve that pays sell-back offers.
    receive() external payable {}

    function totalSupply() external view returns (uint256) {
        return nextTokenId - firstTokenId - packsBurned;
    }

    /// Rarity odds in basis points for Common, Rare, Epic, Legendary, Mythic.
    function oddsBps() external view returns (uint16[5] memory odds) {
        odds[0] = uint16(_commonBound);
        odds[1] = uint16(_rareBound - _commonBound);
        odds[2] = uint16(_epicBound - _rareBound);
        odds[3] = uint16(_legendaryBound - _epicBound);
        odds[4] = uint16(10000 - _legendaryBound);
    }

    /// ERC-721 metadata: `<factory's metadataBaseURI><this drop, lowercase hex>/<tokenId in decimal>`.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        ownerOf(tokenId);
        return string.concat(contractURI(), "/", Strings.toDecimal(tokenId));
    }

    /// ERC-7572 contract-level metadata: `<factory's metadataBaseURI><this drop, lowercase hex>`.
    function contractURI() public view returns (string memory) {
        return string.concat(DropFactory(factory).metadataBaseURI(), Strings.toLowerHex(address(this)));
    }

    function setActive(bool active_) external {
        require(msg.sender == creator, "Drop: not creator");
        active = active_;
        emit ActiveChanged(active_);
    }

    function setMerkleRoot(bytes32 merkleRoot_) external {
        require(msg.sender == creator, "Drop: not creator");
        merkleRoot = merkleRoot_;
        emit MerkleRootUpdated(merkleRoot_);
    }

    /// `proof` is ignored unless the game is allowlist-gated (non-zero merkleRoot).
    function mint(uint256 amount, bytes32[] calldata proof) external payable returns (uint256 batchId) {
        require(active, "Drop: not active");
        require(amount > 0 && amount <= MAX_MINT, "Drop: bad amount");
        require(msg.value == pricePerPack * amount, "Drop: wrong payment");
        bytes32 root = merkleRoot;
        if (root != bytes32(0)) {
            require(MerkleProof.verify(proof, root, MerkleProof.addressLeaf(msg.sender)), "Drop: not allowlisted");
        }
        batchId = ++batchCount;
        uint256 start = nextTokenId;
        uint256 end = start + amount - 1;
        nextTokenId = end + 1;
        for (uint256 tokenId = start; tokenId <= end; tokenId++) {
            packs[tokenId].batchId = uint64(batchId);
            _mint(msg.sender, tokenId);
        }
        emit Minted(msg.sender, amount, start, end, batchId, pricePerPack);
        uint256 requestId = entropy.request();
        batches[batchId] = Batch({
            minter: msg.sender,
            startTokenId: start,
            amount: uint32(amount),
            fulfilled: false,
            requestId: requestId,
            randomNumber: 0
        });
        batchOfRequest[requestId] = batchId;
        emit RandomnessRequested(batchId, requestId);
    }

    function entropyCallback(uint256 requestId, uint256 randomNumber) external {
        require(msg.sender == address(entropy), "Drop: not entropy");
        uint256 batchId = batchOfRequest[requestId];
        require(batchId != 0, "Drop: unknown request");
        Batch storage batch = batches[batchId];
        require(!batch.fulfilled, "Drop: batch fulfilled");
        batch.fulfilled = true;
        batch.randomNumber = randomNumber;
        emit RandomnessFulfilled(batchId, randomNumber);
        uint256 end = batch.startTokenId + batch.amount;
        for (uint256 tokenId = batch.startTokenId; tokenId < end; tokenId++) {
            (uint256 tokenSeed, uint256 randomValue, uint8 rarity) = deriveRarity(randomNumber, tokenId);
            Pack storage pack = packs[tokenId];
            pack.rarity = rarity;
            pack.tokenSeed = tokenSeed;
            emit RarityAssigned(tokenId, batchId, rarity, tokenSeed, randomValue);
        }
    }

    /// tokenSeed = keccak256(abi.encode(batchRandomNumber, tokenId)); randomValue = tokenSeed % 10000 is a
    /// roll in basis points, compared with the game's cumulative odds (Common first): the first tier whose
    /// cumulative bound exceeds the roll. A tier with 0 bps is never drawn.
    function deriveRarity(uint256 randomNumber, uint256 tokenId)
        public
        view
        returns (uint256 tokenSeed, uint256 randomValue, uint8 rarity)
    {
        tokenSeed = uint256(keccak256(abi.encode(randomNumber, tokenId)));
        randomValue = tokenSeed % 10000;
        if (randomValue < _commonBound) rarity = RARITY_COMMON;
        else if (randomValue < _rareBound) rarity = RARITY_RARE;
        else if (randomValue < _epicBound) rarity = RARITY_EPIC;
        else if (randomValue < _legendaryBound) rarity = RARITY_LEGENDARY;
        else rarity = RARITY_MYTHIC;
    }

    /// All packs of one call must come from one mint batch, so the event names a single batch.
    function open(uint256[] calldata tokenIds) external {
        require(tokenIds.length > 0, "Drop: nothing to open");
        uint64 batchId = packs[tokenIds[0]].batchId;
        for (uint256 i = 0; i < tokenIds.length; i++) {
            uint256 tokenId = tokenIds[i];
            require(ownerOf(tokenId) == msg.sender, "Drop: not owner");
            Pack storage pack = packs[tokenId];
            require(pack.batchId == batchId, "Drop: mixed batches");
            require(pack.rarity != RARITY_UNASSIGNED, "Drop: rarity pending");
            require(!pack.opened, "Drop: already opened");
            pack.opened = true;
        }
        emit Opened(msg.sender, tokenIds, batchId);
    }

    function sellBack(uint256 tokenId) external returns (uint256 offer) {
        require(ownerOf(tokenId) == msg.sender, "Drop: not owner");
        Pack storage pack = packs[tokenId];
        require(pack.opened, "Drop: not opened");
        uint8 rarity = pack.rarity;
        offer = offers[rarity];
        require(address(this).balance >= offer, "Drop: reserve too low");
        _burn(tokenId);
        packsBurned++;
        emit SoldBack(msg.sender, tokenId, rarity, offer);
        (bool ok,) = msg.sender.call{value: offer}("");
        require(ok, "Drop: payout failed");
    }
}

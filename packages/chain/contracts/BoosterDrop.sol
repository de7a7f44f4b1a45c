// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "./ERC721.sol";
import {MerkleProof} from "./MerkleProof.sol";
import {EntropyProvider, IEntropyConsumer} from "./EntropyProvider.sol";

/// One game's booster packs. Lifecycle of a pack: minted (rarity 0) -> rarity assigned when the batch's
/// randomness arrives -> opened by its owner -> burned when sold back for its rarity's offer.
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
        uint64 startTokenId;
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
    bytes32 public merkleRoot;
    uint256 public nextTokenId = 1;
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

    constructor(
        uint256 gameId_,
        string memory name_,
        string memory symbol_,
        address creator_,
        address token_,
        EntropyProvider entropy_,
        uint256 pricePerPack_,
        bytes32 merkleRoot_,
        uint256[5] memory offers_
    ) ERC721(name_, symbol_) {
        gameId = gameId_;
        factory = msg.sender;
        creator = creator_;
        token = token_;
        entropy = entropy_;
        pricePerPack = pricePerPack_;
        merkleRoot = merkleRoot_;
        for (uint256 i = 0; i < 5; i++) {
            offers[i + 1] = offers_[i];
        }
    }

    /// Accepts ETH so a creator can top up the reserve that pays sell-back offers.
    receive() external payable {}

    function totalSupply() external view returns (uint256) {
        return nextTokenId - 1 - packsBurned;
    }

    function setMerkleRoot(bytes32 merkleRoot_) external {
        require(msg.sender == creator, "Drop: not creator");
        merkleRoot = merkleRoot_;
        emit MerkleRootUpdated(merkleRoot_);
    }

    /// `proof` is ignored unless the game is allowlist-gated (non-zero merkleRoot).
    function mint(uint256 amount, bytes32[] calldata proof) external payable returns (uint256 batchId) {
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
            startTokenId: uint64(start),
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
        uint256 end = uint256(batch.startTokenId) + batch.amount;
        for (uint256 tokenId = batch.startTokenId; tokenId < end; tokenId++) {
            (uint256 tokenSeed, uint256 randomValue, uint8 rarity) = deriveRarity(randomNumber, tokenId);
            Pack storage pack = packs[tokenId];
            pack.rarity = rarity;
            pack.tokenSeed = tokenSeed;
            emit RarityAssigned(tokenId, batchId, rarity, tokenSeed, randomValue);
        }
    }

    /// tokenSeed = keccak256(abi.encode(batchRandomNumber, tokenId)); randomValue = tokenSeed % 10000 is a
    /// roll in basis points; the cumulative odds are Common 60%, Rare 25%, Epic 10%, Legendary 4%, Mythic 1%.
    function deriveRarity(uint256 randomNumber, uint256 tokenId)
        public
        pure
        returns (uint256 tokenSeed, uint256 randomValue, uint8 rarity)
    {
        tokenSeed = uint256(keccak256(abi.encode(randomNumber, tokenId)));
        randomValue = tokenSeed % 10000;
        if (randomValue < 6000) rarity = RARITY_COMMON;
        else if (randomValue < 8500) rarity = RARITY_RARE;
        else if (randomValue < 9500) rarity = RARITY_EPIC;
        else if (randomValue < 9900) rarity = RARITY_LEGENDARY;
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

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BoosterDrop} from "./BoosterDrop.sol";
import {BoosterToken, BoosterTokenDeployer} from "./BoosterToken.sol";
import {EntropyProvider} from "./EntropyProvider.sol";

/// Classic generation: deploys, per game, a booster drop (ERC-721 packs) and its bonding-curve token, with
/// the live creation contract's `createDropWithConfig`. Games are numbered from 1 so that 0 can mean "no game".
contract DropFactory {
    /// The live creation call's `config`: metadata prefix, pack price in tokens and offers in tokens.
    struct DropConfig {
        string baseURI;
        uint256 tokensPerMint;
        uint256 commonOffer;
        uint256 rareOffer;
        uint256 epicOffer;
        uint256 legendaryOffer;
        uint256 mythicOffer;
    }

    /// What our drops add to the live ones; `createDropWithConfig` takes `defaultExtensions()`.
    struct Extensions {
        /// 0 means no allowlist.
        bytes32 merkleRoot;
        /// Rarity odds in basis points for Common, Rare, Epic, Legendary, Mythic; they sum to 10000.
        uint16[5] oddsBps;
        /// The drop's first pack id; 0 means 1.
        uint256 firstTokenId;
        uint256 virtualEth;
        uint256 virtualTokens;
        /// ETH reserve at which the token graduates; 0 never graduates.
        uint256 graduationEth;
    }

    struct Names {
        string tokenName;
        string tokenSymbol;
        string nftName;
        string nftSymbol;
    }

    struct Game {
        address drop;
        address token;
        address creator;
    }

    EntropyProvider public immutable entropy;
    BoosterTokenDeployer public immutable tokenDeployer;
    /// May change `metadataBaseURI`; the deployer.
    address public immutable owner;
    /// The API's metadata prefix (`<api base>/metadata/`): a drop's `baseURI` is this and `<slug>/`.
    string public metadataBaseURI;
    uint256 public gameCount;
    mapping(uint256 => Game) public games;

    event DropCreated(
        address indexed creator,
        address indexed dropContract,
        address indexed tokenContract,
        string nftName,
        string nftSymbol,
        string tokenName,
        string tokenSymbol
    );
    /// Everything a projection needs beyond `DropCreated`, in the same transaction.
    event DropConfigured(
        uint256 indexed gameId,
        address indexed dropContract,
        address indexed tokenContract,
        address owner,
        DropConfig config,
        Extensions extensions
    );
    event MetadataBaseURIUpdated(string metadataBaseURI);

    constructor(EntropyProvider entropy_, BoosterTokenDeployer tokenDeployer_, string memory metadataBaseURI_) {
        entropy = entropy_;
        tokenDeployer = tokenDeployer_;
        owner = msg.sender;
        metadataBaseURI = metadataBaseURI_;
        emit MetadataBaseURIUpdated(metadataBaseURI_);
    }

    function setMetadataBaseURI(string calldata metadataBaseURI_) external {
        require(msg.sender == owner, "Factory: not owner");
        metadataBaseURI = metadataBaseURI_;
        emit MetadataBaseURIUpdated(metadataBaseURI_);
    }

    /// No allowlist, odds 60/25/10/4/1 %, packs from 1, a curve of 1 ETH and 10^9 tokens (virtual)
    /// graduating at 10 ETH.
    function defaultExtensions() public pure returns (Extensions memory) {
        return Extensions({
            merkleRoot: bytes32(0),
            oddsBps: [uint16(6000), 2500, 1000, 400, 100],
            firstTokenId: 0,
            virtualEth: 1 ether,
            virtualTokens: 1e9 ether,
            graduationEth: 10 ether
        });
    }

    /// The live creation call. `packAmount` packs are bought for the caller in the same transaction at the
    /// drop's `getMintPrice`; ETH above it is refunded.
    function createDropWithConfig(
        string memory tokenName,
        string memory tokenSymbol,
        string memory nftName,
        string memory nftSymbol,
        address dropOwner,
        uint256 packAmount,
        DropConfig memory config
    ) external payable returns (address tokenContract, address dropContract) {
        return _create(Names(tokenName, tokenSymbol, nftName, nftSymbol), dropOwner, packAmount, config, defaultExtensions());
    }

    /// `createDropWithConfig` with our extensions chosen by the caller.
    function createDropWithExtensions(
        string memory tokenName,
        string memory tokenSymbol,
        string memory nftName,
        string memory nftSymbol,
        address dropOwner,
        uint256 packAmount,
        DropConfig memory config,
        Extensions memory extensions
    ) external payable returns (address tokenContract, address dropContract) {
        return _create(Names(tokenName, tokenSymbol, nftName, nftSymbol), dropOwner, packAmount, config, extensions);
    }

    /// Split in three steps to stay within the EVM's stack limit.
    function _create(
        Names memory names,
        address dropOwner,
        uint256 packAmount,
        DropConfig memory config,
        Extensions memory extensions
    ) private returns (address tokenContract, address dropContract) {
        uint256 gameId;
        (gameId, tokenContract, dropContract) = _deploy(names, dropOwner, config, extensions);
        emit DropCreated(
            msg.sender, dropContract, tokenContract, names.nftName, names.nftSymbol, names.tokenName, names.tokenSymbol
        );
        emit DropConfigured(gameId, dropContract, tokenContract, dropOwner, config, extensions);
        _buyPacks(BoosterDrop(dropContract), packAmount);
    }

    function _deploy(Names memory names, address dropOwner, DropConfig memory config, Extensions memory extensions)
        private
        returns (uint256 gameId, address tokenContract, address dropContract)
    {
        require(config.tokensPerMint > 0, "Factory: zero price");
        uint256 oddsTotal;
        for (uint256 i = 0; i < 5; i++) {
            oddsTotal += extensions.oddsBps[i];
        }
        require(oddsTotal == 10000, "Factory: odds must sum to 10000");
        gameId = ++gameCount;
        BoosterToken token = BoosterToken(
            tokenDeployer.deploy(
                names.tokenName,
                names.tokenSymbol,
                dropOwner,
                extensions.virtualEth,
                extensions.virtualTokens,
                extensions.graduationEth
            )
        );
        BoosterDrop drop =
            new BoosterDrop(gameId, extensions.merkleRoot, extensions.oddsBps, extensions.firstTokenId);
        token.setDrop(address(drop));
        drop.initialize(
            BoosterDrop.Config({
                owner: dropOwner,
                nftName: names.nftName,
                nftSymbol: names.nftSymbol,
                tokenAddress: address(token),
                baseURI: config.baseURI,
                tokensPerMint: config.tokensPerMint,
                commonOffer: config.commonOffer,
                rareOffer: config.rareOffer,
                epicOffer: config.epicOffer,
                legendaryOffer: config.legendaryOffer,
                mythicOffer: config.mythicOffer,
                entropyAddress: address(entropy)
            })
        );
        tokenContract = address(token);
        dropContract = address(drop);
        games[gameId] = Game({drop: dropContract, token: tokenContract, creator: msg.sender});
    }

    /// Buys `packAmount` packs for the caller with the call's ETH and refunds the rest.
    function _buyPacks(BoosterDrop drop, uint256 packAmount) private {
        uint256 spent;
        if (packAmount > 0) {
            spent = drop.getMintPrice(packAmount);
            require(msg.value >= spent, "Factory: wrong payment");
            drop.mint{value: spent}(packAmount, msg.sender, address(0), address(0));
        }
        if (msg.value > spent) {
            (bool ok,) = msg.sender.call{value: msg.value - spent}("");
            require(ok, "Factory: refund failed");
        }
    }
}

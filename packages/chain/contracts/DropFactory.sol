// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BoosterDrop} from "./BoosterDrop.sol";
import {BoosterToken} from "./BoosterToken.sol";
import {EntropyProvider} from "./EntropyProvider.sol";

/// Classic generation: deploys, per game, a booster drop (ERC-721 packs) and its bonding-curve token.
contract DropFactory {
    struct GameParams {
        string nftName;
        string nftSymbol;
        string tokenName;
        string tokenSymbol;
        uint256 pricePerPack;
        bytes32 merkleRoot;
        /// Sell-back offer in wei for Common, Rare, Epic, Legendary, Mythic.
        uint256[5] offers;
        /// Rarity odds in basis points for Common, Rare, Epic, Legendary, Mythic; they sum to 10000.
        uint16[5] oddsBps;
        uint256 virtualEth;
        uint256 virtualTokens;
        /// ETH reserve at which the token graduates; 0 never graduates.
        uint256 graduationEth;
        /// The drop's first pack id; 0 means 1.
        uint256 firstTokenId;
    }

    struct Game {
        address drop;
        address token;
        address creator;
    }

    EntropyProvider public immutable entropy;
    /// May change `metadataBaseURI`; the deployer.
    address public immutable owner;
    /// Prefix of every drop's `tokenURI` and `contractURI` (the metadata routes of the API serving the drops).
    string public metadataBaseURI;
    /// Game ids start at 1 so that 0 can mean "no game".
    uint256 public gameCount;
    mapping(uint256 => Game) public games;

    event GameCreated(
        uint256 indexed gameId, address indexed drop, address indexed token, address creator, GameParams params
    );
    event MetadataBaseURIUpdated(string metadataBaseURI);

    constructor(EntropyProvider entropy_, string memory metadataBaseURI_) {
        entropy = entropy_;
        owner = msg.sender;
        metadataBaseURI = metadataBaseURI_;
        emit MetadataBaseURIUpdated(metadataBaseURI_);
    }

    function setMetadataBaseURI(string calldata metadataBaseURI_) external {
        require(msg.sender == owner, "Factory: not owner");
        metadataBaseURI = metadataBaseURI_;
        emit MetadataBaseURIUpdated(metadataBaseURI_);
    }

    function createGame(GameParams calldata p) external returns (uint256 gameId, address drop, address token) {
        require(p.pricePerPack > 0, "Factory: zero price");
        uint256 oddsTotal;
        for (uint256 i = 0; i < 5; i++) {
            oddsTotal += p.oddsBps[i];
        }
        require(oddsTotal == 10000, "Factory: odds must sum to 10000");
        gameId = ++gameCount;
        token = address(
            new BoosterToken(p.tokenName, p.tokenSymbol, msg.sender, p.virtualEth, p.virtualTokens, p.graduationEth)
        );
        drop = address(new BoosterDrop(gameId, msg.sender, token, entropy, p));
        games[gameId] = Game({drop: drop, token: token, creator: msg.sender});
        emit GameCreated(gameId, drop, token, msg.sender, p);
    }
}

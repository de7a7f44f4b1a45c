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
        uint256 virtualEth;
        uint256 virtualTokens;
        /// ETH reserve at which the token graduates; 0 never graduates.
        uint256 graduationEth;
    }

    struct Game {
        address drop;
        address token;
        address creator;
    }

    EntropyProvider public immutable entropy;
    /// Game ids start at 1 so that 0 can mean "no game".
    uint256 public gameCount;
    mapping(uint256 => Game) public games;

    event GameCreated(
        uint256 indexed gameId,
        address indexed drop,
        address indexed token,
        address creator,
        string nftName,
        string nftSymbol,
        string tokenName,
        string tokenSymbol,
        uint256 pricePerPack,
        bytes32 merkleRoot
    );

    constructor(EntropyProvider entropy_) {
        entropy = entropy_;
    }

    function createGame(GameParams calldata p) external returns (uint256 gameId, address drop, address token) {
        require(p.pricePerPack > 0, "Factory: zero price");
        gameId = ++gameCount;
        token = address(
            new BoosterToken(p.tokenName, p.tokenSymbol, msg.sender, p.virtualEth, p.virtualTokens, p.graduationEth)
        );
        drop = address(
            new BoosterDrop(
                gameId, p.nftName, p.nftSymbol, msg.sender, token, entropy, p.pricePerPack, p.merkleRoot, p.offers
            )
        );
        games[gameId] = Game({drop: drop, token: token, creator: msg.sender});
        _emitCreated(gameId, drop, token, p);
    }

    function _emitCreated(uint256 gameId, address drop, address token, GameParams calldata p) private {
        emit GameCreated(
            gameId,
            drop,
            token,
            msg.sender,
            p.nftName,
            p.nftSymbol,
            p.tokenName,
            p.tokenSymbol,
            p.pricePerPack,
            p.merkleRoot
        );
    }
}

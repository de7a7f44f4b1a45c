// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Market} from "./Market.sol";
import {WETH} from "./WETH.sol";

/// Creates binary markets seeded in WETH and holds the operator role that markets consult for pause and
/// resolution, so revoking an operator here takes effect on every market at once.
contract MarketFactory {
    uint256 public constant MAX_FEE_BPS = 1000;

    WETH public immutable weth;
    address public owner;
    uint256 public marketCount;
    mapping(uint256 => address) public markets;
    mapping(address => bool) public isOperator;

    event OperatorUpdated(address indexed account, bool enabled);
    event MarketCreated(
        address indexed market,
        uint256 indexed marketId,
        address indexed creator,
        string question,
        uint256 seed,
        uint256 feeBps
    );

    constructor(WETH weth_) {
        weth = weth_;
        owner = msg.sender;
    }

    function setOperator(address account, bool enabled) external {
        require(msg.sender == owner, "Factory: not owner");
        isOperator[account] = enabled;
        emit OperatorUpdated(account, enabled);
    }

    /// The caller must have approved `seed` WETH to this factory.
    function createMarket(string calldata question, uint256 seed, uint256 feeBps) external returns (address market) {
        require(seed > 0, "Factory: zero seed");
        require(feeBps <= MAX_FEE_BPS, "Factory: fee too high");
        uint256 marketId = ++marketCount;
        market = address(new Market(marketId, weth, msg.sender, question, seed, feeBps));
        markets[marketId] = market;
        require(weth.transferFrom(msg.sender, market, seed), "Factory: seed transfer failed");
        emit MarketCreated(market, marketId, msg.sender, question, seed, feeBps);
    }
}

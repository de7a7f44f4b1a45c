// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {WETH} from "./WETH.sol";

interface IOperatorRegistry {
    function isOperator(address account) external view returns (bool);
}

/// A binary prediction market priced by a fixed-product market maker (the Gnosis FPMM design Polymarket
/// started from), collateralised in WETH.
///
/// Every WETH of backing is one complete set: one YES share plus one NO share, so at resolution each
/// winning share redeems for exactly 1 wei of WETH. The pool holds outcome balances (yes, no); trades
/// keep yes * no from decreasing, and every division rounds in the pool's favour:
///   buy:  fee = floor(wethIn * feeBps / 10000), inv = wethIn - fee,
///         sharesOut = b + inv - ceil(b * o / (o + inv))
///   sell: gross = ceil(wethOut * 10000 / (10000 - feeBps)), fee = gross - wethOut,
///         sharesIn = ceil(s * o / (o - gross)) + gross - s
/// where b / s is the pool balance of the traded side and o that of the other side.
contract Market {
    uint8 public constant YES = 0;
    uint8 public constant NO = 1;
    uint256 public constant BPS = 10000;

    address public immutable factory;
    WETH public immutable weth;
    address public immutable creator;
    uint256 public immutable marketId;
    uint256 public immutable seed;
    uint256 public immutable feeBps;
    string public question;
    uint256[2] public poolBalances;
    /// WETH backing the outstanding complete sets (equals each side's total share supply).
    uint256 public backing;
    uint256 public feesAccrued;
    bool public paused;
    bool public resolved;
    uint8 public outcome;
    bool public liquidityCollected;
    mapping(address => uint256[2]) private _shares;

    event Buy(address indexed buyer, uint8 indexed side, uint256 wethIn, uint256 fee, uint256 sharesOut);
    event Sell(address indexed seller, uint8 indexed side, uint256 wethOut, uint256 fee, uint256 sharesIn);
    event Paused(address indexed operator);
    event Unpaused(address indexed operator);
    event Resolved(uint8 outcome, address indexed operator);
    event Redeemed(address indexed owner, uint256 shares, uint256 payout);
    event LiquidityCollected(address indexed creator, uint256 shares, uint256 fees);

    /// The factory transfers `seed_` WETH in right after construction, in the same transaction.
    constructor(
        uint256 marketId_,
        WETH weth_,
        address creator_,
        string memory question_,
        uint256 seed_,
        uint256 feeBps_
    ) {
        factory = msg.sender;
        marketId = marketId_;
        weth = weth_;
        creator = creator_;
        question = question_;
        seed = seed_;
        feeBps = feeBps_;
        poolBalances[YES] = seed_;
        poolBalances[NO] = seed_;
        backing = seed_;
    }

    modifier onlyOperator() {
        require(IOperatorRegistry(factory).isOperator(msg.sender), "Market: not operator");
        _;
    }

    function sharesOf(address owner) external view returns (uint256 yes, uint256 no) {
        uint256[2] storage s = _shares[owner];
        return (s[YES], s[NO]);
    }

    /// Marginal probability of `side` in basis points: the other side's share of the pool.
    function probabilityBps(uint8 side) external view returns (uint256) {
        require(side <= NO, "Market: bad side");
        uint256 total = poolBalances[YES] + poolBalances[NO];
        return (poolBalances[1 - side] * BPS) / total;
    }

    function calcBuyAmount(uint8 side, uint256 wethIn) public view returns (uint256) {
        require(side <= NO, "Market: bad side");
        uint256 inv = wethIn - (wethIn * feeBps) / BPS;
        uint256 b = poolBalances[side];
        uint256 o = poolBalances[1 - side];
        return b + inv - _ceilDiv(b * o, o + inv);
    }

    function calcSellAmount(uint8 side, uint256 wethOut) public view returns (uint256) {
        require(side <= NO, "Market: bad side");
        uint256 gross = _ceilDiv(wethOut * BPS, BPS - feeBps);
        uint256 s = poolBalances[side];
        uint256 o = poolBalances[1 - side];
        require(gross < o, "Market: exceeds liquidity");
        return _ceilDiv(s * o, o - gross) + gross - s;
    }

    function buy(uint8 side, uint256 wethIn, uint256 minSharesOut) external returns (uint256 sharesOut) {
        _requireTrading();
        require(wethIn > 0, "Market: zero amount");
        uint256 fee = (wethIn * feeBps) / BPS;
        uint256 inv = wethIn - fee;
        sharesOut = calcBuyAmount(side, wethIn);
        require(sharesOut > 0 && sharesOut >= minSharesOut, "Market: slippage");
        require(weth.transferFrom(msg.sender, address(this), wethIn), "Market: transfer failed");
        poolBalances[side] = poolBalances[side] + inv - sharesOut;
        poolBalances[1 - side] += inv;
        backing += inv;
        feesAccrued += fee;
        _shares[msg.sender][side] += sharesOut;
        emit Buy(msg.sender, side, wethIn, fee, sharesOut);
    }

    function sell(uint8 side, uint256 wethOut, uint256 maxSharesIn) external returns (uint256 sharesIn) {
        _requireTrading();
        require(wethOut > 0, "Market: zero amount");
        uint256 gross = _ceilDiv(wethOut * BPS, BPS - feeBps);
        sharesIn = calcSellAmount(side, wethOut);
        require(sharesIn <= maxSharesIn, "Market: slippage");
        uint256 held = _shares[msg.sender][side];
        require(held >= sharesIn, "Market: shares");
        _shares[msg.sender][side] = held - sharesIn;
        poolBalances[side] = poolBalances[side] + sharesIn - gross;
        poolBalances[1 - side] -= gross;
        backing -= gross;
        feesAccrued += gross - wethOut;
        require(weth.transfer(msg.sender, wethOut), "Market: transfer failed");
        emit Sell(msg.sender, side, wethOut, gross - wethOut, sharesIn);
    }

    function pause() external onlyOperator {
        require(!paused, "Market: paused");
        paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external onlyOperator {
        require(paused, "Market: not paused");
        paused = false;
        emit Unpaused(msg.sender);
    }

    function resolve(uint8 outcome_) external onlyOperator {
        require(!resolved, "Market: resolved");
        require(outcome_ <= NO, "Market: bad outcome");
        resolved = true;
        outcome = outcome_;
        emit Resolved(outcome_, msg.sender);
    }

    /// Pays 1 WETH wei per winning share; losing shares stay behind, worthless.
    function redeem() external returns (uint256 payout) {
        require(resolved, "Market: not resolved");
        payout = _shares[msg.sender][outcome];
        require(payout > 0, "Market: nothing to redeem");
        _shares[msg.sender][outcome] = 0;
        backing -= payout;
        require(weth.transfer(msg.sender, payout), "Market: transfer failed");
        emit Redeemed(msg.sender, payout, payout);
    }

    /// The creator seeded the pool, so after resolution they take its winning shares plus the trading fees.
    function collectLiquidity() external returns (uint256 payout) {
        require(resolved, "Market: not resolved");
        require(msg.sender == creator, "Market: not creator");
        require(!liquidityCollected, "Market: collected");
        liquidityCollected = true;
        uint256 poolShares = poolBalances[outcome];
        uint256 fees = feesAccrued;
        poolBalances[YES] = 0;
        poolBalances[NO] = 0;
        feesAccrued = 0;
        backing -= poolShares;
        payout = poolShares + fees;
        require(weth.transfer(msg.sender, payout), "Market: transfer failed");
        emit LiquidityCollected(msg.sender, poolShares, fees);
    }

    function _requireTrading() private view {
        require(!resolved, "Market: resolved");
        require(!paused, "Market: paused");
    }

    function _ceilDiv(uint256 a, uint256 b) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }
}

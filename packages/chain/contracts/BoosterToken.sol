// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";

/// Holds the liquidity of a graduated token; stands in for the DEX pair a real launch would seed.
contract GraduationPool {
    address public immutable token;

    constructor(address token_) payable {
        token = token_;
    }
}

/// A game's ERC-20, sold on a virtual constant-product bonding curve until its ETH reserve reaches the
/// graduation threshold, when the reserve and matching tokens move to a pool and the curve closes.
///
/// Curve state: x = virtualEth + ethReserve, y = virtualTokens - tokensSold.
///   buy:  tokensOut = floor(y * ethIn / (x + ethIn))
///   sell: ethOut    = floor(x * tokensIn / (y + tokensIn))
/// Both round toward the curve, so x * y never decreases and ethOut never exceeds ethReserve.
contract BoosterToken is ERC20 {
    address public immutable factory;
    address public immutable creator;
    uint256 public immutable virtualEth;
    uint256 public immutable virtualTokens;
    uint256 public immutable graduationEth;
    uint256 public ethReserve;
    uint256 public tokensSold;
    bool public graduated;
    address public pool;

    event Purchase(address indexed buyer, uint256 ethIn, uint256 tokensOut, uint256 ethReserve, uint256 tokensSold);
    event Sale(address indexed seller, uint256 tokensIn, uint256 ethOut, uint256 ethReserve, uint256 tokensSold);
    event Graduated(address indexed pool, uint256 ethLiquidity, uint256 tokenLiquidity);

    constructor(
        string memory name_,
        string memory symbol_,
        address creator_,
        uint256 virtualEth_,
        uint256 virtualTokens_,
        uint256 graduationEth_
    ) ERC20(name_, symbol_) {
        require(virtualEth_ > 0 && virtualTokens_ > 0, "Token: empty curve");
        factory = msg.sender;
        creator = creator_;
        virtualEth = virtualEth_;
        virtualTokens = virtualTokens_;
        graduationEth = graduationEth_;
    }

    function quoteBuy(uint256 ethIn) public view returns (uint256) {
        uint256 x = virtualEth + ethReserve;
        uint256 y = virtualTokens - tokensSold;
        return (y * ethIn) / (x + ethIn);
    }

    function quoteSell(uint256 tokensIn) public view returns (uint256) {
        uint256 x = virtualEth + ethReserve;
        uint256 y = virtualTokens - tokensSold;
        return (x * tokensIn) / (y + tokensIn);
    }

    function buy(uint256 minTokensOut) external payable returns (uint256 tokensOut) {
        require(!graduated, "Token: graduated");
        require(msg.value > 0, "Token: no ETH");
        tokensOut = quoteBuy(msg.value);
        require(tokensOut > 0 && tokensOut >= minTokensOut, "Token: slippage");
        ethReserve += msg.value;
        tokensSold += tokensOut;
        _mint(msg.sender, tokensOut);
        emit Purchase(msg.sender, msg.value, tokensOut, ethReserve, tokensSold);
        if (graduationEth != 0 && ethReserve >= graduationEth) {
            _graduate();
        }
    }

    function sell(uint256 tokensIn, uint256 minEthOut) external returns (uint256 ethOut) {
        require(!graduated, "Token: graduated");
        require(tokensIn > 0, "Token: no tokens");
        ethOut = quoteSell(tokensIn);
        require(ethOut >= minEthOut, "Token: slippage");
        _burn(msg.sender, tokensIn);
        ethReserve -= ethOut;
        tokensSold -= tokensIn;
        emit Sale(msg.sender, tokensIn, ethOut, ethReserve, tokensSold);
        (bool ok,) = msg.sender.call{value: ethOut}("");
        require(ok, "Token: payout failed");
    }

    /// Seeds the pool at the curve's closing spot price (x / y ETH per token).
    function _graduate() private {
        uint256 ethLiquidity = ethReserve;
        uint256 tokenLiquidity = (ethLiquidity * (virtualTokens - tokensSold)) / (virtualEth + ethLiquidity);
        graduated = true;
        ethReserve = 0;
        GraduationPool created = new GraduationPool{value: ethLiquidity}(address(this));
        pool = address(created);
        _mint(address(created), tokenLiquidity);
        emit Graduated(address(created), ethLiquidity, tokenLiquidity);
    }
}

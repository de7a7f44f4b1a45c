// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";

/// Stands in for the Uniswap v3 pool a graduated token trades in on Base: a constant-product pool of the
/// curve's ETH reserve and the tokens minted to match it. Only its token trades through it, so the token's
/// `buy` and `sell` stay the one entry point before and after graduation.
///   buy t tokens:  ethIn  = ceil(E * t / (T - t))
///   sell t tokens: ethOut = floor(E * t / (T + t))
/// Both round toward the pool, so E * T never decreases.
contract GraduationPool {
    address public immutable token;
    uint256 public ethReserve;
    uint256 public tokenReserve;

    /// The token mints `tokenReserve_` to the pool right after creating it.
    constructor(address token_, uint256 tokenReserve_) payable {
        token = token_;
        ethReserve = msg.value;
        tokenReserve = tokenReserve_;
    }

    modifier onlyToken() {
        require(msg.sender == token, "Pool: not token");
        _;
    }

    function quoteBuyTokens(uint256 tokenAmount) public view returns (uint256 ethIn) {
        require(tokenAmount < tokenReserve, "Pool: not enough liquidity");
        uint256 numerator = ethReserve * tokenAmount;
        uint256 denominator = tokenReserve - tokenAmount;
        ethIn = (numerator + denominator - 1) / denominator;
    }

    function quoteBuyWithEth(uint256 ethIn) public view returns (uint256 tokensOut) {
        return (tokenReserve * ethIn) / (ethReserve + ethIn);
    }

    function quoteSellTokens(uint256 tokenAmount) public view returns (uint256 ethOut) {
        return (ethReserve * tokenAmount) / (tokenReserve + tokenAmount);
    }

    /// Sends `tokenAmount` to `recipient` for exactly its quote in ETH.
    function buy(uint256 tokenAmount, address recipient) external payable onlyToken {
        require(msg.value == quoteBuyTokens(tokenAmount), "Pool: wrong payment");
        ethReserve += msg.value;
        tokenReserve -= tokenAmount;
        require(ERC20(token).transfer(recipient, tokenAmount), "Pool: transfer failed");
    }

    /// The token has already moved `tokenAmount` into the pool; pays its quote in ETH to `recipient`.
    function sell(uint256 tokenAmount, address recipient) external onlyToken returns (uint256 ethOut) {
        ethOut = quoteSellTokens(tokenAmount);
        tokenReserve += tokenAmount;
        ethReserve -= ethOut;
        (bool ok,) = recipient.call{value: ethOut}("");
        require(ok, "Pool: payout failed");
    }
}

/// A drop's ERC-20 with the live IBoosterTokenV2 interface. It is sold on a virtual constant-product bonding
/// curve (`marketType` 0) until its ETH reserve reaches the graduation threshold; then the reserve and
/// matching tokens seed a pool (`marketType` 1) and every later trade goes through the pool.
///
/// Curve state: x = virtualEth + ethReserve, y = virtualTokens - tokensSold.
///   buy t tokens:     ethIn     = ceil(x * t / (y - t))        (getTokenBuyQuote)
///   spend ethIn:      tokensOut = floor(y * ethIn / (x + ethIn)) (getEthBuyQuote)
///   sell t tokens:    ethOut    = floor(x * t / (y + t))         (getTokenSellQuote)
/// All round toward the curve, so x * y never decreases and ethOut never exceeds ethReserve.
///
/// The dev chain takes no trading fees: the referrer overloads exist so that live clients' calls work,
/// and the referrers earn nothing.
contract BoosterToken is ERC20 {
    enum MarketType {
        BONDING_CURVE,
        UNISWAP_POOL
    }

    address public immutable factory;
    address public immutable owner;
    uint256 public immutable virtualEth;
    uint256 public immutable virtualTokens;
    /// ETH reserve at which the token graduates; 0 never graduates.
    uint256 public immutable graduationEth;
    /// The drop whose packs are paid in this token; set once by the factory.
    address public drop;
    MarketType public marketType;
    uint256 public ethReserve;
    uint256 public tokensSold;
    address public poolAddress;

    event OfferMinted(address indexed recipient, uint256 amount);
    event LiquiditySetup(address indexed pool, uint256 ethAmount, uint256 tokenAmount);
    event PositionFeesCollected(uint256 indexed positionId, uint256 amount0, uint256 amount1);
    event TokensPurchased(address indexed buyer, uint256 amount, uint256 ethPaid);
    event TokensSold(address indexed seller, address indexed recipient, uint256 amount, uint256 ethReceived);
    event TokensSold(address indexed from, uint256 amount);
    event UniswapPositionConfigured(address positionManager, address swapRouter, uint256 positionId);
    event MarketGraduated(
        address indexed nftAddress,
        address indexed tokenAddress,
        address indexed pool,
        uint256 ethAmount,
        uint256 tokenAmount,
        uint256 positionId
    );
    event BoosterTokenFeesDispersed(
        uint256 ownerFee,
        uint256 protocolFee,
        address owner,
        address protocolFeeRecipient,
        uint256 referrerFee,
        uint256 originReferrerFee,
        address referrer,
        address originReferrer
    );
    event BoosterTokenTransfer(
        address indexed from,
        address indexed to,
        uint256 value,
        uint256 balanceOfFrom,
        uint256 balanceOfTo,
        uint256 totalSupply
    );

    /// `factory_` is the drop factory that asked the deployer for this token.
    constructor(
        string memory name_,
        string memory symbol_,
        address factory_,
        address owner_,
        uint256 virtualEth_,
        uint256 virtualTokens_,
        uint256 graduationEth_
    ) ERC20(name_, symbol_) {
        require(virtualEth_ > 0 && virtualTokens_ > 0, "Token: empty curve");
        factory = factory_;
        owner = owner_;
        virtualEth = virtualEth_;
        virtualTokens = virtualTokens_;
        graduationEth = graduationEth_;
    }

    function setDrop(address drop_) external {
        require(msg.sender == factory, "Token: not factory");
        require(drop == address(0), "Token: drop set");
        drop = drop_;
    }

    /// The curve is built into the token, so the token is its own bonding curve.
    function bondingCurve() external view returns (address) {
        return address(this);
    }

    function getTokenBuyQuote(uint256 tokenAmount) public view returns (uint256 ethIn) {
        if (marketType == MarketType.UNISWAP_POOL) return GraduationPool(poolAddress).quoteBuyTokens(tokenAmount);
        uint256 x = virtualEth + ethReserve;
        uint256 y = virtualTokens - tokensSold;
        require(tokenAmount < y, "Token: exceeds curve");
        ethIn = (x * tokenAmount + (y - tokenAmount) - 1) / (y - tokenAmount);
    }

    function getEthBuyQuote(uint256 ethAmount) public view returns (uint256 tokensOut) {
        if (marketType == MarketType.UNISWAP_POOL) return GraduationPool(poolAddress).quoteBuyWithEth(ethAmount);
        uint256 x = virtualEth + ethReserve;
        uint256 y = virtualTokens - tokensSold;
        return (y * ethAmount) / (x + ethAmount);
    }

    function getTokenSellQuote(uint256 tokenAmount) public view returns (uint256 ethOut) {
        if (marketType == MarketType.UNISWAP_POOL) return GraduationPool(poolAddress).quoteSellTokens(tokenAmount);
        uint256 x = virtualEth + ethReserve;
        uint256 y = virtualTokens - tokensSold;
        return (x * tokenAmount) / (y + tokenAmount);
    }

    /// Buys exactly `tokenAmount` for `recipient` at `getTokenBuyQuote`; ETH sent above the quote is refunded.
    function buy(uint256 tokenAmount, address recipient) public payable {
        require(tokenAmount > 0, "Token: no tokens");
        uint256 cost = getTokenBuyQuote(tokenAmount);
        require(msg.value >= cost, "Token: insufficient ETH");
        if (marketType == MarketType.UNISWAP_POOL) {
            GraduationPool(poolAddress).buy{value: cost}(tokenAmount, recipient);
            emit TokensPurchased(recipient, tokenAmount, cost);
        } else {
            ethReserve += cost;
            tokensSold += tokenAmount;
            _mint(recipient, tokenAmount);
            emit TokensPurchased(recipient, tokenAmount, cost);
            if (graduationEth != 0 && ethReserve >= graduationEth) _graduate();
        }
        if (msg.value > cost) {
            (bool ok,) = msg.sender.call{value: msg.value - cost}("");
            require(ok, "Token: refund failed");
        }
    }

    function buy(uint256 tokenAmount, address recipient, address, address) external payable {
        buy(tokenAmount, recipient);
    }

    /// Sells the caller's `tokensToSell` and pays `recipient`, at least `minPayoutSize` wei.
    function sell(uint256 tokensToSell, address recipient, uint256 minPayoutSize) public returns (uint256 ethOut) {
        require(tokensToSell > 0, "Token: no tokens");
        if (marketType == MarketType.UNISWAP_POOL) {
            _transfer(msg.sender, poolAddress, tokensToSell);
            ethOut = GraduationPool(poolAddress).sell(tokensToSell, recipient);
            require(ethOut >= minPayoutSize, "Token: slippage");
            emit TokensSold(msg.sender, recipient, tokensToSell, ethOut);
            return ethOut;
        }
        require(tokensToSell <= tokensSold, "Token: exceeds curve");
        ethOut = getTokenSellQuote(tokensToSell);
        require(ethOut >= minPayoutSize, "Token: slippage");
        _burn(msg.sender, tokensToSell);
        ethReserve -= ethOut;
        tokensSold -= tokensToSell;
        emit TokensSold(msg.sender, recipient, tokensToSell, ethOut);
        (bool ok,) = recipient.call{value: ethOut}("");
        require(ok, "Token: payout failed");
    }

    function sell(uint256 tokensToSell, address recipient, uint256 minPayoutSize, address, address)
        external
        returns (uint256)
    {
        return sell(tokensToSell, recipient, minPayoutSize);
    }

    /// Pays a sold card's offer to `recipient`. Every offer is backed by tokens the drop bought with mint
    /// payments: they are burned from the drop as the offer is minted, so the supply never exceeds what the
    /// curve sold and every token can be sold back.
    function mintOffer(address recipient, uint256 amount) external {
        require(msg.sender == drop, "Token: not drop");
        _burn(drop, amount);
        _mint(recipient, amount);
        emit OfferMinted(recipient, amount);
    }

    function _afterTokenTransfer(address from, address to, uint256 value) internal override {
        emit BoosterTokenTransfer(from, to, value, balanceOf[from], balanceOf[to], totalSupply);
    }

    /// Seeds the pool at the curve's closing spot price (x / y ETH per token). There is no Uniswap position
    /// on the dev chain, so the position id is 0.
    function _graduate() private {
        uint256 ethAmount = ethReserve;
        uint256 tokenAmount = (ethAmount * (virtualTokens - tokensSold)) / (virtualEth + ethAmount);
        marketType = MarketType.UNISWAP_POOL;
        ethReserve = 0;
        GraduationPool pool = new GraduationPool{value: ethAmount}(address(this), tokenAmount);
        poolAddress = address(pool);
        _mint(address(pool), tokenAmount);
        emit LiquiditySetup(address(pool), ethAmount, tokenAmount);
        emit MarketGraduated(drop, address(this), address(pool), ethAmount, tokenAmount, 0);
    }
}

/// Deploys booster tokens for a drop factory, which would exceed the contract size limit if it carried the
/// token's code beside the drop's. The caller becomes the token's factory.
contract BoosterTokenDeployer {
    function deploy(
        string calldata name_,
        string calldata symbol_,
        address owner_,
        uint256 virtualEth_,
        uint256 virtualTokens_,
        uint256 graduationEth_
    ) external returns (address) {
        return address(new BoosterToken(name_, symbol_, msg.sender, owner_, virtualEth_, virtualTokens_, graduationEth_));
    }
}

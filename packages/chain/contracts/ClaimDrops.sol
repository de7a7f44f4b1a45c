// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Current generation: one runtime version's claimable drops. Drop ids are arbitrary non-zero uint256
/// values (up to 78 decimal digits) chosen by the creator, so offchain code must keep them as strings or
/// bigints. Each deployment carries its runtime id and version so an indexer can tell runtimes apart.
contract ClaimDrops {
    struct Drop {
        address creator;
        uint256 price;
        /// 0 means unlimited.
        uint256 maxSupply;
        uint256 claimed;
    }

    string public runtimeId;
    uint256 public immutable runtimeVersion;
    mapping(uint256 => Drop) public drops;
    mapping(uint256 => mapping(address => uint256)) public balanceOf;

    event DropCreated(uint256 indexed dropId, address indexed creator, uint256 price, uint256 maxSupply);
    event Claimed(
        address indexed owner, uint256 indexed dropId, uint256 quantity, uint256 paid, uint256 totalClaimed
    );

    constructor(string memory runtimeId_, uint256 runtimeVersion_) {
        runtimeId = runtimeId_;
        runtimeVersion = runtimeVersion_;
    }

    function createDrop(uint256 dropId, uint256 price, uint256 maxSupply) external {
        require(dropId != 0, "Claims: zero id");
        require(drops[dropId].creator == address(0), "Claims: drop exists");
        drops[dropId] = Drop({creator: msg.sender, price: price, maxSupply: maxSupply, claimed: 0});
        emit DropCreated(dropId, msg.sender, price, maxSupply);
    }

    function claim(uint256 dropId, uint256 quantity) external payable {
        Drop storage drop = drops[dropId];
        require(drop.creator != address(0), "Claims: unknown drop");
        require(quantity > 0, "Claims: zero quantity");
        require(msg.value == drop.price * quantity, "Claims: wrong payment");
        uint256 total = drop.claimed + quantity;
        require(drop.maxSupply == 0 || total <= drop.maxSupply, "Claims: sold out");
        drop.claimed = total;
        balanceOf[dropId][msg.sender] += quantity;
        emit Claimed(msg.sender, dropId, quantity, msg.value, total);
        if (msg.value > 0) {
            (bool ok,) = drop.creator.call{value: msg.value}("");
            require(ok, "Claims: payment failed");
        }
    }

    /// The creator hands out a drop for free: one `Claimed` per recipient (paid 0), in order, each with the
    /// running total, exactly as if every recipient had claimed in turn. Respects `maxSupply`.
    function airdrop(uint256 dropId, address[] calldata owners, uint256[] calldata quantities) external {
        Drop storage drop = drops[dropId];
        require(drop.creator != address(0), "Claims: unknown drop");
        require(msg.sender == drop.creator, "Claims: not the creator");
        require(owners.length == quantities.length, "Claims: length mismatch");
        uint256 total = drop.claimed;
        for (uint256 i = 0; i < owners.length; i++) {
            address owner = owners[i];
            uint256 quantity = quantities[i];
            require(owner != address(0), "Claims: zero owner");
            require(quantity > 0, "Claims: zero quantity");
            total += quantity;
            balanceOf[dropId][owner] += quantity;
            emit Claimed(owner, dropId, quantity, 0, total);
        }
        require(drop.maxSupply == 0 || total <= drop.maxSupply, "Claims: sold out");
        drop.claimed = total;
    }
}

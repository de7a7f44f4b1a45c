// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A minimal smart-contract wallet controlled by one EOA, for testing wallet sign-in against ERC-1271
/// (deployed) and ERC-6492 (counterfactual, through SmartWalletFactory) signatures.
///
/// The owner's signature is checked over `hash` as given, with no wallet-specific domain, so a
/// signature by the owner is valid for every wallet that owner controls. Fine for a reference wallet;
/// a production wallet would bind the hash to its own address and chain.
contract SmartWallet {
    bytes4 internal constant ERC1271_MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant ERC1271_INVALID = 0xffffffff;
    /// secp256k1n / 2: signatures with a larger s are the malleable twins of valid ones (EIP-2).
    uint256 internal constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    address public immutable owner;

    constructor(address owner_) {
        require(owner_ != address(0), "Wallet: zero owner");
        owner = owner_;
    }

    receive() external payable {}

    /// Calls `to` with `value` wei and `data` from the wallet; bubbles up the callee's revert.
    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory result) {
        require(msg.sender == owner, "Wallet: not owner");
        bool ok;
        (ok, result) = to.call{value: value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 32), mload(result))
            }
        }
    }

    /// ERC-1271: the magic value when `signature` is the owner's 65-byte (r, s, v) ECDSA signature of
    /// `hash` with low s and v 27 or 28; 0xffffffff for anything else (never reverts on bad input).
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _recover(hash, signature) == owner ? ERC1271_MAGIC_VALUE : ERC1271_INVALID;
    }

    /// The signer, or the zero address (which is never the owner) for a malformed signature.
    function _recover(bytes32 hash, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > MAX_S || (v != 27 && v != 28)) return address(0);
        return ecrecover(hash, v, r, s);
    }
}

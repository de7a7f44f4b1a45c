// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The two number-to-text conversions the drops' metadata URIs need, so the contracts need no external imports.
library Strings {
    bytes16 private constant HEX_DIGITS = "0123456789abcdef";

    /// `value` in decimal digits, without leading zeros ("0" for zero).
    function toDecimal(uint256 value) internal pure returns (string memory) {
        uint256 digits = 1;
        for (uint256 rest = value / 10; rest != 0; rest /= 10) {
            digits++;
        }
        bytes memory out = new bytes(digits);
        for (uint256 i = digits; i > 0; i--) {
            out[i - 1] = bytes1(uint8(48 + (value % 10)));
            value /= 10;
        }
        return string(out);
    }

    /// `account` as "0x" and 40 lowercase hex digits (not the EIP-55 checksum form).
    function toLowerHex(address account) internal pure returns (string memory) {
        bytes memory out = new bytes(42);
        out[0] = "0";
        out[1] = "x";
        uint160 value = uint160(account);
        for (uint256 i = 41; i > 1; i--) {
            out[i] = HEX_DIGITS[value & 0xf];
            value >>= 4;
        }
        return string(out);
    }
}

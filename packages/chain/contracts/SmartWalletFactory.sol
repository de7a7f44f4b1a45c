// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SmartWallet} from "./SmartWallet.sol";

/// Deploys SmartWallets with CREATE2, so a wallet's address is known (and can sign, via ERC-6492) before
/// it exists. The owner is part of the init code, so an address commits to its owner: anyone may deploy
/// any wallet, which is what ERC-6492 verifiers do when they call `deploy` before checking a signature.
contract SmartWalletFactory {
    event WalletDeployed(address indexed wallet, address indexed owner, bytes32 salt);

    /// Deploys the wallet of (`owner`, `salt`), or returns it if it already exists (no event then).
    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = predict(owner, salt);
        if (wallet.code.length > 0) return wallet;
        new SmartWallet{salt: salt}(owner);
        emit WalletDeployed(wallet, owner, salt);
    }

    function predict(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(SmartWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }
}

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Same verification as OpenZeppelin's MerkleProof (sorted-pair keccak256), so trees built offchain with the
/// OpenZeppelin merkle-tree package verify here.
library MerkleProof {
    function verify(bytes32[] calldata proof, bytes32 root, bytes32 leaf) internal pure returns (bool) {
        bytes32 computed = leaf;
        for (uint256 i = 0; i < proof.length; i++) {
            computed = _hashPair(computed, proof[i]);
        }
        return computed == root;
    }

    /// The leaf StandardMerkleTree.of(values, ["address"]) builds: double hashing keeps a leaf from being
    /// mistaken for an inner node (second-preimage resistance).
    function addressLeaf(address account) internal pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(account))));
    }

    function _hashPair(bytes32 a, bytes32 b) private pure returns (bytes32) {
        return a < b ? keccak256(abi.encode(a, b)) : keccak256(abi.encode(b, a));
    }
}

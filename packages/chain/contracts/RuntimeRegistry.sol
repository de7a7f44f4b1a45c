// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Lists the runtime versions of the current generation, oldest first. Clients discover a runtime here
/// (or from the deployment config) instead of inferring the newest one from a name.
contract RuntimeRegistry {
    struct Runtime {
        string id;
        uint256 version;
        address claimDrops;
        uint256 registeredAtBlock;
    }

    address public owner;
    Runtime[] private _runtimes;

    event RuntimeRegistered(uint256 indexed version, string id, address indexed claimDrops);

    constructor() {
        owner = msg.sender;
    }

    function register(string calldata id, uint256 version, address claimDrops) external {
        require(msg.sender == owner, "Registry: not owner");
        uint256 count = _runtimes.length;
        require(count == 0 || version > _runtimes[count - 1].version, "Registry: version not newer");
        _runtimes.push(Runtime({id: id, version: version, claimDrops: claimDrops, registeredAtBlock: block.number}));
        emit RuntimeRegistered(version, id, claimDrops);
    }

    function runtimeCount() external view returns (uint256) {
        return _runtimes.length;
    }

    function runtimeAt(uint256 index) external view returns (Runtime memory) {
        return _runtimes[index];
    }

    function latest() external view returns (Runtime memory) {
        require(_runtimes.length > 0, "Registry: empty");
        return _runtimes[_runtimes.length - 1];
    }
}

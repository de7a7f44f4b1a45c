// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// What a consumer of the randomness oracle implements, named as Pyth Entropy's consumers name it.
interface IEntropyConsumer {
    function _entropyCallback(uint64 sequenceNumber, address provider, bytes32 randomNumber) external;
}

/// Plays Pyth Entropy's part on the dev chains: a consumer pays `getFee(provider)` and requests with
/// `requestWithCallback`, receiving a sequence number; later a fulfiller account answers with a random
/// number, which is delivered to the consumer's `_entropyCallback` in the same transaction.
contract EntropyProvider {
    struct Request {
        address requester;
        address provider;
        bool fulfilled;
        bytes32 randomNumber;
    }

    address public owner;
    address public fulfiller;
    /// The fee every request pays, whatever provider it names (Pyth charges per provider).
    uint128 public fee;
    /// Sequence numbers start at 1, so 0 can mean "no request".
    uint64 public requestCount;
    /// Lowest sequence number that may still be unfulfilled; lets a fulfiller resume without scanning history.
    uint64 public oldestPending = 1;
    mapping(uint64 => Request) public requests;

    event EntropyRequested(uint64 indexed sequenceNumber, address indexed requester, address provider);
    event EntropyFulfilled(uint64 indexed sequenceNumber, address indexed requester, bytes32 randomNumber);
    event FulfillerUpdated(address indexed fulfiller);
    event FeeUpdated(uint128 fee);

    constructor(address fulfiller_, uint128 fee_) {
        owner = msg.sender;
        fulfiller = fulfiller_;
        fee = fee_;
        emit FulfillerUpdated(fulfiller_);
        emit FeeUpdated(fee_);
    }

    function setFulfiller(address fulfiller_) external {
        require(msg.sender == owner, "Entropy: not owner");
        fulfiller = fulfiller_;
        emit FulfillerUpdated(fulfiller_);
    }

    function setFee(uint128 fee_) external {
        require(msg.sender == owner, "Entropy: not owner");
        fee = fee_;
        emit FeeUpdated(fee_);
    }

    function getDefaultProvider() external view returns (address) {
        return fulfiller;
    }

    function getFee(address) external view returns (uint128) {
        return fee;
    }

    /// `userRandomNumber` is accepted for Pyth's signature; the dev fulfiller's answer does not use it.
    function requestWithCallback(address provider, bytes32) external payable returns (uint64 sequenceNumber) {
        require(msg.value >= fee, "Entropy: fee too low");
        sequenceNumber = ++requestCount;
        requests[sequenceNumber].requester = msg.sender;
        requests[sequenceNumber].provider = provider;
        emit EntropyRequested(sequenceNumber, msg.sender, provider);
    }

    function fulfil(uint64 sequenceNumber, bytes32 randomNumber) external {
        require(msg.sender == fulfiller, "Entropy: not fulfiller");
        Request storage r = requests[sequenceNumber];
        require(r.requester != address(0), "Entropy: unknown request");
        require(!r.fulfilled, "Entropy: already fulfilled");
        r.fulfilled = true;
        r.randomNumber = randomNumber;
        if (sequenceNumber == oldestPending) {
            uint64 next = sequenceNumber + 1;
            while (next <= requestCount && requests[next].fulfilled) {
                next++;
            }
            oldestPending = next;
        }
        emit EntropyFulfilled(sequenceNumber, r.requester, randomNumber);
        IEntropyConsumer(r.requester)._entropyCallback(sequenceNumber, r.provider, randomNumber);
    }

    /// The collected fees go to the owner, who runs the fulfiller on the dev chains.
    function withdraw(address payable to) external {
        require(msg.sender == owner, "Entropy: not owner");
        (bool ok,) = to.call{value: address(this).balance}("");
        require(ok, "Entropy: withdraw failed");
    }
}

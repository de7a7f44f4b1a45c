// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IEntropyConsumer {
    function entropyCallback(uint256 requestId, uint256 randomNumber) external;
}

/// Stands in for the randomness oracle: a consumer requests, and later a fulfiller account answers with a
/// random number, which is delivered to the consumer in the same transaction.
contract EntropyProvider {
    struct Request {
        address requester;
        bool fulfilled;
        uint256 randomNumber;
    }

    address public owner;
    address public fulfiller;
    uint256 public requestCount;
    /// Lowest request id that may still be unfulfilled; lets a fulfiller resume without scanning history.
    uint256 public oldestPending = 1;
    mapping(uint256 => Request) public requests;

    event EntropyRequested(uint256 indexed requestId, address indexed requester);
    event EntropyFulfilled(uint256 indexed requestId, address indexed requester, uint256 randomNumber);
    event FulfillerUpdated(address indexed fulfiller);

    constructor(address fulfiller_) {
        owner = msg.sender;
        fulfiller = fulfiller_;
        emit FulfillerUpdated(fulfiller_);
    }

    function setFulfiller(address fulfiller_) external {
        require(msg.sender == owner, "Entropy: not owner");
        fulfiller = fulfiller_;
        emit FulfillerUpdated(fulfiller_);
    }

    function request() external returns (uint256 requestId) {
        requestId = ++requestCount;
        requests[requestId].requester = msg.sender;
        emit EntropyRequested(requestId, msg.sender);
    }

    function fulfil(uint256 requestId, uint256 randomNumber) external {
        require(msg.sender == fulfiller, "Entropy: not fulfiller");
        Request storage r = requests[requestId];
        require(r.requester != address(0), "Entropy: unknown request");
        require(!r.fulfilled, "Entropy: already fulfilled");
        r.fulfilled = true;
        r.randomNumber = randomNumber;
        if (requestId == oldestPending) {
            uint256 next = requestId + 1;
            while (next <= requestCount && requests[next].fulfilled) {
                next++;
            }
            oldestPending = next;
        }
        emit EntropyFulfilled(requestId, r.requester, randomNumber);
        IEntropyConsumer(r.requester).entropyCallback(requestId, randomNumber);
    }
}

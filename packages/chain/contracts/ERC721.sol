// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4);
}

/// Minimal ERC-721 with the metadata extension (name, symbol, and `tokenURI`, which the concrete token
/// defines) so the reference contracts need no external imports. The concrete token sets `name` and
/// `symbol` itself (a drop does it in `initialize`).
abstract contract ERC721 {
    string public name;
    string public symbol;
    mapping(uint256 => address) internal _owners;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    function supportsInterface(bytes4 interfaceId) public pure virtual returns (bool) {
        return interfaceId == 0x01ffc9a7 // ERC-165
            || interfaceId == 0x80ac58cd // ERC-721
            || interfaceId == 0x5b5e139f; // ERC-721 metadata
    }

    /// ERC-721 metadata: the URI of `tokenId`'s JSON; reverts for a token that does not exist.
    function tokenURI(uint256 tokenId) public view virtual returns (string memory);

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = _owners[tokenId];
        require(owner != address(0), "ERC721: nonexistent token");
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        require(msg.sender == owner || isApprovedForAll[owner][msg.sender], "ERC721: not authorized");
        getApproved[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        address owner = ownerOf(tokenId);
        require(owner == from, "ERC721: wrong from");
        require(to != address(0), "ERC721: zero address");
        require(
            msg.sender == owner || isApprovedForAll[owner][msg.sender] || getApproved[tokenId] == msg.sender,
            "ERC721: not authorized"
        );
        delete getApproved[tokenId];
        unchecked {
            balanceOf[from] -= 1;
        }
        balanceOf[to] += 1;
        _owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
        _afterTokenTransfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        if (to.code.length > 0) {
            require(
                IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data)
                    == IERC721Receiver.onERC721Received.selector,
                "ERC721: unsafe recipient"
            );
        }
    }

    /// Mints without the receiver callback: packs are minted to the caller of mint, and a callback there
    /// would let a contract re-enter before the batch is recorded.
    function _mint(address to, uint256 tokenId) internal {
        require(_owners[tokenId] == address(0), "ERC721: already minted");
        _owners[tokenId] = to;
        balanceOf[to] += 1;
        emit Transfer(address(0), to, tokenId);
        _afterTokenTransfer(address(0), to, tokenId);
    }

    function _burn(uint256 tokenId) internal {
        address owner = ownerOf(tokenId);
        delete getApproved[tokenId];
        unchecked {
            balanceOf[owner] -= 1;
        }
        delete _owners[tokenId];
        emit Transfer(owner, address(0), tokenId);
        _afterTokenTransfer(owner, address(0), tokenId);
    }

    /// Runs after every ownership change (transfer, mint, burn), once the `Transfer` event is emitted.
    function _afterTokenTransfer(address from, address to, uint256 tokenId) internal virtual {}
}

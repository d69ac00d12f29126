// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IMockRouterToken {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @title MockAggregatorRouter
/// @notice Test-only stand-in for an external aggregator's router: pulls `amountIn` from the
/// caller (who approved it) and pays `amountOut` from its own inventory to `to`.
contract MockAggregatorRouter {
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut, address to) external {
        require(IMockRouterToken(tokenIn).transferFrom(msg.sender, address(this), amountIn), "pull");
        require(IMockRouterToken(tokenOut).transfer(to, amountOut), "pay");
    }

    /// @notice An exact buy as 0x settles one: pulls the whole ceiling `maxIn` from the caller, pays
    /// exactly `amountOut` to `to`, and pays the caller back what it did not `spend`.
    function exactBuy(address tokenIn, address tokenOut, uint256 maxIn, uint256 spend, uint256 amountOut, address to) external {
        require(IMockRouterToken(tokenIn).transferFrom(msg.sender, address(this), maxIn), "pull");
        require(IMockRouterToken(tokenOut).transfer(to, amountOut), "pay");
        require(IMockRouterToken(tokenIn).transfer(msg.sender, maxIn - spend), "refund");
    }

    /// @notice Tries to pull more than the caller approved: must fail.
    function greedy(address tokenIn, uint256 amountIn) external {
        require(IMockRouterToken(tokenIn).transferFrom(msg.sender, address(this), amountIn + 1), "pull");
    }
}

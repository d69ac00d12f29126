// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IProbeToken {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

/// @title TokenTransferProbe
/// @notice Measures what one ERC-20 transfer really moves. Meant to run inside eth_call with its
/// runtime code placed (state override `code`) at an address that holds the token; nothing is
/// ever sent on chain. Works with tokens that return nothing from transfer.
contract TokenTransferProbe {
    error TransferFailed(bytes reason);

    /// @notice `amount` to `to` and back again, in one call: `to` must run this probe's code too.
    /// For nodes without eth_simulateV1, where one eth_call is all there is. The way out reverts
    /// the call when it fails; the way back reports its failure in `backOk`.
    function roundTrip(address token, address to, uint256 amount)
        external
        returns (int256 sentOut, int256 receivedOut, bool backOk, int256 sentBack, int256 receivedBack)
    {
        (sentOut, receivedOut) = probe(token, to, amount);
        try TokenTransferProbe(to).probe(token, address(this), amount) returns (int256 sent, int256 received) {
            (backOk, sentBack, receivedBack) = (true, sent, received);
        } catch {}
    }

    /// @return sent how much the probe's balance dropped (negative if it rose)
    /// @return received how much `to`'s balance rose (negative if it dropped)
    function probe(address token, address to, uint256 amount) public returns (int256 sent, int256 received) {
        IProbeToken t = IProbeToken(token);
        uint256 selfBefore = t.balanceOf(address(this));
        uint256 toBefore = t.balanceOf(to);
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IProbeToken.transfer, (to, amount)));
        if (!ok || (ret.length >= 32 && !abi.decode(ret, (bool)))) revert TransferFailed(ret);
        sent = int256(selfBefore) - int256(t.balanceOf(address(this)));
        received = int256(t.balanceOf(to)) - int256(toBefore);
    }
}

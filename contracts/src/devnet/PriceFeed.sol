// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title PriceFeed
/// @notice A Chainlink-style price feed (AggregatorV3Interface) whose deployer sets the answer.
/// Round ids start at 1 (the constructor's answer) and grow by one per setAnswer; each round
/// records startedAt = updatedAt = the block timestamp and answeredInRound = its own id.
contract PriceFeed {
    struct Round {
        int256 answer;
        uint64 updatedAt;
    }

    uint8 public immutable decimals;
    address public immutable owner;
    string public description;
    uint80 public latestRound;
    mapping(uint80 roundId => Round) internal _rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    error Unauthorized(address caller);
    error NoDataPresent(uint80 roundId);

    constructor(uint8 decimals_, string memory description_, int256 answer_) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _openRound(answer_);
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    /// @notice Opens a new round with `answer` (deployer only).
    function setAnswer(int256 answer) external {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _openRound(answer);
    }

    function latestAnswer() external view returns (int256) {
        return _rounds[latestRound].answer;
    }

    function latestTimestamp() external view returns (uint256) {
        return _rounds[latestRound].updatedAt;
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId)
        public
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory round = _rounds[roundId];
        if (round.updatedAt == 0) revert NoDataPresent(roundId);
        return (roundId, round.answer, round.updatedAt, round.updatedAt, roundId);
    }

    function _openRound(int256 answer) private {
        uint80 roundId = latestRound + 1;
        latestRound = roundId;
        _rounds[roundId] = Round({answer: answer, updatedAt: uint64(block.timestamp)});
        emit NewRound(roundId, msg.sender, block.timestamp);
        emit AnswerUpdated(answer, roundId, block.timestamp);
    }
}

"""The Laws' pure parts: what the articles decide, given the facts (no game state, no I/O).

* :mod:`.clock` — time controls and the clock with its history (Art. 6, D.2.6);
* :mod:`.ruling` — the D.2.9 ruling from two boards and two scores;
* :mod:`.rulesets` — standard, rapid and blitz play with and without adequate supervision
  (Appendices A, B; Guidelines III);
* :mod:`.adjournment` — the sealed move and its envelope (Guidelines I);
* :mod:`.chess960` — Chess960 start positions and castling (Guidelines II).

Other packages import this face, never its modules."""

from __future__ import annotations

from .adjournment import (
    Envelope,
    Resumption,
    SealCheck,
    board_from_fen,
    check_sealed_move,
    commitment,
    envelope_from_events,
    game_already_over,
)
from .chess960 import NORMAL_START, castling_plan, check_number, describe, random_number, start_board
from .clock import Clock, ClockError, ClockSnapshot, Period, TimeControl, format_time, parse_duration
from .rulesets import (
    QuickplayCase,
    RuleSet,
    both_flags_fallen,
    classify,
    decide_quickplay,
    flag_fall,
    for_time_control,
    illegal_move,
    king_queen_swapped,
    quickplay_claim,
)
from .ruling import ClockAt, ClockSetting, Proposal, diff_squares, move_ref, parse_board, placement_key, rule

__all__ = [
    "board_from_fen", "both_flags_fallen", "castling_plan", "check_number", "check_sealed_move", "classify", "Clock",
    "ClockAt", "ClockError", "ClockSetting", "ClockSnapshot", "commitment", "decide_quickplay", "describe",
    "diff_squares", "Envelope", "envelope_from_events", "flag_fall", "for_time_control", "format_time",
    "game_already_over", "illegal_move", "king_queen_swapped", "move_ref", "NORMAL_START", "parse_board", "parse_duration", "Period",
    "placement_key", "Proposal", "quickplay_claim", "QuickplayCase", "random_number", "Resumption", "rule", "RuleSet",
    "SealCheck", "start_board", "TimeControl",
]

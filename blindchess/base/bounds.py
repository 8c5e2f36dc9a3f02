"""The limits on everything a user can hand the program, in one place.

Every reader of a user's file or argument — scores and PGN (notation, export,
reconcile), clock logs, journals, scenario scripts, the envelope's fields —
takes its limits from here, so one game is either accepted by all of them or
refused by all of them, and nothing a file says can exhaust memory, recurse
without end or overflow a number. Each limit lies far above anything a real
game, a real tournament or a real score needs; what lies beyond is refused in
one line (exit 2 on the command line).

Pure: the standard library only.
"""

from __future__ import annotations

import json
import math
from typing import Any, TypeGuard

__all__ = ["MAX_PLIES", "MAX_FULLMOVE", "MAX_HALFMOVE_CLOCK", "MAX_SECONDS", "MAX_PERIODS", "MAX_JSON_DEPTH",
           "MAX_LINE_BYTES", "MAX_JOURNAL_BYTES", "MAX_HEADER_CHARS", "MAX_SCRIPT_LINES", "MAX_SCRIPT_LINE_CHARS", "MAX_SETTLE", "MAX_WIDTH", "MAX_PAGE_LENGTH",
           "TooDeep", "json_depth", "loads", "seconds", "within", "counters_ok"]

#: Half-moves in one game. No game can be longer: from 75 moves without a capture or a pawn move on, the
#: game is drawn (FIDE Laws 9.6.2), which ends every game by its 17,697th half-move.
MAX_PLIES = 18_000
#: The highest move number a position (FEN) may carry: the move after :data:`MAX_PLIES` half-moves.
MAX_FULLMOVE = MAX_PLIES // 2 + 1
#: The highest half-move clock a position may carry: at 150 the game has ended (FIDE Laws 9.6.2).
MAX_HALFMOVE_CLOCK = 150
#: Any time in seconds: a period of a time control, an increment, a clock reading, time used, a moment
#: of a script (more than eleven days: every session of an adjourned game fits).
MAX_SECONDS = 1_000_000.0
#: Periods of one time control (FIDE time controls have two or three).
MAX_PERIODS = 10
#: Nesting of a JSON value (a journal line nests four deep, a clock log two).
MAX_JSON_DEPTH = 16
#: One line of a journal, a clock log or a script (the longest journal line, a game's moves, is ~150 kB).
#: A reader holds at most one such line at a time: a longer one is let go as it is read, never kept.
MAX_LINE_BYTES = 1_000_000
#: One journal (a game of 500 moves with every touch is a few MB). A journal is read as a stream: what a
#: reader keeps is the game's lines, one record for each run of damaged lines, and the line being read.
MAX_JOURNAL_BYTES = 256 * 1024 * 1024
#: A name or a header value: player, event, site, round, date, venue — as long as a PGN string may be
#: (PGN standard, 7: at most 255 characters).
MAX_HEADER_CHARS = 255
#: Lines of one scenario script (a long game with every peg lifted and placed is a few thousand).
MAX_SCRIPT_LINES = 100_000
#: Characters of one line of a scenario script (the longest is a header value or a spoken phrase).
MAX_SCRIPT_LINE_CHARS = 1_000
#: The peg-board's settle time in seconds (it waits this long before judging a move).
MAX_SETTLE = 10.0
#: Cells of a braille line (embossers take 40, the widest about 100).
MAX_WIDTH = 200
#: Lines of a braille page.
MAX_PAGE_LENGTH = 200


class TooDeep(ValueError):
    """A JSON value nested deeper than :data:`MAX_JSON_DEPTH`."""


def json_depth(value: Any) -> int:
    """How deep ``value`` nests lists and objects (a number or text: 0, ``[]``: 1). Iterative: any depth."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def loads(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that refuses a value nested deeper than ``max_depth``.

    Raises :class:`TooDeep` (a ValueError) for a deeper value — also one so deep that the
    decoder gives up (it recurses) — and ``json.JSONDecodeError`` (a ValueError) for text
    that is no JSON. NaN and infinities are read as Python reads them; callers that need
    finite numbers check with :func:`seconds` or ``math.isfinite``."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep(f"nested deeper than {max_depth}") from None
    if json_depth(value) > max_depth:
        raise TooDeep(f"nested deeper than {max_depth}")
    return value


def seconds(value: float) -> float:
    """``value`` when it is a time in seconds within bounds (finite, 0 … :data:`MAX_SECONDS`).

    Raises ValueError otherwise (NaN, infinities, negative, 1e308)."""
    if not math.isfinite(value) or not 0 <= value <= MAX_SECONDS:
        raise ValueError(f"not a time in seconds from 0 to {MAX_SECONDS:g}: {value!r}")
    return value


def within(value: object, low: int, high: int) -> TypeGuard[int]:
    """Whether the whole number ``value`` lies in ``low … high`` (a bool is no number here)."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def counters_ok(halfmove_clock: int, fullmove_number: int) -> bool:
    """Whether a position's half-move clock and move number (FEN's last two fields) can occur in a game:
    at most :data:`MAX_HALFMOVE_CLOCK` and :data:`MAX_FULLMOVE`."""
    return within(halfmove_clock, 0, MAX_HALFMOVE_CLOCK) and within(fullmove_number, 1, MAX_FULLMOVE)

"""Game records for every reader (pure): PGN with both scores, clocks, touches and rulings
(:mod:`.pgn`, half-move by half-move :mod:`.book`), braille scores (:mod:`.braille`), a start position in words (:mod:`.start_position`).
Written to files by :mod:`blindchess.adapters` (audio, PDF, PGN export).

Other packages import this face, never its modules."""

from __future__ import annotations

from .book import GameRecord, PlyRecord, RecordBook, record_headers
from .braille import brf_to_unicode, game_to_brf
from .pgn import read_pgn, session_to_game
from .start_position import start_text

__all__ = [
    "brf_to_unicode", "game_to_brf", "GameRecord", "PlyRecord", "read_pgn", "RecordBook", "record_headers",
    "session_to_game", "start_text",
]

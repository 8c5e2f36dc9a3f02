"""PGN in the standard export format, readable by python-chess and common chess GUIs.

The session's ``to_pgn_game()`` already puts both game scores' deviations,
``[%clk]`` (clock after the move), ``[%emt]`` (time used for the move), touches
(D.2.2) and rulings (D.2.9) into the move comments; this module only makes sure
the export is standard: the seven-tag roster first (Event, Site, Date, Round,
White, Black, Result), ``Variant "Chess960"`` with ``SetUp``/``FEN`` for a
Chess960 game, lines of at most 80 characters, a blank line after the tags and
after the movetext (PGN standard, section 8).
"""

from __future__ import annotations

import chess
import chess.pgn

#: The seven-tag roster in its required order, with the "unknown" values of the standard.
SEVEN_TAGS = (("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
              ("White", "?"), ("Black", "?"), ("Result", "*"))
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def normalized(game: chess.pgn.Game) -> chess.pgn.Game:
    """The game with complete, standard tags (a shallow fix of its headers, moves untouched)."""
    headers = game.headers
    for tag, unknown in SEVEN_TAGS:
        if not str(headers.get(tag, "")).strip():
            headers[tag] = unknown
    if headers["Result"] not in RESULTS:
        headers["Result"] = "*"
    board = game.board()
    if board.chess960:
        headers["Variant"] = "Chess960"
    if board.fen() != chess.STARTING_FEN:
        headers["SetUp"] = "1"
        headers["FEN"] = board.fen()
    return game


def to_pgn(game: chess.pgn.Game) -> str:
    """The game as PGN text (export format, 80 columns, comments kept, ending in a blank line)."""
    exporter = chess.pgn.StringExporter(columns=80, headers=True, comments=True, variations=True)
    return normalized(game).accept(exporter).rstrip("\n") + "\n\n"

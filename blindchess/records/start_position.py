"""Where the pieces stood when a game did not begin from the usual start position, for the printed records.

A PGN keeps such a start as its ``FEN`` tag; a braille reader and a scoresheet
need it said: :func:`start_text` lists the pieces of each side in the chosen
language's letters (FIDE Laws, Appendix C), king first, then queens, rooks,
bishops, knights and pawns, each group in board order (a1, b1 … h8), and says
who is to move — "Ausgangsstellung: Weiß Kg1 Ta1 f2 g2 h2; Schwarz Kg8 b7 f7
g7 h7; Weiß am Zug". A Chess960 start is named by its number instead
(Guidelines II): :func:`chess960_number`.
"""

from __future__ import annotations

import chess

from ..base import NOTATION_LANGS, tr
from ..language import piece_letter

__all__ = ["is_set_up", "chess960_number", "start_text"]

_ORDER = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)


def chess960_number(board: chess.Board) -> int | None:
    """The Chess960 start position number (0–959) of ``board``, None when it is no Chess960 start or the
    usual start (518)."""
    if not board.chess960:
        return None
    number = board.chess960_pos()
    return None if number in (None, 518) else number


def is_set_up(board: chess.Board) -> bool:
    """True when ``board`` (a game's start) is a set-up position: not the usual start, no Chess960 start."""
    return board.fen() != chess.STARTING_FEN and chess960_number(board) is None


def _side(board: chess.Board, color: chess.Color, lang: str) -> str:
    return " ".join(piece_letter(kind, lang) + chess.square_name(square)
                    for kind in _ORDER for square in board.pieces(kind, color))


def start_text(board: chess.Board, lang: str = "de") -> str | None:
    """The set-up start position in words, for a score's header; None for the usual start or a Chess960
    start (see :func:`chess960_number`). Piece letters of ``lang`` (de, en, fr, it, nl, ru); a language
    without its own letters is written with the English ones."""
    if not is_set_up(board):
        return None
    letters = lang if lang in NOTATION_LANGS else "en"
    turn = tr("records.white_to_move" if board.turn == chess.WHITE else "records.black_to_move", lang)
    return tr("records.start_position", lang, white=_side(board, chess.WHITE, letters),
              black=_side(board, chess.BLACK, letters), turn=turn)

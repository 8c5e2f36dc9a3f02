"""What a player asks the table, answered only because he asked (D.2.10 d; pure).

"time" / "moves" (the talking clock: his own time and move count, journaled as
asked), "square", "pieces", "position", "touched" (the sighted player's
touches, D.2.10 e), and the board commands of :mod:`blindchess.board_words`
("last_move" with side and number, "rank" / "file" scans through the square,
"legal_moves" from the square, "captured") — said to the blind
player, shown to the sighted side. "Repeat" says the last announcement again
(the last move or question said).
"""

from __future__ import annotations

import chess

from .. import board_words, phonetic, talking_clock
from ..i18n import tr
from .eboard import touch_report
from .state import TableState

__all__ = ["Requests", "KINDS"]

#: The requests the table answers.
KINDS = ("time", "moves", "square", "pieces", "position", "touched", *board_words.REQUESTS)


class Requests:
    """Answers to requests and "repeat" (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    def answer(self, what: str, by: str, now: float, *, square: int | None = None,
               piece_type: int | None = None, color: chess.Color | None = None) -> None:
        """Answer the request ``what`` (one of :data:`KINDS`) of ``by`` ("blind": said, in his wording;
        otherwise shown). "square" without a square is answered with the position; an unknown ``what``
        is refused (``Refused(what="request")``)."""
        state = self.state
        s = state.session
        lang = state.lang
        board = s.game_board()
        to = "blind" if by == "blind" else "sighted"
        if what in ("time", "moves"):
            s.request_time(now, by=by)       # journaled: it was asked (D.2.10 d)
            if s.time_control is None:
                text = tr("table.time_without_clock", lang, moves=len(s.game_moves))
            else:
                own = s.blind_color if by == "blind" and s.blind_color is not None else state.sighted_color()
                text = talking_clock.phrase_from_clock(s.clock, own, now, lang)
        elif what in board_words.REQUESTS:
            asker = s.blind_color if by == "blind" and s.blind_color is not None else state.sighted_color()
            text = board_words.answer(what, board, lang, wording=state.wording, square=square,
                                      white_view=asker != chess.BLACK)
        elif what == "square" and square is not None:
            text = board_words.describe_square(board, square, lang, state.wording)
        elif what == "pieces":
            text = phonetic.describe_pieces(board, piece_type, color, lang)
        elif what == "touched":
            text = touch_report(s, lang)     # the sighted player's touches (D.2.10 e)
        elif what in KINDS:
            text = phonetic.describe_position(board, lang)
        else:
            state.refuse(now, "request", tr("table.unknown_request", lang), to=to)
            return
        if to == "blind":      # asked again: the new answer replaces the older one (newer replaces older)
            state.say(now, text, "blind", "answer", about=f"request {what}", replace=True)
        else:
            state.show(now, text)

    def repeat(self, now: float) -> None:
        """Say the last announcement again (or that there is nothing to repeat)."""
        state = self.state
        if state.speech.last_announcement is None:
            state.say(now, tr("table.nothing_to_repeat", state.lang), "blind", "answer")
            return
        for ev in state.speech.repeat(now):
            state.emit(ev)

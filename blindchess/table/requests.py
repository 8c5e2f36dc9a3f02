"""What a player asks the table, answered only because he asked (D.2.10 d; pure).

"time" / "moves" (the talking clock: his own time and move count, journaled as
asked), "square", "pieces", "position", "touched" (the sighted player's
touches, D.2.10 e), and the board commands of :mod:`blindchess.language.board_words`
("last_move" with side and number, "rank" / "file" scans through the square,
"legal_moves" from the square, "captured"), and the lookups of
:mod:`blindchess.table.lookups` ("captures" from the square, "around" the
square, "opponent", "last_capture", "move_list", "step" to half-move ``ply``) — said to the blind
player, shown to the sighted side. "Repeat" says the last announcement again
(the last move or question said).
"""

from __future__ import annotations

import chess

from ..base import tr
from ..language import REQUESTS, describe_pieces, describe_position, describe_square
from ..language import answer as board_answer
from . import lookups
from .clock import phrase_from_clock
from .eboard import touch_report
from .speech import REQUEST
from .state import TableState

__all__ = ["Requests", "KINDS"]

#: The requests the table answers.
KINDS = ("time", "moves", "square", "pieces", "position", "touched", *REQUESTS, *lookups.KINDS)


class Requests:
    """Answers to requests and "repeat" (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    def answer(self, what: str, by: str, now: float, *, square: int | None = None,
               piece_type: int | None = None, color: chess.Color | None = None, ply: int | None = None) -> None:
        """Answer the request ``what`` (one of :data:`KINDS`) of ``by`` ("blind": said, in his wording;
        otherwise shown). "square" without a square is answered with the position; an unknown ``what``
        is refused (``Refused(what="request")``). ``ply``: the half-move "step" reads (default: the last)."""
        state = self.state
        s = state.session
        lang = state.lang
        board = s.game_board()
        to = "blind" if by == "blind" else "sighted"
        if what in ("time", "moves"):
            s.request_time(now, by=by)       # journaled: it was asked (D.2.10 d)
            if state.game.time_control is None:
                text = tr("table.time_without_clock", lang, moves=len(state.game.game_moves))
            else:
                own = state.game.blind_color if by == "blind" and state.game.blind_color is not None else state.sighted_color()
                text = phrase_from_clock(s.clock, own, now, lang)
        elif what in REQUESTS:
            asker = state.game.blind_color if by == "blind" and state.game.blind_color is not None else state.sighted_color()
            text = board_answer(what, board, lang, wording=state.wording, square=square,
                                      white_view=asker != chess.BLACK)
        elif what == "square" and square is not None:
            text = describe_square(board, square, lang, state.wording)
        elif what == "pieces":
            text = describe_pieces(board, piece_type, color, lang)
        elif what == "touched":
            text = touch_report(s, lang)     # the sighted player's touches (D.2.10 e)
        elif what in lookups.KINDS:
            text = self._lookup(what, by, board, square, ply)
        elif what in KINDS:
            text = describe_position(board, lang)
        else:
            state.refuse(now, "request", tr("table.unknown_request", lang), to=to)
            return
        if to == "blind":      # asked again: the new answer replaces the older one (newer replaces older)
            state.say(now, text, "blind", "answer", about=REQUEST, replace=True)
        else:
            state.show(now, text)

    def _lookup(self, what: str, by: str, board: chess.Board, square: int | None, ply: int | None) -> str:
        """The answer to one of :data:`lookups.KINDS` (a square-bound one without a square: "which square?")."""
        game = self.state.game
        state = self.state
        lang, wording = state.lang, state.wording
        asker = game.blind_color if by == "blind" and game.blind_color is not None else state.sighted_color()
        if what == "opponent":
            other = not asker
            return lookups.opponent(game.player(other).name, other, lang, state.setup.headers)
        if what == "last_capture":
            return lookups.last_capture(board, lang, wording)
        if what == "move_list":
            return lookups.move_list(board, lang, wording)
        if what == "step":
            return lookups.step(board, len(board.move_stack) if ply is None else ply, lang, wording)
        if what == "position_at":
            return lookups.position_at(board, len(board.move_stack) if ply is None else ply, lang)
        if what == "move_pair":
            return lookups.move_pair(board, 1 if ply is None else ply, lang, wording)
        if square is None:
            return tr("board_words.which_square", lang)
        if what == "captures":
            return lookups.captures(board, square, lang, wording)
        return lookups.around(board, square, lang, wording, white_view=asker != chess.BLACK)

    def repeat(self, now: float) -> None:
        """Say the last announcement again (or that there is nothing to repeat)."""
        state = self.state
        if state.speech.last_announcement is None:
            state.say(now, tr("table.nothing_to_repeat", state.lang), "blind", "answer")
            return
        for ev in state.speech.repeat(now):
            state.emit(ev)

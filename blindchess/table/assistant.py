"""The blind player's assistant at the table: his duties offered when he has one (FIDE Laws D.2.10; pure).

The assistant (D.2.10) (a) carries out either player's move on the opponent's board —
the table's next step says which —, (b) announces the moves of both players, (c) keeps
the visually impaired player's score and starts the opponent's clock once the move is
made (D.2.3), (d) tells the time and the number of moves only at the player's request
(:mod:`~blindchess.table.requests`), (e) claims the game when the sighted player's time
has expired and tells the arbiter when the sighted player touched one of his pieces, (f)
carries out the formalities of an adjournment (:mod:`~blindchess.table.adjournment`).

What this part offers is shown to the assistant (never said to the blind player: nothing
reaches him unasked but the moves, D.2.10 d): after the blind player's move made, to press
his clock (when the app does not press it itself); the sighted player's touches, for the
arbiter; the sighted player's fallen flag when nobody else sees it (rapid and blitz without
adequate supervision: a flag counts only when pointed out, A.4.4).
"""

from __future__ import annotations

import chess

from ..base import tr
from ..game import MoveMade, Touch
from ..language import piece_name
from .setup import to_color
from .state import TableState

__all__ = ["AssistantDuties"]


class AssistantDuties:
    """What the table offers the blind player's assistant (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self._flag_told = False

    @property
    def name(self) -> str | None:
        """The blind player's assistant, None when he has none."""
        game = self.state.game
        return game.player(game.blind_color).assistant if game.blind_color is not None else None

    def _offer(self, now: float, key: str, **params: object) -> None:
        name = self.name
        if name:
            self.state.show(now, f"{name}: {tr(f'tournament.{key}', self.state.lang, **params)}")

    def _color_words(self, color: chess.Color) -> str:
        return tr("tournament.white" if color else "tournament.black", self.state.lang)

    def made(self, ev: MoveMade) -> None:
        """(c) The blind player's move is made: the assistant may start the opponent's clock — not for a
        move that counts as pressed already (a sealed move made at resumption, Guidelines I.9)."""
        state = self.state
        if state.game.blind_color is None or state.game.auto_press or state.game.time_control is None or state.game.finished \
                or state.game.plies_pressed >= ev.ply:
            return
        if to_color(ev.color) == state.game.blind_color:
            self._offer(ev.t, "asst_press", color=self._color_words(not state.game.blind_color))

    def touched(self, ev: Touch) -> None:
        """(e) The sighted player touched a piece: noted for the arbiter."""
        state = self.state
        if state.game.blind_color is None or ev.board != "sighted" or to_color(ev.by) == state.game.blind_color:
            return
        piece = piece_name(chess.Piece.from_symbol(ev.piece).piece_type, self.state.lang) if ev.piece \
            else tr("tournament.asst_no_piece", self.state.lang)
        self._offer(ev.t, "asst_touch", color=self._color_words(not state.game.blind_color), piece=piece, square=ev.square)

    def tick(self, now: float) -> None:
        """(e) Without adequate supervision the sighted player's fallen flag counts only when pointed out:
        the assistant is told once that he may claim."""
        s = self.state.session
        state = self.state
        if self._flag_told or state.game.blind_color is None or state.game.finished or state.game.rules.arbiter_calls_flag:
            return
        if (not state.game.blind_color) in s.flags_fallen(now):
            self._flag_told = True
            self._offer(now, "asst_claim_flag", color=self._color_words(not state.game.blind_color))

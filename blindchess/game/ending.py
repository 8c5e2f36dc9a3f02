"""How a game ends: draw offers and answers (Art. 9.1), resignation (Art. 5.1 b), a result set by
the arbiter, and the end itself (the clock stops).

A player cannot accept his own draw offer; his own press keeps it standing; the
opponent's press (he made his move instead of answering) lets it lapse (Art. 9.1 b,
see :meth:`blindchess.game.timing.Timing.on_press`).
"""

from __future__ import annotations

import chess

from ..i18n import tr
from .events import Event, color_name, parse_color
from .state import GameState
from .timing import Timing

__all__ = ["Ending", "RESULTS"]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class Ending:
    """Draws, resignation, results; see the module docstring."""

    def __init__(self, state: GameState, timing: Timing) -> None:
        self.state = state
        self.timing = timing

    def offer_draw(self, color: chess.Color, now: float) -> Event:
        return self.state.log.do("draw-offer", now, color=color_name(color),
                                 message=tr("session.draw_offered", self.state.lang,
                                            color=self.state.words.color(color)))

    def answer_draw(self, color: chess.Color, accept: bool, now: float) -> Event:
        return self.state.log.do("draw-answer", now, color=color_name(color), accept=bool(accept))

    def resign(self, color: chess.Color, now: float) -> Event:
        return self.state.log.do("resign", now, color=color_name(color))

    def set_result(self, result: str, now: float, *, reason: str = "arbiter") -> Event:
        """The arbiter's result ("*" reopens the game); ValueError for anything but a PGN result."""
        if result not in RESULTS:
            raise ValueError(result)
        return self.state.log.do("result", now, result=result, reason=reason)

    # -- handlers ----------------------------------------------------------------------

    def on_draw_offer(self, ev: Event) -> None:
        self.state.draw_offer = parse_color(ev["color"])

    def on_draw_answer(self, ev: Event) -> None:
        offer = self.state.draw_offer
        if offer is None or offer == parse_color(ev["color"]):
            return  # nothing to answer, or his own offer
        self.state.draw_offer = None
        if ev.get("accept"):
            self.end("1/2-1/2", "agreement", float(ev["t"]))
        else:
            self.state.log.derive("draw-declined", ev["t"], message=tr("session.draw_declined", self.state.lang))

    def on_resign(self, ev: Event) -> None:
        color = parse_color(ev["color"])
        self.end("0-1" if color == chess.WHITE else "1-0", "resignation", float(ev["t"]))

    def on_result(self, ev: Event) -> None:
        if ev["result"] == "*":
            self.state.result = None
            return
        self.end(str(ev["result"]), str(ev.get("reason", "arbiter")), float(ev["t"]))

    def end(self, result: str, reason: str, now: float) -> None:
        """The game ends (once): the clock stops, ``game-end`` is told."""
        if self.state.result is not None:
            return
        self.state.result = result
        self.state.result_reason = reason
        self.timing.stop(now)
        self.state.log.derive("game-end", now, result=result, reason=reason,
                              message=tr("session.game_end", self.state.lang, result=result,
                                         reason=tr(f"session.reason_{reason}", self.state.lang)))

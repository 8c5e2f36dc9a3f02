"""How a game ends at the table: resignation, draw offers, the result (pure).

Nothing ends before it is confirmed (D.2.1): a resignation and accepting the
opponent's standing draw offer are asked about first (a yes/no
:class:`~blindchess.table.questions.Question`). A player cannot accept his own
offer. A draw offer to the blind player is said to him; the end of the game
is said to everybody and shown.
"""

from __future__ import annotations

import chess

from ..i18n import tr
from .events import GameEnded
from .questions import Question, Questions
from .setup import Answer, SessionEvent, Who, color_name, to_color
from .state import TableState

__all__ = ["Endings"]


class Endings:
    """Resignation, draw offers and the game's end (see the module docstring)."""

    def __init__(self, state: TableState, questions: Questions) -> None:
        self.state = state
        self.questions = questions
        questions.resolver("resign", self._resolve)
        questions.resolver("draw-accept", self._resolve)
        state.on("game-end", self._on_game_end)
        state.on("draw-offer", self._on_draw_offer)
        state.on("draw-declined", self._on_draw_declined)

    # ---------------------------------------------------------------- inputs
    def ask_resign(self, who: Who, now: float) -> None:
        """``who`` wants to resign: asked first (refused when the game is over or he does not play)."""
        s = self.state.session
        color = self.state.color_of(who)
        if color is None or s.finished:
            self.state.refuse(now, "resign", tr("table.game_over", self.state.lang), to=who)
            return
        self.questions.ask(Question("resign", who, tr("table.ask_resign", self.state.lang), ("yes", "no"),
                                    color=color_name(color)), now)

    def ask_draw_accept(self, who: Who, now: float) -> None:
        """``who`` would accept the opponent's standing offer: asked first."""
        s = self.state.session
        color = self.state.color_of(who)
        if color is None or s.finished:
            return
        self.questions.ask(Question("draw-accept", who, tr("table.ask_draw_accept", self.state.lang), ("yes", "no"),
                                    color=color_name(color)), now)

    def offer_draw(self, who: Who, now: float) -> None:
        """``who`` offers a draw, or — when the opponent's offer stands — is asked to confirm accepting it."""
        state = self.state
        s = state.session
        color = state.color_of(who)
        if color is None:
            state.refuse(now, "draw", tr("table.no_blind_player", state.lang), to=who)
        elif s.finished:
            state.refuse(now, "draw", tr("table.game_over", state.lang), to=who)
        elif self.offer_to(color):
            self.ask_draw_accept(who, now)
        else:
            s.offer_draw(color, now)

    def offer_to(self, color: chess.Color | None) -> bool:
        """The opponent of ``color`` has offered a draw that stands."""
        offer = self.state.session.draw_offer
        return color is not None and offer is not None and offer != color

    def decline(self, color: chess.Color, now: float) -> None:
        """``color`` declines the opponent's standing offer."""
        self.state.session.answer_draw(color, False, now)

    # ---------------------------------------------------------------- answers
    def _resolve(self, q: Question, answer: Answer, now: float) -> None:
        state = self.state
        s = state.session
        if answer not in ("yes", "no"):
            if isinstance(answer, int) and 1 <= answer <= 2:
                answer = "yes" if answer == 1 else "no"
            else:
                self.questions.refuse_answer(q, now)
                return
        self.questions.close(now)
        color = to_color(q.color or "white")
        if answer == "no":
            if q.kind == "draw-accept":
                s.answer_draw(color, False, now)
            else:
                state.say(now, tr("table.cancelled", state.lang), q.to, "answer")
                state.show(now, tr("table.cancelled", state.lang))
            return
        if q.kind == "resign":
            s.resign(color, now)
        elif q.kind == "draw-accept":
            if self.offer_to(color):
                s.answer_draw(color, True, now)
            else:
                state.refuse(now, "answer", tr("table.no_draw_offer", state.lang), to=q.to)

    # ---------------------------------------------------------------- session events
    def _on_game_end(self, ev: SessionEvent) -> None:
        state = self.state
        t = float(ev["t"])
        result, reason = str(ev["result"]), str(ev.get("reason", ""))
        self.questions.close(t)
        state.emit(GameEnded(t, result, reason))
        text = tr("table.game_end", state.lang, result=self.result_words(result),
                  reason=tr(f"session.reason_{reason}", state.lang))
        state.show(t, text)
        state.say(t, text, "all", "move")

    def _on_draw_offer(self, ev: SessionEvent) -> None:
        state = self.state
        t = float(ev["t"])
        color = to_color(str(ev["color"]))
        state.show(t, tr("table.draw_offered", state.lang, name=state.name(color)))
        if state.session.blind_color is not None and color != state.session.blind_color:
            state.say(t, tr("table.draw_offered_to_blind", state.lang), "blind", "answer")

    def _on_draw_declined(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        text = tr("table.draw_declined", self.state.lang)
        self.state.show(t, text)
        self.state.say(t, text, "all", "answer")

    def result_words(self, result: str) -> str:
        """The result in words ("Weiß gewinnt", "Remis")."""
        return tr({"1-0": "table.result_white", "0-1": "table.result_black"}.get(result, "table.result_draw"),
                  self.state.lang)

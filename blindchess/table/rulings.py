"""The boards part, the arbiter rules (D.2.9; pure).

When a board parts from the game the session reports the divergence: it is
shown, everybody hears that the arbiter is needed, and the ruling D.2.9
suggests is proposed (:attr:`Rulings.proposal`; computed again when a score
is amended). The arbiter applies it or retraces to a half-move of his
choice (the clocks as they stood then). After a ruling the open question is
void, the scores are completed to the game, the ruling is said briefly and
its explanation shown, and the tactile board is set right (a snapshot is
asked for; no touches meanwhile).
"""

from __future__ import annotations

from typing import Any

from ..i18n import tr
from .events import Diverged, Ruled
from .questions import Questions
from .scores import ScoreKeeper
from .setup import BOARDS, SessionEvent
from .state import TableState
from .tactile import TactileBoard

__all__ = ["Rulings"]


class Rulings:
    """Divergences, the proposed ruling and the arbiter's decisions (see the module docstring)."""

    def __init__(self, state: TableState, questions: Questions, tactile: TactileBoard, scores: ScoreKeeper) -> None:
        self.state = state
        self.questions = questions
        self.tactile = tactile
        self.scores = scores
        #: The proposed D.2.9 ruling (:class:`blindchess.ruling.Ruling`) or None.
        self.proposal: Any = None
        state.on("divergence", self._on_divergence)
        state.on("boards-agree", self._on_boards_agree)
        state.on("score-deviation", state.show_message)
        state.on("ruling", self._on_ruling)
        state.on("ruling-override", self._on_ruling)

    def propose(self) -> None:
        """Compute the proposed ruling again (the boards or the scores changed)."""
        self.proposal = self.state.session.propose_ruling(self.state.lang)

    # ---------------------------------------------------------------- the arbiter
    def apply(self, now: float) -> None:
        """The arbiter applies the proposed ruling (refused when there is none)."""
        state = self.state
        s = state.session
        proposal = self.proposal if self.proposal is not None else s.propose_ruling(state.lang)
        if proposal is None or getattr(proposal, "kind", "none") == "none":
            state.refuse(now, "ruling", tr("table.nothing_to_rule", state.lang), to="sighted")
        else:
            s.apply_ruling(proposal, now)

    def retrace(self, plies: int, now: float) -> None:
        """The arbiter retraces to ``plies`` half-moves of the game (refused outside 0…made)."""
        state = self.state
        s = state.session
        if not 0 <= plies <= len(s.game_moves):
            state.refuse(now, "ruling", tr("table.no_such_ply", state.lang, plies=plies, made=len(s.game_moves)),
                         to="sighted")
            return
        clocks = None
        snap = s.clock.times_at(plies) if s.time_control is not None else None
        if snap is not None:
            clocks = {"white": snap.remaining[0], "black": snap.remaining[1]}
        s.override(s.game_moves[:plies], now, clocks=clocks, note=tr("table.retrace_note", state.lang, plies=plies))

    # ---------------------------------------------------------------- session events
    def _on_divergence(self, ev: SessionEvent) -> None:
        state = self.state
        t = float(ev["t"])
        state.emit(Diverged(t, int(ev["ply"])))
        self.propose()
        state.show(t, str(ev.get("message", "")))
        state.say(t, tr("table.divergence_said", state.lang), "all", "answer", about=BOARDS)

    def _on_boards_agree(self, ev: SessionEvent) -> None:
        self.proposal = None
        self.state.show(float(ev["t"]), tr("table.boards_agree", self.state.lang))

    def _on_ruling(self, ev: SessionEvent) -> None:
        state = self.state
        t = float(ev["t"])
        plies = len(state.session.game_moves)
        kind = "retrace" if ev.get("type") == "ruling-override" else str(ev.get("kind", "correct-board"))
        self.proposal = None
        self.questions.close(t)
        state.emit(Ruled(t, kind, plies))
        self.scores.complete(t)
        if kind == "retrace":
            said = tr("table.ruling_retrace", state.lang, plies=plies)
        else:
            boards = [str(b) for b in ev.get("fix_boards", [])]
            key = "table.ruling_correct_tactile" if boards == ["tactile"] else (
                "table.ruling_correct_sighted" if boards == ["sighted"] else "table.ruling_correct")
            said = tr(key, state.lang)
        explanation = str(ev.get("explanation") or ev.get("message") or "")
        state.show(t, tr("table.ruling_shown", state.lang, text=explanation) if explanation else said)
        state.speech.withdraw(BOARDS)      # what waited to be said about the boards parting is settled
        state.say(t, said, "all", "move")
        self.tactile.set_right(t)

"""The boards part, the arbiter rules (D.2.9; pure).

When a board parts from the game the engine reports the divergence: it is shown,
everybody hears that the arbiter is needed, and the ruling D.2.9 suggests is
proposed (:attr:`TableRulings.proposal`). The proposal is computed again whenever the
game, the boards or the scores change while they part, and once more when the
arbiter applies it — so a ruling after later moves keeps every half-move both scores
agree on. The arbiter applies it or retraces to a half-move of his choice (the clocks
as they stood then). After a ruling the open question is void, the ruling is said
briefly and its explanation shown, and the tactile board is set right: the squares
where the pegs differ from the game are said one by one, and no lift counts as a
touch until they show it.
"""

from __future__ import annotations

from ..base import tr
from ..game import BoardsAgree, Divergence, Ruling, RulingOverride, ScoreDeviation
from ..laws import ClockSetting, Proposal, move_ref
from .events import Diverged, Ruled
from .questions import Questions
from .setup import BOARDS, Who
from .state import TableState
from .tactile import TactileBoard

__all__ = ["TableRulings"]


class TableRulings:
    """Divergences, the proposed ruling and the arbiter's decisions (see the module docstring)."""

    def __init__(self, state: TableState, questions: Questions, tactile: TactileBoard) -> None:
        self.state = state
        self.questions = questions
        self.tactile = tactile
        #: The proposed D.2.9 ruling, or None while the boards agree.
        self.proposal: Proposal | None = None
        self._explanation = ""

    def propose(self) -> None:
        """Compute the proposed ruling again (the boards or the scores changed)."""
        self.proposal = self.state.session.propose_ruling(self.state.lang)

    def refresh(self) -> None:
        """While the boards part, anything that changed the game, a board or a score changes the proposal."""
        if self.state.game.divergence is not None:
            self.propose()
        else:
            self.proposal = None

    # ---------------------------------------------------------------- the arbiter
    def apply(self, now: float) -> None:
        """The arbiter applies the ruling D.2.9 gives now (refused when there is none)."""
        state = self.state
        s = state.session
        proposal = s.propose_ruling(state.lang)
        if proposal is None or proposal.kind == "none":
            state.refuse(now, "ruling", tr("table.nothing_to_rule", state.lang), to="sighted")
            return
        self._explanation = proposal.explain(state.lang)
        state.react(s.apply_ruling(proposal, now))

    def retrace(self, plies: int, now: float) -> None:
        """The arbiter retraces to ``plies`` half-moves of the game (refused outside 0…made)."""
        state = self.state
        s = state.session
        if not 0 <= plies <= state.game.plies:
            state.refuse(now, "ruling", tr("table.no_such_ply", state.lang, plies=plies, made=state.game.plies),
                         to="sighted")
            return
        clocks: ClockSetting | None = None
        snap = s.clock.times_at(plies) if state.game.time_control is not None else None
        if snap is not None:
            clocks = ClockSetting(white=snap.remaining[0], black=snap.remaining[1])
        self._explanation = ""
        state.react(s.override(state.game.game_moves[:plies], now, clocks=clocks,
                              note=tr("table.retrace_note", state.lang, plies=plies)))

    def amend(self, who: Who, index: int, text: str, now: float) -> None:
        """Entry ``index`` (0-based) of ``who``'s score written or corrected by hand (the keeper, the arbiter):
        refused when there is no such entry (one may be added only right after the last); the proposed
        ruling follows the amended score."""
        state = self.state
        entries = state.game.score(who)
        if not 0 <= index <= len(entries):
            state.refuse(now, "score", tr("table.no_such_entry", state.lang, number=index + 1))
            return
        state.react(state.session.write(who, text, now, index=index if index < len(entries) else None))
        self.propose()

    # ---------------------------------------------------------------- what the engine decided
    def diverged(self, ev: Divergence) -> None:
        state = self.state
        state.emit(Diverged(ev.t, ev.ply))
        self.propose()
        message = tr("session.divergence", state.lang, ref=move_ref(state.game.start, ev.ply - 1, state.lang),
                     squares=", ".join(ev.squares))
        if ev.board is not None:
            message += " " + tr("session.divergence_board", state.lang, board=tr(f"session.board_{ev.board}", state.lang))
        state.show(ev.t, message)
        state.say(ev.t, tr("table.divergence_said", state.lang), "all", "answer", about=BOARDS)

    def boards_agree(self, ev: BoardsAgree, *, ruled: bool) -> None:
        """The boards agree again. After a ruling (``ruled``) that is the ruling's doing, not news: the pegs
        are yet to be set right (said square by square once they are read)."""
        self.proposal = None
        if not ruled:
            self.state.show(ev.t, tr("table.boards_agree", self.state.lang))

    def score_deviation(self, ev: ScoreDeviation) -> None:
        state = self.state
        state.show(ev.t, tr("session.score_deviation", state.lang,
                            score=tr(f"session.score_{ev.who}", state.lang),
                            ref=move_ref(state.game.start, ev.index, state.lang), written=ev.text))

    def ruled(self, ev: Ruling | RulingOverride) -> None:
        state = self.state
        t = ev.t
        plies = state.game.plies
        kind = "retrace" if isinstance(ev, RulingOverride) else ev.kind
        self.proposal = None
        self.questions.close(t)
        state.emit(Ruled(t, kind, plies))
        if kind == "retrace":
            said = tr("table.ruling_retrace", state.lang, plies=plies)
        else:
            boards = list(ev.fix_boards) if isinstance(ev, Ruling) else []
            key = "table.ruling_correct_tactile" if boards == ["tactile"] else (
                "table.ruling_correct_sighted" if boards == ["sighted"] else "table.ruling_correct")
            said = tr(key, state.lang)
        explanation = self._explanation or (tr("session.override", state.lang, note=ev.note)
                                            if isinstance(ev, RulingOverride) else "")
        self._explanation = ""
        state.show(t, tr("table.ruling_shown", state.lang, text=explanation) if explanation else said)
        state.speech.withdraw(BOARDS)      # what waited to be said about the boards parting is settled
        state.say(t, said, "all", "move")
        self.tactile.set_right(t)

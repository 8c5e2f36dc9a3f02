"""The quickplay finish (FIDE Laws, Guidelines III.4, III.5): a draw claimed with under two minutes left.

* :meth:`Quickplay.claim` — the player to move, his flag up and under two minutes left,
  in a game without increment that is not blitz, claims a draw: the opponent cannot
  win by normal means ("cannot_win"), or is making no effort to ("no_effort", which
  needs his score). :func:`blindchess.laws.rulesets.quickplay_claim` checks it against the
  position on the board and the clock (:class:`QuickplayFiled`); a filed claim stops the
  clocks and waits for the arbiter.
* :meth:`Quickplay.decide` — the arbiter's verdict (:func:`blindchess.laws.rulesets.decide_quickplay`):
  a draw ends the game; rejected, the opponent gets two minutes; postponed, play goes
  on. The clocks run again unless the game is drawn.

A filed claim is part of the game's state, so a game reopened from its journal still
waits for the arbiter.
"""

from __future__ import annotations

import chess

from ..laws import QuickplayCase, decide_quickplay, quickplay_claim
from .clock import Timing
from .ending import Ending
from .events import (
    QuickplayClaim,
    QuickplayDecision,
    QuickplayFiled,
    QuickplayGround,
    QuickplayVerdict,
    ScoreName,
    color_name,
    parse_color,
)
from .scores import Scores
from .state import GameState

__all__ = ["Quickplay"]


class Quickplay:
    """The quickplay-finish claim at one game; see the module docstring."""

    def __init__(self, state: GameState, timing: Timing, ending: Ending, scores: Scores) -> None:
        self.state = state
        self.timing = timing
        self.ending = ending
        self.scores = scores
        #: The filed claim the arbiter has still to decide (None: none).
        self.pending: QuickplayCase | None = None

    # -- commands
    def claim(self, color: chess.Color, ground: QuickplayGround, now: float) -> None:
        """``color`` claims; checked at once (:class:`QuickplayFiled`). ValueError when the game is over."""
        if self.state.result is not None:
            raise ValueError("the game is over")
        self.state.log.record(QuickplayClaim(t=now, color=color_name(color), ground=ground))

    def decide(self, verdict: QuickplayVerdict, now: float) -> None:
        """The arbiter's verdict on the filed claim. ValueError when no claim waits for him."""
        if self.pending is None:
            raise ValueError("no quickplay-finish claim to decide")
        self.state.log.record(QuickplayDecision(t=now, verdict=verdict))

    # -- handlers
    def on_claim(self, ev: QuickplayClaim) -> None:
        state = self.state
        color = parse_color(ev.color)
        score: ScoreName = "blind" if state.is_blind(color) else "sighted"     # the claimant's own score
        checked = quickplay_claim(state.rules, state.board, color, self.timing.clock.remaining(color, ev.t),
                                  ev.ground, state.board.fen(), self.scores.entries[score])
        state.log.record(QuickplayFiled(t=ev.t, color=ev.color, ground=ev.ground, problems=checked.problems))
        if checked.valid and state.result is None:
            self.pending = checked
            self.timing.clock.pause(ev.t)        # III.4: the clocks stop while the arbiter decides

    def on_decision(self, ev: QuickplayDecision) -> None:
        claim, self.pending = self.pending, None
        if claim is None:
            return
        decision = decide_quickplay(claim, ev.verdict)
        if decision.result is not None:
            self.ending.end(decision.result, "quickplay", ev.t)
            return
        for side, secs in decision.add_seconds.items():
            self.timing.add_time(side, secs, ev.t)
        self.timing.clock.resume(ev.t)

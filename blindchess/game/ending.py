"""How a game ends: resignation (Art. 5.1.2), draw offers (Art. 9.1), claims (Art. 9.2, 9.3, 9.5,
6.8, D.2.10 e), ends by themselves (Art. 5, 9.6), fallen flags (Art. 6.9), the arbiter's result.

* A player cannot accept his own draw offer; his own press keeps it standing; the
  opponent's press (he made his move instead of answering) lets it lapse (Art. 9.1.2.3,
  :meth:`blindchess.game.clock.Timing.on_press`).
* A draw claim (threefold repetition, Art. 9.2; fifty moves, Art. 9.3) is made by the
  player to move — on the position now (9.2.1.2, 9.3.2) or on the move he declares he
  will make (9.2.1.1, 9.3.1). The blind player whose own move is made but whose clock is
  not yet pressed has declared that move by announcing it (D.2.3): his claim is judged on
  the position after it. Correct: drawn (9.5.2). Incorrect: two minutes to the opponent
  and the game goes on (9.5.3).
* A claim on time (Art. 6.8; the assistant's, D.2.10 e) is upheld when the opponent's
  flag has fallen; the result follows Art. 6.9 — a draw when the claimant cannot mate by
  any series of legal moves (approximated by material, :func:`blindchess.laws.rulesets.cannot_mate`).
  Both flags fallen: a draw (A.4.3, B).
* Checkmate, stalemate, a dead position by material, the fifth repetition and 75 moves
  end the game by themselves (Art. 5, 9.6; python-chess's outcome).
* An illegal move that stands as played (rapid and blitz without adequate supervision): in
  rapid the arbiter acts without a claim when it leaves both kings in check or a pawn on the
  last rank not promoted (Appendix A c, second part) — as on a claim; in blitz, once the
  opponent has moved, it is corrected only by both players' agreement, without the arbiter
  (Appendix B): the position before it is set up again, the clocks as they are.
* The arbiter's result: "*" reopens the game, unless the game is annulled (reason
  "annulled": a new game is to be played, Guidelines I.12 b, Art. 7.2.1), which ends it
  without a result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import chess

from ..laws import both_flags_fallen, flag_fall, illegal_move
from .clock import Timing
from .events import (
    Claim,
    ClaimJudged,
    ClaimKind,
    CorrectionAgreed,
    DrawAnswer,
    DrawDeclined,
    DrawOffer,
    Flag,
    FlagFallen,
    GameEnd,
    IllegalCorrected,
    Press,
    Resign,
    Result,
    color_name,
    parse_color,
)
from .state import GameState

__all__ = ["Ending", "RESULTS", "TWO_MINUTES"]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
DRAW = "1/2-1/2"
#: Art. 9.5.3 (an incorrect draw claim), Art. 7.5.5 (a first illegal move): the opponent's extra time.
TWO_MINUTES = 120.0


def win(color: chess.Color) -> str:
    return "1-0" if color == chess.WHITE else "0-1"


class Ending:
    """Draws, resignation, claims, flags, results; see the module docstring."""

    def __init__(self, state: GameState, timing: Timing) -> None:
        self.state = state
        self.timing = timing
        #: Illegal moves claimed and restored, by the player who made them (Art. 7.5.5).
        self.illegal_counts: dict[chess.Color, int] = {}
        #: How the position before an illegal move is restored (the rulings part sets the boards and scores).
        self.restore_before_illegal: Callable[[int, float], None] = _cannot_restore
        #: Who agreed to correct the illegal move that stands (blitz, Appendix B), waiting for the other.
        self.correction_agreed: chess.Color | None = None

    # -- commands
    def offer_draw(self, color: chess.Color, now: float) -> None:
        self.state.log.record(DrawOffer(t=now, color=color_name(color)))

    def answer_draw(self, color: chess.Color, accept: bool, now: float) -> None:
        self.state.log.record(DrawAnswer(t=now, color=color_name(color), accept=bool(accept)))

    def resign(self, color: chess.Color, now: float) -> None:
        self.state.log.record(Resign(t=now, color=color_name(color)))

    def set_result(self, result: str, now: float, *, reason: str = "arbiter") -> None:
        """The arbiter's result ("*" reopens the game); ValueError for anything but a PGN result."""
        if result not in RESULTS:
            raise ValueError(result)
        self.state.log.record(Result(t=now, result=result, reason=reason))

    def agree_correction(self, color: chess.Color, now: float) -> None:
        """``color`` agrees to correct the illegal move that stands (blitz without adequate supervision,
        Appendix B). ValueError when there is none, the game is over or it is not blitz without supervision."""
        rules = self.state.rules
        if self.state.result is not None or self.standing_illegal() is None or rules.kind != "blitz" \
                or rules.arbiter_acts_on_illegal_move:
            raise ValueError("no illegal move to correct")
        self.state.log.record(CorrectionAgreed(t=now, color=color_name(color)))

    def standing_illegal(self) -> int | None:
        """The latest half-move (0-based) made illegally that stands in the game, or None."""
        made = len(self.state.moves)
        standing = [i for i in self.state.illegal if i < made]
        return max(standing) if standing else None

    def claim(self, color: chess.Color, kind: ClaimKind, now: float, move: chess.Move | None = None) -> None:
        """``color`` claims; judged at once (:class:`ClaimJudged`, and the game's end when upheld)."""
        self.state.log.record(Claim(t=now, color=color_name(color), kind=kind,
                                    uci=None if move is None else move.uci()))

    # -- judging
    def draw_claim_holds(self, color: chess.Color, kind: ClaimKind, move: chess.Move | None = None) -> bool:
        """Whether ``color``'s claim of threefold repetition or fifty moves is correct now (Art. 9.2, 9.3)."""
        state = self.state
        if state.result is not None or kind not in ("threefold", "fifty"):
            return False
        board = state.board.copy()
        if state.to_move == color:
            if move is not None:
                if not board.is_legal(move):
                    return False
                board.push(move)
        elif not self._own_unpressed(color):
            return False      # only the player having the move may claim (Art. 9.2, 9.3)
        if kind == "threefold":
            return board.is_repetition(3)
        return board.halfmove_clock >= 100

    def _own_unpressed(self, color: chess.Color) -> bool:
        """``color`` made the last move and has not pressed his clock yet (it counts as declared)."""
        made = len(self.state.moves)
        return self.state.mover(made) != color and self.timing.pressed < made and not self.state.auto_press

    # -- handlers
    def on_draw_offer(self, ev: DrawOffer) -> None:
        self.state.draw_offer = parse_color(ev.color)

    def on_draw_answer(self, ev: DrawAnswer) -> None:
        offer = self.state.draw_offer
        if offer is None or offer == parse_color(ev.color):
            return  # nothing to answer, or his own offer
        self.state.draw_offer = None
        if ev.accept:
            self.end(DRAW, "agreement", ev.t)
        else:
            self.state.log.record(DrawDeclined(t=ev.t, color=ev.color))

    def on_resign(self, ev: Resign) -> None:
        self.end(win(not parse_color(ev.color)), "resignation", ev.t)

    def on_result(self, ev: Result) -> None:
        if ev.result == "*" and ev.reason != "annulled":
            self.state.result = None
            self.state.result_reason = None
            return
        self.end(ev.result, ev.reason, ev.t)

    def on_correction_agreed(self, ev: CorrectionAgreed) -> None:
        """One player agrees to correct the illegal move; when the other has agreed already, it is corrected:
        the position before it is set up again, the clocks as they are (Appendix B)."""
        color = parse_color(ev.color)
        index = self.standing_illegal()
        if index is None or self.state.result is not None:
            return
        if self.correction_agreed is None or self.correction_agreed == color:
            self.correction_agreed = color
            return
        self.correction_agreed = None
        self.state.log.record(IllegalCorrected(t=ev.t, color=color_name(self.state.mover(index)), ply=index + 1,
                                               by="agreement"))
        self.restore_before_illegal(index, ev.t)

    def after_press(self, ev: Press) -> None:
        """A completed illegal move in rapid without adequate supervision that leaves both kings in check or a
        pawn on the last rank not promoted: the arbiter acts without a claim, as on one (Appendix A c)."""
        state = self.state
        rules = state.rules
        index = len(state.moves) - 1
        if state.result is not None or rules.kind != "rapid" or rules.arbiter_acts_on_illegal_move \
                or index not in state.illegal or ev.ply != index + 1:
            return
        board = state.board
        reason: Literal["both_kings_in_check", "promotion_incomplete"]
        if board.is_check() and board.was_into_check():
            reason = "both_kings_in_check"
        elif board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
            reason = "promotion_incomplete"
        else:
            return
        self._illegal_consequence(index, state.mover(index), ev.t, by="arbiter", reason=reason)

    def on_claim(self, ev: Claim) -> None:
        color = parse_color(ev.color)
        move = None if ev.uci is None else chess.Move.from_uci(ev.uci)
        if ev.kind == "time":
            self._claim_time(color, ev)
            return
        if ev.kind == "illegal":
            self._claim_illegal(color, ev)
            return
        upheld = self.draw_claim_holds(color, ev.kind, move)
        self.state.log.record(ClaimJudged(t=ev.t, color=ev.color, kind=ev.kind, upheld=upheld))
        if upheld:
            self.end(DRAW, "threefold_repetition" if ev.kind == "threefold" else "fifty_moves", ev.t)
        elif self.state.result is None:
            self.timing.add_time(not color, TWO_MINUTES, ev.t)      # Art. 9.5.3

    def _claim_time(self, color: chess.Color, ev: Claim) -> None:
        clock = self.timing.clock
        opponent = not color
        upheld = self.state.result is None and clock.flag_fallen(opponent, ev.t)
        self.state.log.record(ClaimJudged(t=ev.t, color=ev.color, kind="time", upheld=upheld))
        if upheld:
            self.timing.flags_seen.add(opponent)
            self.state.log.record(FlagFallen(t=ev.t, color=color_name(opponent)))
            self.flag_result(opponent, ev.t, both=clock.flag_fallen(color, ev.t))

    def _claim_illegal(self, color: chess.Color, ev: Claim) -> None:
        """``color`` claims that his opponent's last move was illegal, before making his own (A.4.2, B):
        decided as :func:`blindchess.laws.rulesets.illegal_move` says — in blitz the claimant wins (a draw when
        the offender cannot mate him); in rapid the position before it is restored and the claimant gets
        two minutes, a second illegal move of the same player loses (Art. 7.5.5)."""
        state = self.state
        index = len(state.moves) - 1
        upheld = state.result is None and index in state.illegal and state.mover(index) != color
        state.log.record(ClaimJudged(t=ev.t, color=ev.color, kind="illegal", upheld=upheld))
        if not upheld:
            return
        self._illegal_consequence(index, not color, ev.t, by="claim")

    def _illegal_consequence(self, index: int, offender: chess.Color, now: float, *,
                             by: Literal["claim", "arbiter"],
                             reason: Literal["both_kings_in_check", "promotion_incomplete"] | None = None) -> None:
        """What follows an illegal move claimed (or seen by the arbiter, A c, ``reason``), as
        :func:`blindchess.laws.rulesets.illegal_move` decides; a position restored is recorded as
        :class:`IllegalCorrected` (the journal counts the half-moves taken back by it)."""
        state = self.state
        decision = illegal_move(state.rules, state.position(index), offender,
                                previous_illegal=self.illegal_counts.get(offender, 0))
        self.illegal_counts[offender] = self.illegal_counts.get(offender, 0) + 1
        if decision.result is not None:
            self.end(decision.result, "illegal_move" if decision.result != DRAW else "illegal_move_no_mate", now)
            return
        if decision.restore_position:
            self.correction_agreed = None
            state.log.record(IllegalCorrected(t=now, color=color_name(offender), ply=index + 1, by=by, reason=reason))
            self.restore_before_illegal(index, now)
        for side, secs in decision.add_seconds.items():
            self.timing.add_time(side, secs, now)

    def on_flag(self, ev: Flag) -> None:
        """The arbiter sees ``ev.color``'s flag (Art. 6.8): the game ends as Art. 6.9 says."""
        color = parse_color(ev.color)
        if color in self.timing.flags_seen:
            return
        self.timing.flags_seen.add(color)
        self.state.log.record(FlagFallen(t=ev.t, color=ev.color))
        self.flag_result(color, ev.t, both=self.timing.clock.flag_fallen(not color, ev.t))

    def flag_result(self, flagged: chess.Color, now: float, *, both: bool) -> None:
        """``flagged`` lost on time, unless his opponent cannot mate him (a draw, Art. 6.9), or both flags
        are down (a draw in rapid and blitz, A.4.3, B); :func:`blindchess.laws.rulesets.flag_fall` decides."""
        rules = self.state.rules
        if both:
            decision = both_flags_fallen(rules, self.state.board)
            reason = "both_flags"
        else:
            decision = flag_fall(rules, self.state.board, flagged, pointed_out=True)
            reason = "time_no_mate" if decision.result == DRAW else "time_forfeit"
        if decision.result is not None:
            self.end(decision.result, reason, now)

    def after_move(self, now: float) -> None:
        """A move was made: the game may have ended by itself (Art. 5, 9.6)."""
        outcome = self.state.board.outcome(claim_draw=False)
        if outcome is not None:
            self.end(outcome.result(), outcome.termination.name.lower(), now)

    def end(self, result: str, reason: str, now: float) -> None:
        """The game ends (once): the clock stops, :class:`GameEnd` is recorded."""
        if self.state.result is not None:
            return
        self.state.result = result
        self.state.result_reason = reason
        self.state.draw_offer = None
        self.timing.stop(now)
        self.state.log.record(GameEnd(t=now, result=result, reason=reason))


def _cannot_restore(index: int, now: float) -> None:
    raise ValueError("no way to restore a position")

"""Standard, rapid and blitz: which rules apply, chosen from the time control.

The kind of game follows from the time each player has for all moves, counted as
base time + 60 × increment (FIDE Laws, Appendices A and B, in the edition of the
project's FIDE texts):

* blitz — under 15 minutes;
* rapid — 15 minutes or more and less than 60 minutes;
* standard — 60 minutes or more.

(The Laws in force since 2023 put the line between blitz and rapid at 10 minutes.)

The limits are configurable (:class:`Thresholds`), e.g. for a local event.

What changes with the kind (FIDE Laws, Appendices A and B), as data on :class:`RuleSet` and as
decisions from the functions below:

* recording the moves is required in standard play only (Art. 8.1; A.2);
* an illegal move (:func:`illegal_move`) — the app never plays one on its boards,
  but it records, as over the board, that a player completed one and that it was
  claimed: in standard play (and with adequate supervision) the arbiter restores
  the position and gives the opponent two minutes, a second one loses (Art. 7.5);
  in rapid play without adequate supervision only a claim before the claimant's own
  move counts; in blitz that claim wins, or draws when the claimant cannot mate the
  offender by any legal sequence — approximated with python-chess's
  ``has_insufficient_material``, which looks at material only (so a fortress is not
  recognised); once the claimant has moved, the illegal move stands;
* flag fall (:func:`flag_fall`): the arbiter calls it in standard play; in rapid and
  blitz without adequate supervision a flag counts as fallen only when a player
  validly points it out (both clocks stopped, arbiter informed); both flags fallen
  (:func:`both_flags_fallen`) is a draw in rapid and blitz;
* a wrong set-up (A a): claimable only until each player has made three moves
  (:attr:`RuleSet.setup_claims_until_moves`, without adequate supervision); a king standing
  where the queen should and the queen where the king should (:func:`king_queen_swapped`):
  that king may not castle;
* the quickplay-finish draw claim (:func:`quickplay_claim`, Guidelines III / old
  Art. 10.2): without increment, in standard and rapid play, by the player to move
  with less than two minutes left and his flag not fallen; he writes down the final
  position (and for "no effort to win" hands in his up-to-date score), the opponent
  verifies it, the arbiter decides (:func:`decide_quickplay`).

Pure: python-chess and the standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import chess

from ..base import plural, tr
from .clock import TimeControl

Kind = Literal["standard", "rapid", "blitz"]
Verdict = Literal["draw", "reject", "postpone"]

#: Extra time for the opponent after a first illegal move (Art. 7.5.5) and after a
#: rejected quickplay-finish claim (Guidelines III).
TWO_MINUTES = 120.0
#: Below this remaining time a quickplay-finish draw may be claimed.
QUICKPLAY_LIMIT = 120.0


@dataclass(frozen=True)
class Thresholds:
    """Where blitz ends and standard play begins, in seconds of base + 60 × increment.

    The defaults are those of the edition this program follows for rapid and blitz (the one in
    the project's FIDE texts, Appendices A and B): rapid from 15 to under 60 minutes, blitz
    under 15. (The Laws in force since 2023 draw the line at 10 minutes.)
    """

    rapid_min: float = 900.0      # rapid: 15 minutes or more (Appendix A); blitz below (Appendix B)
    standard_min: float = 3600.0  # standard: 60 minutes or more

    def __post_init__(self) -> None:
        if not 0 < self.rapid_min < self.standard_min:
            raise ValueError("thresholds must satisfy 0 < rapid_min < standard_min")


def _seconds(time_control: Any) -> tuple[float, float]:
    """(base seconds, increment) from a ``blindchess.laws.clock.TimeControl``, its text, or a pair.

    No time control at all (``None``) counts as unlimited time: standard play.
    """
    if isinstance(time_control, str):
        time_control = TimeControl.parse(time_control)
    if time_control is None:
        return math.inf, 0.0
    if isinstance(time_control, tuple | list) and len(time_control) == 2:
        base, increment = time_control
    else:
        base, increment = time_control.base_seconds, time_control.increment
    base, increment = float(base), float(increment or 0.0)
    if base < 0 or increment < 0:
        raise ValueError("times must not be negative")
    return base, increment


def game_time(time_control: Any) -> float:
    """Base time + 60 × increment in seconds — the measure Appendices A and B use."""
    base, increment = _seconds(time_control)
    return base + 60.0 * increment


def classify(time_control: Any, thresholds: Thresholds | None = None) -> Kind:
    """"standard", "rapid" or "blitz" for a time control."""
    limits = thresholds or Thresholds()
    total = game_time(time_control)
    if total < limits.rapid_min:
        return "blitz"
    if total < limits.standard_min:
        return "rapid"
    return "standard"


@dataclass(frozen=True)
class RuleSet:
    """The rules that differ between standard, rapid and blitz play."""

    kind: Kind
    base_seconds: float
    increment: float
    supervised: bool  # adequate supervision (one arbiter for at most three games, A.3)

    @property
    def recording_required(self) -> bool:
        """Whether the players must write the moves down (Art. 8.1; not in rapid/blitz, A.2)."""
        return self.kind == "standard"

    @property
    def arbiter_acts_on_illegal_move(self) -> bool:
        """Art. 7.5 by the arbiter himself, or only on the opponent's claim (FIDE Laws A.5, B.3)."""
        return self.kind == "standard" or self.supervised

    @property
    def arbiter_calls_flag(self) -> bool:
        """Whether the arbiter signals a fallen flag, or only a player's valid claim counts."""
        return self.kind == "standard" or self.supervised

    @property
    def setup_claims_until_moves(self) -> int | None:
        """Wrong set-up, orientation or clock setting: claimable until each player made this many moves."""
        return None if self.kind == "standard" or self.supervised else 3

    @property
    def touch_move_only_on_request(self) -> bool:
        """Rapid/blitz without supervision: the arbiter rules on Art. 4 only when a player asks."""
        return not (self.kind == "standard" or self.supervised)

    @property
    def quickplay_claim_allowed(self) -> bool:
        """Guidelines III: only without increment, and not in blitz."""
        return self.increment == 0 and self.kind != "blitz"

    def describe(self, lang: str = "de") -> str:
        """A short statement of the rule set for the arbiter and players."""
        total = self.base_seconds + 60 * self.increment
        if math.isinf(total):
            return tr("tournament.ruleset_untimed", lang)
        minutes = f"{total / 60:g}"
        key = f"tournament.ruleset_{self.kind}"
        return plural(minutes, key + "_one", key, lang, minutes=minutes) if self.kind == "blitz" \
            else tr(key, lang, minutes=minutes)


def for_time_control(time_control: Any, thresholds: Thresholds | None = None, *,
                     supervised: bool = False) -> RuleSet:
    """The rule set for a ``blindchess.laws.clock.TimeControl`` or a ``(base_seconds, increment)`` pair."""
    base, increment = _seconds(time_control)
    return RuleSet(kind=classify((base, increment), thresholds), base_seconds=base,
                   increment=increment, supervised=supervised)


# -- decisions ---------------------------------------------------------------------

RESULT = {chess.WHITE: "1-0", chess.BLACK: "0-1"}
DRAW = "1/2-1/2"


@dataclass(frozen=True)
class Consequence:
    """What happens after an incident: result, time added, position restored or not.

    ``result`` is a PGN result or ``None`` when the game goes on. ``key`` and
    ``params`` give the localized explanation (:meth:`message`), which cites the rule.
    """

    key: str
    result: str | None = None
    restore_position: bool = False
    move_stands: bool = False
    add_seconds: dict[bool, float] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "de") -> str:
        params = {k: (_color(v, lang) if isinstance(v, bool) else v) for k, v in self.params.items()}
        return tr(f"tournament.{self.key}", lang, **params)


def _color(color: bool, lang: str) -> str:
    return tr("tournament.white" if color else "tournament.black", lang)


def king_queen_swapped(board: chess.BaseBoard, color: chess.Color) -> bool:
    """Whether ``color``'s first rank is the standard set-up with king and queen on each other's squares — a
    wrong set-up: that king may not castle (Appendix A a)."""
    rank = 0 if color == chess.WHITE else 7
    order = (chess.ROOK, chess.KNIGHT, chess.BISHOP, chess.KING, chess.QUEEN, chess.BISHOP, chess.KNIGHT, chess.ROOK)
    return all(board.piece_at(chess.square(f, rank)) == chess.Piece(p, color) for f, p in enumerate(order))


def cannot_mate(board: chess.Board, color: chess.Color) -> bool:
    """Whether ``color`` cannot mate by any legal sequence — approximated by material.

    python-chess's ``has_insufficient_material`` looks at material only; it never
    says "cannot mate" wrongly, but misses blocked positions (then the arbiter decides).
    """
    return board.has_insufficient_material(color)


def _loss_or_draw(board: chess.Board, loser: chess.Color, key: str, **params: Any) -> Consequence:
    """``loser`` loses, unless the opponent cannot mate him: then a draw (Art. 6.9, 7.5.5)."""
    if cannot_mate(board, not loser):
        return Consequence(key + "_draw", result=DRAW, params={"player": loser, **params})
    return Consequence(key, result=RESULT[not loser], params={"player": loser, **params})


def illegal_move(rules: RuleSet, board: chess.Board, offender: chess.Color, *, claimed: bool = True,
                 claimant_has_moved: bool = False, previous_illegal: int = 0) -> Consequence:
    """The consequence of an illegal move that ``offender`` completed (pressed his clock).

    ``board`` is the (legal) position before the illegal move — the one the app
    keeps. ``previous_illegal`` counts the offender's earlier completed illegal moves
    in this game.
    """
    if rules.arbiter_acts_on_illegal_move:
        if previous_illegal >= 1:  # Art. 7.5.5: the second completed illegal move loses
            return _loss_or_draw(board, offender, "illegal_second")
        return Consequence("illegal_first", restore_position=True,
                        add_seconds={not offender: TWO_MINUTES}, params={"player": offender})
    if not claimed or claimant_has_moved:  # A: only a claim before the claimant's own move counts
        return Consequence("illegal_stands", move_stands=True, params={"player": offender})
    if rules.kind == "blitz":  # B: the claim wins, or draws when the claimant cannot mate
        if cannot_mate(board, not offender):
            return Consequence("illegal_blitz_draw", result=DRAW, params={"player": offender})
        return Consequence("illegal_blitz_win", result=RESULT[not offender], params={"player": offender})
    if previous_illegal >= 1:
        return _loss_or_draw(board, offender, "illegal_second")
    return Consequence("illegal_rapid", restore_position=True, add_seconds={not offender: TWO_MINUTES},
                    params={"player": offender})


def flag_fall(rules: RuleSet, board: chess.Board, flagged: chess.Color, *,
              pointed_out: bool = False, clocks_stopped: bool = True) -> Consequence:
    """A fallen flag of ``flagged`` in position ``board``.

    In rapid and blitz without adequate supervision it counts only when a player
    validly points it out: both clocks stopped and the arbiter informed (A.4, B).
    """
    if not rules.arbiter_calls_flag:
        if not pointed_out:
            return Consequence("flag_not_claimed", params={"player": flagged})
        if not clocks_stopped:
            return Consequence("flag_stop_clocks", params={"player": flagged})
    return _loss_or_draw(board, flagged, "flag_lost")


def both_flags_fallen(rules: RuleSet, board: chess.Board, *, first: chess.Color | None = None,
                      last_period: bool = True) -> Consequence:
    """Both flags down: a draw in rapid and blitz (FIDE Laws A.4.3, B.3).

    In standard play the player whose flag fell first loses when the clock shows it
    (``first``); when that cannot be established the game is drawn in the last
    period and goes on otherwise (Art. 6.11 of older editions).
    """
    if rules.kind != "standard":
        return Consequence("both_flags_draw", result=DRAW)
    if first is not None:
        return _loss_or_draw(board, first, "flag_lost")
    if last_period:
        return Consequence("both_flags_draw_standard", result=DRAW)
    return Consequence("both_flags_continue")


@dataclass(frozen=True)
class QuickplayCase:
    """A draw claim with less than two minutes left (Guidelines III / old Art. 10.2).

    ``ground``: "cannot_win" (the opponent cannot win by normal means) or
    ``"no_effort"`` (he is making no effort to win by normal means).
    """

    claimant: chess.Color
    ground: Literal["cannot_win", "no_effort"]
    final_position: str  # FEN as the claimant wrote it down
    scoresheet: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()  # message keys of why the claim cannot be filed

    @property
    def valid(self) -> bool:
        return not self.problems

    def message(self, lang: str = "de") -> str:
        if self.problems:
            return " ".join(tr(f"tournament.{p}", lang, player=_color(self.claimant, lang))
                            for p in self.problems)
        return tr(f"tournament.quickplay_filed_{self.ground}", lang, player=_color(self.claimant, lang))


def quickplay_claim(rules: RuleSet, board: chess.Board, claimant: chess.Color, remaining: float,
                    ground: Literal["cannot_win", "no_effort"], final_position: str | None,
                    scoresheet: list[str] | tuple[str, ...] = ()) -> QuickplayCase:
    """Check a quickplay-finish claim before it goes to the arbiter.

    ``board`` is the position on the board (the opponent's verification of the
    written final position compares with it); ``remaining`` the claimant's time.
    """
    problems = []
    if not rules.quickplay_claim_allowed:
        problems.append("quickplay_not_here")
    if board.turn != claimant:
        problems.append("quickplay_not_to_move")
    if remaining <= 0:
        problems.append("quickplay_flag_fallen")
    elif remaining >= QUICKPLAY_LIMIT:
        problems.append("quickplay_too_early")
    if not final_position:
        problems.append("quickplay_no_position")
    else:
        try:
            written = chess.Board(final_position, chess960=board.chess960)
        except ValueError:
            problems.append("quickplay_bad_position")
        else:
            if written.board_fen() != board.board_fen() or written.turn != board.turn:
                problems.append("quickplay_wrong_position")
    if ground == "no_effort" and not scoresheet:
        problems.append("quickplay_no_scoresheet")
    return QuickplayCase(claimant=claimant, ground=ground, final_position=final_position or "",
                          scoresheet=tuple(scoresheet), problems=tuple(problems))


def decide_quickplay(claim: QuickplayCase, verdict: Verdict) -> Consequence:
    """The arbiter's decision on a filed claim: draw, reject (opponent +2 minutes), or postpone."""
    if not claim.valid:
        raise ValueError("an invalid claim cannot be decided; see claim.problems")
    if verdict == "draw":
        return Consequence("quickplay_draw", result=DRAW, params={"player": claim.claimant})
    if verdict == "reject":
        return Consequence("quickplay_rejected", add_seconds={not claim.claimant: TWO_MINUTES},
                        params={"player": claim.claimant})
    return Consequence("quickplay_postponed", params={"player": claim.claimant})

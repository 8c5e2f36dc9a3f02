"""The rules engine's events: one frozen dataclass per kind, one registry, JSON only at the journal.

Every event has ``t`` (seconds, passed in) and ``seq`` (its place in the game's
record, given by :class:`~blindchess.game.log.EventLog`). Two families:

* **Inputs** (``INPUT = True``): what happened at the table as the engine was
  told — a move on a board, an announcement, a press, a claim. They are journaled
  and replayed; each has exactly one handler (:class:`~blindchess.game.core.Rules`).
* **Outcomes** (``INPUT = False``): what an input caused — a move made (D.2.3),
  a mirror needed, a divergence (D.2.9), the game's end. They are returned by the
  command that caused them and journaled with it for the record, never replayed.

The engine words nothing: an event carries facts and closed vocabularies
(``Literal`` types), never a message. ``ARTICLE`` names the FIDE article an event
is about. :func:`to_json` / :func:`from_json` are the journal's line format: the
keys are the journal's (journals of earlier versions open: keys this version does
not know — their ``message``, ``article`` — are left out, events this version no
longer records are skipped).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import chess

from ..base import Event, decode_fields, encode_fields, json_value
from ..laws import ClockAt, ClockSetting
from ..storage import RESERVED_FIELDS

__all__ = [
    "Color", "BoardName", "ScoreName", "Role", "EndReason", "ClaimKind", "QuickplayGround", "QuickplayVerdict",
    "GameEvent", "Player",
    "SessionStart", "ClockStart", "BoardMove", "TakeBack", "Announce", "Press", "ClockPause", "ClockResume",
    "ClockSet", "Score", "Touch", "DrawOffer", "DrawAnswer", "Resign", "Result", "TimeRequest", "Flag",
    "Ruling", "RulingOverride", "PgnImport", "Note", "Reopened", "Adjourned", "SealedMove", "EnvelopeOpened",
    "EnvelopeLost", "ResponderClockStarted", "CorrectionAgreed", "IllegalCorrected", "Claim",
    "QuickplayClaim", "QuickplayDecision", "QuickplayFiled",
    "MoveMade", "MoveWithdrawn", "MirrorNeeded", "Mirrored", "Placed", "AnnounceMismatch", "AnnounceUnclear",
    "AnnounceIgnored", "CorrectionRefused", "ClockRefused", "BoardMoveRejected", "ClockTimes", "Divergence",
    "BoardsAgree", "ScoreDeviation", "GameEnd", "JournalDamaged", "FlagFallen", "DrawDeclined", "ClaimJudged",
    "TimeAdded", "MoveRefused",
    "EVENTS", "INPUT_TYPES", "to_json", "from_json", "BOARDS", "SCORES",
    "color_name", "parse_color", "seconds",
]

Color = Literal["white", "black"]
BoardName = Literal["sighted", "tactile"]
ScoreName = Literal["blind", "sighted"]
Role = Literal["own", "mirror"]
#: Why a game ended: python-chess's terminations (lower case) and the Laws' other ends.
EndReason = Literal[
    "checkmate", "stalemate", "insufficient_material", "seventyfive_moves", "fivefold_repetition",
    "fifty_moves", "threefold_repetition", "resignation", "agreement", "time_forfeit", "time_no_mate",
    "both_flags", "illegal_move", "illegal_move_no_mate", "sealed_move", "quickplay", "arbiter", "late",
    "annulled"]
#: What a player claims: a draw (Art. 9.2, 9.3), his opponent's flag (Art. 6.8, D.2.10 e), an illegal
#: move in rapid or blitz without adequate supervision (Appendix A.4, B).
ClaimKind = Literal["threefold", "fifty", "time", "illegal"]
#: A quickplay-finish claim's ground (Guidelines III.4): the opponent cannot win by normal means, or is
#: making no effort to; and the arbiter's verdict on it.
QuickplayGround = Literal["cannot_win", "no_effort"]
QuickplayVerdict = Literal["draw", "reject", "postpone"]

BOARDS: tuple[BoardName, BoardName] = ("sighted", "tactile")
SCORES: tuple[ScoreName, ScoreName] = ("blind", "sighted")


@dataclass(frozen=True)
class Player:
    """A player: name, whether visually impaired (uses the tactile board), the assistant's name."""

    name: str
    visually_impaired: bool = False
    assistant: str | None = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Player:
        """The player as every version's journal wrote it (missing fields take their defaults; the one codec
        reads a player through this); TypeError for a value that is no mapping."""
        if not isinstance(d, Mapping):
            raise TypeError(f"not a player: {d!r}")
        assistant = d.get("assistant")
        return cls(str(d.get("name", "")), bool(d.get("visually_impaired", False)),
                   None if assistant is None else str(assistant))


@dataclass(frozen=True, kw_only=True)
class GameEvent(Event):
    """Common part of every event of the engine: ``t`` (:class:`~blindchess.base.Event`) and ``seq``;
    see the module docstring."""

    INPUT: ClassVar[bool] = False
    ARTICLE: ClassVar[str] = ""
    seq: int = 0

    @property
    def article(self) -> str:
        """The FIDE article this event is about ("" for none): :attr:`ARTICLE`, or where it depends on
        the event, the one that applies to it."""
        return self.ARTICLE


# ====================================================================== inputs
@dataclass(frozen=True, kw_only=True)
class SessionStart(GameEvent):
    """The game as set up: everything needed to set it up again (``table``: the table's own set-up)."""

    TYPE: ClassVar[str] = "session-start"
    INPUT: ClassVar[bool] = True
    white: Player
    black: Player
    time_control: str | None = None
    start_fen: str = chess.STARTING_FEN
    chess960: bool = False
    chess960_number: int | None = None
    lang: str = "de"
    blind: Color | None = None
    auto_press: bool = False
    tactile_senses_pieces: bool = False
    headers: Mapping[str, str] = field(default_factory=dict)
    version: str = ""
    rules: str | None = None
    supervised: bool = True
    table: Mapping[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class ClockStart(GameEvent):
    TYPE: ClassVar[str] = "clock-start"
    INPUT: ClassVar[bool] = True
    color: Color


@dataclass(frozen=True, kw_only=True)
class BoardMove(GameEvent):
    """A move carried out on a board: the owner's own move or the mirror of the opponent's (D.1)."""

    TYPE: ClassVar[str] = "board-move"
    INPUT: ClassVar[bool] = True
    board: BoardName
    uci: str
    san: str = ""
    ply: int = 0
    role: Role = "own"
    replaces: bool = False     # the blind player's placement of this half-move moved on (D.2.3)
    legal: bool = True         # an illegal move made as played (rapid/blitz without supervision)


@dataclass(frozen=True, kw_only=True)
class TakeBack(GameEvent):
    TYPE: ClassVar[str] = "take-back"
    INPUT: ClassVar[bool] = True
    board: BoardName
    ply: int


@dataclass(frozen=True, kw_only=True)
class Announce(GameEvent):
    """The blind player's announcement (D.2.1): ``uci`` None when it names no legal move."""

    TYPE: ClassVar[str] = "announce"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "D.2.1"
    text: str
    uci: str | None = None
    ply: int = 0
    correction: bool = False
    refused: bool = False      # a correction after the opponent's clock was started (D.2.8)
    problem: str | None = None


@dataclass(frozen=True, kw_only=True)
class Press(GameEvent):
    TYPE: ClassVar[str] = "press"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "D.2.4"
    color: Color
    ply: int = 0


@dataclass(frozen=True, kw_only=True)
class ClockPause(GameEvent):
    TYPE: ClassVar[str] = "clock-pause"
    INPUT: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True)
class ClockResume(GameEvent):
    TYPE: ClassVar[str] = "clock-resume"
    INPUT: ClassVar[bool] = True
    charge: bool = False


@dataclass(frozen=True, kw_only=True)
class ClockSet(GameEvent):
    TYPE: ClassVar[str] = "clock-set"
    INPUT: ClassVar[bool] = True
    color: Color
    seconds: float


@dataclass(frozen=True, kw_only=True)
class Score(GameEvent):
    """An entry of a game score written or amended by hand (D.2.7, D.2.10 c)."""

    TYPE: ClassVar[str] = "score"
    INPUT: ClassVar[bool] = True
    who: ScoreName
    index: int
    text: str
    uci: str | None = None
    problem: str | None = None


@dataclass(frozen=True, kw_only=True)
class Touch(GameEvent):
    """A touched piece: a peg out of its hole (D.2.2) or the sighted player's touch (D.2.5, D.2.10 e)."""

    TYPE: ClassVar[str] = "touch"
    INPUT: ClassVar[bool] = True
    board: BoardName
    square: str
    piece: str | None = None
    by: Color = "white"
    own: bool = False
    ply: int = 0

    @property
    def article(self) -> str:
        """D.2.2 for a lifted peg; D.2.10 e for the sighted player's touch (the assistant informs the arbiter)."""
        return "D.2.2" if self.board == "tactile" else "D.2.10 e"


@dataclass(frozen=True, kw_only=True)
class DrawOffer(GameEvent):
    TYPE: ClassVar[str] = "draw-offer"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Art. 9.1"
    color: Color


@dataclass(frozen=True, kw_only=True)
class DrawAnswer(GameEvent):
    TYPE: ClassVar[str] = "draw-answer"
    INPUT: ClassVar[bool] = True
    color: Color
    accept: bool


@dataclass(frozen=True, kw_only=True)
class Resign(GameEvent):
    TYPE: ClassVar[str] = "resign"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Art. 5.1 b"
    color: Color


@dataclass(frozen=True, kw_only=True)
class Result(GameEvent):
    """The arbiter's result ("*" reopens the game)."""

    TYPE: ClassVar[str] = "result"
    INPUT: ClassVar[bool] = True
    result: str
    reason: str = "arbiter"


@dataclass(frozen=True, kw_only=True)
class TimeRequest(GameEvent):
    """Moves completed and time used, told at ``by``'s request (D.2.10 d)."""

    TYPE: ClassVar[str] = "time-request"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "D.2.10 d"
    by: str = "blind"
    white: Mapping[str, Any] = field(default_factory=dict)
    black: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Flag(GameEvent):
    """``color``'s flag is seen to have fallen (by the arbiter, or pointed out in a claim, Art. 6.8)."""

    TYPE: ClassVar[str] = "flag"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Art. 6.9"
    color: Color


@dataclass(frozen=True, kw_only=True)
class Ruling(GameEvent):
    """The arbiter's D.2.9 ruling applied: ``moves`` the game from the start after it."""

    TYPE: ClassVar[str] = "ruling"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "D.2.9"
    kind: str
    moves: tuple[str, ...] = ()
    agreed_plies: int = 0
    before: tuple[str, ...] = ()
    fix_boards: tuple[str, ...] = ()
    clocks: ClockAt | None = None


@dataclass(frozen=True, kw_only=True)
class RulingOverride(GameEvent):
    """The arbiter decides otherwise (a retrace to a half-move of his choice, a take-back): both
    boards to ``moves`` from the start, the clocks as given."""

    TYPE: ClassVar[str] = "ruling-override"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "D.2.9"
    moves: tuple[str, ...] = ()
    clocks: ClockSetting | None = None
    note: str = ""
    before: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PgnImport(GameEvent):
    TYPE: ClassVar[str] = "pgn-import"
    INPUT: ClassVar[bool] = True
    moves: tuple[str, ...] = ()
    clocks: tuple[tuple[float, ...], ...] | None = None
    source: str = "pgn"


@dataclass(frozen=True, kw_only=True)
class Note(GameEvent):
    """A note for the record (the table's own state, an arbiter's remark): ``kind`` and ``data``
    (written as the line's own keys)."""

    TYPE: ClassVar[str] = "note"
    INPUT: ClassVar[bool] = True
    text: str = ""
    kind: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Reopened(GameEvent):
    """The game was reopened from its journal: the clock stood still from ``closed_at`` (and counts
    the time until ``reopened_at`` only when ``counted``)."""

    TYPE: ClassVar[str] = "reopened"
    INPUT: ClassVar[bool] = True
    closed_at: float
    reopened_at: float | None = None
    counted: bool = False


@dataclass(frozen=True, kw_only=True)
class Adjourned(GameEvent):
    """The arbiter adjourns (Guidelines I.1): ``color`` is to seal his move, half-move ``ply`` (1-based).
    ``session_end``: the session's scheduled end when it is adjourned before it (I.1 b): the sealing counts
    as made then — the sealer's clock runs until that moment."""

    TYPE: ClassVar[str] = "adjourned"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Guidelines I.1"
    color: Color
    ply: int = 0
    session_end: float | None = None


@dataclass(frozen=True, kw_only=True)
class SealedMove(GameEvent):
    """The sealed move of an adjournment (Guidelines I.1-2): ``public`` is what the envelope shows,
    ``hidden`` the move as written — kept in the envelope, never journaled, until the envelope is
    opened; ``by`` the sealer. ``valid`` is never written (whether the move reads as a legal move is the
    envelope's secret too); journals of earlier versions have it."""

    TYPE: ClassVar[str] = "sealed-move"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Guidelines I.1"
    text: str = "adjourned"
    public: Mapping[str, Any] = field(default_factory=dict)
    hidden: Mapping[str, Any] | None = None
    sealed: bool = False      # set on the copy everyone may see
    valid: bool | None = None
    by: Color | None = None


@dataclass(frozen=True, kw_only=True)
class EnvelopeOpened(GameEvent):
    """The arbiter opens the envelope (Guidelines I.7, I.9 a). ``sealer_absent``: the player who sealed is
    not there (I.9 c) — his opponent, present, may seal his reply in a new envelope instead of making it."""

    TYPE: ClassVar[str] = "envelope-opened"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Guidelines I.7"
    text: str = "envelope-opened"
    sealed_seq: int = 0
    hidden: Mapping[str, Any] = field(default_factory=dict)
    sealer_absent: bool = False


@dataclass(frozen=True, kw_only=True)
class ResponderClockStarted(GameEvent):
    """At resumption the player who must reply to the sealed move, ``color``, is absent (Guidelines
    I.9 b): his clock is started; the envelope is opened when he arrives."""

    TYPE: ClassVar[str] = "responder-clock-started"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Guidelines I.9 b"
    color: Color


@dataclass(frozen=True, kw_only=True)
class EnvelopeLost(GameEvent):
    """The arbiter resumes without the envelope (Guidelines I.12): it is ``reason`` "missing", or
    "mismatch" (its move is not the one committed to when it was sealed). Play goes on from the
    adjourned position with the clock times recorded then; the sealer, ``color``, makes on the board
    the move he states he sealed, his clock running."""

    TYPE: ClassVar[str] = "envelope-lost"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Guidelines I.12"
    text: str = "envelope-lost"
    sealed_seq: int = 0
    color: Color = "white"
    reason: Literal["missing", "mismatch"] = "missing"


@dataclass(frozen=True, kw_only=True)
class CorrectionAgreed(GameEvent):
    """``color`` agrees to correct the illegal move that stands (blitz without adequate supervision: once the
    opponent has moved, only by both players' agreement, without the arbiter, Appendix B). When both have
    agreed, the position before it is set up again (:class:`IllegalCorrected`)."""

    TYPE: ClassVar[str] = "correction-agreed"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Appendix B"
    color: Color


@dataclass(frozen=True, kw_only=True)
class Claim(GameEvent):
    """``color`` claims (Art. 9.2, 9.3, 6.8, A.4): with ``uci`` the move he declares he will make
    (Art. 9.2.1.1, 9.3.1); the judgment follows as :class:`ClaimJudged`."""

    TYPE: ClassVar[str] = "claim"
    INPUT: ClassVar[bool] = True
    color: Color
    kind: ClaimKind
    uci: str | None = None


@dataclass(frozen=True, kw_only=True)
class QuickplayClaim(GameEvent):
    """``color``, to move with under two minutes left and no increment, claims a draw (Guidelines III.4);
    checked at once (:class:`QuickplayFiled`), then decided by the arbiter (:class:`QuickplayDecision`)."""

    TYPE: ClassVar[str] = "quickplay-claim"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Guidelines III.4"
    color: Color
    ground: QuickplayGround


@dataclass(frozen=True, kw_only=True)
class QuickplayDecision(GameEvent):
    """The arbiter decides the filed quickplay-finish claim (Guidelines III.4, III.5): a draw, rejected
    (two minutes to the opponent), or postponed; the clocks run again unless the game is drawn."""

    TYPE: ClassVar[str] = "quickplay-decision"
    INPUT: ClassVar[bool] = True
    ARTICLE: ClassVar[str] = "Guidelines III.5"
    verdict: QuickplayVerdict


# ====================================================================== outcomes
@dataclass(frozen=True, kw_only=True)
class MoveMade(GameEvent):
    """Half-move ``ply`` (1-based) is made: D.2.3 for the blind player, D.2.5 for the sighted one."""

    TYPE: ClassVar[str] = "move-made"
    ply: int
    color: Color
    uci: str
    san: str
    blind: bool = False
    legal: bool = True

    @property
    def article(self) -> str:
        return "D.2.3" if self.blind else "D.2.5"


@dataclass(frozen=True, kw_only=True)
class MoveWithdrawn(GameEvent):
    """D.2.8: the blind player corrected his announcement before pressing; the move is un-made."""

    TYPE: ClassVar[str] = "move-withdrawn"
    ARTICLE: ClassVar[str] = "D.2.8"
    ply: int
    uci: str


@dataclass(frozen=True, kw_only=True)
class MirrorNeeded(GameEvent):
    TYPE: ClassVar[str] = "mirror-needed"
    board: BoardName
    ply: int
    uci: str
    san: str


@dataclass(frozen=True, kw_only=True)
class Mirrored(GameEvent):
    TYPE: ClassVar[str] = "mirrored"
    board: BoardName
    ply: int


@dataclass(frozen=True, kw_only=True)
class Placed(GameEvent):
    """The blind player's placement waits for its announcement (D.2.3)."""

    TYPE: ClassVar[str] = "placed"
    ARTICLE: ClassVar[str] = "D.2.3"
    ply: int
    uci: str


@dataclass(frozen=True, kw_only=True)
class AnnounceMismatch(GameEvent):
    """The announcement and the placement differ (D.2.3): nothing is made."""

    TYPE: ClassVar[str] = "announce-mismatch"
    ARTICLE: ClassVar[str] = "D.2.3"
    ply: int
    announced: str
    placed: str


@dataclass(frozen=True, kw_only=True)
class AnnounceUnclear(GameEvent):
    TYPE: ClassVar[str] = "announce-unclear"
    ARTICLE: ClassVar[str] = "D.2.1"
    text: str
    problem: str | None = None


@dataclass(frozen=True, kw_only=True)
class AnnounceIgnored(GameEvent):
    """Nothing to announce: ``reason`` "no-blind", "repeat" (the same move again) or "not-turn"."""

    TYPE: ClassVar[str] = "announce-ignored"
    reason: Literal["no-blind", "repeat", "not-turn", "game-over"] = "not-turn"


@dataclass(frozen=True, kw_only=True)
class CorrectionRefused(GameEvent):
    """D.2.8: too late — the opponent's clock was already started."""

    TYPE: ClassVar[str] = "correction-refused"
    ARTICLE: ClassVar[str] = "D.2.8"
    text: str = ""


@dataclass(frozen=True, kw_only=True)
class ClockRefused(GameEvent):
    """A press refused (D.2.4): ``reason`` "not-made" (his move is not made), "paused", "game-over"."""

    TYPE: ClassVar[str] = "clock-refused"
    ARTICLE: ClassVar[str] = "D.2.4"
    color: Color
    reason: Literal["not-made", "paused", "game-over"] = "not-made"


@dataclass(frozen=True, kw_only=True)
class BoardMoveRejected(GameEvent):
    """A move on a board refused: "illegal" (Art. 3, 7), "not-made" (a mirror of a move not made,
    D.2.3), "game-over", "adjourned" (a move is to be sealed, not made; Guidelines I.1); the board is
    unchanged."""

    TYPE: ClassVar[str] = "board-move-rejected"
    board: BoardName
    uci: str
    reason: Literal["illegal", "not-made", "game-over", "adjourned"] = "illegal"


@dataclass(frozen=True, kw_only=True)
class MoveRefused(GameEvent):
    """The blind player's move refused because the game is over (Art. 5, 6.9, 9.6)."""

    TYPE: ClassVar[str] = "move-refused"
    uci: str


@dataclass(frozen=True, kw_only=True)
class ClockTimes(GameEvent):
    """The clock after the press of half-move ``ply``: remaining times (None: no limit)."""

    TYPE: ClassVar[str] = "clock"
    ply: int
    white: float | None
    black: float | None
    move_time: float = 0.0


@dataclass(frozen=True, kw_only=True)
class Divergence(GameEvent):
    """The boards part from the game at position ``ply`` (D.2.9); ``board`` the one that parts (None: both)."""

    TYPE: ClassVar[str] = "divergence"
    ARTICLE: ClassVar[str] = "D.2.9"
    ply: int
    squares: tuple[str, ...] = ()
    board: BoardName | None = None


@dataclass(frozen=True, kw_only=True)
class BoardsAgree(GameEvent):
    TYPE: ClassVar[str] = "boards-agree"
    ARTICLE: ClassVar[str] = "D.2.9"


@dataclass(frozen=True, kw_only=True)
class ScoreDeviation(GameEvent):
    """A score entry that differs from the move made, or cannot be read (D.2.9 compares them)."""

    TYPE: ClassVar[str] = "score-deviation"
    who: ScoreName
    index: int
    text: str
    uci: str | None = None
    game: str | None = None
    problem: str | None = None


@dataclass(frozen=True, kw_only=True)
class GameEnd(GameEvent):
    TYPE: ClassVar[str] = "game-end"
    result: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class JournalDamaged(GameEvent):
    TYPE: ClassVar[str] = "journal-damaged"
    lines: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class FlagFallen(GameEvent):
    """``color``'s time is up (Art. 6.9); with adequate supervision the game ends at once."""

    TYPE: ClassVar[str] = "flag-fallen"
    ARTICLE: ClassVar[str] = "Art. 6.9"
    color: Color


@dataclass(frozen=True, kw_only=True)
class DrawDeclined(GameEvent):
    TYPE: ClassVar[str] = "draw-declined"
    ARTICLE: ClassVar[str] = "Art. 9.1"
    color: Color | None = None


@dataclass(frozen=True, kw_only=True)
class ClaimJudged(GameEvent):
    """The claim of ``color`` judged: upheld (the game ends) or not (Art. 9.5.3: two minutes to the
    opponent, the declared move must be made)."""

    TYPE: ClassVar[str] = "claim-judged"
    color: Color
    kind: ClaimKind
    upheld: bool


@dataclass(frozen=True, kw_only=True)
class QuickplayFiled(GameEvent):
    """The quickplay-finish claim of ``color`` checked: ``problems`` (message keys of
    :mod:`blindchess.laws.rulesets`) say why it cannot be filed; none: filed, the clocks stop and the
    arbiter decides (Guidelines III.4)."""

    TYPE: ClassVar[str] = "quickplay-filed"
    ARTICLE: ClassVar[str] = "Guidelines III.4"
    color: Color
    ground: QuickplayGround
    problems: tuple[str, ...] = ()

    @property
    def filed(self) -> bool:
        return not self.problems


@dataclass(frozen=True, kw_only=True)
class IllegalCorrected(GameEvent):
    """The illegal move of half-move ``ply`` (1-based), which stood as played, is taken back with every move
    after it: the position before it is set up again, both boards and scores too. ``by`` "claim": the
    opponent claimed it in rapid (A.4.2, two minutes to him); "agreement": both players agreed (blitz,
    Appendix B; the clocks as they are); "arbiter": the arbiter acts without a claim because ``reason`` —
    "both_kings_in_check" or "promotion_incomplete" (rapid, Appendix A c; as on a claim)."""

    TYPE: ClassVar[str] = "illegal-corrected"
    color: Color
    ply: int
    by: Literal["claim", "agreement", "arbiter"] = "agreement"
    reason: Literal["both_kings_in_check", "promotion_incomplete"] | None = None

    @property
    def article(self) -> str:
        return {"agreement": "Appendix B", "arbiter": "Appendix A c"}.get(self.by, "Appendix A.4.2")


@dataclass(frozen=True, kw_only=True)
class TimeAdded(GameEvent):
    TYPE: ClassVar[str] = "time-added"
    color: Color
    seconds: float


_ALL: tuple[type[GameEvent], ...] = (
    SessionStart, ClockStart, BoardMove, TakeBack, Announce, Press, ClockPause, ClockResume, ClockSet, Score,
    Touch, DrawOffer, DrawAnswer, Resign, Result, TimeRequest, Flag, Ruling, RulingOverride, PgnImport, Note,
    Reopened, Adjourned, SealedMove, EnvelopeOpened, EnvelopeLost, ResponderClockStarted, CorrectionAgreed, Claim,
    QuickplayClaim, QuickplayDecision, IllegalCorrected,
    MoveMade, MoveWithdrawn, MirrorNeeded, Mirrored, Placed, AnnounceMismatch, AnnounceUnclear, AnnounceIgnored,
    CorrectionRefused, ClockRefused, BoardMoveRejected, MoveRefused, ClockTimes, Divergence, BoardsAgree,
    ScoreDeviation, GameEnd, JournalDamaged, FlagFallen, DrawDeclined, ClaimJudged, QuickplayFiled, TimeAdded,
)
#: JSON type -> event class (the one registry).
EVENTS: dict[str, type[GameEvent]] = {cls.TYPE: cls for cls in _ALL}
INPUT_TYPES: frozenset[str] = frozenset(cls.TYPE for cls in _ALL if cls.INPUT)
#: Outcomes earlier versions journaled that this version no longer records (skipped when read).
RETIRED_TYPES: frozenset[str] = frozenset({"question", "heard"})
#: Keys the journal adds to every line (not part of an event).
_JOURNAL_KEYS = frozenset({"seq", "type", "t", "derived", "unit", *RESERVED_FIELDS})


# ====================================================================== JSON (the journal's line format)
def to_json(ev: GameEvent) -> dict[str, Any]:
    """The journal line of ``ev``: ``seq``, ``type``, ``t``, ``derived`` (outcomes), then its fields
    (:func:`blindchess.base.encode_fields`; a note's ``data`` as the line's own keys)."""
    out: dict[str, Any] = {"seq": ev.seq, "type": ev.TYPE, "t": ev.t}
    if not ev.INPUT:
        out["derived"] = True
    if isinstance(ev, Note):
        out.update(encode_fields(ev, skip=("t", "seq", "data")))
        out.update({k: v for k, v in json_value(ev.data).items() if k not in _JOURNAL_KEYS})
        return out
    out.update(encode_fields(ev, skip=("t", "seq")))
    return out


def from_json(data: Mapping[str, Any]) -> GameEvent | None:
    """The event of a journal line; None for an outcome this version no longer records.

    The fields are read by their types (:func:`blindchess.base.decode_fields`); keys the event does
    not have are left out (earlier versions' ``message``, ``article``) — for a note they are its
    ``data``. Raises KeyError for an unknown type or a missing field, TypeError/ValueError for a
    value of the wrong kind (a damaged or edited line).
    """
    kind = data["type"]
    if kind in RETIRED_TYPES:
        return None
    cls = EVENTS[str(kind)]
    t = data.get("t", 0.0)
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        raise TypeError(f"time {t!r}")
    seq = data.get("seq", 0)
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise TypeError(f"seq {seq!r}")
    values = decode_fields(cls, data, skip=("t", "seq", "data"))
    if cls is Note:
        names = {f.name for f in dataclasses.fields(Note)}
        values["data"] = {k: v for k, v in data.items() if k not in names and k not in _JOURNAL_KEYS}
    return cls(t=float(t), seq=seq, **values)


# ====================================================================== field helpers
def color_name(color: chess.Color) -> Color:
    """"white" / "black"."""
    return "white" if color == chess.WHITE else "black"


def parse_color(value: object) -> chess.Color:
    """``chess.WHITE``/``chess.BLACK`` or "white"/"black" ("w"/"b"); ValueError otherwise."""
    if isinstance(value, bool):
        return value
    if value in ("white", "w", "White", "WHITE"):
        return chess.WHITE
    if value in ("black", "b", "Black", "BLACK"):
        return chess.BLACK
    raise ValueError(f"not a colour: {value!r}")


def seconds(x: float | None) -> float | None:
    """A time for an event: rounded to ms, None for "no limit"."""
    return None if x is None or math.isinf(x) else round(x, 3)

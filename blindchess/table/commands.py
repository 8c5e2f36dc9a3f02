"""What happens at the table, as data: one frozen dataclass per input (pure).

A front end — the Qt window, the scenario runner, the command line — turns what a person
or a device did into one of these commands and hands it to
:meth:`blindchess.table.Table.handle` with the time: ``table.handle(ClockPress(chess.WHITE),
now)``. The table applies every command with one ``match``, as the rules engine's
:meth:`~blindchess.game.core.Rules.apply` applies its inputs. A command says who did what
in the table's closed vocabularies — ``chess.Color``, ``chess.Move``, ``chess.Square``,
the players ``"blind"``/``"sighted"`` (:data:`~blindchess.table.setup.Who`) —; what a
person typed or a device sent is read into these types once, at the edge. Text that the
table itself must read in the game's language (a move typed in any notation, a phrase
heard) is given as the text.

A command that names a closed vocabulary checks it when it is built (ValueError for a
claim, a wording or a result the table does not know), before anything reaches the
table.

=============================  ===============================================================
the devices and time           :class:`PegLine`, :class:`PegInput`, :class:`EBoardInput`, :class:`Tick`
the blind player               :class:`BlindSays`, :class:`Answers`, :class:`TactileMove`
the sighted side               :class:`SightedMove`, :class:`SightedTouch`, :class:`SightedSays`
either player                  :class:`Resigns`, :class:`OffersDraw`, :class:`Claims`,
                               :class:`ClaimsQuickplay`, :class:`ClaimsSetup`, :class:`ClaimsTouch`,
                               :class:`PointsOutClock`, :class:`AgreesCorrection`, :class:`Seals`,
                               :class:`ClockPress`, :class:`Request`
the arbiter                    :class:`ArbiterApply`, :class:`ArbiterRetrace`, :class:`ArbiterResult`,
                               :class:`ArbiterQuickplay`, :class:`ArbiterAdjourn`,
                               :class:`ArbiterResume`, :class:`ArbiterResumeAbsent`,
                               :class:`ArbiterResumeSealerAbsent`, :class:`ArbiterLate`,
                               :class:`ArbiterAnnul`, :class:`ArbiterPause`, :class:`ArbiterContinue`,
                               :class:`ArbiterToggleClock`, :class:`ArbiterSetClock`,
                               :class:`AmendScore`
the voice                      :class:`SetWording`, :class:`Repeat`, :class:`StopSpeech`,
                               :class:`Reading`, :class:`Finish`
practice against the computer  :class:`ConnectEngine`, :class:`EngineMove`, :class:`EngineFailed`,
                               :class:`TakesBack`
=============================  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

import chess

from ..game import ClaimKind, QuickplayGround, QuickplayVerdict
from ..language import WORDINGS, Wording
from ..pegboard import InputEvent
from .opponent import MoveChooser
from .setup import Answer, SetupFault, Who

__all__ = [
    "PegLine", "PegInput", "EBoardInput", "Tick", "BlindSays", "Answers", "SightedMove", "TactileMove",
    "SightedTouch", "SightedSays", "Resigns", "OffersDraw", "Claims", "ClaimsQuickplay", "ArbiterResult",
    "ArbiterQuickplay", "ArbiterAdjourn", "Seals", "ArbiterResume", "ArbiterResumeAbsent",
    "ArbiterResumeSealerAbsent", "ArbiterLate", "ArbiterAnnul", "ClaimsSetup", "ClaimsTouch", "PointsOutClock",
    "AgreesCorrection", "SetupFault", "ArbiterPause",
    "ArbiterContinue", "ArbiterToggleClock", "ArbiterSetClock", "AmendScore", "ClockPress", "ArbiterApply",
    "ArbiterRetrace", "Request", "SetWording", "Repeat", "StopSpeech", "Reading", "Finish", "ConnectEngine",
    "EngineMove", "EngineFailed", "TakesBack", "Command", "GameResult",
]

#: A result the arbiter decides (Art. 12.9, Guidelines I.10).
GameResult = Literal["1-0", "0-1", "1/2-1/2"]


# ---------------------------------------------------------------- the devices and time
@dataclass(frozen=True)
class PegLine:
    """One line from the peg-board (``L e2``, ``P e4``, ``S …``, ``I …``; boards/PROTOCOL.md). A line the
    protocol cannot read asks the board for a snapshot (events may be lost)."""

    text: str


@dataclass(frozen=True)
class PegInput:
    """A parsed peg-board event (Lift, Place, Snapshot, PieceUpdate), as the serial link delivers it."""

    event: InputEvent


@dataclass(frozen=True)
class EBoardInput:
    """A raw event of the sighted player's DGT e-board (PieceUpdate, Snapshot); nothing without one."""

    event: InputEvent


@dataclass(frozen=True)
class Tick:
    """Time passes: the pegs settle, speech ends and begins, flags fall, warnings come due."""


# ---------------------------------------------------------------- the players
@dataclass(frozen=True)
class BlindSays:
    """What the recogniser heard from the blind player (``confidence`` 0..1), or what was typed for him
    (None). Without an electronic tactile board his announcement of a move also makes it on his board
    (his hands carry it out unseen, D.2.3)."""

    text: str
    confidence: float | None = None


@dataclass(frozen=True)
class Answers:
    """``who`` answers the open question by keys or a button: 1…n (the candidate), "yes" or "no"."""

    who: Who
    answer: Answer


@dataclass(frozen=True)
class SightedMove:
    """A move on the sighted board: the sighted player's own (made, D.2.5) or a mirror. ``move`` as a
    ``chess.Move``, or as typed — UCI, any notation or a spoken phrase in the game's language (an
    unreadable one is refused)."""

    move: chess.Move | str


@dataclass(frozen=True)
class TactileMove:
    """Without a peg-board: the move made on the tactile board, entered by hand (as :class:`SightedMove`)."""

    move: chess.Move | str


@dataclass(frozen=True)
class SightedTouch:
    """The sighted player touched the piece on ``square`` (D.2.5; the assistant reports it, D.2.10 e)."""

    square: chess.Square


@dataclass(frozen=True)
class SightedSays:
    """What the sighted side said or typed: answers ("ja", "nein"), a draw offer or claim, resignation."""

    text: str


@dataclass(frozen=True)
class Resigns:
    """``who`` wants to resign: asked first (nothing ends before the answer)."""

    who: Who


@dataclass(frozen=True)
class OffersDraw:
    """``who`` offers a draw, or — when the opponent's offer stands — is asked to confirm accepting it."""

    who: Who


@dataclass(frozen=True)
class Claims:
    """``who`` claims a draw by threefold repetition or fifty moves (Art. 9.2, 9.3; with ``move``, the move
    he declares he will make, read as a move on his board is), the opponent's flag (Art. 6.8, D.2.10 e) or
    an illegal move (rapid and blitz without adequate supervision). ValueError for an unknown kind."""

    who: Who
    kind: ClaimKind
    move: chess.Move | str | None = None

    def __post_init__(self) -> None:
        if self.kind not in get_args(ClaimKind):
            raise ValueError(f"no such claim: {self.kind!r}")


@dataclass(frozen=True)
class ClaimsQuickplay:
    """``who`` claims a draw with under two minutes left (Guidelines III.4: the opponent cannot win by
    normal means, or makes no effort to); the clocks stop and the arbiter decides."""

    who: Who
    ground: QuickplayGround


@dataclass(frozen=True)
class ClaimsSetup:
    """``who`` claims that the pieces, the board's orientation or the clock were set up wrongly (Appendix A a:
    in rapid and blitz without adequate supervision only until each player has made three moves). ValueError
    for an unknown fault."""

    who: Who
    fault: SetupFault

    def __post_init__(self) -> None:
        if self.fault not in get_args(SetupFault):
            raise ValueError(f"no such set-up fault: {self.fault!r}")


@dataclass(frozen=True)
class ClaimsTouch:
    """``who`` claims that his opponent touched a piece in his last move and did not move or capture it
    (Art. 4.3; without adequate supervision the arbiter rules on it only on such a claim, Appendix A b)."""

    who: Who


@dataclass(frozen=True)
class PointsOutClock:
    """``who`` points out, before the first move at the resumption, that a clock is wrongly set or was not
    started (Guidelines I.13): it is corrected."""

    who: Who


@dataclass(frozen=True)
class AgreesCorrection:
    """``who`` agrees to correct the illegal move that stands (blitz without adequate supervision: once the
    opponent has moved, only by both players' agreement, Appendix B); corrected when both have agreed."""

    who: Who


@dataclass(frozen=True)
class Seals:
    """``who`` writes (or says) his sealed move (Guidelines I.1); never said or shown back."""

    who: Who
    text: str


@dataclass(frozen=True)
class ClockPress:
    """The player of ``color`` presses the clock (refused unless his move has been made, D.2.4)."""

    color: chess.Color


@dataclass(frozen=True)
class Request:
    """A request answered only because it was asked (D.2.10 d): "time", "moves", "last_move", "square",
    "pieces", "position", the lookups ("captures", "around", "opponent", "last_capture", "move_list",
    "step" to half-move ``ply``). The answer is said to ``by`` (the blind player) or shown."""

    what: str
    by: Who = "blind"
    square: chess.Square | None = None
    piece_type: chess.PieceType | None = None
    color: chess.Color | None = None
    ply: int | None = None


# ---------------------------------------------------------------- the arbiter
@dataclass(frozen=True)
class ArbiterApply:
    """The arbiter applies the ruling D.2.9 gives now (refused when there is none)."""


@dataclass(frozen=True)
class ArbiterRetrace:
    """The arbiter retraces to ``plies`` half-moves of the game (D.2.9, his own decision)."""

    plies: int


@dataclass(frozen=True)
class ArbiterResult:
    """The arbiter decides the result (Art. 12.9, Guidelines I.10); refused once the game is over.
    ValueError for any other text."""

    result: GameResult

    def __post_init__(self) -> None:
        if self.result not in get_args(GameResult):
            raise ValueError(f"no result {self.result!r}")


@dataclass(frozen=True)
class ArbiterQuickplay:
    """The arbiter decides the quickplay-finish claim (Guidelines III.5)."""

    verdict: QuickplayVerdict


@dataclass(frozen=True)
class ArbiterAdjourn:
    """The arbiter adjourns the game (Guidelines I.1 a): the player to move seals his move. ``session_end``:
    the session's scheduled end (the table's time) when the game is adjourned before it (I.1 b) — the
    sealing counts as made then."""

    session_end: float | None = None


@dataclass(frozen=True)
class ArbiterResume:
    """The arbiter resumes the adjourned game: the envelope is opened, the sealed move made (I.7, I.9 a);
    without a whole envelope play goes on without it (I.12)."""


@dataclass(frozen=True)
class ArbiterResumeAbsent:
    """The arbiter resumes while the player who must reply is absent: his clock is started, the envelope
    stays closed until he arrives (Guidelines I.9 b; then :class:`ArbiterResume`)."""


@dataclass(frozen=True)
class ArbiterResumeSealerAbsent:
    """The arbiter resumes while the player who sealed is absent: the envelope is opened, the sealed move
    made, and his opponent seals his reply in a new envelope instead of making it (Guidelines I.9 c); the new
    envelope is opened when the absent player arrives (:class:`ArbiterResume`)."""


@dataclass(frozen=True)
class ArbiterLate:
    """The player of ``color`` has not come by the default time (Guidelines I.10, Art. 6.7): he loses —
    unless the sealed move in the closed envelope ends the game by itself (mate, stalemate, a dead
    position), which then decides the result."""

    color: chess.Color


@dataclass(frozen=True)
class ArbiterAnnul:
    """The arbiter annuls the game: a new game is to be played (the position cannot be re-established,
    Guidelines I.12 b; a wrong initial position claimed in time, Art. 7.2.1)."""


@dataclass(frozen=True)
class ArbiterPause:
    """The arbiter stops the clock."""


@dataclass(frozen=True)
class ArbiterContinue:
    """The arbiter starts the clock again after :class:`ArbiterPause`."""


@dataclass(frozen=True)
class ArbiterToggleClock:
    """The arbiter stops the clock, or starts it again when he had stopped it (nothing without a clock)."""


@dataclass(frozen=True)
class ArbiterSetClock:
    """The arbiter sets the remaining time of ``color`` (D.2.9: he readjusts the clocks)."""

    color: chess.Color
    seconds: float


@dataclass(frozen=True)
class AmendScore:
    """Entry ``index`` (0-based) of ``who``'s score is written or corrected by hand (the keeper, the
    arbiter). Refused when there is no such entry (an entry may be added only right after the last); the
    proposed ruling follows the amended score."""

    who: Who
    index: int
    text: str


# ---------------------------------------------------------------- the voice
@dataclass(frozen=True)
class SetWording:
    """From now on the blind player hears moves and squares in ``wording`` (noted in the journal, so a
    resumed game keeps it). ValueError for an unknown wording."""

    wording: Wording

    def __post_init__(self) -> None:
        if self.wording not in WORDINGS:
            raise ValueError(f"wording must be one of {', '.join(WORDINGS)}: {self.wording!r}")


@dataclass(frozen=True)
class Repeat:
    """Say the last announcement again."""


@dataclass(frozen=True)
class StopSpeech:
    """The listener stopped the voice."""


@dataclass(frozen=True)
class Reading:
    """The window's own speech (board cursor, menus): the lowest priority, never cuts an announcement."""

    text: str


@dataclass(frozen=True)
class Finish:
    """Everything still to be said is said to the end (the end of a script or of the program)."""


# ---------------------------------------------------------------- practice against the computer
@dataclass(frozen=True)
class ConnectEngine:
    """Practice games: the engine is there. ``chooser`` is asked when the computer's turn begins; None:
    the table asks with ``DeviceRequest(device="engine", what="move", fen)`` and the front answers with
    :class:`EngineMove` / :class:`EngineFailed`. Nothing in other games."""

    chooser: MoveChooser | None


@dataclass(frozen=True)
class EngineMove:
    """The engine's answer to the request for position ``fen``: played when due (dropped when stale)."""

    move: chess.Move
    fen: str


@dataclass(frozen=True)
class EngineFailed:
    """The engine failed (``message``: one sentence): said and shown; the game stands as it is."""

    message: str


@dataclass(frozen=True)
class TakesBack:
    """Practice with coaching: the blind player's last move and the computer's reply are taken back
    (refused otherwise)."""


#: Every input at the table.
Command = (PegLine | PegInput | EBoardInput | Tick | BlindSays | Answers | SightedMove | TactileMove | SightedTouch
           | SightedSays | Resigns | OffersDraw | Claims | ClaimsQuickplay | ClaimsSetup | ClaimsTouch
           | PointsOutClock | AgreesCorrection | Seals | ClockPress | Request
           | ArbiterApply | ArbiterRetrace | ArbiterResult | ArbiterQuickplay | ArbiterAdjourn | ArbiterResume
           | ArbiterResumeAbsent | ArbiterResumeSealerAbsent | ArbiterLate | ArbiterAnnul | ArbiterPause | ArbiterContinue | ArbiterToggleClock | ArbiterSetClock | AmendScore
           | SetWording | Repeat | StopSpeech | Reading | Finish | ConnectEngine | EngineMove | EngineFailed
           | TakesBack)

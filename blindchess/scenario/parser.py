"""Scenario scripts: the text of a game at the table, read into a :class:`Script`.

A scenario script (extension ``.scn``) is UTF-8 text. ``#`` at the start of a
line or after white space starts a comment (so ``Dxf7#`` in a spoken text stays
whole); blank lines are ignored. Header lines ``@name value`` come first, then
one action a line, ``TIME ACTOR VERB [ARGUMENTS]`` with TIME in seconds from
the start, never decreasing::

    @white Bernd Blind
    @time 90+30
    0.0  peg     L e2
    0.4  peg     P e4
    0.6  blind   says Bauer Eva vier | 0.9
    1.0  sighted move e2e4
    1.5  clock   press white
    3.0  app     crash

:func:`parse` reads a script into a :class:`Script` — the table's
:class:`~blindchess.table.setup.TableSetup` from the headers and the actions in
time order — or raises :class:`ScriptError` (a
:class:`~blindchess.base.errors.UserError`, exit code 2, one line naming the line
number in the user's language) before anything is run or written.

What the script language knows is written down in two tables, so a header or a
verb is a few lines: :data:`HEADER_READERS` (header name -> how its value
changes the setup) and :data:`ACTORS` (actor -> what it needs of the setup and
its verbs, each verb -> how its arguments become an action). An action is a
frozen dataclass: a line that is an input at the table carries the table's command
(:class:`TableAction`: the script's words read into ``chess.Color``, ``chess.Move``,
squares and the table's names once, here); the program's crash and the e-board's
hands are actions of their own. :func:`blindchess.scenario.runner.perform` says what
each one does.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar, get_args

import chess

from ..adapters import level as engine_level
from ..base import (
    MAX_HEADER_CHARS,
    MAX_SCRIPT_LINE_CHARS,
    MAX_SCRIPT_LINES,
    MAX_SECONDS,
    MAX_SETTLE,
    UserError,
    counters_ok,
    read_bytes,
    tr,
)
from ..game import ClaimKind, QuickplayGround, QuickplayVerdict
from ..laws import TimeControl
from ..pegboard import ProtocolError, parse_line
from ..table import (
    AgreesCorrection,
    Answers,
    ArbiterAdjourn,
    ArbiterAnnul,
    ArbiterApply,
    ArbiterLate,
    ArbiterQuickplay,
    ArbiterResult,
    ArbiterResume,
    ArbiterResumeAbsent,
    ArbiterResumeSealerAbsent,
    ArbiterRetrace,
    ArbiterSetClock,
    BlindSays,
    Claims,
    ClaimsQuickplay,
    ClaimsSetup,
    ClaimsTouch,
    ClockPress,
    Command,
    GameResult,
    PegLine,
    PointsOutClock,
    Seals,
    SetupFault,
    SightedMove,
    SightedSays,
    SightedTouch,
    TableSetup,
    Who,
)
from .devices import peg_change

__all__ = [
    "SCRIPT_SUFFIX", "HEADERS", "GAME_HEADERS", "HEADER_READERS", "ACTORS",
    "ScriptError", "Script", "Action", "HeaderLine", "ActionLine", "Actor",
    "TableAction", "AppCrash", "AppEnvelopeLost", "EBoardLift", "EBoardPlace", "EBoardCable",
    "parse", "read_script",
]

#: The file name extension of scenario scripts (``tests/scenarios/*.scn``).
SCRIPT_SUFFIX = ".scn"

#: Header names that become the game's headers (PGN tag pairs) as they are.
GAME_HEADERS = {"event": "Event", "site": "Site", "date": "Date", "round": "Round", "board": "Board",
                "white-elo": "WhiteElo", "black-elo": "BlackElo", "white-title": "WhiteTitle", "black-title": "BlackTitle",
                "white-fide-id": "WhiteFideId", "black-fide-id": "BlackFideId", "utc-date": "UTCDate", "utc-time": "UTCTime"}

_LANGS = ("de", "en", "nl", "ru")
_BLIND = ("white", "black", "both", "none")
_TACTILE = ("pegboard", "none")
_SIGHTED_BOARDS = ("dgt",)
_COMMENT = re.compile(r"(?:^|(?<=\s))#")

T = TypeVar("T", bound=str)


# ---------------------------------------------------------------------------
# Errors

class ScriptError(UserError):
    """A script that cannot be run: the message names the file and the line (exit code 2)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message, 2)
        self.line = line


def _bounded(reading: _Reading, line: int, problem: str) -> ScriptError:
    """A line beyond the limits every reader keeps (:mod:`blindchess.base.bounds`)."""
    return ScriptError(tr("scenario.script_line", reading.lang, file=reading.source, line=line, problem=problem), line)


def _error(lang: str, source: str, line: int, key: str, **params: object) -> ScriptError:
    problem = tr(f"scenario.{key}", lang, **params)
    return ScriptError(tr("scenario.script_line", lang, file=source, line=line, problem=problem), line)


# ---------------------------------------------------------------------------
# The actions

@dataclass(frozen=True)
class _Action:
    line: int
    t: float


@dataclass(frozen=True)
class TableAction(_Action):
    """A line that is an input at the table: ``command`` is the table's command for it
    (:mod:`blindchess.table.commands`), read from the line's words once, here."""
    command: Command


@dataclass(frozen=True)
class AppCrash(_Action):
    """``app crash``: the program is killed at once and started again from the journal."""


@dataclass(frozen=True)
class AppEnvelopeLost(_Action):
    """``app envelope-lost``: the sealed envelope kept beside the journal is gone (a file deleted, a disk
    lost); the arbiter resumes without it (Guidelines I.12)."""


@dataclass(frozen=True)
class EBoardLift(_Action):
    """``eboard L SQ``: a piece lifted from the sighted player's e-board."""
    square: str


@dataclass(frozen=True)
class EBoardPlace(_Action):
    """``eboard P SQ PIECE``: a piece (FEN letter) set down on the e-board."""
    square: str
    piece: str

    @property
    def text(self) -> str:
        """The action as the DGT helpers read it (``P e4 P``)."""
        return f"P {self.square} {self.piece}"


@dataclass(frozen=True)
class EBoardCable(_Action):
    """``eboard unplug`` / ``eboard plug``: the e-board's cable pulled out or put back."""
    plugged: bool


#: A script line: an input at the table, or what happens to the program and the devices around it.
Action = TableAction | AppCrash | AppEnvelopeLost | EBoardLift | EBoardPlace | EBoardCable


# ---------------------------------------------------------------------------
# The script

@dataclass
class Script:
    """A parsed scenario: the table's setup from the headers (defaults applied) and the actions in time order.

    ``setup.headers`` holds the game's headers (PGN tag names: Event, Site, Date,
    Round); ``header_lines`` maps each header given (``"@time"``) to its line number.
    """
    setup: TableSetup = field(default_factory=TableSetup)
    source: str = "-"
    header_lines: dict[str, int] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)

    @property
    def end(self) -> float:
        """The time of the last action (0.0 for a script without actions)."""
        return self.actions[-1].t if self.actions else 0.0

    def start_board(self) -> chess.Board:
        """The game's start position."""
        if self.setup.chess960 is not None:
            return chess.Board.from_chess960_pos(self.setup.chess960)
        if self.setup.start_fen is not None:
            return chess.Board(self.setup.start_fen, chess960=_is_960_fen(self.setup.start_fen))
        return chess.Board()


def _is_960_fen(fen: str) -> bool:
    """A FEN whose castling field names rook files (Shredder/X-FEN) is a Chess960 position."""
    parts = fen.split()
    return len(parts) > 2 and any(c not in "KQkq-" for c in parts[2])


class _Reading:
    """A script being read: where it comes from, the user's language, what its lines gave so far."""

    def __init__(self, source: str, lang: str) -> None:
        self.source = source
        self.lang = lang
        self.setup = TableSetup(lang=lang)     # the table speaks the user's language unless the script says @lang
        self.tags: dict[str, str] = {}
        self.header_lines: dict[str, int] = {}
        #: ``@opponent engine``: (level, coaching). Set on the setup once every header is read, since
        #: the table plays the computer only against exactly one blind player (``@blind`` may come later).
        self.opponent: tuple[int, bool] | None = None

    def error(self, line: int, key: str, **params: object) -> ScriptError:
        return _error(self.lang, self.source, line, key, **params)


# ---------------------------------------------------------------------------
# Headers: name -> how its value changes the setup

@dataclass(frozen=True)
class HeaderLine:
    """One header line being read (``@name value``) and the script read so far."""

    name: str
    value: str
    line: int
    reading: _Reading

    def given(self, name: str) -> bool:
        """Whether header ``name`` (without ``@``) came before this line."""
        return "@" + name in self.reading.header_lines

    def bad(self, **limits: object) -> ScriptError:
        """The error for a value this header does not take (naming what it takes; ``limits`` fill it in)."""
        lang = self.reading.lang
        return self.reading.error(self.line, "header_value", name=self.name, value=self.value,
                                  expected=tr(f"scenario.expect_{self.name}", lang, **limits))

    def one_of(self, choices: tuple[str, ...]) -> str:
        """The value in lower case when it is one of ``choices``; else :meth:`bad` is raised."""
        value = self.value.lower()
        if value not in choices:
            raise self.bad()
        return value


def _white(h: HeaderLine) -> None:
    h.reading.setup = replace(h.reading.setup, white=h.value)


def _black(h: HeaderLine) -> None:
    h.reading.setup = replace(h.reading.setup, black=h.value)


def _blind(h: HeaderLine) -> None:
    blind = h.one_of(_BLIND)
    setup = h.reading.setup
    tactile = setup.tactile if h.given("tactile") else ("none" if blind == "none" else "pegboard")
    h.reading.setup = replace(setup, blind=blind, tactile=tactile)


def _time(h: HeaderLine) -> None:
    control: str | None = None
    if h.value.lower() not in ("none", "-"):
        try:
            parsed = TimeControl.parse(h.value)
        except ValueError as exc:
            raise h.bad() from exc
        control = None if parsed is None else h.value
    h.reading.setup = replace(h.reading.setup, time_control=control)


def _start(h: HeaderLine) -> None:
    if h.given("chess960"):
        raise h.reading.error(h.line, "start_and_960")
    try:
        board = chess.Board(h.value, chess960=_is_960_fen(h.value))
    except ValueError as exc:
        raise h.bad() from exc
    if not board.is_valid() or not counters_ok(board.halfmove_clock, board.fullmove_number):
        raise h.bad()
    h.reading.setup = replace(h.reading.setup, start_fen=h.value)


def _chess960(h: HeaderLine) -> None:
    if h.given("start"):
        raise h.reading.error(h.line, "start_and_960")
    if not h.value.isdigit() or not 0 <= int(h.value) <= 959:
        raise h.bad()
    h.reading.setup = replace(h.reading.setup, chess960=int(h.value))


def _lang(h: HeaderLine) -> None:
    h.reading.setup = replace(h.reading.setup, lang=h.one_of(_LANGS))


def _tactile(h: HeaderLine) -> None:
    h.reading.setup = replace(h.reading.setup, tactile=h.one_of(_TACTILE))


def _settle(h: HeaderLine) -> None:
    try:
        settle = float(h.value)
    except ValueError as exc:
        raise h.bad(max=f"{MAX_SETTLE:g}") from exc
    if not math.isfinite(settle) or not 0 < settle <= MAX_SETTLE:
        raise h.bad(max=f"{MAX_SETTLE:g}")
    h.reading.setup = replace(h.reading.setup, settle=settle)


def _assistant(h: HeaderLine) -> None:
    h.reading.setup = replace(h.reading.setup, assistant=h.value or None)


def _opponent(h: HeaderLine) -> None:
    words = h.value.split()
    if words[0].lower() != "engine" or len(words) > 3:
        raise h.bad()
    rest = words[1:]
    coaching = bool(rest) and rest[-1].lower() == "coaching"
    if coaching:
        rest = rest[:-1]
    if len(rest) > 1:
        raise h.bad()
    try:
        chosen = engine_level(rest[0] if rest else None)
    except UserError as exc:
        raise h.bad() from exc
    h.reading.opponent = (chosen.number, coaching)


def _sighted_board(h: HeaderLine) -> None:
    h.reading.setup = replace(h.reading.setup, sighted_board=h.one_of(_SIGHTED_BOARDS))


def _rules(h: HeaderLine) -> None:
    """``@rules standard|rapid|blitz [unsupervised]`` (Appendices A, B; A.3 adequate supervision)."""
    words = h.value.lower().split()
    if not words or words[0] not in ("standard", "rapid", "blitz") or words[1:] not in ([], ["unsupervised"]):
        raise h.bad()
    h.reading.setup = replace(h.reading.setup, rules=words[0], supervised=len(words) == 1)


def _press_mode(h: HeaderLine) -> None:
    """``@press auto|hand``: the app presses the clock as soon as a move is made (its own mode), or the
    players press (default)."""
    h.reading.setup = replace(h.reading.setup, auto_press=h.one_of(("auto", "hand")) == "auto")


def _game_tag(tag: str) -> Callable[[HeaderLine], None]:
    def read(h: HeaderLine) -> None:
        h.reading.tags[tag] = h.value
    return read


#: Every header: name -> how its value changes the setup (raising :meth:`HeaderLine.bad` for a value it
#: does not take). The order is the one the error for an unknown header lists them in.
HEADER_READERS: dict[str, Callable[[HeaderLine], None]] = {
    "white": _white,
    "black": _black,
    "blind": _blind,
    "time": _time,
    "start": _start,
    "chess960": _chess960,
    "lang": _lang,
    "tactile": _tactile,
    "settle": _settle,
    "assistant": _assistant,
    "opponent": _opponent,
    "sighted-board": _sighted_board,
    "rules": _rules,
    "press": _press_mode,
    **{name: _game_tag(tag) for name, tag in GAME_HEADERS.items()},
}
#: Headers that may be given without a value.
_MAY_BE_EMPTY = frozenset({"assistant"})
#: The header names, in order.
HEADERS = tuple(HEADER_READERS)


def _header(reading: _Reading, body: str, line: int) -> None:
    name, _, value = body[1:].partition(" ")
    name, value = name.strip().lower(), value.strip()
    read = HEADER_READERS.get(name)
    if read is None:
        raise reading.error(line, "unknown_header", name=name, names=", ".join("@" + h for h in HEADERS))
    if "@" + name in reading.header_lines:
        raise reading.error(line, "header_twice", name=name)
    header = HeaderLine(name, value, line, reading)
    if len(value) > MAX_HEADER_CHARS:
        raise _bounded(reading, line, tr("bounds.value", reading.lang, what="@" + name, limit=MAX_HEADER_CHARS))
    if not value and name not in _MAY_BE_EMPTY:
        raise header.bad()
    reading.header_lines["@" + name] = line
    read(header)


# ---------------------------------------------------------------------------
# Actions: actor -> verbs -> how the arguments become an action

@dataclass(frozen=True)
class ActionLine:
    """One action line being read: its time, actor, verb (as the table of verbs spells it) and arguments."""

    line: int
    t: float
    actor: str
    verb: str
    rest: str
    body: str
    reading: _Reading

    @property
    def setup(self) -> TableSetup:
        """The table's setup as the headers gave it."""
        return self.reading.setup

    def bad(self, expected: str) -> ScriptError:
        """The error for arguments the verb does not take; ``expected`` names what it takes (``expect_…``)."""
        return self.reading.error(self.line, "bad_args", text=self.body,
                                  expected=tr(f"scenario.expect_{expected}", self.reading.lang))

    def nothing_more(self) -> None:
        """Raise :meth:`bad` when the verb, which takes no arguments, has some."""
        if self.rest:
            raise self.bad("nothing")


def _peg(a: ActionLine) -> Action:
    text = f"{a.verb} {a.rest}".strip()
    message = parse_line(text.encode("utf-8"), a.t)
    if a.verb != "I" and (isinstance(message, ProtocolError) and message.kind != "checksum" or message is None):
        raise a.bad("peg")
    if isinstance(message, ProtocolError) and message.kind == "checksum" and peg_change(text) is None:
        raise a.bad("peg")
    return TableAction(a.line, a.t, PegLine(text))


def _says_with_confidence(a: ActionLine) -> Action:
    said, bar, conf = a.rest.rpartition("|")
    if not bar:
        said, conf = a.rest, ""
    said = said.strip()
    if not said:
        raise a.bad("says")
    confidence = 1.0
    if bar:
        try:
            confidence = float(conf)
        except ValueError as exc:
            raise a.bad("says") from exc
        if not 0.0 <= confidence <= 1.0:
            raise a.bad("says")
    return TableAction(a.line, a.t, BlindSays(said, confidence))


def _answer(a: ActionLine) -> Action:
    word = a.rest.lower()
    if word in ("yes", "no"):
        return TableAction(a.line, a.t, Answers("blind", "yes" if word == "yes" else "no"))
    if word.isdigit() and int(word) >= 1:
        return TableAction(a.line, a.t, Answers("blind", int(word)))
    raise a.bad("answer")


def _move(a: ActionLine) -> Action:
    try:
        move = chess.Move.from_uci(a.rest.lower())
    except ValueError as exc:
        raise a.bad("move") from exc
    if not move:
        raise a.bad("move")
    return TableAction(a.line, a.t, SightedMove(move))


def _touch(a: ActionLine) -> Action:
    if a.rest.lower() not in chess.SQUARE_NAMES:
        raise a.bad("square")
    return TableAction(a.line, a.t, SightedTouch(chess.parse_square(a.rest.lower())))


def _says(a: ActionLine) -> Action:
    if not a.rest:
        raise a.bad("says")
    return TableAction(a.line, a.t, SightedSays(a.rest))


def _press(a: ActionLine) -> Action:
    if a.rest.lower() not in ("white", "black"):
        raise a.bad("color")
    return TableAction(a.line, a.t, ClockPress(chess.WHITE if a.rest.lower() == "white" else chess.BLACK))


def _apply(a: ActionLine) -> Action:
    a.nothing_more()
    return TableAction(a.line, a.t, ArbiterApply())


def _retrace(a: ActionLine) -> Action:
    if not a.rest.isdigit():
        raise a.bad("plies")
    return TableAction(a.line, a.t, ArbiterRetrace(int(a.rest)))


def _crash(a: ActionLine) -> Action:
    a.nothing_more()
    return AppCrash(a.line, a.t)


def _envelope_lost(a: ActionLine) -> Action:
    a.nothing_more()
    return AppEnvelopeLost(a.line, a.t)


def _cable(a: ActionLine) -> Action:
    a.nothing_more()
    return EBoardCable(a.line, a.t, a.verb == "plug")


def _eboard_lift(a: ActionLine) -> Action:
    args = a.rest.split()
    if len(args) != 1 or args[0].lower() not in chess.SQUARE_NAMES:
        raise a.bad("eboard")
    return EBoardLift(a.line, a.t, args[0].lower())


def _eboard_place(a: ActionLine) -> Action:
    args = a.rest.split()
    if len(args) != 2 or args[0].lower() not in chess.SQUARE_NAMES or len(args[1]) != 1 \
            or args[1] not in "PNBRQKpnbrqk":
        raise a.bad("eboard")
    return EBoardPlace(a.line, a.t, args[0].lower(), args[1])


def _one_of(word: str, names: tuple[T, ...]) -> T | None:
    """``word`` (any case) as one of ``names``, None when it is none of them."""
    return next((name for name in names if name == word.lower()), None)


def _claims(a: ActionLine) -> Action:
    word, _, move = a.rest.partition(" ")
    who: Who = "blind" if a.actor == "blind" else "sighted"
    if word.lower() == "setup":
        fault = _one_of(move.strip(), get_args(SetupFault))
        if fault is None:
            raise a.bad("claim")
        return TableAction(a.line, a.t, ClaimsSetup(who, fault))
    if word.lower() in ("touch", "clock"):
        if move.strip():
            raise a.bad("claim")
        return TableAction(a.line, a.t, ClaimsTouch(who) if word.lower() == "touch" else PointsOutClock(who))
    if word.lower() == "quickplay":
        ground = _one_of(move.strip(), get_args(QuickplayGround))
        if ground is None:
            raise a.bad("claim")
        return TableAction(a.line, a.t, ClaimsQuickplay(who, ground))
    kind = _one_of(word, get_args(ClaimKind))
    if kind is None or (move.strip() and kind not in ("threefold", "fifty")):
        raise a.bad("claim")
    return TableAction(a.line, a.t, Claims(who, kind, move.strip() or None))


def _quickplay(a: ActionLine) -> Action:
    verdict = _one_of(a.rest.strip(), get_args(QuickplayVerdict))
    if verdict is None:
        raise a.bad("quickplay")
    return TableAction(a.line, a.t, ArbiterQuickplay(verdict))


def _seals(a: ActionLine) -> Action:
    if not a.rest:
        raise a.bad("seal")
    who: Who = "blind" if a.actor == "blind" else "sighted"
    return TableAction(a.line, a.t, Seals(who, a.rest))


def _adjourn(a: ActionLine) -> Action:
    """``arbiter adjourn [END]``: END the session's scheduled end (seconds on the script's clock) when the game
    is adjourned before it (Guidelines I.1 b)."""
    if not a.rest:
        return TableAction(a.line, a.t, ArbiterAdjourn())
    try:
        end = float(a.rest)
    except ValueError:
        end = math.nan
    if not math.isfinite(end) or not 0 <= end <= MAX_SECONDS:
        raise a.bad("session_end")
    return TableAction(a.line, a.t, ArbiterAdjourn(end))


def _late(a: ActionLine) -> Action:
    if a.rest.lower() not in ("white", "black"):
        raise a.bad("color")
    return TableAction(a.line, a.t, ArbiterLate(chess.WHITE if a.rest.lower() == "white" else chess.BLACK))


def _annul(a: ActionLine) -> Action:
    a.nothing_more()
    return TableAction(a.line, a.t, ArbiterAnnul())


def _clock(a: ActionLine) -> Action:
    """``arbiter clock white|black SECONDS``: the arbiter sets that clock's remaining time."""
    color, _, value = a.rest.partition(" ")
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if color.lower() not in ("white", "black") or not math.isfinite(seconds) or not 0 <= seconds <= MAX_SECONDS:
        raise a.bad("clock")
    return TableAction(a.line, a.t, ArbiterSetClock(chess.WHITE if color.lower() == "white" else chess.BLACK,
                                                    seconds))


def _agrees(a: ActionLine) -> Action:
    if a.rest.strip().lower() != "correction":
        raise a.bad("agrees")
    return TableAction(a.line, a.t, AgreesCorrection("blind" if a.actor == "blind" else "sighted"))


def _result(a: ActionLine) -> Action:
    result = _one_of(a.rest.strip().replace("½-½", "1/2-1/2"), get_args(GameResult))
    if result is None:
        raise a.bad("result")
    return TableAction(a.line, a.t, ArbiterResult(result))


def _resume(a: ActionLine) -> Action:
    if a.rest.strip().lower() == "absent":
        return TableAction(a.line, a.t, ArbiterResumeAbsent())
    if a.rest.strip().lower() == "sealer-absent":
        return TableAction(a.line, a.t, ArbiterResumeSealerAbsent())
    a.nothing_more()
    return TableAction(a.line, a.t, ArbiterResume())


def _always(setup: TableSetup) -> bool:
    return True


@dataclass(frozen=True)
class Actor:
    """Who acts in a script: the verbs he has (verb -> how its arguments become an action) and what the
    table must have for him (``needs``; otherwise the script error ``missing``)."""

    verbs: Mapping[str, Callable[[ActionLine], Action]]
    needs: Callable[[TableSetup], bool] = _always
    missing: str = ""


#: Every actor and his verbs, in the order the error for an unknown actor or verb lists them.
#: Verbs are matched regardless of case and spelt as written here.
ACTORS: dict[str, Actor] = {
    "peg": Actor({"L": _peg, "P": _peg, "S": _peg, "I": _peg},
                 needs=lambda setup: setup.tactile != "none", missing="no_pegboard"),
    "blind": Actor({"says": _says_with_confidence, "answer": _answer, "claims": _claims, "seals": _seals,
                    "agrees": _agrees},
                   needs=lambda setup: setup.blind != "none", missing="no_blind"),
    "sighted": Actor({"move": _move, "touch": _touch, "says": _says, "claims": _claims, "seals": _seals,
                      "agrees": _agrees}),
    "clock": Actor({"press": _press}),
    "arbiter": Actor({"apply": _apply, "retrace": _retrace, "adjourn": _adjourn, "resume": _resume, "result": _result,
                      "quickplay": _quickplay, "late": _late, "annul": _annul, "clock": _clock}),
    "app": Actor({"crash": _crash, "envelope-lost": _envelope_lost}),
    "eboard": Actor({"L": _eboard_lift, "P": _eboard_place, "unplug": _cable, "plug": _cable},
                    needs=lambda setup: setup.sighted_board == "dgt", missing="no_eboard"),
}


def _action(reading: _Reading, body: str, line: int) -> Action:
    parts = body.split(None, 3)
    if len(parts) < 3:
        raise reading.error(line, "too_short", text=body)
    try:
        t = float(parts[0])
    except ValueError:
        t = math.nan
    if not math.isfinite(t) or not 0 <= t <= MAX_SECONDS:
        raise reading.error(line, "bad_time", value=parts[0])
    name = parts[1].lower()
    actor = ACTORS.get(name)
    if actor is None:
        raise reading.error(line, "unknown_actor", actor=parts[1], actors=", ".join(ACTORS))
    verb = next((v for v in actor.verbs if v.lower() == parts[2].lower()), None)
    if verb is None:
        raise reading.error(line, "unknown_verb", actor=name, verb=parts[2], verbs=", ".join(actor.verbs))
    if not actor.needs(reading.setup):
        raise reading.error(line, actor.missing)
    rest = parts[3].strip() if len(parts) > 3 else ""
    return actor.verbs[verb](ActionLine(line, t, name, verb, rest, body, reading))


# ---------------------------------------------------------------------------
# Reading a script

def read_script(path: Path, lang: str) -> Script:
    """Read and parse the script file ``path``. Raises :class:`ScriptError` / :class:`UserError`."""
    # a regular file only, read bounded: /dev/zero or a FIFO is refused at once (never read for ever)
    data = read_bytes(path, lang)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise _error(lang, str(path), line, "not_utf8") from exc
    return parse(text, lang, source=str(path))


def _num(x: float) -> str:
    return f"{x:g}"


def parse(text: str, lang: str, *, source: str = "-") -> Script:
    """The script in ``text``; raises :class:`ScriptError` at the first bad line.

    ``lang`` is the user's language: the error messages' and the table's, unless the script
    names another with ``@lang``; ``source`` names the script in messages.
    """
    reading = _Reading(source, lang)
    actions: list[Action] = []
    previous = 0.0
    lines = text.splitlines()
    if len(lines) > MAX_SCRIPT_LINES:
        raise _bounded(reading, MAX_SCRIPT_LINES + 1, tr("bounds.lines", lang, what=source,
                                                                limit=MAX_SCRIPT_LINES))
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_SCRIPT_LINE_CHARS:
            raise _bounded(reading, number, tr("bounds.line_length", lang, limit=MAX_SCRIPT_LINE_CHARS))
        body = _COMMENT.split(raw, maxsplit=1)[0].strip()
        if not body:
            continue
        if body.startswith("@"):
            if actions:
                raise reading.error(number, "header_late", name=body.split()[0])
            _header(reading, body, number)
            continue
        action = _action(reading, body, number)
        if action.t < previous:
            raise reading.error(number, "time_backwards", t=_num(action.t), previous=_num(previous))
        previous = action.t
        actions.append(action)
    setup = replace(reading.setup, headers=dict(reading.tags))
    if reading.opponent is not None:
        if setup.blind not in ("white", "black"):
            raise reading.error(reading.header_lines["@opponent"], "opponent_blind")
        level, coaching = reading.opponent
        setup = replace(setup, opponent="engine", engine_level=level, coaching=coaching)
    return Script(setup, source, reading.header_lines, actions)

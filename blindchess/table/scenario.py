"""Scenario scripts: a game at the table, played headless on the script's clock (pure core).

A scenario script (format: issue 11, "Scenario script"; extension ``.scn``) is
UTF-8 text. ``#`` at the start of a line or after white space starts a comment
(so ``Dxf7#`` in a spoken text stays whole); blank lines are ignored. Header
lines ``@name value`` come first, then one action a line,
``TIME ACTOR VERB [ARGUMENTS]`` with TIME in seconds from the start, never
decreasing::

    @white Bernd Blind
    @time 90+30
    0.0  peg     L e2
    0.4  peg     P e4
    0.6  blind   says Bauer Eva vier | 0.9
    1.0  sighted move e2e4
    1.5  clock   press white
    3.0  app     crash

:func:`parse` reads a script into a :class:`Script` or raises :class:`ScriptError`
(a :class:`~blindchess.errors.UserError`, exit code 2, one line naming the line
number in the user's language) — before anything is written.

:func:`run` plays a script through a :class:`Front` (what a script action does
to the game). :class:`HeadlessFront` drives the very :class:`~blindchess.table.table.Table`
the app runs, with only Qt and real audio replaced; the UI supplies a front
that drives the window. The runner

* calls ``front.tick(t)`` at every action's time, and between actions at
  every moment something falls due (the pegs' settle time, the end of what is
  being said, a flag: ``front.next_due``, ``front.idle_at``) as the app's timer
  would, and at the end until nothing is pending (flags excepted) — so settle
  timers, speech and flags run on the script's clock (a four-hour game
  finishes in seconds);
* simulates the peg-board (:class:`PegBoardDevice`): it keeps the pegs as they
  stand, says hello (``I`` and ``S`` lines) at the start and after every
  ``app crash`` as a real board does when the link (re)connects, and answers
  the table's snapshot requests (``DeviceRequest`` events) with an ``S`` line;
* with ``@sighted-board dgt`` simulates the sighted player's DGT e-board
  (:class:`EBoardDevice`): ``eboard L SQ`` / ``eboard P SQ PIECE`` become DGT
  field-update bytes read by the real decoder (:func:`~blindchess.pegboard.dgt.eboard_events`)
  and go to the table as :class:`~blindchess.pegboard.tracker.PieceUpdate`
  events; the board keeps its pieces and answers dump requests (on connect,
  after ``app crash``, when the table asks) with a
  :class:`~blindchess.pegboard.tracker.Snapshot`. ``eboard unplug`` pulls the
  cable (nothing the hands do reaches the table, half a message is lost),
  ``eboard plug`` puts it back (the link asks for a board dump);
* collects every table event through ``front.subscribe`` and ends with the
  table's ``final`` event.

With ``@opponent engine [LEVEL] [coaching]`` (issue 13) the computer plays the
sighted side: :class:`HeadlessFront` starts the real engine
(:class:`~blindchess.engine.EngineChooser`, Stockfish at ``LEVEL`` 1–6 or a level
name, :func:`blindchess.engine.level`; default 2), connects it to the table,
and the computer's moves appear at the script time they fall due (the table's
``next_due``); after ``app crash`` a new engine continues the resumed game.
Only the sighted side's actions make no sense then; the script plays the
blind player (pegs, announcements, clock presses).

Header and actor names that other issues add are parsed; :data:`NOT_WIRED`
lists what no runner handles yet and :func:`check_supported` refuses a script
using it as a script error.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

import chess

from ..clock import TimeControl
from ..engine import EngineChooser
from ..engine import level as engine_level
from ..errors import UserError
from .. import textfile
from ..i18n import tr
from ..pegboard import dgt
from ..pegboard.protocol import ProtocolError, ident_line, parse_line, snapshot_line
from ..pegboard.tracker import DEFAULT_SETTLE, InputEvent, Lift, PieceUpdate, Place, Snapshot
from .events import DeviceRequest, Final, TableEvent
from .table import Table, TableSetup

__all__ = [
    "SCRIPT_SUFFIX", "HEADERS", "GAME_HEADERS", "NOT_WIRED", "DEVICE_IDENT",
    "ScriptError", "Script", "Action",
    "PegLine", "BlindSays", "BlindAnswer", "SightedMove", "SightedTouch", "SightedSays",
    "ClockPress", "ArbiterApply", "ArbiterRetrace", "AppCrash", "EBoardLift", "EBoardPlace", "EBoardCable",
    "parse", "read_script", "check_supported", "table_setup",
    "Front", "HeadlessFront", "start_engine", "PegBoardDevice", "EBoardDevice", "run", "play", "event_json", "in_time_order", "json_lines",
    "format_event", "QUIET_TYPES",
]

#: The file name extension of scenario scripts (``tests/scenarios/*.scn``).
SCRIPT_SUFFIX = ".scn"

#: Header names the table's setup takes (issue 11) and the ones issues 13 and 15 add.
SETUP_HEADERS = ("white", "black", "blind", "time", "start", "chess960", "lang", "tactile", "settle",
                 "assistant", "opponent", "sighted-board")
#: Header names that become the game's headers (PGN tag pairs) as they are.
GAME_HEADERS = {"event": "Event", "site": "Site", "date": "Date", "round": "Round"}
HEADERS = SETUP_HEADERS + tuple(GAME_HEADERS)

#: Parsed, but not run by any front yet: feature -> the issue that wires it. A
#: script using one is refused (script error naming the line). The engineer who
#: wires a feature removes its entry and adds its handling to :func:`_perform`
#: (``eboard``: a device like :class:`PegBoardDevice` turning lines into DGT
#: field updates; ``@opponent``: the engine as the sighted side in :func:`table_setup`).
NOT_WIRED: dict[str, int] = {}

#: At most this many wake-ups between two actions (each is a settle timer or an utterance ending).
_MAX_WAKES = 10_000

#: What the simulated peg-board answers to ``V``.
DEVICE_IDENT = "blindchess scenario pegboard 1.0"

_LANGS = ("de", "en", "nl", "ru")
_BLIND = ("white", "black", "both", "none")
_TACTILE = ("pegboard", "none")
_SIGHTED_BOARDS = ("dgt",)
_COMMENT = re.compile(r"(?:^|(?<=\s))#")
_ACTORS: dict[str, tuple[str, ...]] = {
    "peg": ("L", "P", "S", "I"),
    "blind": ("says", "answer"),
    "sighted": ("move", "touch", "says"),
    "clock": ("press",),
    "arbiter": ("apply", "retrace"),
    "app": ("crash",),
    "eboard": ("L", "P", "unplug", "plug"),
}


# ---------------------------------------------------------------------------
# Errors

class ScriptError(UserError):
    """A script that cannot be run: the message names the file and the line (exit code 2)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message, 2)
        self.line = line


def _error(lang: str, source: str, line: int, key: str, **params: object) -> ScriptError:
    problem = tr(f"scenario.{key}", lang, **params)
    return ScriptError(tr("scenario.script_line", lang, file=source, line=line, problem=problem), line)


# ---------------------------------------------------------------------------
# The script

@dataclass(frozen=True)
class _Action:
    line: int
    t: float


@dataclass(frozen=True)
class PegLine(_Action):
    """``peg L|P|S|I ...``: one line exactly as the peg-board sends it."""
    text: str


@dataclass(frozen=True)
class BlindSays(_Action):
    """``blind says TEXT [| CONF]``: what the recogniser heard, with its confidence."""
    text: str
    confidence: float = 1.0


@dataclass(frozen=True)
class BlindAnswer(_Action):
    """``blind answer 1..n|yes|no``: the blind player answers the pending question by keys."""
    answer: int | Literal["yes", "no"]


@dataclass(frozen=True)
class SightedMove(_Action):
    """``sighted move UCI``: a move on the sighted board (sighted player or assistant)."""
    uci: str


@dataclass(frozen=True)
class SightedTouch(_Action):
    """``sighted touch SQ``: the sighted player touches a piece (D.2.5)."""
    square: str


@dataclass(frozen=True)
class SightedSays(_Action):
    """``sighted says TEXT``: the sighted side answers (draw offers, confirmations)."""
    text: str


@dataclass(frozen=True)
class ClockPress(_Action):
    """``clock press white|black``: that player presses the clock (D.2.4)."""
    color: Literal["white", "black"]


@dataclass(frozen=True)
class ArbiterApply(_Action):
    """``arbiter apply``: the arbiter applies the proposed D.2.9 ruling."""


@dataclass(frozen=True)
class ArbiterRetrace(_Action):
    """``arbiter retrace N``: the arbiter retraces the game to half-move N instead."""
    plies: int


@dataclass(frozen=True)
class AppCrash(_Action):
    """``app crash``: the program is killed at once and started again from the journal."""


@dataclass(frozen=True)
class EBoardLift(_Action):
    """``eboard L SQ``: a piece lifted from the sighted player's e-board (issue 15)."""
    square: str


@dataclass(frozen=True)
class EBoardPlace(_Action):
    """``eboard P SQ PIECE``: a piece (FEN letter) set down on the e-board (issue 15)."""
    square: str
    piece: str

    @property
    def text(self) -> str:
        """The action as the DGT helpers read it (``P e4 P``)."""
        return f"P {self.square} {self.piece}"


@dataclass(frozen=True)
class EBoardCable(_Action):
    """``eboard unplug`` / ``eboard plug``: the e-board's cable pulled out or put back (issue 15)."""
    plugged: bool


Action = (PegLine | BlindSays | BlindAnswer | SightedMove | SightedTouch | SightedSays | ClockPress
          | ArbiterApply | ArbiterRetrace | AppCrash | EBoardLift | EBoardPlace | EBoardCable)


@dataclass
class Script:
    """A parsed scenario: the header values (defaults applied) and the actions in time order.

    ``header_lines`` maps each header given (``"@time"``) to its line number;
    ``headers`` holds the game's headers (PGN tag names: Event, Site, Date, Round).
    """
    source: str = "-"
    white: str = "Weiß"
    black: str = "Schwarz"
    blind: str = "white"
    time: str | None = None
    start_fen: str | None = None
    chess960: int | None = None
    lang: str = "de"
    tactile: str = "pegboard"
    settle: float | None = None
    assistant: str | None = None
    opponent: tuple[str, str | None] | None = None
    coaching: bool = False
    sighted_board: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)

    @property
    def end(self) -> float:
        """The time of the last action (0.0 for a script without actions)."""
        return self.actions[-1].t if self.actions else 0.0

    def start_board(self) -> chess.Board:
        """The game's start position."""
        if self.chess960 is not None:
            return chess.Board.from_chess960_pos(self.chess960)
        if self.start_fen is not None:
            return chess.Board(self.start_fen, chess960=_is_960_fen(self.start_fen))
        return chess.Board()


def _is_960_fen(fen: str) -> bool:
    """A FEN whose castling field names rook files (Shredder/X-FEN) is a Chess960 position."""
    parts = fen.split()
    return len(parts) > 2 and any(c not in "KQkq-" for c in parts[2])


def read_script(path: Path, lang: str) -> Script:
    """Read and parse the script file ``path``. Raises :class:`ScriptError` / :class:`UserError`."""
    # a regular file only, read bounded: /dev/zero or a FIFO is refused at once (never read for ever)
    data = textfile.read_bytes(path, lang)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise _error(lang, str(path), line, "not_utf8") from exc
    return parse(text, lang, source=str(path))


def parse(text: str, lang: str, *, source: str = "-") -> Script:
    """The script in ``text``; raises :class:`ScriptError` at the first bad line.

    ``lang`` is the user's language (the error message's); ``source`` names the
    script in messages.
    """
    script = Script(source=source)
    previous = 0.0
    for number, raw in enumerate(text.splitlines(), start=1):
        body = _COMMENT.split(raw, maxsplit=1)[0].strip()
        if not body:
            continue
        if body.startswith("@"):
            if script.actions:
                raise _error(lang, source, number, "header_late", name=body.split()[0])
            _header(script, body, number, lang)
            continue
        action = _action(script, body, number, lang)
        if action.t < previous:
            raise _error(lang, source, number, "time_backwards", t=_num(action.t), previous=_num(previous))
        previous = action.t
        script.actions.append(action)
    if script.opponent is not None and script.blind not in ("white", "black"):
        raise _error(lang, source, script.header_lines["@opponent"], "opponent_blind")
    return script


def _num(x: float) -> str:
    return f"{x:g}"


def _header(script: Script, body: str, line: int, lang: str) -> None:
    name, _, value = body[1:].partition(" ")
    name, value = name.strip().lower(), value.strip()
    src = script.source

    def bad(expected_key: str) -> ScriptError:
        return _error(lang, src, line, "header_value", name=name, value=value,
                      expected=tr(f"scenario.expect_{expected_key}", lang))

    if name not in HEADERS:
        raise _error(lang, src, line, "unknown_header", name=name, names=", ".join("@" + h for h in HEADERS))
    if "@" + name in script.header_lines:
        raise _error(lang, src, line, "header_twice", name=name)
    if not value and name != "assistant":
        raise bad(name)
    script.header_lines["@" + name] = line
    if name in GAME_HEADERS:
        script.headers[GAME_HEADERS[name]] = value
    elif name == "white":
        script.white = value
    elif name == "black":
        script.black = value
    elif name == "blind":
        if value.lower() not in _BLIND:
            raise bad(name)
        script.blind = value.lower()
        if "@tactile" not in script.header_lines:
            script.tactile = "none" if script.blind == "none" else "pegboard"
    elif name == "time":
        if value.lower() in ("none", "-"):
            script.time = None
        else:
            try:
                control = TimeControl.parse(value)
            except ValueError as exc:
                raise bad(name) from exc
            script.time = None if control is None else value
    elif name in ("start", "chess960"):
        other = "@chess960" if name == "start" else "@start"
        if other in script.header_lines:
            raise _error(lang, src, line, "start_and_960")
        if name == "start":
            try:
                board = chess.Board(value, chess960=_is_960_fen(value))
            except ValueError as exc:
                raise bad(name) from exc
            if not board.is_valid():
                raise bad(name)
            script.start_fen = value
        else:
            if not value.isdigit() or not 0 <= int(value) <= 959:
                raise bad(name)
            script.chess960 = int(value)
    elif name == "lang":
        if value.lower() not in _LANGS:
            raise bad(name)
        script.lang = value.lower()
    elif name == "tactile":
        if value.lower() not in _TACTILE:
            raise bad(name)
        script.tactile = value.lower()
    elif name == "settle":
        try:
            settle = float(value)
        except ValueError as exc:
            raise bad(name) from exc
        if not math.isfinite(settle) or settle <= 0:
            raise bad(name)
        script.settle = settle
    elif name == "assistant":
        script.assistant = value or None
    elif name == "opponent":
        words = value.split()
        if words[0].lower() != "engine" or len(words) > 3:
            raise bad(name)
        rest = words[1:]
        if rest and rest[-1].lower() == "coaching":
            script.coaching = True
            rest = rest[:-1]
        if len(rest) > 1:
            raise bad(name)
        try:
            chosen = engine_level(rest[0] if rest else None)
        except UserError as exc:
            raise bad(name) from exc
        script.opponent = ("engine", str(chosen.number))
    elif name == "sighted-board":
        if value.lower() not in _SIGHTED_BOARDS:
            raise bad(name)
        script.sighted_board = value.lower()


def _action(script: Script, body: str, line: int, lang: str) -> Action:
    src = script.source
    parts = body.split(None, 3)
    if len(parts) < 3:
        raise _error(lang, src, line, "too_short", text=body)
    try:
        t = float(parts[0])
    except ValueError:
        t = math.nan
    if not math.isfinite(t) or t < 0:
        raise _error(lang, src, line, "bad_time", value=parts[0])
    actor, verb = parts[1].lower(), parts[2]
    rest = parts[3].strip() if len(parts) > 3 else ""
    if actor not in _ACTORS:
        raise _error(lang, src, line, "unknown_actor", actor=parts[1], actors=", ".join(_ACTORS))
    verbs = _ACTORS[actor]
    if actor == "peg" or (actor == "eboard" and verb.upper() in ("L", "P")):
        verb = verb.upper()
    else:
        verb = verb.lower()
    if verb not in verbs:
        raise _error(lang, src, line, "unknown_verb", actor=actor, verb=parts[2], verbs=", ".join(verbs))

    def bad(expected_key: str) -> ScriptError:
        return _error(lang, src, line, "bad_args", text=body, expected=tr(f"scenario.expect_{expected_key}", lang))

    if actor == "peg":
        if script.tactile == "none":
            raise _error(lang, src, line, "no_pegboard")
        text = f"{verb} {rest}".strip()
        message = parse_line(text.encode("utf-8"), t)
        if verb != "I" and (isinstance(message, ProtocolError) and message.kind != "checksum" or message is None):
            raise bad("peg")
        if isinstance(message, ProtocolError) and message.kind == "checksum" and _peg_body(text) is None:
            raise bad("peg")
        return PegLine(line, t, text)
    if actor == "blind":
        if script.blind == "none":
            raise _error(lang, src, line, "no_blind")
        if verb == "says":
            said, bar, conf = rest.rpartition("|")
            if not bar:
                said, conf = rest, ""
            said = said.strip()
            if not said:
                raise bad("says")
            confidence = 1.0
            if bar:
                try:
                    confidence = float(conf)
                except ValueError as exc:
                    raise bad("says") from exc
                if not 0.0 <= confidence <= 1.0:
                    raise bad("says")
            return BlindSays(line, t, said, confidence)
        word = rest.lower()
        if word in ("yes", "no"):
            return BlindAnswer(line, t, "yes" if word == "yes" else "no")
        if word.isdigit() and int(word) >= 1:
            return BlindAnswer(line, t, int(word))
        raise bad("answer")
    if actor == "sighted":
        if verb == "move":
            try:
                move = chess.Move.from_uci(rest.lower())
            except ValueError as exc:
                raise bad("move") from exc
            if not move:
                raise bad("move")
            return SightedMove(line, t, move.uci())
        if verb == "touch":
            if rest.lower() not in chess.SQUARE_NAMES:
                raise bad("square")
            return SightedTouch(line, t, rest.lower())
        if not rest:
            raise bad("says")
        return SightedSays(line, t, rest)
    if actor == "clock":
        if rest.lower() not in ("white", "black"):
            raise bad("color")
        return ClockPress(line, t, "white" if rest.lower() == "white" else "black")
    if actor == "arbiter":
        if verb == "apply":
            if rest:
                raise bad("nothing")
            return ArbiterApply(line, t)
        if not rest.isdigit():
            raise bad("plies")
        return ArbiterRetrace(line, t, int(rest))
    if actor == "app":
        if rest:
            raise bad("nothing")
        return AppCrash(line, t)
    # eboard (issue 15)
    if script.sighted_board != "dgt":
        raise _error(lang, src, line, "no_eboard")
    args = rest.split()
    if verb in ("unplug", "plug"):
        if rest:
            raise bad("nothing")
        return EBoardCable(line, t, verb == "plug")
    if verb == "L":
        if len(args) != 1 or args[0].lower() not in chess.SQUARE_NAMES:
            raise bad("eboard")
        return EBoardLift(line, t, args[0].lower())
    if len(args) != 2 or args[0].lower() not in chess.SQUARE_NAMES or len(args[1]) != 1 \
            or args[1] not in "PNBRQKpnbrqk":
        raise bad("eboard")
    return EBoardPlace(line, t, args[0].lower(), args[1])


def _peg_body(text: str) -> Lift | Place | Snapshot | None:
    """The change a peg line describes, ignoring its checksum (the device's own view)."""
    message = parse_line(text.split("*", 1)[0].encode("utf-8"), 0.0)
    return message if isinstance(message, (Lift, Place, Snapshot)) else None


def check_supported(script: Script, lang: str) -> None:
    """Refuse (:class:`ScriptError`) a script using a feature in :data:`NOT_WIRED`, naming its first line."""
    uses: list[tuple[int, str]] = [(line, name) for name, line in script.header_lines.items() if name in NOT_WIRED]
    uses += [(a.line, "eboard") for a in script.actions if isinstance(a, (EBoardLift, EBoardPlace, EBoardCable))
             and "eboard" in NOT_WIRED]
    if uses:
        line, name = min(uses)
        raise _error(lang, script.source, line, "not_supported", what=name, issue=NOT_WIRED[name])


def table_setup(script: Script) -> TableSetup:
    """The table's setup for the script's headers."""
    return TableSetup(
        white=script.white,
        black=script.black,
        blind=script.blind,
        time_control=script.time,
        start_fen=script.start_fen,
        chess960=script.chess960,
        lang=script.lang,
        tactile=script.tactile,
        settle=script.settle,
        assistant=script.assistant,
        headers=dict(script.headers),
        sighted_board=script.sighted_board or "window",
        opponent="engine" if script.opponent is not None else "human",
        engine_level=int(script.opponent[1] or 2) if script.opponent is not None else 2,
        coaching=script.coaching,
    )


# ---------------------------------------------------------------------------
# The simulated peg-board

class PegBoardDevice:
    """The peg-board as the script moves its pegs: it keeps the holes as they stand.

    :meth:`apply` takes each scripted ``peg`` line (the device sent it, so the
    pegs moved, whatever the link made of the line); :meth:`hello` is what the
    device sends when the link (re)connects (the host sends ``V?``);
    :meth:`snapshot` answers a snapshot request (``?``).
    """

    def __init__(self, occupied: int) -> None:
        self.occupied = occupied

    def apply(self, text: str) -> None:
        """Update the holes for one scripted line (``L``/``P``/``S``; ``I`` changes nothing)."""
        change = _peg_body(text)
        if isinstance(change, Lift):
            self.occupied &= ~chess.BB_SQUARES[change.square]
        elif isinstance(change, Place):
            self.occupied |= chess.BB_SQUARES[change.square]
        elif isinstance(change, Snapshot):
            self.occupied = change.occupied

    def snapshot(self) -> str:
        """The ``S`` line for the pegs as they stand (with checksum, as the device sends it)."""
        return snapshot_line(self.occupied).decode("ascii").rstrip("\n")

    def hello(self) -> list[str]:
        """The answer to ``V?``: an ``I`` line and an ``S`` line."""
        return [ident_line(DEVICE_IDENT).decode("ascii").rstrip("\n"), self.snapshot()]


class EBoardDevice:
    """The sighted player's DGT e-board as the script moves its pieces (issue 15).

    It keeps the pieces as they stand (also while unplugged and across ``app
    crash``) and speaks DGT: every action becomes FIELD_UPDATE bytes, read by
    one real :class:`~blindchess.pegboard.dgt.DgtDecoder` as the serial link
    reads them (reset on every (re)connect); a dump request is answered with a
    BOARD_DUMP. As on a real board (and the emulator
    :class:`~blindchess.pegboard.simulator.VirtualDgtBoard`), lifting from an
    empty square sends nothing. Unplugged, nothing reaches the host.
    """

    def __init__(self, board: chess.BaseBoard) -> None:
        self.pieces: dict[int, chess.Piece] = dict(board.piece_map())
        self.plugged = True
        self.decoder = dgt.DgtDecoder()

    def act(self, action: str, t: float) -> list[PieceUpdate]:
        """One action (``L e2`` / ``P e4 P``): the pieces change; the updates the host reads (none unplugged).

        Raises :class:`~blindchess.pegboard.dgt.ActionError` for a malformed action.
        """
        square, piece = dgt.parse_action(action)
        if piece is None:
            if self.pieces.pop(square, None) is None:
                return []
        else:
            self.pieces[square] = piece
        if not self.plugged:
            return []
        return dgt.eboard_events([action], t, self.decoder)

    def dump(self, t: float) -> list[Snapshot]:
        """The answer to SEND_BRD, as the host decodes it (none unplugged)."""
        if not self.plugged:
            return []
        return [m for m in self.decoder.feed(dgt.board_dump(self.pieces), t) if isinstance(m, Snapshot)]

    def cable(self, plugged: bool) -> None:
        """Pull the cable out or put it back: a half-received message belongs to nothing."""
        self.plugged = plugged
        self.decoder.reset()


# ---------------------------------------------------------------------------
# Fronts: what a script action does to the game

Who = Literal["blind", "sighted"]


class Front(Protocol):
    """What a script action does to the game — the headless table, or the app's window.

    Every method takes the script's time ``now`` (seconds from the start); none
    reads a clock. The runner calls :meth:`start` once, then :meth:`tick` at every
    action's time before the action, and at the end :meth:`tick` and :meth:`final`.
    Events reach the callbacks given to :meth:`subscribe` — from every table
    the front runs, also the one started again after :meth:`crash`.
    """

    def subscribe(self, callback: Callable[[TableEvent], None]) -> None:
        """Tell ``callback`` every table event from now on (across crashes)."""

    def start(self, script: Script, journal: Path, now: float) -> None:
        """Set the game up from the script's headers, journaling to ``journal`` (a new file)."""

    def peg_line(self, line: str, now: float) -> None:
        """One line from the peg-board device, as the serial link delivers it."""

    def eboard_input(self, event: InputEvent, now: float) -> None:
        """One event from the sighted player's e-board (PieceUpdate, Snapshot), as the serial link delivers it."""

    def blind_says(self, text: str, confidence: float, now: float) -> None:
        """The recogniser heard the blind player say ``text`` with ``confidence``."""

    def answer(self, who: Who, answer: int | Literal["yes", "no"], now: float) -> None:
        """``who`` answers the pending question by key: 1..n or yes/no."""

    def sighted_move(self, uci: str, now: float) -> None:
        """A move made on the sighted board (UCI)."""

    def sighted_touch(self, square: str, now: float) -> None:
        """The sighted player touched the piece on ``square`` (D.2.5)."""

    def sighted_says(self, text: str, now: float) -> None:
        """The sighted side said ``text`` (answers, confirmations)."""

    def press(self, color: Literal["white", "black"], now: float) -> None:
        """That player pressed the clock (D.2.4)."""

    def arbiter_apply(self, now: float) -> None:
        """The arbiter applies the proposed D.2.9 ruling."""

    def arbiter_retrace(self, plies: int, now: float) -> None:
        """The arbiter retraces the game to half-move ``plies``."""

    def crash(self, now: float) -> None:
        """The program dies at once and is started again from its journal."""

    def tick(self, now: float) -> None:
        """Time passes up to ``now``: settle timers, speech, flags."""

    def idle_at(self, now: float) -> float:
        """The time (>= ``now``) when nothing started by then is pending any more (settle, speech)."""

    def next_due(self, now: float) -> float | None:
        """The earliest moment something falls due — the pegs settle, an utterance ends, a flag falls
        (``Table.next_due``); None: nothing without an input."""

    def final(self, now: float) -> Final:
        """The game as it stands at ``now`` (the ``final`` event; the runner reports it last)."""

    def close(self) -> None:
        """Release the table (the journal stays as written)."""


def start_engine(setup: TableSetup) -> EngineChooser:
    """The engine for a practice table: Stockfish (or ``setup.engine_path``) at ``setup.engine_level``,
    started when the computer is first asked for a move."""
    return EngineChooser(setup.engine_path, engine_level(setup.engine_level), setup.lang)


class HeadlessFront:
    """The front without a window: each action is the :class:`Table` call the app makes for it.

    In a practice game (``@opponent``) it connects an engine made by ``engines``
    (default :func:`start_engine`) to every table it runs — a new one after a crash.
    """

    def __init__(self, *, engines: Callable[[TableSetup], EngineChooser] = start_engine) -> None:
        self._callbacks: list[Callable[[TableEvent], None]] = []
        self._table: Table | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._journal: Path | None = None
        self._setup: TableSetup | None = None
        self._engines = engines
        #: The engine of the table running now (practice games), else None.
        self.engine: EngineChooser | None = None

    @property
    def table(self) -> Table:
        """The table running now (a new one after every crash)."""
        if self._table is None:
            raise RuntimeError("HeadlessFront.start() first")
        return self._table

    def _attach(self, table: Table, now: float) -> None:
        self._table = table
        self._unsubscribe = table.subscribe(self._deliver)
        if table.opponent is not None:
            self.engine = self._engines(table.setup)
            table.connect_engine(self.engine, now)

    def _deliver(self, event: TableEvent) -> None:
        for callback in list(self._callbacks):
            callback(event)

    def subscribe(self, callback: Callable[[TableEvent], None]) -> None:
        self._callbacks.append(callback)

    def start(self, script: Script, journal: Path, now: float) -> None:
        self._journal = journal
        self._setup = table_setup(script)
        self._attach(Table.new(self._setup, now, journal), now)

    def peg_line(self, line: str, now: float) -> None:
        self.table.peg_line(line, now)

    def eboard_input(self, event: InputEvent, now: float) -> None:
        self.table.eboard_input(event, now)

    def blind_says(self, text: str, confidence: float, now: float) -> None:
        self.table.blind_says(text, confidence, now)

    def answer(self, who: Who, answer: int | Literal["yes", "no"], now: float) -> None:
        self.table.answer(who, answer, now)

    def sighted_move(self, uci: str, now: float) -> None:
        self.table.sighted_move(uci, now)

    def sighted_touch(self, square: str, now: float) -> None:
        self.table.sighted_touch(square, now)

    def sighted_says(self, text: str, now: float) -> None:
        self.table.sighted_says(text, now)

    def press(self, color: Literal["white", "black"], now: float) -> None:
        self.table.press(color, now)

    def arbiter_apply(self, now: float) -> None:
        self.table.arbiter_apply(now)

    def arbiter_retrace(self, plies: int, now: float) -> None:
        self.table.arbiter_retrace(plies, now)

    def crash(self, now: float) -> None:
        # Killed at once: nothing is closed or flushed beyond what the journal already holds.
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._table = None
        if self.engine is not None:   # the engine's process dies with the program
            self.engine.close()
            self.engine = None
        assert self._journal is not None and self._setup is not None
        self._attach(Table.resume(self._journal, now, self._setup), now)

    def tick(self, now: float) -> None:
        self.table.tick(now)

    def idle_at(self, now: float) -> float:
        return max(now, self.table.idle_at(now))

    def next_due(self, now: float) -> float | None:
        return self.table.next_due(now)

    def final(self, now: float) -> Final:
        return self.table.final(now)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._table is not None:
            self._table.close()
            self._table = None
        if self.engine is not None:
            self.engine.close()
            self.engine = None


# ---------------------------------------------------------------------------
# The runner

def run(script: Script, front: Front, journal: Path, emit: Callable[[TableEvent], None]) -> Final:
    """Play ``script`` through ``front`` on the script's clock; every event goes to ``emit``.

    The game journals to ``journal`` (a new file). Returns the final state at
    the end of the script (after pending settle timers and speech have run out);
    ``emit`` gets it too, last. Call :func:`check_supported` first: an action in
    :data:`NOT_WIRED` raises ``NotImplementedError``.
    """
    device = PegBoardDevice(int(script.start_board().occupied)) if script.tactile == "pegboard" else None
    eboard = EBoardDevice(script.start_board()) if script.sighted_board == "dgt" else None
    requests: list[DeviceRequest] = []

    def collect(event: TableEvent) -> None:
        emit(event)
        if isinstance(event, DeviceRequest) and event.device in ("pegboard", "eboard"):
            requests.append(event)

    def answer_requests(now: float) -> None:
        # Answered after the call that asked returned (the device is on the other end of a wire).
        rounds = 0
        while requests and rounds < 8:
            pending = list(requests)
            requests.clear()
            for request in pending:
                if request.what != "snapshot":
                    continue
                if request.device == "pegboard" and device is not None:
                    front.peg_line(device.snapshot(), max(now, request.t))
                elif request.device == "eboard" and eboard is not None:
                    for snapshot in eboard.dump(max(now, request.t)):
                        front.eboard_input(snapshot, max(now, request.t))
            rounds += 1
        requests.clear()

    def connect(now: float) -> None:
        # The serial link sends "V?" on every (re)connect; the board answers with I and S.
        if device is not None:
            for line in device.hello():
                front.peg_line(line, now)
        # The DGT link resets the e-board and asks for a board dump on every (re)connect.
        if eboard is not None:
            eboard.cable(eboard.plugged)
            for snapshot in eboard.dump(now):
                front.eboard_input(snapshot, now)
        answer_requests(now)

    settle = DEFAULT_SETTLE if script.settle is None else script.settle
    last_peg: list[float] = []

    def wait(now: float, until: float, *, flags: bool = True) -> float:
        # Time passes as in the app, whose timer fires when something falls due: the table is
        # ticked when the pegs' settle time ends, when what is pending is over and when a flag
        # falls, up to ``until`` — without ``flags`` only until what is pending is over.
        for _ in range(_MAX_WAKES):
            dues = [front.idle_at(now)]
            if last_peg:
                dues.append(last_peg[-1] + settle)
            due = front.next_due(now)
            if due is not None and (flags or due <= dues[0]):
                dues.append(due)
            later = [due for due in dues if now < due <= until]
            if not later:
                break
            now = min(later)
            front.tick(now)
            answer_requests(now)
        return now

    front.subscribe(collect)
    front.start(script, journal, 0.0)
    connect(0.0)
    now = 0.0
    for action in script.actions:
        wait(now, action.t)
        front.tick(action.t)
        answer_requests(action.t)
        _perform(front, action, device, eboard)
        if isinstance(action, PegLine):
            last_peg.append(action.t)
        if isinstance(action, AppCrash):
            connect(action.t)
        answer_requests(action.t)
        now = action.t
    front.tick(now)
    answer_requests(now)
    end = wait(now, math.inf, flags=False)
    final = front.final(end)
    emit(final)
    return final


def play(script: Script, front: Front, journal: Path) -> list[dict[str, object]]:
    """Every event of ``script`` through ``front`` as the scenario JSON objects, in time order, ``final`` last.

    The same call for every front, so two fronts can be compared on one script.
    The front is closed afterwards.
    """
    events: list[TableEvent] = []
    try:
        run(script, front, journal, events.append)
    finally:
        front.close()
    return in_time_order(events)


def _perform(front: Front, action: Action, device: PegBoardDevice | None, eboard: EBoardDevice | None = None) -> None:
    """One action through the front (the single place that maps script lines to front calls)."""
    now = action.t
    if isinstance(action, PegLine):
        if device is not None:
            device.apply(action.text)
        front.peg_line(action.text, now)
    elif isinstance(action, BlindSays):
        front.blind_says(action.text, action.confidence, now)
    elif isinstance(action, BlindAnswer):
        front.answer("blind", action.answer, now)
    elif isinstance(action, SightedMove):
        front.sighted_move(action.uci, now)
    elif isinstance(action, SightedTouch):
        front.sighted_touch(action.square, now)
    elif isinstance(action, SightedSays):
        front.sighted_says(action.text, now)
    elif isinstance(action, ClockPress):
        front.press(action.color, now)
    elif isinstance(action, ArbiterApply):
        front.arbiter_apply(now)
    elif isinstance(action, ArbiterRetrace):
        front.arbiter_retrace(action.plies, now)
    elif isinstance(action, AppCrash):
        front.crash(now)
    elif eboard is None:  # parse() refuses e-board actions without @sighted-board dgt
        raise NotImplementedError(type(action).__name__)
    elif isinstance(action, EBoardCable):
        eboard.cable(action.plugged)
        if action.plugged:   # the link reconnects and asks for a board dump
            for snapshot in eboard.dump(now):
                front.eboard_input(snapshot, now)
    else:
        text = f"L {action.square}" if isinstance(action, EBoardLift) else action.text
        for update in eboard.act(text, now):
            front.eboard_input(update, now)


# ---------------------------------------------------------------------------
# Output

def event_json(event: TableEvent) -> dict[str, object]:
    """The event's JSON object (``t`` and ``type`` first)."""
    data = event.to_json()
    return {"t": data["t"], "type": data["type"], **{k: v for k, v in data.items() if k not in ("t", "type")}}


def in_time_order(events: Sequence[TableEvent]) -> list[dict[str, object]]:
    """The events' JSON objects sorted by ``t`` (stable: same-time events keep their order)."""
    return sorted((event_json(e) for e in events), key=lambda d: float(d["t"]))  # type: ignore[arg-type]


def json_lines(events: Sequence[TableEvent]) -> Iterator[str]:
    """One JSON object a line, in time order."""
    for data in in_time_order(events):
        yield json.dumps(data, ensure_ascii=False)


_TO = {"blind": "to_blind", "sighted": "to_sighted", "all": "to_all"}
_BY = {"blind": "by_blind", "sighted": "by_sighted"}
_KINDS = {"correct-board": "kind_correct_board", "retrace": "kind_retrace"}
_BOARDS = {"sighted": "board_sighted", "tactile": "board_tactile"}


def _clock_text(value: object, lang: str) -> str:
    """Seconds as h:mm:ss (None: no clock)."""
    if not isinstance(value, (int, float)):
        return tr("scenario.log_no_clock", lang)
    whole = int(max(0.0, float(value)))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


#: Event types the readable log leaves out: ``speak`` repeats what ``said`` reports,
#: ``device`` requests concern the board's wire (they are in the JSON).
QUIET_TYPES = frozenset({"speak", "device"})


def format_event(data: dict[str, object], lang: str) -> list[str]:
    """The readable log lines for one event's JSON object, in the user's language ``lang``.

    Empty for the types in :data:`QUIET_TYPES`.
    """
    t = float(data["t"])  # type: ignore[arg-type]
    kind = str(data["type"])
    stamp = f"{t:9.2f} s  "

    def word(table: dict[str, str], value: object) -> str:
        key = table.get(str(value))
        return tr(f"scenario.{key}", lang) if key else str(value)

    if kind == "said":
        text = tr("scenario.log_said", lang, to=word(_TO, data.get("to")), text=data.get("text"))
        if data.get("cut"):
            text += " " + tr("scenario.log_cut", lang)
    elif kind == "shown":
        text = tr("scenario.log_shown", lang, text=data.get("text"))
    elif kind == "touched":
        text = tr("scenario.log_touched", lang, square=data.get("square"), by=word(_BY, data.get("by")))
    elif kind == "move":
        text = tr("scenario.log_move", lang, ply=data.get("ply"), san=data.get("san"), uci=data.get("uci"))
    elif kind == "question":
        text = tr("scenario.log_question", lang, to=word(_TO, data.get("to")), text=data.get("text"),
                  candidates=", ".join(str(c) for c in data.get("candidates") or []))  # type: ignore[attr-defined]
    elif kind == "refused":
        text = tr("scenario.log_refused", lang, text=data.get("text"))
    elif kind == "divergence":
        text = tr("scenario.log_divergence", lang, ply=data.get("ply"))
    elif kind == "ruling":
        text = tr("scenario.log_ruling", lang, kind=word(_KINDS, data.get("kind")), plies=data.get("plies"))
    elif kind == "heard":
        text = tr("scenario.log_heard", lang, by=word(_BY, data.get("by")), text=data.get("text"),
                  confidence=data.get("confidence"))
    elif kind == "mirrored":
        text = tr("scenario.log_mirrored", lang, board=word(_BOARDS, data.get("board")), ply=data.get("ply"))
    elif kind == "clock":
        text = tr("scenario.log_clock", lang, ply=data.get("ply"), white=_clock_text(data.get("white"), lang),
                  black=_clock_text(data.get("black"), lang))
    elif kind == "game-end":
        text = tr("scenario.log_game_end", lang, result=data.get("result"))
    elif kind == "final":
        return [stamp + line for line in _final_lines(data, lang)]
    elif kind in QUIET_TYPES:
        return []
    else:
        rest = {k: v for k, v in data.items() if k not in ("t", "type")}
        text = f"{kind} {json.dumps(rest, ensure_ascii=False)}" if rest else kind
    return [stamp + text]


def _final_lines(data: dict[str, object], lang: str) -> list[str]:
    boards = data.get("boards") or {}
    scores = data.get("scores") or {}
    clocks = data.get("clocks") or {}
    assert isinstance(boards, dict) and isinstance(scores, dict) and isinstance(clocks, dict)

    result = data.get("result") or "*"
    return [
        tr("scenario.log_final", lang, result=result, plies=data.get("plies")),
        "    " + tr("scenario.log_game", lang, fen=data.get("game")),
        "    " + tr("scenario.log_sighted_board", lang, fen=boards.get("sighted")),
        "    " + tr("scenario.log_tactile_board", lang, fen=boards.get("tactile")),
        "    " + tr("scenario.log_score_blind", lang, moves=" ".join(str(m) for m in scores.get("blind") or [])),
        "    " + tr("scenario.log_score_sighted", lang, moves=" ".join(str(m) for m in scores.get("sighted") or [])),
        "    " + tr("scenario.log_clocks", lang, white=_clock_text(clocks.get("white"), lang),
                                    black=_clock_text(clocks.get("black"), lang)),
    ]

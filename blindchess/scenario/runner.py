"""The scenario runner: a script played at the table on the script's clock.

:func:`run` plays a :class:`~blindchess.scenario.parser.Script` through a
:class:`Front` (what a script action does to the game). :class:`HeadlessFront`
drives the very :class:`~blindchess.table.table.Table` the app runs, with only
Qt and real audio replaced; the UI supplies a front that drives the window
(:class:`blindchess.ui.scenario_front.AppFront`). The runner

* gives ``front.handle(Tick(), t)`` at every action's time, and between actions at
  every moment something falls due (the pegs' settle time, the end of what is
  being said, a flag: ``front.next_due``, ``front.idle_at``) as the app's timer
  would, and at the end until nothing is pending (flags excepted) — so settle
  timers, speech and flags run on the script's clock (a four-hour game
  finishes in seconds);
* simulates the peg-board (:class:`~blindchess.scenario.devices.PegBoardDevice`):
  it keeps the pegs as they stand, says hello (``I`` and ``S`` lines) at the
  start and after every ``app crash`` as a real board does when the link
  (re)connects, and answers the table's snapshot requests (``DeviceRequest``
  events) with an ``S`` line;
* with ``@sighted-board dgt`` simulates the sighted player's DGT e-board
  (:class:`~blindchess.scenario.devices.EBoardDevice`): ``eboard L SQ`` /
  ``eboard P SQ PIECE`` become DGT field-update bytes read by the real decoder
  and go to the table as :class:`~blindchess.pegboard.tracker.PieceUpdate`
  events; the board keeps its pieces and answers dump requests (on connect,
  after ``app crash``, when the table asks) with a
  :class:`~blindchess.pegboard.tracker.Snapshot`. ``eboard unplug`` pulls the
  cable (nothing the hands do reaches the table, half a message is lost),
  ``eboard plug`` puts it back (the link asks for a board dump);
* collects every table event through ``front.subscribe`` and ends with the
  table's ``final`` event.

With ``@opponent engine [LEVEL] [coaching]`` the computer plays the sighted
side: :class:`HeadlessFront` starts the real engine (:func:`start_engine`:
:class:`~blindchess.adapters.engine.EngineChooser`, Stockfish at the level the header
names), connects it to the table, and the computer's moves appear at the
script time they fall due (the table's ``next_due``); after ``app crash`` a
new engine continues the resumed game. The script plays the blind player then
(pegs, announcements, clock presses). This module is the one place of the
scenario runner that starts an engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, assert_never

from ..adapters import EngineChooser
from ..adapters import level as engine_level
from ..storage import InputId, NotAJournal, envelope_path, read_journal
from ..table import (
    Command,
    ConnectEngine,
    DeviceRequest,
    EBoardInput,
    Final,
    PegLine,
    Table,
    TableEvent,
    TableSetup,
    Tick,
)
from .devices import EBoardDevice, PegBoardDevice
from .parser import (
    Action,
    AppCrash,
    AppEnvelopeLost,
    EBoardCable,
    EBoardLift,
    EBoardPlace,
    Script,
    TableAction,
)
from .report import in_time_order

__all__ = ["Front", "HeadlessFront", "start_engine", "run", "play", "perform", "SCRIPT_INPUTS", "line_input"]

#: The origin of a script's inputs: each is named by its line (:func:`line_input`).
SCRIPT_INPUTS = "script"

#: At most this many wake-ups between two actions (each is a settle timer or an utterance ending).
_MAX_WAKES = 10_000


class Front(Protocol):
    """What a script action does to the game — the headless table, or the app's window.

    Every method takes the script's time ``now`` (seconds from the start); none
    reads a clock. The runner calls :meth:`start` once, then :meth:`handle` with
    every input at the table — the script's lines, the simulated devices' lines and
    events, ``Tick()`` at every action's time before the action —, and at the end
    :meth:`final`. Events reach the callbacks given to :meth:`subscribe` — from every
    table the front runs, also the one started again after :meth:`crash`.
    """

    def subscribe(self, callback: Callable[[TableEvent], None]) -> None:
        """Tell ``callback`` every table event from now on (across crashes)."""

    def start(self, script: Script, journal: Path, now: float) -> None:
        """Set the game up from the script's setup, journaling to ``journal`` (a new file)."""

    def handle(self, command: Command, now: float, ident: InputId | None = None) -> None:
        """One input at the table (:mod:`blindchess.table.commands`), as the people and devices at it give it;
        ``ident``: the script line's identity (:func:`line_input`) — an input the game holds already is not
        applied again (a script played on after a crash). Time passing and the devices' own answers have none."""

    def crash(self, now: float) -> None:
        """The program dies at once and is started again from its journal."""

    def resume(self, script: Script, journal: Path, now: float, pegs_still_since: float | None = None) -> None:
        """Open the game of ``journal`` (cut off by a crash) as the app does after a restart, at ``now``;
        ``pegs_still_since``: when the hands last moved the pegs before it (the script knows)."""

    def idle_at(self, now: float) -> float:
        """The time (>= ``now``) when nothing started by then is pending any more (settle, speech)."""

    def next_due(self, now: float) -> float | None:
        """The earliest moment something falls due — the pegs settle, an utterance ends, a flag falls
        (``Table.next_due``); None: nothing without an input."""

    def final(self, now: float) -> Final:
        """The game as it stands at ``now`` (the ``final`` event; the runner reports it last)."""

    def close(self) -> None:
        """Release the table (the journal stays as written; an unfinished game is closed at the final state's
        moment, as the app closes it when it quits)."""


def start_engine(setup: TableSetup) -> EngineChooser:
    """The engine for a practice table: Stockfish (or ``setup.engine_path``) at ``setup.engine_level``,
    started when the computer is first asked for a move."""
    return EngineChooser(setup.engine_path, engine_level(setup.engine_level), setup.lang)


class HeadlessFront:
    """The front without a window: each input is the table's command as the app gives it.

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
        self._ended: float | None = None      # the final state's moment, once read
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
            table.handle(ConnectEngine(self.engine), now)

    def _deliver(self, event: TableEvent) -> None:
        for callback in list(self._callbacks):
            callback(event)

    def subscribe(self, callback: Callable[[TableEvent], None]) -> None:
        self._callbacks.append(callback)

    def start(self, script: Script, journal: Path, now: float) -> None:
        self._journal = journal
        self._setup = script.setup
        self._attach(Table.new(self._setup, now, journal), now)

    def handle(self, command: Command, now: float, ident: InputId | None = None) -> None:
        self.table.handle(command, now, ident)

    def resume(self, script: Script, journal: Path, now: float, pegs_still_since: float | None = None) -> None:
        self._journal, self._setup = journal, script.setup
        self._attach(Table.resume(journal, now, script.setup, pegs_still_since=pegs_still_since), now)

    def crash(self, now: float) -> None:
        # Killed at once: nothing is closed or flushed beyond what the journal already holds.
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._table is not None:
            self._table.abandon()     # the system closes a killed program's files
        self._table = None
        if self.engine is not None:   # the engine's process dies with the program
            self.engine.close()
            self.engine = None
        assert self._journal is not None and self._setup is not None
        self._attach(Table.resume(self._journal, now, self._setup), now)

    def idle_at(self, now: float) -> float:
        return max(now, self.table.idle_at(now))

    def next_due(self, now: float) -> float | None:
        return self.table.next_due(now)

    def final(self, now: float) -> Final:
        self._ended = now
        return self.table.final(now)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._table is not None:
            self._table.close(self._ended)     # the game leaves the table at the script's end
            self._table = None
        if self.engine is not None:
            self.engine.close()
            self.engine = None


# ---------------------------------------------------------------------------
# The runner

def run(script: Script, front: Front, journal: Path, emit: Callable[[TableEvent], None], *,
        resume: bool = False) -> Final:
    """Play ``script`` through ``front`` on the script's clock; every event goes to ``emit``.

    The game journals to ``journal`` (a new file); every script line's input goes to the table with
    its identity (:func:`line_input`), which the journal keeps in the input's unit. Returns the final
    state at the end of the script — after pending settle timers and speech have run out, read at the
    script's own time: its last line's, or the game's last recorded moment when that is later (a move
    the pegs' settle time completed), never how long the speech took; ``emit`` gets it too, last.

    ``resume``: ``journal`` holds the game cut off by a crash; it is opened as the app opens it after
    a restart, at the time of its last line, and every script line the journal holds is skipped — it
    and the lines before it (their inputs were applied: the journal keeps the highest line's identity),
    and every line before that time — so each input is applied exactly once; only what the skipped
    lines did to the simulated boards (the pegs where the hands left them) stands. The lines after are
    played; one the journal holds that is given again anyway is not applied by the table
    (:meth:`~blindchess.table.Table.handle`). The script should be the one the journal was written by
    (or one with more lines after those): a line's identity is its number.
    """
    device = PegBoardDevice(int(script.start_board().occupied)) if script.setup.tactile == "pegboard" else None
    eboard = EBoardDevice(script.start_board()) if script.setup.sighted_board == "dgt" else None
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
                    front.handle(PegLine(device.snapshot()), max(now, request.t))
                elif request.device == "eboard" and eboard is not None:
                    for snapshot in eboard.dump(max(now, request.t)):
                        front.handle(EBoardInput(snapshot), max(now, request.t))
            rounds += 1
        requests.clear()

    def connect(now: float) -> None:
        # The serial link sends "V?" on every (re)connect; the board answers with I and S.
        if device is not None:
            for line in device.hello():
                front.handle(PegLine(line), now)
        # The DGT link resets the e-board and asks for a board dump on every (re)connect.
        if eboard is not None:
            eboard.cable(eboard.plugged)
            for snapshot in eboard.dump(now):
                front.handle(EBoardInput(snapshot), now)
        answer_requests(now)

    settle = script.setup.settle_time
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
            front.handle(Tick(), now)
            answer_requests(now)
        return now

    front.subscribe(collect)
    now = 0.0
    actions = list(script.actions)
    point = resume_point(journal) if resume else None
    if resume and point is None:
        journal.write_bytes(b"")    # cut off before the game's first line was whole: it never began
        resume = False
    if point is not None:
        now, held = point
        given = [a.t < now or (held is not None and a.line <= held.number) for a in actions]
        done = [a for a, was in zip(actions, given, strict=True) if was]
        actions = [a for a, was in zip(actions, given, strict=True) if not was]
        pegs_moved: float | None = None
        for action in done:       # the hands moved the pegs and pieces before the crash
            if isinstance(action, TableAction) and isinstance(action.command, PegLine) and device is not None:
                device.apply(action.command.text)
                pegs_moved = action.t
            elif isinstance(action, (EBoardLift, EBoardPlace)) and eboard is not None:
                eboard.act(f"L {action.square}" if isinstance(action, EBoardLift) else action.text, action.t)
            elif isinstance(action, EBoardCable) and eboard is not None:
                eboard.cable(action.plugged)
        front.resume(script, journal, now, pegs_moved)
        if pegs_moved is not None:
            last_peg.append(pegs_moved)     # they settle as they would have without the crash
    else:
        front.start(script, journal, 0.0)
    connect(now)
    for action in actions:
        wait(now, action.t)
        front.handle(Tick(), action.t)
        answer_requests(action.t)
        perform(front, action, device, eboard, journal)
        if isinstance(action, TableAction) and isinstance(action.command, PegLine):
            last_peg.append(action.t)
        if isinstance(action, AppCrash):
            connect(action.t)
        answer_requests(action.t)
        now = action.t
    front.handle(Tick(), now)
    answer_requests(now)
    wait(now, math.inf, flags=False)
    ended = max((a.t for a in script.actions), default=0.0)
    final = front.final(max(now, ended, game_time(journal)))
    emit(final)
    return final


def line_input(action: Action, part: int = 0) -> InputId:
    """The identity of the input a script line gives (``part``: the second, third … input of one line)."""
    return InputId(SCRIPT_INPUTS, action.line, part)


def resume_point(journal: Path) -> tuple[float, InputId | None] | None:
    """Where a script goes on in the game ``journal`` holds: the time of its last line that counts (a unit
    cut off by a crash does not) and the highest script line it holds; None when it holds no game that
    began (its first line whole), or is no journal at all."""
    try:
        read = read_journal(journal)
    except NotAJournal:
        return None
    if not any(ev.get("type") == "session-start" for ev in read.events):
        return None
    return _latest(read.events), read.inputs.get(SCRIPT_INPUTS)


def game_time(journal: Path) -> float:
    """When the game in ``journal`` last changed: its last recorded moment but for what the program notes of
    itself — a note (the table's own facts, a game closed), a reopening, damage found (0 when it cannot be
    read). A move the pegs' settle time completed after the script's last line counts; how long the speech
    took does not."""
    try:
        events = read_journal(journal).events
    except OSError:
        return 0.0
    return _latest([ev for ev in events if ev.get("type") not in _PROGRAM_NOTES])


#: What the program journals of itself, not of the game (:func:`game_time`).
_PROGRAM_NOTES = frozenset({"note", "reopened", "journal-damaged"})


def _latest(events: list[dict[str, object]]) -> float:
    times = [ev.get("t") for ev in events]
    return max((float(t) for t in times if isinstance(t, (int, float)) and not isinstance(t, bool)), default=0.0)


def play(script: Script, front: Front, journal: Path, *, resume: bool = False) -> list[dict[str, object]]:
    """Every event of ``script`` through ``front`` as the scenario JSON objects, in time order, ``final`` last.

    The same call for every front, so two fronts can be compared on one script.
    The front is closed afterwards. ``resume``: see :func:`run`.
    """
    events: list[TableEvent] = []
    try:
        run(script, front, journal, events.append, resume=resume)
    finally:
        front.close()
    return in_time_order(events)


def perform(front: Front, action: Action, device: PegBoardDevice | None, eboard: EBoardDevice | None = None,
            journal: Path | None = None) -> None:
    """One action through the front: the one place that says what each script action does.

    An input at the table goes to the front as its command; a peg line moves the simulated pegs
    first (``device``). E-board actions go through the simulated e-board (``eboard``), which turns
    them into what its link reads; a lost envelope is the envelope file beside ``journal`` removed
    (every front keeps it there). Raises ``NotImplementedError`` for an e-board action without an
    e-board (:func:`~blindchess.scenario.parser.parse` refuses those).
    """
    now = action.t
    match action:
        case TableAction(command=command):
            if isinstance(command, PegLine) and device is not None:
                device.apply(command.text)
            front.handle(command, now, line_input(action))
        case AppCrash():
            front.crash(now)
        case AppEnvelopeLost():
            if journal is not None:
                envelope_path(journal).unlink(missing_ok=True)
        case EBoardCable() | EBoardLift() | EBoardPlace():
            if eboard is None:
                raise NotImplementedError(type(action).__name__)
            _eboard(front, action, eboard)
        case _:
            assert_never(action)


def _eboard(front: Front, action: EBoardCable | EBoardLift | EBoardPlace, eboard: EBoardDevice) -> None:
    now = action.t
    match action:
        case EBoardCable(plugged=plugged):
            eboard.cable(plugged)
            if plugged:   # the link reconnects and asks for a board dump
                for part, snapshot in enumerate(eboard.dump(now)):
                    front.handle(EBoardInput(snapshot), now, line_input(action, part))
        case EBoardLift(square=square):
            for part, update in enumerate(eboard.act(f"L {square}", now)):
                front.handle(EBoardInput(update), now, line_input(action, part))
        case EBoardPlace():
            for part, update in enumerate(eboard.act(action.text, now)):
                front.handle(EBoardInput(update), now, line_input(action, part))
        case _:
            assert_never(action)

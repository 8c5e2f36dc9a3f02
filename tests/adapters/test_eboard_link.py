"""The sighted player's e-board through the serial link, against the DGT emulator on a pty.

The DGT emulator (:class:`~blindchess.adapters.devices.simulator.VirtualDgtBoard`) stands
on a pseudo-terminal; a :class:`~blindchess.adapters.devices.link.SerialLink` in input
mode with the ``dgt-sighted`` profile reads it in its own thread, exactly as the
app does; its events go into a :class:`~blindchess.table.table.Table`. The
link's clock is the script's (passed in), so the same game played through the
link gives the very same table events as ``scenario run`` gives headless.
"""

from __future__ import annotations

import threading

import chess
import pytest

from blindchess import scenario
from blindchess.adapters.devices.link import SerialLink
from blindchess.adapters.devices.simulator import VirtualDgtBoard
from blindchess.pegboard import dgt
from blindchess.pegboard.profiles import load_profile
from blindchess.pegboard.tracker import InputEvent, PieceUpdate, Place, Snapshot
from blindchess.storage import InputId
from blindchess.table.commands import BlindSays, Command, EBoardInput, TactileMove, Tick
from blindchess.table.events import DeviceRequest, TableEvent
from blindchess.table.table import Table, TableSetup
from blindchess.ui.tactile import EBOARD_PROFILE, eboard_choice, eboard_link
from tests.support.paths import SCENARIOS
from tests.support.waiting import wait_for


class Inputs:
    """The link's ``on_input``: every event, in order (from the reader thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list[InputEvent] = []

    def __call__(self, event: InputEvent) -> None:
        with self.lock:
            self.events.append(event)

    def count(self) -> int:
        with self.lock:
            return len(self.events)

    def since(self, start: int) -> list[InputEvent]:
        with self.lock:
            return list(self.events[start:])


class Clock:
    """The script's time, read by the link's thread when it stamps an event."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def eboard(tmp_path):
    """(emulator, link, inputs, clock, statuses): the sighted player's DGT e-board plugged in and read."""
    emulator = VirtualDgtBoard(chess.Board(), link=tmp_path / "eboard")
    emulator.open()
    inputs, clock, statuses = Inputs(), Clock(), []
    link = SerialLink(None, on_input=inputs, profile=load_profile("dgt-sighted"), port=str(emulator.link),
                      on_status=statuses.append, lang="en", retry=0.05, clock=clock)
    assert link.input_mode and link.role == "sighted"
    link.start()
    try:
        # the link resets the board, asks for its version and a dump, and switches field updates on
        assert wait_for(lambda: inputs.count() == 1 and emulator.update_mode)
        yield emulator, link, inputs, clock, statuses
    finally:
        link.stop()
        emulator.close()
        emulator.remove_link()


class LinkFront(scenario.HeadlessFront):
    """The headless table, but the e-board's events come through the emulator and the serial link.

    The runner's own e-board (:class:`~blindchess.scenario.devices.EBoardDevice`) says what the
    hands do; here each change is made on the emulator instead, and what the link reads is fed to
    the table. A dump the runner would answer is asked for over the wire.
    """

    def __init__(self, emulator: VirtualDgtBoard, link: SerialLink, inputs: Inputs, clock: Clock) -> None:
        super().__init__()
        self.emulator, self.link, self.inputs, self.clock = emulator, link, inputs, clock
        self.read: list[InputEvent] = []

    def handle(self, command: Command, now: float, ident: InputId | None = None) -> None:
        if not isinstance(command, EBoardInput):
            super().handle(command, now, ident)
            return
        event = command.event
        self.clock.now = now
        start = self.inputs.count()
        if isinstance(event, Snapshot):
            self.link.request_snapshot()
        elif isinstance(event, PieceUpdate) and event.piece is None:
            assert self.emulator.lift(event.square)
        elif isinstance(event, PieceUpdate):
            assert self.emulator.place(event.square, event.piece)
        assert wait_for(lambda: self.inputs.count() > start)
        [received] = self.inputs.since(start)
        assert type(received) is type(event) and received.t == now
        self.read.append(received)
        super().handle(EBoardInput(received), received.t, ident)


def test_the_eboard_game_through_the_serial_link_gives_the_same_events_as_headless(eboard, tmp_path):
    emulator, link, inputs, clock, statuses = eboard
    script = scenario.read_script(SCENARIOS / "eboard_game.scn", "en")
    headless = scenario.play(script, scenario.HeadlessFront(), tmp_path / "headless.jsonl")
    front = LinkFront(emulator, link, inputs, clock)
    through_link = scenario.play(script, front, tmp_path / "link.jsonl")
    assert through_link == headless
    moves = [e for e in through_link if e["type"] == "move"]
    assert [m["san"] for m in moves if m["color"] == "white"] == ["e4", "e5", "exd6", "dxc7", "Nf3", "Bb5", "O-O",
                                                                  "cxd8=Q"]
    assert len([e for e in front.read if isinstance(e, PieceUpdate)]) == \
        len([a for a in script.actions if isinstance(a, (scenario.EBoardLift, scenario.EBoardPlace))])
    assert emulator.pieces == chess.Board(through_link[-1]["boards"]["sighted"]).piece_map()
    assert not [s for s in statuses if s.state in ("protocol-error", "checksum-error")]


def feed(table: Table, inputs: Inputs, start: int) -> int:
    """Everything the link read since ``start`` into the table, with the link's time stamps."""
    received = inputs.since(start)
    for event in received:
        table.handle(EBoardInput(event), event.t)
    return start + len(received)


def test_unplugging_the_eboard_mid_game_through_the_link_neither_loses_nor_invents_a_move(eboard):
    emulator, link, inputs, clock, statuses = eboard
    events: list[TableEvent] = []
    table = Table.new(TableSetup(white="Sabine Sehend", black="Bernd Blind", blind="black", tactile="none",
                                 sighted_board="dgt", settle=0.5), 0.0)
    table.subscribe(events.append)
    requests = [e for e in events if isinstance(e, DeviceRequest) and e.device == "eboard"]
    assert not requests                           # the link asks for a dump by itself on connect
    seen = feed(table, inputs, 0)

    def hand(t: float, board: chess.Board, uci: str) -> None:
        nonlocal seen
        clock.now = t
        start = inputs.count()
        sent = emulator.play_move(board, chess.Move.from_uci(uci))
        assert wait_for(lambda: inputs.count() == start + len(sent))
        seen = feed(table, inputs, seen)
        table.handle(Tick(), t + 0.5)

    board = chess.Board()
    hand(1.0, board, "e2e4")                                     # 1.e4 by the sighted player
    board.push_uci("e2e4")
    table.handle(TactileMove("e2e4"), 3.0)
    table.handle(TactileMove("e7e5"), 4.0)
    table.handle(BlindSays("Eva fünf", 1.0), 4.5)                       # 1...e5 by the blind player
    hand(6.0, board, "e7e5")                                     # mirrored on the e-board
    board.push_uci("e7e5")
    # 2.Nf3: the knight is lifted, the cable comes out, the knight lands, the cable goes back in
    clock.now = 8.0
    start = inputs.count()
    emulator.lift(chess.G1)
    assert wait_for(lambda: inputs.count() == start + 1)
    seen = feed(table, inputs, seen)
    emulator.close()
    assert wait_for(lambda: "disconnected" in [s.state for s in statuses])
    emulator.place(chess.F3, chess.Piece(chess.KNIGHT, chess.WHITE))   # not reported: nobody listens
    table.handle(Tick(), 9.0)
    assert [m.uci() for m in table.session.snapshot.game_moves] == ["e2e4", "e7e5"]   # nothing invented meanwhile
    clock.now = 10.0
    start = inputs.count()
    emulator.open()                                              # plugged in: the link asks for a dump
    assert wait_for(lambda: any(isinstance(e, Snapshot) for e in inputs.since(start)))
    assert wait_for(lambda: emulator.update_mode)
    seen = feed(table, inputs, seen)
    table.handle(Tick(), 10.5)
    assert [m.uci() for m in table.session.snapshot.game_moves] == ["e2e4", "e7e5", "g1f3"]   # read once
    assert "reconnected" in [s.state for s in statuses]
    said = [e.to_json()["text"] for e in events if e.to_json()["type"] == "speak"]
    assert said.count("Springer Felix drei") == 1                # announced to the blind player once
    table.handle(Tick(), 20.0)
    assert [m.uci() for m in table.session.snapshot.game_moves] == ["e2e4", "e7e5", "g1f3"]
    assert table.eboard is not None and table.eboard.in_sync and not table.eboard.mismatch


def test_the_apps_eboard_link_carries_out_the_tables_dump_requests(tmp_path):
    # The app's second link (ui/tactile.py): the table's DeviceRequest "eboard"/"snapshot" goes over
    # the wire; the peg-board's requests are not its business.
    emulator = VirtualDgtBoard(chess.Board(), link=tmp_path / "eboard")
    emulator.open()
    inputs, clock = Inputs(), Clock()
    eboard = eboard_link()
    assert eboard_choice(str(emulator.link)) == ("serial", str(emulator.link), EBOARD_PROFILE)
    assert eboard_choice() == ("profile", "", EBOARD_PROFILE)
    eboard.open(*eboard_choice(str(emulator.link)), lang="en", on_input=inputs, on_status=lambda s: None,
                clock=clock)
    try:
        assert eboard.link is not None and eboard.link.role == "sighted" and eboard.link.input_mode
        assert wait_for(lambda: inputs.count() == 1 and emulator.update_mode)
        table = Table.new(TableSetup(blind="black", tactile="none", sighted_board="dgt"), 0.0)
        events: list[TableEvent] = []
        table.subscribe(events.append)
        table.handle(EBoardInput(inputs.since(0)[0]), 0.0)
        clock.now = 1.0
        table.handle(EBoardInput(Place(1.0, chess.E4)), 1.0)          # a report the table cannot judge: a dump, please
        requests = [e for e in events if isinstance(e, DeviceRequest)]
        assert [(r.device, r.what) for r in requests] == [("eboard", "snapshot")]
        eboard.request(DeviceRequest(1.0, "pegboard", "snapshot"))     # not this link's device
        eboard.request(requests[0])
        assert wait_for(lambda: inputs.count() == 2)
        dump = inputs.since(1)[0]
        assert isinstance(dump, Snapshot) and dump.pieces == chess.Board().piece_map() and dump.t == 1.0
        assert wait_for(lambda: emulator.dgt_commands.count(dgt.SEND_BRD) == 2)   # hello + this one only
    finally:
        eboard.close()
        emulator.close()
        emulator.remove_link()

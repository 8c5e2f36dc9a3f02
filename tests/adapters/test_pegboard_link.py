"""The serial link over real pseudo-terminals (pyserial on one end, the simulator on the other).

No mock of the serial layer: the simulator is a real device on a pty.
"""

from __future__ import annotations

import os
import threading
import time

import chess
import pytest

from blindchess.adapters.devices.link import SerialLink, scan_ports
from blindchess.adapters.devices.simulator import VirtualPegboard
from blindchess.pegboard.profiles import available_profiles, load_profile
from blindchess.pegboard.protocol import checksum, ident_line
from blindchess.pegboard.tracker import Tracker
from tests.support.waiting import wait_for

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")

SETTLE = 0.2


class Recorder:
    def __init__(self) -> None:
        self.events = []
        self.statuses = []
        self.lock = threading.Lock()

    def event(self, e) -> None:
        with self.lock:
            self.events.append(e)

    def status(self, s) -> None:
        with self.lock:
            self.statuses.append(s)

    def types(self):
        with self.lock:
            return [e.type for e in self.events]

    def moves(self):
        with self.lock:
            return [e.move.uci() for e in self.events if e.type == "move"]

    def states(self):
        with self.lock:
            return [s.state for s in self.statuses]


@pytest.fixture
def board_link(tmp_path):
    sim = VirtualPegboard(link=tmp_path / "pegboard")
    sim.open()
    rec = Recorder()
    tracker = Tracker(chess.Board(), settle=SETTLE)
    link = SerialLink(tracker, rec.event, port=str(sim.link), on_status=rec.status, lang="en", retry=0.05)
    link.start()
    assert wait_for(lambda: "in-sync" in rec.types()), rec.states()   # hello: ident + snapshot
    yield sim, link, rec
    link.stop()
    sim.close()
    sim.remove_link()


def test_lifts_and_places_become_touches_and_moves(board_link):
    sim, link, rec = board_link
    assert link.ident == "blindchess simulator 1.0"
    sim.lift(chess.E2)
    assert wait_for(lambda: "touched" in rec.types())
    sim.place(chess.E4)
    assert wait_for(lambda: rec.moves() == ["e2e4"])
    time.sleep(SETTLE * 2)
    assert rec.moves() == ["e2e4"]           # exactly once


def test_noise_truncated_lines_and_bad_checksums_change_nothing(board_link):
    sim, link, rec = board_link
    sim.send(b"\x00\xff\xfe\x80garbage\xc3\x28\n")          # noise and invalid UTF-8
    sim.send(b"L e")                                        # a truncated line ...
    sim.send(b"\n")                                         # ... ended early: "L e" is no square
    sim.send(b"L e2*%02X\n" % (checksum(b"L e2") ^ 0x01))    # a wrong checksum
    sim.send(b"L z9\n" + b"P " + b"x" * 300 + b"\n")         # an impossible square, an overlong line
    # one short status per read and kind of trouble (the reader may get all of it in one read)
    assert wait_for(lambda: link.errors >= 5 and "protocol-error" in rec.states() and "checksum-error" in rec.states())
    dropped = [s.message for s in rec.statuses if s.state == "protocol-error"]
    assert all(len(m) < 200 and "bytes" in m for m in dropped), dropped
    assert wait_for(lambda: sim.commands.count(b"?") >= 2)  # snapshots requested again
    time.sleep(SETTLE * 2)
    assert [t for t in rec.types() if t not in ("in-sync",)] == []   # nothing happened on the board
    assert link.tracker.board.fen() == chess.STARTING_FEN
    message = [s.message for s in rec.statuses if s.state == "checksum-error"][0]
    assert "checksum" in message
    # the link still works
    sim.lift(chess.G1)
    sim.place(chess.F3)
    assert wait_for(lambda: rec.moves() == ["g1f3"])


def test_a_snapshot_contradicting_the_game_is_a_mismatch(board_link):
    sim, link, rec = board_link
    sim.occupied ^= chess.BB_D2 | chess.BB_D5          # the board shows d2-d5, no legal move
    sim.snapshot()
    assert wait_for(lambda: "mismatch" in rec.types())
    mismatch = [e for e in rec.events if e.type == "mismatch"][0]
    assert sorted(chess.square_name(s) for s in mismatch.squares) == ["d2", "d5"]
    assert link.tracker.board.fen() == chess.STARTING_FEN    # not applied
    sim.lift(chess.D5)
    sim.place(chess.D2)
    assert wait_for(lambda: rec.types()[-1] == "in-sync")


def test_impossible_events_request_a_snapshot(board_link):
    sim, link, rec = board_link
    before = sim.commands.count(b"?")
    sim.send(b"L e4\n")                 # e4 is empty: events were lost somewhere
    assert wait_for(lambda: "out-of-step" in rec.states())
    assert wait_for(lambda: sim.commands.count(b"?") > before)
    assert link.tracker.board.fen() == chess.STARTING_FEN


def test_reconnect_in_the_middle_of_a_move(board_link):
    sim, link, rec = board_link
    sim.lift(chess.G1)
    assert wait_for(lambda: "touched" in rec.types())
    sim.send(b"P f")                     # half a line, then the cable is pulled
    sim.close()
    assert wait_for(lambda: "disconnected" in rec.states())
    sim.occupied |= chess.BB_F3          # the knight lands while nobody listens
    time.sleep(0.2)
    sim.reopen()                         # a new pty, the link path follows
    assert wait_for(lambda: "reconnected" in rec.states())
    assert wait_for(lambda: rec.moves() == ["g1f3"])   # the snapshot after reconnect shows the move
    time.sleep(SETTLE * 2)
    assert rec.moves() == ["g1f3"]      # once, nothing else
    assert "mismatch" not in rec.types()
    sim.lift(chess.E7)
    sim.place(chess.E5)
    assert wait_for(lambda: rec.moves() == ["g1f3", "e7e5"])
    assert [s.message for s in rec.statuses if s.state == "disconnected"][0].startswith("Connection to the board lost")


def test_profile_scan_finds_the_simulator(tmp_path, monkeypatch):
    monkeypatch.setenv("BLINDCHESS_HOME", str(tmp_path))
    profile = load_profile("simulator")
    assert scan_ports(profile) == []
    sim = VirtualPegboard(link=tmp_path / "pegboard-simulator")
    rec = Recorder()
    link = SerialLink(Tracker(chess.Board(), settle=SETTLE), rec.event, profile=profile, on_status=rec.status,
                      lang="de", retry=0.05)
    link.start()
    try:
        assert wait_for(lambda: "not-found" in rec.states())
        assert "Kein Brett gefunden" in rec.statuses[-1].message
        sim.open()
        assert scan_ports(profile) == [str(tmp_path / "pegboard-simulator")]
        assert wait_for(lambda: "in-sync" in rec.types())
        sim.lift(chess.D2)
        sim.place(chess.D4)
        assert wait_for(lambda: rec.moves() == ["d2d4"])
    finally:
        link.stop()
        sim.close()
        sim.remove_link()


def test_mirroring_through_the_link(board_link):
    sim, link, rec = board_link
    expected = chess.Board()
    expected.push_san("Nc3")
    link.expect(expected)
    sim.lift(chess.B1)
    sim.place(chess.A3)                 # the wrong square
    assert wait_for(lambda: "mismatch" in rec.types())
    mismatch = [e for e in rec.events if e.type == "mismatch"][0]
    assert mismatch.expected.uci() == "b1c3"
    sim.lift(chess.A3)
    sim.place(chess.C3)
    assert wait_for(lambda: rec.moves() == ["b1c3"])


def test_shipped_profiles_load():
    names = available_profiles()
    assert {"blindchess-pegboard", "dgt", "simulator"} <= set(names)
    for name in names:
        profile = load_profile(name)
        assert profile.protocol in ("blindchess", "dgt") and profile.baud > 0
    assert load_profile("dgt").baud == 9600 and load_profile("dgt").senses_pieces
    assert load_profile("blindchess-pegboard").baud == 115200


def test_a_missing_or_broken_profile_is_a_clear_error(tmp_path):
    from blindchess.base.errors import UserError

    with pytest.raises(UserError, match="nicht gefunden"):
        load_profile("no-such-board", "de")
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\nprotocol = "morse"\n')
    with pytest.raises(UserError, match="protocol"):
        load_profile(broken, "en")


def test_a_turned_board_is_read_turned(tmp_path):
    """The blind player has Black and the board is turned: its a1 is the game's h8 (profile orientation)."""
    sim = VirtualPegboard(link=tmp_path / "turned")
    sim.open()
    rec = Recorder()
    link = SerialLink(Tracker(chess.Board(), settle=SETTLE), rec.event, port=str(sim.link), rotated=True,
                      on_status=rec.status, retry=0.05)
    link.start()
    try:
        assert wait_for(lambda: "in-sync" in rec.types())     # the start position is symmetric
        sim.lift(chess.D7)                 # the board's d7 is the game's e2
        sim.place(chess.D5)                # the board's d5 is the game's e4
        assert wait_for(lambda: rec.moves() == ["e2e4"])
        touched = [e for e in rec.events if e.type == "touched"][0]
        assert touched.square == chess.E2 and touched.own
    finally:
        link.stop()
        sim.close()
        sim.remove_link()


def test_a_megabyte_of_junk_on_the_line_gives_short_statuses_and_the_link_reads_on(board_link):
    # 30 MB of 0xFF once made one 120-million-character status; a long line blocked the reader
    sim, link, rec = board_link
    requests = sim.commands.count(b"?")
    junk = b"\xff" * (1 << 20) + b"\n" + b"x" * (1 << 20) + b"\n"
    for i in range(0, len(junk), 1 << 16):              # the simulator gives up a write blocked for 1 s
        assert sim.send(junk[i:i + (1 << 16)])
    sim.send(ident_line("after the junk"))
    assert wait_for(lambda: link.ident == "after the junk", timeout=60)   # all of it read
    sim.lift(chess.G1)
    sim.place(chess.F3)
    assert wait_for(lambda: rec.moves() == ["g1f3"], timeout=30), (rec.types(), rec.states()[-5:], link.errors)
    with rec.lock:
        dropped = [s for s in rec.statuses if s.state == "protocol-error"]
    assert dropped and all(len(s.message) < 160 and len(s.detail) <= 66 for s in dropped)
    assert len(dropped) < 600            # one per read at most, not one per byte or line
    assert sim.commands.count(b"?") > requests
    assert len(link.driver.decoder.assembler._buf) <= 121

"""The DGT driver against a DGT board emulator built here from the published protocol.

The emulator speaks DGT's single-board protocol on a real pseudo-terminal:
it answers SEND_BRD (0x42) with a 67-byte BOARD_DUMP (0x86), SEND_VERSION
(0x4d) with VERSION (0x93), and after SEND_UPDATE_BRD (0x44) reports every
change as a 5-byte FIELD_UPDATE (0x8e) — in scan order, not in the order the
hand moved (a scan takes 200-250 ms), as a real board does.
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty

import chess
import pytest

from blindchess.pegboard import dgt
from blindchess.pegboard.link import DgtLink
from blindchess.pegboard.protocol import Ident, ProtocolError
from blindchess.pegboard.tracker import PieceUpdate, Snapshot, Tracker
from waiting import wait_for

SETTLE = 0.3


class DgtEmulator:
    """A DGT e-board on a pty: 64 fields with piece codes, DGT commands, DGT messages."""

    def __init__(self, board: chess.Board) -> None:
        self.pieces = dict(board.piece_map())
        self.update_mode = False
        self.commands: list[int] = []
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        self.master, self.slave = master, slave
        self.port = os.ttyname(slave)
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        os.close(self.master)
        os.close(self.slave)

    def write(self, data: bytes) -> None:
        with self._lock:
            os.write(self.master, data)

    def _serve(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            for byte in os.read(self.master, 64):
                self.commands.append(byte)
                if byte == dgt.SEND_BRD:
                    self.write(self.dump())
                elif byte == dgt.SEND_VERSION:
                    self.write(dgt.version(1, 7))
                elif byte in (dgt.SEND_UPDATE_BRD, dgt.SEND_UPDATE_NICE):
                    self.update_mode = True
                elif byte == dgt.SEND_RESET:
                    self.update_mode = False

    def dump(self) -> bytes:
        """The BOARD_DUMP, built byte by byte from the protocol description."""
        fields = bytearray(64)
        for square, piece in self.pieces.items():
            field = (7 - chess.square_rank(square)) * 8 + chess.square_file(square)   # 0 = a8 ... 63 = h1
            fields[field] = _code(piece)
        return bytes([0x86, 0, 67]) + bytes(fields)

    def scan(self, changes: dict[int, chess.Piece | None], rng: random.Random) -> None:
        """Apply changes; report them as FIELD_UPDATEs in shuffled (scan) order."""
        items = list(changes.items())
        rng.shuffle(items)
        for square, piece in items:
            if piece is None:
                self.pieces.pop(square, None)
            else:
                self.pieces[square] = piece
            if self.update_mode:
                field = (7 - chess.square_rank(square)) * 8 + chess.square_file(square)
                self.write(bytes([0x8E, 0, 5, field, _code(piece)]))


def _code(piece: chess.Piece | None) -> int:
    if piece is None:
        return 0
    order = [chess.PAWN, chess.ROOK, chess.KNIGHT, chess.BISHOP, chess.KING, chess.QUEEN]
    return order.index(piece.piece_type) + (1 if piece.color == chess.WHITE else 7)


def test_piece_codes_and_fields_follow_the_published_protocol():
    assert [dgt.piece_from_code(c).symbol() for c in range(1, 13)] == list("PRNBKQprnbkq")
    assert dgt.piece_from_code(0) is None
    # DGT's PIECE1-PIECE3 (13-15) are no chess pieces; 16 and above are not DGT codes at all
    assert [dgt.piece_from_code(c) for c in (13, 14, 15)] == [None, None, None]
    with pytest.raises(ValueError):
        dgt.piece_from_code(16)
    assert dgt.square_from_field(0) == chess.A8 and dgt.square_from_field(7) == chess.H8
    assert dgt.square_from_field(8) == chess.A7 and dgt.square_from_field(63) == chess.H1
    assert all(dgt.field_from_square(dgt.square_from_field(f)) == f for f in range(64))
    assert dgt.square_from_field(0, rotated=True) == chess.H1
    assert dgt.board_dump(chess.Board().piece_map())[:3] == bytes([0x86, 0, 67])
    assert len(dgt.board_dump({})) == 67 and len(dgt.field_update(chess.E4, None)) == 5


def test_decoder_resynchronises_on_the_message_bit():
    decoder = dgt.DgtDecoder()
    start = chess.Board()
    stream = (b"\x01\x02junk" + dgt.board_dump(start.piece_map())[:20]      # a dump cut short ...
              + dgt.field_update(chess.E2, None)                          # ... by the next message
              + bytes([0x8E, 0, 9]) + b"\x00"                            # a wrong length
              + dgt.field_update(chess.E4, chess.Piece(chess.PAWN, chess.WHITE))
              + bytes([0x8D, 0, 10]) + bytes(7)                          # clock times: skipped
              + dgt.version(1, 2) + dgt.board_dump(start.piece_map()))
    out = []
    for i in range(0, len(stream), 5):
        out += decoder.feed(stream[i:i + 5], 1.0)
    events = [m for m in out if not isinstance(m, ProtocolError)]
    assert events[0] == PieceUpdate(1.0, chess.E2, None)
    assert events[1] == PieceUpdate(1.0, chess.E4, chess.Piece(chess.PAWN, chess.WHITE))
    assert events[2] == Ident(1.0, "DGT 1.02")
    assert isinstance(events[3], Snapshot) and events[3].pieces == start.piece_map()
    assert events[3].occupied == int(start.occupied)
    assert {m.kind for m in out if isinstance(m, ProtocolError)} == {"noise", "dgt-message"}


def test_dgt_board_over_a_pty_with_out_of_order_updates_and_a_slide_storm():
    rng = random.Random(7)
    emulator = DgtEmulator(chess.Board())
    events, statuses = [], []
    tracker = Tracker(chess.Board(), settle=SETTLE, senses_pieces=True)
    link = DgtLink(tracker, events.append, port=emulator.port, on_status=statuses.append, lang="en", retry=0.05)
    link.start()
    try:
        assert wait_for(lambda: any(e.type == "in-sync" for e in events))
        assert wait_for(lambda: link.ident == "DGT 1.07")
        assert emulator.commands[:4] == [dgt.SEND_RESET, dgt.SEND_VERSION, dgt.SEND_BRD, dgt.SEND_UPDATE_BRD]
        white_pawn = chess.Piece(chess.PAWN, chess.WHITE)
        # e2-e4 as one scan: the arrival may be reported before the departure
        emulator.scan({chess.E2: None, chess.E4: white_pawn}, rng)
        assert wait_for(lambda: [e.move.uci() for e in events if e.type == "move"] == ["e2e4"])
        # a slide storm: the white queen's path d1-h5 reported square by square, many times
        emulator.scan({chess.E7: None, chess.E5: chess.Piece(chess.PAWN, chess.BLACK)}, rng)
        assert wait_for(lambda: len([e for e in events if e.type == "move"]) == 2)
        queen = chess.Piece(chess.QUEEN, chess.WHITE)
        emulator.scan({chess.D1: None}, rng)
        for _ in range(5):
            for square in (chess.E2, chess.F3, chess.G4):
                emulator.scan({square: queen}, rng)
                emulator.scan({square: None}, rng)
        emulator.scan({chess.H5: queen}, rng)
        assert wait_for(lambda: len([e for e in events if e.type == "move"]) == 3)
        time.sleep(SETTLE * 2)
        assert [e.move.uci() for e in events if e.type == "move"] == ["e2e4", "e7e5", "d1h5"]
        assert not [e for e in events if e.type == "mismatch"]
        # a wrong piece: Nc6 mirrored with a bishop
        expected = tracker.board
        expected.push_san("Nc6")
        link.expect(expected)
        emulator.scan({chess.B8: None, chess.C6: chess.Piece(chess.BISHOP, chess.BLACK)}, rng)
        assert wait_for(lambda: any(e.type == "mismatch" for e in events))
        mismatch = [e for e in events if e.type == "mismatch"][-1]
        assert [chess.square_name(s) for s in mismatch.wrong_pieces] == ["c6"]
        emulator.scan({chess.C6: chess.Piece(chess.KNIGHT, chess.BLACK)}, rng)
        assert wait_for(lambda: [e.move.uci() for e in events if e.type == "move"][-1:] == ["b8c6"])
        # garbage on the line: dropped, a board dump requested, nothing invented
        requests = emulator.commands.count(dgt.SEND_BRD)
        emulator.write(b"\x05\x06\x8e\x00")
        assert wait_for(lambda: emulator.commands.count(dgt.SEND_BRD) > requests)
        time.sleep(SETTLE * 2)
        assert [e.move.uci() for e in events if e.type == "move"] == ["e2e4", "e7e5", "d1h5", "b8c6"]
    finally:
        link.stop()
        emulator.close()

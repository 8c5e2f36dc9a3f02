"""The DGT driver against the DGT board emulator on a real pseudo-terminal.

The emulator (``simulator.VirtualDgtBoard``) speaks DGT's single-board protocol:
it answers SEND_BRD (0x42) with a 67-byte BOARD_DUMP (0x86), SEND_VERSION
(0x4d) with VERSION (0x93), and after SEND_UPDATE_BRD (0x44) reports every
change as a 5-byte FIELD_UPDATE (0x8e) — in scan order, not in the order the
hand moved (a scan takes 200-250 ms), as a real board does.  Its bytes are
checked here against a dump built independently from the protocol description.
"""

from __future__ import annotations

import random
import threading
import time

import chess
import pytest

from blindchess.adapters.devices.link import DgtLink, SerialLink
from blindchess.adapters.devices.simulator import VirtualDgtBoard
from blindchess.pegboard import dgt
from blindchess.pegboard.profiles import load_profile
from blindchess.pegboard.protocol import Ident, ProtocolError
from blindchess.pegboard.tracker import PieceUpdate, Snapshot, Tracker
from tests.support.waiting import wait_for

SETTLE = 0.3


def independent_dump(pieces: dict[int, chess.Piece], magic: dict[int, int] | None = None) -> bytes:
    """The BOARD_DUMP, built byte by byte from the protocol description (not from blindchess's encoder)."""
    fields = bytearray(64)
    for square, piece in pieces.items():
        fields[(7 - chess.square_rank(square)) * 8 + chess.square_file(square)] = _code(piece)   # 0 = a8 ... 63 = h1
    for square, code in (magic or {}).items():
        fields[(7 - chess.square_rank(square)) * 8 + chess.square_file(square)] = code
    return bytes([0x86, 0, 67]) + bytes(fields)


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


@pytest.mark.slow
def test_dgt_board_over_a_pty_with_out_of_order_updates_and_a_slide_storm():
    rng = random.Random(7)
    emulator = VirtualDgtBoard(chess.Board())
    emulator.open()
    assert emulator.dump() == independent_dump(chess.Board().piece_map())
    events, statuses = [], []
    tracker = Tracker(chess.Board(), settle=SETTLE, senses_pieces=True)
    link = DgtLink(tracker, events.append, port=emulator.port, on_status=statuses.append, lang="en", retry=0.05)
    link.start()
    try:
        assert wait_for(lambda: any(e.type == "in-sync" for e in events))
        assert wait_for(lambda: link.ident == "DGT 1.07")
        assert emulator.dgt_commands[:4] == [dgt.SEND_RESET, dgt.SEND_VERSION, dgt.SEND_BRD, dgt.SEND_UPDATE_BRD]
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
        requests = emulator.dgt_commands.count(dgt.SEND_BRD)
        emulator.send(b"\x05\x06\x8e\x00")
        assert wait_for(lambda: emulator.dgt_commands.count(dgt.SEND_BRD) > requests)
        time.sleep(SETTLE * 2)
        assert [e.move.uci() for e in events if e.type == "move"] == ["e2e4", "e7e5", "d1h5", "b8c6"]
    finally:
        link.stop()
        emulator.close()


# ---------------------------------------------------------------------------
# Magic pieces: DGT's PIECE1-PIECE3, codes 0x0d-0x0f, are no chess pieces

WHITE_PAWN = chess.Piece(chess.PAWN, chess.WHITE)


def test_a_dump_with_magic_pieces_is_a_snapshot_with_those_squares_empty():
    start = chess.Board()
    stream = independent_dump(start.piece_map(), magic={chess.E4: 0x0D, chess.D5: 0x0F})
    out = dgt.DgtDecoder().feed(stream, 2.0)
    assert not [m for m in out if isinstance(m, ProtocolError)]
    snapshot = [m for m in out if isinstance(m, Snapshot)]
    assert len(snapshot) == 1
    assert snapshot[0].pieces == start.piece_map() and snapshot[0].occupied == int(start.occupied)
    magic = sorted((m.square, m.meaning) for m in out if isinstance(m, dgt.MagicPiece))
    assert magic == [(chess.E4, "draw"), (chess.D5, "black-win")]
    # the tracker takes it as the starting position
    tracker = Tracker(start, settle=0.0)
    events = tracker.feed(snapshot[0])
    assert [e.type for e in events] == ["in-sync"]


def test_field_updates_with_magic_pieces_never_become_protocol_errors():
    decoder = dgt.DgtDecoder()
    tracker = Tracker(chess.Board(), settle=0.0, senses_pieces=True)
    stream = (bytes([0x8E, 0, 5, 36, 0x0E])       # white-win piece set on e4 (field 36)
              + bytes([0x8E, 0, 5, 36, 0x00])     # ... and taken away again
              + bytes([0x8E, 0, 5, 52, 0x00])     # e2 empty
              + bytes([0x8E, 0, 5, 36, 0x01]))    # white pawn on e4
    out = decoder.feed(stream, 1.0)
    assert not [m for m in out if isinstance(m, ProtocolError)]
    updates = [m for m in out if isinstance(m, PieceUpdate)]
    assert updates == [PieceUpdate(1.0, chess.E4, None), PieceUpdate(1.0, chess.E4, None),
                       PieceUpdate(1.0, chess.E2, None), PieceUpdate(1.0, chess.E4, WHITE_PAWN)]
    assert [m.meaning for m in out if isinstance(m, dgt.MagicPiece)] == ["white-win"]
    events = []
    for update in updates:
        events += tracker.feed(update)
    assert "inconsistent" not in [e.type for e in events]   # "empty" on an empty square is a state, not a lift
    assert [e.move.uci() for e in events if e.type == "move"] == ["e2e4"]
    # codes DGT does not define (16 and above) are still reported
    bad = decoder.feed(bytes([0x8E, 0, 5, 36, 0x10]) + bytes([0x86, 0, 67]) + bytes([0x10]) + bytes(63), 2.0)
    assert [m.kind for m in bad if isinstance(m, ProtocolError)] == ["dgt-message", "dgt-message"]


def test_a_magic_piece_on_the_board_does_not_make_the_link_ask_for_dumps_forever():
    # before: a board dump with a magic piece was a ProtocolError, and the link asked for a dump every 0.2 s
    emulator = VirtualDgtBoard(chess.Board())
    emulator.magic[chess.E4] = 0x0D
    emulator.open()
    events, statuses = [], []
    tracker = Tracker(chess.Board(), settle=0.0, senses_pieces=True)
    link = DgtLink(tracker, events.append, port=emulator.port, on_status=statuses.append, lang="en", retry=0.05)
    link.start()
    try:
        assert wait_for(lambda: any(e.type == "in-sync" for e in events))
        assert wait_for(lambda: emulator.update_mode)
        emulator.place_magic(chess.D5, 0x0F)
        emulator.lift(chess.E4)                  # the magic piece taken away
        emulator.play_move(chess.Board(), chess.Move.from_uci("d2d4"))
        assert wait_for(lambda: [e.move.uci() for e in events if e.type == "move"] == ["d2d4"])
        assert emulator.dgt_commands.count(dgt.SEND_BRD) == 1       # the hello's dump, no other
        assert not [s for s in statuses if s.state in ("protocol-error", "out-of-step")]
        assert link.errors == 0
    finally:
        link.stop()
        emulator.close()


# ---------------------------------------------------------------------------
# Bounded, linear decoding

def test_thirty_megabytes_of_junk_keep_the_dgt_decoder_bounded_and_the_reports_short():
    decoder = dgt.DgtDecoder()
    junk = b"\xff" * (30 * 1024 * 1024)
    chunk = 64 * 1024
    reports = []
    for i in range(0, len(junk), chunk):
        out = decoder.feed(junk[i:i + chunk], 1.0)
        assert all(isinstance(m, ProtocolError) for m in out)
        reports += out
        assert decoder.pending <= dgt.MAX_MESSAGE
    assert len(reports) <= len(junk) // chunk + 1          # one report per read, not per byte
    assert all(len(r.text) <= 66 and len(r.raw) <= 32 for r in reports)
    out = decoder.feed(dgt.field_update(chess.E4, WHITE_PAWN), 2.0)
    assert sum(r.dropped for r in reports + out if isinstance(r, ProtocolError)) == len(junk)
    assert [m for m in out if isinstance(m, PieceUpdate)] == [PieceUpdate(2.0, chess.E4, WHITE_PAWN)]
    # one megabyte of random bytes in one piece: bounded, and a good message after it is read
    rng = random.Random(3)
    noise = bytes(rng.getrandbits(8) for _ in range(1 << 20))
    decoder = dgt.DgtDecoder()
    out = decoder.feed(noise, 3.0)
    assert decoder.pending <= dgt.MAX_MESSAGE
    assert all(len(m.raw) <= 32 for m in out if isinstance(m, ProtocolError))
    decoder.reset()
    assert decoder.feed(dgt.version(1, 9), 4.0) == [Ident(4.0, "DGT 1.09")]


# ---------------------------------------------------------------------------
# E-board actions: the bytes a DGT board sends for "L e2" / "P e4 P"

def test_eboard_actions_become_the_field_updates_a_dgt_board_sends():
    # e4 is field 36 (a8 = 0 ... h1 = 63), e2 is field 52; a white pawn is code 1, a black queen 12
    assert dgt.action_message("L e2") == bytes([0x8E, 0, 5, 52, 0])
    assert dgt.action_message("P e4 P") == bytes([0x8E, 0, 5, 36, 1])
    assert dgt.action_message("p E8 q") == bytes([0x8E, 0, 5, 4, 12])
    assert dgt.action_message("P e4 P", rotated=True) == bytes([0x8E, 0, 5, 63 - 36, 1])
    assert dgt.action_messages(["L e2", "P e4 P"]) == bytes([0x8E, 0, 5, 52, 0, 0x8E, 0, 5, 36, 1])
    decoder = dgt.DgtDecoder()
    assert dgt.eboard_events(["L e2", "P e4 P"], 5.0, decoder) == [
        PieceUpdate(5.0, chess.E2, None), PieceUpdate(5.0, chess.E4, WHITE_PAWN)]
    for text, reason in (("", "syntax"), ("X e4", "syntax"), ("L", "syntax"), ("P e4", "syntax"),
                         ("L e9", "square"), ("P e4 X", "piece"), ("P e4 PP", "piece"), ("L e2 P", "syntax")):
        with pytest.raises(dgt.ActionError) as caught:
            dgt.action_message(text)
        assert caught.value.reason == reason, text
    with pytest.raises(dgt.ActionError):
        dgt.action_messages(["L e2", "P e4 Z"])        # nothing half-produced


def test_move_actions_cover_castling_capture_en_passant_and_promotion():
    board = chess.Board("r3k2r/pppp1ppp/8/3Pp3/8/8/PPP2PpP/R3K2R w KQkq e6 0 1")
    assert dgt.move_actions(board, chess.Move.from_uci("d5e6")) == ["L d5", "L e5", "P e6 P"]
    assert dgt.move_actions(board, chess.Move.from_uci("e1c1")) == ["L e1", "L a1", "P c1 K", "P d1 R"]
    board.push_san("Kd2")
    assert dgt.move_actions(board, chess.Move.from_uci("g2h1n")) == ["L g2", "L h1", "P h1 n"]
    with pytest.raises(ValueError):
        dgt.move_actions(board, chess.Move.from_uci("e1g1"))


# a game with both castlings, en passant, captures and two promotions (one an underpromotion with capture)
START = "r3k2r/6P1/8/8/3p4/8/4P3/R3K2R w KQkq - 0 1"
GAME = "e4 dxe3 O-O O-O-O gxh8=N Rxh8 Ra7 e2 Ra8+ Kb7 Rxh8 e1=Q Rxe1"


def game_moves() -> list[tuple[chess.Board, chess.Move]]:
    board = chess.Board(START)
    out = []
    for san in GAME.split():
        move = board.parse_san(san)
        out.append((board.copy(), move))
        board.push(move)
    return out


def test_game_moves_are_a_real_test_of_the_special_moves():
    kinds = set()
    for board, move in game_moves():
        if board.is_castling(move):
            kinds.add("castling")
        if board.is_en_passant(move):
            kinds.add("en passant")
        if board.is_capture(move):
            kinds.add("capture")
        if move.promotion:
            kinds.add(chess.piece_name(move.promotion))
    assert kinds == {"castling", "en passant", "capture", "knight", "queen"}


class Inputs:
    """on_input of a link in input mode: the raw events, kept in order."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list = []

    def __call__(self, event) -> None:
        with self.lock:
            self.events.append(event)

    def of(self, kind) -> list:
        with self.lock:
            return [e for e in self.events if isinstance(e, kind)]


def judge(tracker: Tracker, events: list) -> list:
    out = []
    for event in events:
        out += tracker.feed(event)
    return out


def test_a_whole_game_on_the_sighted_eboard_reaches_the_table_as_field_updates(tmp_path):
    profile = load_profile("dgt-sighted")
    assert profile.role == "sighted" and profile.senses_pieces and profile.protocol == "dgt"
    emulator = VirtualDgtBoard(chess.Board(START), link=tmp_path / "eboard")
    emulator.open()
    inputs, statuses = Inputs(), []
    with pytest.raises(ValueError):
        SerialLink(Tracker(chess.Board()), on_input=inputs, port=emulator.port)      # one mode, not both
    with pytest.raises(ValueError):
        SerialLink(None, port=emulator.port)                                          # and not none
    link = SerialLink(None, on_input=inputs, profile=profile, port=emulator.port, on_status=statuses.append,
                      lang="en", retry=0.05)
    assert link.input_mode and link.role == "sighted"
    with pytest.raises(RuntimeError):
        link.expect(chess.Board())
    link.start()
    try:
        assert wait_for(lambda: len(inputs.of(Snapshot)) == 1 and emulator.update_mode)
        first = inputs.of(Snapshot)[0]
        assert first.pieces == chess.Board(START).piece_map()
        actions = []
        for board, move in game_moves():
            actions += emulator.play_move(board, move)
        assert wait_for(lambda: len(inputs.of(PieceUpdate)) == len(actions))
        updates = inputs.of(PieceUpdate)
        # exactly what the real decoder makes of the actions' bytes, in order
        assert [(u.square, u.piece) for u in updates] == \
            [(u.square, u.piece) for u in dgt.eboard_events(actions, 0.0)]
        stamps = [e.t for e in inputs.events]
        assert stamps == sorted(stamps)
        # a piece-sensing tracker (the table's) reads the game from them, promotions included
        tracker = Tracker(chess.Board(START), settle=0.0, senses_pieces=True)
        events = judge(tracker, [first, *updates])
        assert [e.move for e in events if e.type == "move"] == [m for _, m in game_moves()]
        assert not [e for e in events if e.type in ("mismatch", "inconsistent")]
        # a snapshot on request, in input mode too
        link.request_snapshot()
        assert wait_for(lambda: len(inputs.of(Snapshot)) == 2)
        assert inputs.of(Snapshot)[1].pieces == tracker.board.piece_map()
        assert not [s for s in statuses if s.state in ("protocol-error", "checksum-error")]
    finally:
        link.stop()
        emulator.close()
        emulator.remove_link()


def test_unplugging_the_eboard_mid_game_neither_loses_nor_invents_a_move(tmp_path):
    moves = game_moves()
    emulator = VirtualDgtBoard(chess.Board(START), link=tmp_path / "eboard")
    emulator.open()
    inputs, statuses = Inputs(), []
    link = SerialLink(None, on_input=inputs, profile=load_profile("dgt-sighted"), port=str(emulator.link),
                      on_status=statuses.append, lang="en", retry=0.05)
    link.start()
    try:
        assert wait_for(lambda: len(inputs.of(Snapshot)) == 1 and emulator.update_mode)
        sent = 0
        for board, move in moves[:4]:
            sent += len(emulator.play_move(board, move))
        assert wait_for(lambda: len(inputs.of(PieceUpdate)) == sent)
        emulator.close()                                   # unplugged ...
        assert wait_for(lambda: "disconnected" in [s.state for s in statuses])
        board, move = moves[4]                             # ... while the promotion gxh8=N is made
        emulator.play_move(board, move)
        emulator.open()                                    # plugged in again: the link asks for a dump
        assert wait_for(lambda: len(inputs.of(Snapshot)) == 2)
        assert wait_for(lambda: emulator.update_mode)
        for board, move in moves[5:]:
            sent += len(emulator.play_move(board, move))
        assert wait_for(lambda: len(inputs.of(PieceUpdate)) == sent)
        tracker = Tracker(chess.Board(START), settle=0.0, senses_pieces=True)
        with inputs.lock:
            received = list(inputs.events)
        events = judge(tracker, received)
        assert [e.move for e in events if e.type == "move"] == [m for _, m in moves]
        assert "reconnected" in [s.state for s in statuses]
    finally:
        link.stop()
        emulator.close()
        emulator.remove_link()

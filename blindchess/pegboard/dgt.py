"""The DGT electronic board protocol (pure): commands, message decoding, square and piece codes.

DGT boards are the de facto standard e-boards; with this driver one can serve
as either board.  Facts from DGT's published protocol header (``dgtbrd.h``,
"Protocol description for DGT chess board", DGT Projects 1998-2014):

* 9600 baud, 8 data bits, no parity, 1 stop bit, no handshake.
* Commands are single bytes: SEND_RESET 0x40 (idle mode), SEND_BRD 0x42
  (answer: a board dump), SEND_UPDATE_BRD 0x44 (field updates from now on),
  SEND_UPDATE_NICE 0x4b (field updates and clock changes), SEND_VERSION 0x4d.
* Messages: a message id with the high bit set, then the total length
  (header included) in two 7-bit bytes, MSB first, then data bytes with the
  high bit clear.  A byte with the high bit set therefore always starts a
  message: the decoder resynchronises on it after noise or a broken message.
  BOARD_DUMP 0x86 (67 bytes: 64 piece codes), FIELD_UPDATE 0x8e (5 bytes:
  field, piece code), VERSION 0x93 (5 bytes: major, minor).  Other messages
  (clock times 0x8d, serial numbers ...) are skipped.
* Fields: 0 = a8, 1 = b8, ..., 7 = h8, 8 = a7, ..., 63 = h1 (seen with the
  connector on White's left; the board does not renumber when turned).
* Pieces: 0 empty, 1-6 white pawn, rook, knight, bishop, king, queen,
  7-12 black in the same order (13-15 are "magic" result pieces: ignored).

A board scan takes 200-250 ms and the updates of one move may arrive in any
order; the tracker judges the settled state, so order does not matter.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from .protocol import Ident, ProtocolError
from .tracker import PieceUpdate, Snapshot

__all__ = [
    "BAUD", "SEND_RESET", "SEND_BRD", "SEND_UPDATE_BRD", "SEND_UPDATE_NICE", "SEND_VERSION",
    "MSG_BOARD_DUMP", "MSG_FIELD_UPDATE", "MSG_VERSION", "SIZE_BOARD_DUMP", "SIZE_FIELD_UPDATE",
    "SIZE_VERSION", "PIECE_CODES", "piece_from_code", "code_from_piece", "square_from_field",
    "field_from_square", "message", "board_dump", "field_update", "version", "DgtDecoder",
]

BAUD = 9600

SEND_RESET = 0x40
SEND_BRD = 0x42
SEND_UPDATE_BRD = 0x44
SEND_UPDATE_NICE = 0x4B
SEND_VERSION = 0x4D

MSG_BOARD_DUMP = 0x86
MSG_FIELD_UPDATE = 0x8E
MSG_VERSION = 0x93
SIZE_BOARD_DUMP = 67
SIZE_FIELD_UPDATE = 5
SIZE_VERSION = 5
_MAX_SIZE = 0x2000 + 3   # the EEPROM dump, the longest message there is

#: piece code -> piece (code 0 is the empty square)
PIECE_CODES: dict[int, chess.Piece] = {
    code: chess.Piece(piece_type, color)
    for color, base in ((chess.WHITE, 1), (chess.BLACK, 7))
    for code, piece_type in zip(range(base, base + 6),
                                (chess.PAWN, chess.ROOK, chess.KNIGHT, chess.BISHOP, chess.KING, chess.QUEEN))
}
_CODE_OF = {piece: code for code, piece in PIECE_CODES.items()}


def piece_from_code(code: int) -> chess.Piece | None:
    """The piece of a DGT code; None for empty.  Raises ValueError for other codes."""
    if code == 0:
        return None
    try:
        return PIECE_CODES[code]
    except KeyError:
        raise ValueError(f"not a DGT piece code: {code}") from None


def code_from_piece(piece: chess.Piece | None) -> int:
    return 0 if piece is None else _CODE_OF[piece]


def square_from_field(field: int, *, rotated: bool = False) -> int:
    """python-chess square of a DGT field (0 = a8 ... 63 = h1)."""
    square = chess.square(field % 8, 7 - field // 8)
    return 63 - square if rotated else square


def field_from_square(square: int, *, rotated: bool = False) -> int:
    if rotated:
        square = 63 - square
    return (7 - chess.square_rank(square)) * 8 + chess.square_file(square)


def message(msg_id: int, payload: bytes) -> bytes:
    """A board-to-host message: id, 7-bit length MSB and LSB (header included), data."""
    size = 3 + len(payload)
    return bytes([msg_id, (size >> 7) & 0x7F, size & 0x7F]) + payload


def board_dump(pieces: dict[int, chess.Piece]) -> bytes:
    """A BOARD_DUMP message for a square -> piece map."""
    fields = bytearray(64)
    for square, piece in pieces.items():
        fields[field_from_square(square)] = code_from_piece(piece)
    return message(MSG_BOARD_DUMP, bytes(fields))


def field_update(square: int, piece: chess.Piece | None) -> bytes:
    return message(MSG_FIELD_UPDATE, bytes([field_from_square(square), code_from_piece(piece)]))


def version(major: int, minor: int) -> bytes:
    return message(MSG_VERSION, bytes([major & 0x7F, minor & 0x7F]))


@dataclass
class DgtDecoder:
    """Bytes from a DGT board -> :class:`Snapshot` (with pieces), :class:`PieceUpdate`,
    :class:`Ident` and :class:`ProtocolError` ("noise", "dgt-message")."""

    rotated: bool = False

    def __post_init__(self) -> None:
        self._buf = bytearray()

    def reset(self) -> None:
        self._buf.clear()

    def feed(self, data: bytes, t: float) -> list:
        self._buf += data
        out: list = []
        buf = self._buf
        while buf:
            start = next((i for i, b in enumerate(buf) if b & 0x80), None)
            if start is None:
                out.append(ProtocolError(t, "noise", bytes(buf[:32])))
                buf.clear()
                break
            if start:
                out.append(ProtocolError(t, "noise", bytes(buf[:min(start, 32)])))
                del buf[:start]
            if len(buf) < 3:
                break
            if buf[1] & 0x80 or buf[2] & 0x80:   # a new id where a length byte belongs
                out.append(ProtocolError(t, "dgt-message", bytes(buf[:3])))
                del buf[:1]
                continue
            size = (buf[1] << 7) | buf[2]
            expected = {MSG_BOARD_DUMP: SIZE_BOARD_DUMP, MSG_FIELD_UPDATE: SIZE_FIELD_UPDATE,
                        MSG_VERSION: SIZE_VERSION}.get(buf[0])
            if size < 3 or size > _MAX_SIZE or (expected is not None and size != expected):
                out.append(ProtocolError(t, "dgt-message", bytes(buf[:3])))
                del buf[:1]
                continue
            broken = next((i for i in range(3, min(size, len(buf))) if buf[i] & 0x80), None)
            if broken is not None:   # cut short by the next message
                out.append(ProtocolError(t, "dgt-message", bytes(buf[:broken][:32])))
                del buf[:broken]
                continue
            if len(buf) < size:
                break
            msg_id, payload = buf[0], bytes(buf[3:size])
            del buf[:size]
            item = self._decode(msg_id, payload, t)
            if item is not None:
                out.append(item)
        return out

    def _decode(self, msg_id: int, payload: bytes, t: float):
        try:
            if msg_id == MSG_BOARD_DUMP:
                pieces: dict[int, chess.Piece] = {}
                for field, code in enumerate(payload):
                    piece = piece_from_code(code)
                    if piece is not None:
                        pieces[square_from_field(field, rotated=self.rotated)] = piece
                occupied = 0
                for square in pieces:
                    occupied |= chess.BB_SQUARES[square]
                return Snapshot(t, occupied, pieces)
            if msg_id == MSG_FIELD_UPDATE:
                field, code = payload
                if field > 63:
                    raise ValueError(field)
                return PieceUpdate(t, square_from_field(field, rotated=self.rotated), piece_from_code(code))
            if msg_id == MSG_VERSION:
                return Ident(t, f"DGT {payload[0]}.{payload[1]:02d}")
        except ValueError:
            return ProtocolError(t, "dgt-message", bytes([msg_id]) + payload[:32])
        return None  # clock times, serial numbers ...: not needed here

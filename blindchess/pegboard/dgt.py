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
  7-12 black in the same order.  Codes 13-15 (PIECE1-PIECE3) are not chess
  pieces: DGT's header version 1.03 reserves them for "future use: pointing
  device" (in rest, right button, left button); later versions of the header
  (as shipped with DGT's drivers and read by picochess and python-asyncdgt)
  call them "magic pieces" signalling a result (draw, white win, black win).
  Either way the square holds no chess piece: in a dump and in a field update
  such a square counts as empty, and the decoder reports a
  :class:`MagicPiece` beside it (never a :class:`ProtocolError`).

A board scan takes 200-250 ms and the updates of one move may arrive in any
order; the tracker judges the settled state, so order does not matter.

The decoder is linear in its input and holds at most one unfinished message
(:data:`MAX_MESSAGE` bytes) between calls; a run of dropped bytes between two
good messages is one report (kind "noise" when it began outside a message,
"dgt-message" when it began with a broken one), with a short sample and the
number of bytes.

**E-board actions** (the scenario runner's ``eboard`` actor):
:func:`action_message` turns ``L e4`` (a piece lifted) and ``P e4 Q`` (a piece
set down, a FEN letter) into the FIELD_UPDATE bytes a DGT board sends;
:func:`eboard_events` runs them through a :class:`DgtDecoder`, so the runner
sees exactly what the serial link would deliver.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

import chess

from .protocol import SAMPLE, Ident, ProtocolError
from .tracker import PieceUpdate, Snapshot

__all__ = [
    "BAUD", "SEND_RESET", "SEND_BRD", "SEND_UPDATE", "SEND_UPDATE_BRD", "SEND_UPDATE_NICE", "SEND_VERSION",
    "MSG_BOARD_DUMP", "MSG_FIELD_UPDATE", "MSG_VERSION", "SIZE_BOARD_DUMP", "SIZE_FIELD_UPDATE",
    "SIZE_VERSION", "MAX_MESSAGE", "PIECE_CODES", "MAGIC_CODES", "piece_from_code", "code_from_piece",
    "square_from_field", "field_from_square", "message", "board_dump", "field_update", "version",
    "MagicPiece", "DgtMessage", "DgtDecoder", "ActionError", "parse_action", "action_message",
    "action_messages", "eboard_events", "move_actions",
]

BAUD = 9600

SEND_RESET = 0x40
SEND_BRD = 0x42
SEND_UPDATE = 0x43        # field updates and clock times
SEND_UPDATE_BRD = 0x44
SEND_UPDATE_NICE = 0x4B
SEND_VERSION = 0x4D

MSG_BOARD_DUMP = 0x86
MSG_FIELD_UPDATE = 0x8E
MSG_VERSION = 0x93
SIZE_BOARD_DUMP = 67
SIZE_FIELD_UPDATE = 5
SIZE_VERSION = 5
#: The longest message there is (the EEPROM dump): a longer length is a broken header.
MAX_MESSAGE = 0x2000 + 3
_EXPECTED_SIZE = {MSG_BOARD_DUMP: SIZE_BOARD_DUMP, MSG_FIELD_UPDATE: SIZE_FIELD_UPDATE, MSG_VERSION: SIZE_VERSION}

#: piece code -> piece (code 0 is the empty square)
PIECE_CODES: dict[int, chess.Piece] = {
    code: chess.Piece(piece_type, color)
    for color, base in ((chess.WHITE, 1), (chess.BLACK, 7))
    for code, piece_type in zip(range(base, base + 6),
                                (chess.PAWN, chess.ROOK, chess.KNIGHT, chess.BISHOP, chess.KING, chess.QUEEN))
}
_CODE_OF = {piece: code for code, piece in PIECE_CODES.items()}
#: DGT's PIECE1-PIECE3: not chess pieces (see the module docstring); the meaning DGT's later header gives.
MAGIC_CODES: dict[int, str] = {0x0D: "draw", 0x0E: "white-win", 0x0F: "black-win"}


def piece_from_code(code: int) -> chess.Piece | None:
    """The chess piece of a DGT code; None for an empty square and for a magic piece (13-15).

    Raises ValueError for codes DGT does not define (above 15).
    """
    if code == 0 or code in MAGIC_CODES:
        return None
    try:
        return PIECE_CODES[code]
    except KeyError:
        raise ValueError(f"not a DGT piece code: {code}") from None


def code_from_piece(piece: chess.Piece | None) -> int:
    """The DGT code of a chess piece (0 for None)."""
    return 0 if piece is None else _CODE_OF[piece]


def square_from_field(field: int, *, rotated: bool = False) -> int:
    """python-chess square of a DGT field (0 = a8 ... 63 = h1)."""
    square = chess.square(field % 8, 7 - field // 8)
    return 63 - square if rotated else square


def field_from_square(square: int, *, rotated: bool = False) -> int:
    """DGT field of a python-chess square (the inverse of :func:`square_from_field`)."""
    if rotated:
        square = 63 - square
    return (7 - chess.square_rank(square)) * 8 + chess.square_file(square)


def message(msg_id: int, payload: bytes) -> bytes:
    """A board-to-host message: id, 7-bit length MSB and LSB (header included), data."""
    size = 3 + len(payload)
    return bytes([msg_id, (size >> 7) & 0x7F, size & 0x7F]) + payload


def board_dump(pieces: dict[int, chess.Piece], *, rotated: bool = False, magic: dict[int, int] | None = None) -> bytes:
    """A BOARD_DUMP message for a square -> piece map (``magic``: square -> code 13-15)."""
    fields = bytearray(64)
    for square, piece in pieces.items():
        fields[field_from_square(square, rotated=rotated)] = code_from_piece(piece)
    for square, code in (magic or {}).items():
        fields[field_from_square(square, rotated=rotated)] = code
    return message(MSG_BOARD_DUMP, bytes(fields))


def field_update(square: int, piece: chess.Piece | None | int, *, rotated: bool = False) -> bytes:
    """A FIELD_UPDATE message: ``piece`` (None: the square became empty; an int: a raw code)."""
    code = piece if isinstance(piece, int) else code_from_piece(piece)
    return message(MSG_FIELD_UPDATE, bytes([field_from_square(square, rotated=rotated), code & 0x7F]))


def version(major: int, minor: int) -> bytes:
    """A VERSION message."""
    return message(MSG_VERSION, bytes([major & 0x7F, minor & 0x7F]))


@dataclass(frozen=True)
class MagicPiece:
    """A DGT "magic piece" (code 13-15) stands on ``square``: not a chess piece.

    ``meaning``: "draw" | "white-win" | "black-win" (DGT's later header).  The
    square counts as empty; nothing else follows from it.
    """
    t: float
    square: int
    code: int

    @property
    def meaning(self) -> str:
        return MAGIC_CODES[self.code]


DgtMessage: TypeAlias = Snapshot | PieceUpdate | Ident | MagicPiece | ProtocolError

#: A byte that can start a message (message bit set) followed by two length bytes.
_HEADER = re.compile(rb"[\x80-\xff][\x00-\x7f][\x00-\x7f]")
_HIGH = re.compile(rb"[\x80-\xff]")


@dataclass
class DgtDecoder:
    """Bytes from a DGT board -> :class:`Snapshot` (with pieces), :class:`PieceUpdate`,
    :class:`Ident`, :class:`MagicPiece` and :class:`ProtocolError` ("noise", "dgt-message").

    Never raises on any input; linear time; holds at most :data:`MAX_MESSAGE`
    bytes between calls (see :attr:`pending`).
    """

    rotated: bool = False
    _buf: bytearray = field(default_factory=bytearray, init=False, repr=False)

    def reset(self) -> None:
        """Forget a partial message (after a reconnect it belongs to nothing)."""
        self._buf.clear()

    @property
    def pending(self) -> int:
        """Bytes of an unfinished message held until the next call."""
        return len(self._buf)

    def feed(self, data: bytes, t: float) -> list[DgtMessage]:
        """Messages completed by ``data`` (time stamp ``t``), in order."""
        buf = self._buf
        buf += data
        out: list[DgtMessage] = []
        n = len(buf)
        i = 0
        drop_start = -1          # start of a run of dropped bytes not yet reported
        drop_kind = ""
        dropped = 0

        def drop(upto: int, kind: str) -> None:
            nonlocal drop_start, drop_kind, dropped
            if drop_start < 0:
                drop_start, drop_kind = i, kind
            dropped += upto - i

        def flush() -> None:
            nonlocal drop_start, dropped
            if dropped:
                out.append(ProtocolError(t, drop_kind, bytes(buf[drop_start:drop_start + min(SAMPLE, dropped)]), dropped))
            drop_start, dropped = -1, 0

        while i < n:
            if not buf[i] & 0x80 or n - i >= 3 and (buf[i + 1] & 0x80 or buf[i + 2] & 0x80):
                found = _HEADER.search(buf, i + 1 if buf[i] & 0x80 else i)
                if found is not None:
                    j = found.start()
                else:   # a header may be arriving: keep a high byte in the last two
                    j = n
                    for k in (n - 2, n - 1):
                        if k > i and buf[k] & 0x80 and all(not b & 0x80 for b in buf[k + 1:n]):
                            j = k
                            break
                drop(j, "noise" if not buf[i] & 0x80 else "dgt-message")
                i = j
                continue
            if n - i < 3:
                break
            msg_id, size = buf[i], (buf[i + 1] << 7) | buf[i + 2]
            expected = _EXPECTED_SIZE.get(msg_id)
            if size < 3 or size > MAX_MESSAGE or (expected is not None and size != expected):
                drop(i + 1, "dgt-message")
                i += 1
                continue
            broken = _HIGH.search(buf, i + 3, min(i + size, n))
            if broken is not None:   # cut short by the next message
                drop(broken.start(), "dgt-message")
                i = broken.start()
                continue
            if n - i < size:
                break
            flush()
            payload = bytes(buf[i + 3:i + size])
            i += size
            out += self._decode(msg_id, payload, t)
        flush()
        del buf[:i]
        return out

    def _decode(self, msg_id: int, payload: bytes, t: float) -> list[DgtMessage]:
        if msg_id == MSG_BOARD_DUMP:
            pieces: dict[int, chess.Piece] = {}
            magic: list[DgtMessage] = []
            for number, code in enumerate(payload):
                square = square_from_field(number, rotated=self.rotated)
                if code in MAGIC_CODES:
                    magic.append(MagicPiece(t, square, code))
                elif code:
                    piece = PIECE_CODES.get(code)
                    if piece is None:
                        return [ProtocolError(t, "dgt-message", bytes([msg_id]) + payload[:SAMPLE - 1], len(payload) + 3)]
                    pieces[square] = piece
            occupied = 0
            for square in pieces:
                occupied |= chess.BB_SQUARES[square]
            return [Snapshot(t, occupied, pieces), *magic]
        if msg_id == MSG_FIELD_UPDATE:
            number, code = payload
            if number > 63 or (code and code not in PIECE_CODES and code not in MAGIC_CODES):
                return [ProtocolError(t, "dgt-message", bytes([msg_id]) + payload, 5)]
            square = square_from_field(number, rotated=self.rotated)
            update: list[DgtMessage] = [PieceUpdate(t, square, PIECE_CODES.get(code))]
            if code in MAGIC_CODES:
                update.append(MagicPiece(t, square, code))
            return update
        if msg_id == MSG_VERSION:
            return [Ident(t, f"DGT {payload[0]}.{payload[1]:02d}")]
        return []  # clock times, serial numbers ...: not needed here


# ---------------------------------------------------------------------------
# E-board actions (scenario scripts)

class ActionError(ValueError):
    """An e-board action that is not ``L SQUARE`` or ``P SQUARE PIECE``.

    ``reason``: "syntax" | "square" | "piece"; ``text`` is the action as given.
    """

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"e-board action {text!r}: bad {reason}")
        self.text = text
        self.reason = reason


def parse_action(text: str) -> tuple[int, chess.Piece | None]:
    """``L e4`` -> (e4, None): a piece lifted; ``P e4 Q`` -> (e4, white queen): a piece set down.

    The line type may be lower case, the square upper case; PIECE is a FEN
    letter (upper case white, lower case black).  Raises :class:`ActionError`.
    """
    parts = text.split()
    if not parts or parts[0].upper() not in ("L", "P") or len(parts) != (2 if parts[0].upper() == "L" else 3):
        raise ActionError(text, "syntax")
    name = parts[1].lower()
    if name not in chess.SQUARE_NAMES:
        raise ActionError(text, "square")
    square = chess.parse_square(name)
    if parts[0].upper() == "L":
        return square, None
    if len(parts[2]) != 1 or parts[2] not in "PNBRQKpnbrqk":
        raise ActionError(text, "piece")
    return square, chess.Piece.from_symbol(parts[2])


def action_message(text: str, *, rotated: bool = False) -> bytes:
    """The FIELD_UPDATE a DGT board sends for one action (see :func:`parse_action`; raises ActionError)."""
    square, piece = parse_action(text)
    return field_update(square, piece, rotated=rotated)


def action_messages(actions: Iterable[str], *, rotated: bool = False) -> bytes:
    """The byte stream of several actions, in order (raises ActionError before producing anything)."""
    return b"".join([action_message(text, rotated=rotated) for text in actions])


def eboard_events(actions: Iterable[str], t: float, decoder: DgtDecoder | None = None) -> list[PieceUpdate]:
    """Actions -> the PieceUpdate events the real decoder reads from their bytes, stamped ``t``.

    Pass the same ``decoder`` for a whole game (as the serial link does).
    Raises :class:`ActionError` for a malformed action (nothing is fed then).
    """
    decoder = decoder if decoder is not None else DgtDecoder()
    data = action_messages(actions, rotated=decoder.rotated)
    return [m for m in decoder.feed(data, t) if isinstance(m, PieceUpdate)]


def move_actions(board: chess.Board, move: chess.Move) -> list[str]:
    """The e-board actions of a hand making ``move`` (legal in ``board``), e.g. ``["L e2", "P e4 P"]``.

    Every piece that leaves or changes its square is lifted first (the moving
    piece first, then a captured one), then every new piece is set down (the
    moving piece first): captures, en passant, castling (also Chess960) and
    promotions (the promoted piece is set down).  Raises ValueError for an
    illegal move.
    """
    if not board.is_legal(move):
        raise ValueError(f"illegal move {move.uci()} in {board.fen()}")
    before = board.piece_map()
    probe = board.copy(stack=False)
    probe.push(move)
    after = probe.piece_map()
    first = (move.from_square,)
    lifts = [sq for sq in before if after.get(sq) != before[sq]]
    places = [sq for sq in after if before.get(sq) != after[sq]]
    lifts.sort(key=lambda sq: (sq not in first, sq))
    king_to = probe.king(board.turn)
    places.sort(key=lambda sq: (sq != move.to_square and sq != king_to, sq))
    return [f"L {chess.square_name(sq)}" for sq in lifts] + \
        [f"P {chess.square_name(sq)} {after[sq].symbol()}" for sq in places]

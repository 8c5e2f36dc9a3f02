"""The blindchess peg-board line protocol: parsing, formatting, checksums (pure).

See ``boards/PROTOCOL.md`` for the specification.  Device to host, ASCII
lines ending in LF (CR LF accepted)::

    L e2            a peg left the hole of e2
    P e4            a peg went into the hole of e4
    S FFFF00000000FFFF   occupancy snapshot, bit i = square i (a1 = 0 ... h8 = 63)
    I blindchess-pegboard 1.0   identification
    # any text      comment, ignored
    L e2*5F         optional checksum: two hex digits, XOR of all bytes before '*'

Host to device: ``?`` (snapshot), ``V`` (identification).

:class:`Decoder` turns raw bytes — arriving in arbitrary pieces, with noise
bytes, overlong lines, invalid UTF-8 — into tracker events (:class:`Lift`,
:class:`Place`, :class:`Snapshot`), :class:`Ident`, :class:`Comment` and
:class:`ProtocolError` reports.  A line that fails in any way is dropped whole
(nothing half-understood reaches the tracker) and the report says a snapshot
should be requested.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import chess

from .tracker import Lift, Place, Snapshot

__all__ = [
    "REQUEST_SNAPSHOT", "REQUEST_IDENT", "MAX_LINE", "Ident", "Comment", "ProtocolError", "Message",
    "checksum", "format_line", "lift_line", "place_line", "snapshot_line", "ident_line",
    "parse_line", "LineAssembler", "Decoder", "rotate_square", "rotate_occupancy",
]

#: Host-to-device commands (single bytes; the device ignores CR and LF).
REQUEST_SNAPSHOT = b"?"
REQUEST_IDENT = b"V"
#: Longest line accepted, without the line end (an ident text may be long-ish).
MAX_LINE = 120


@dataclass(frozen=True)
class Ident:
    """The device named itself (``I <text>``)."""
    t: float
    text: str


@dataclass(frozen=True)
class Comment:
    """A ``#`` line: ignored, kept for logs."""
    t: float
    text: str


@dataclass(frozen=True)
class ProtocolError:
    """A line (or bytes) the host could not use.

    ``kind``: "checksum" | "noise" | "overlong" | "unknown" | "square" | "snapshot".
    Every error means events may have been lost: ask for a snapshot.
    """
    t: float
    kind: str
    raw: bytes = b""

    @property
    def text(self) -> str:
        """The offending bytes, printable."""
        return self.raw.decode("ascii", "backslashreplace")


Message = Union[Lift, Place, Snapshot, Ident, Comment, ProtocolError]


def checksum(data: bytes) -> int:
    """XOR of all bytes."""
    value = 0
    for byte in data:
        value ^= byte
    return value


def format_line(body: str, *, with_checksum: bool = True) -> bytes:
    """One protocol line with ``*HH`` and LF."""
    raw = body.encode("ascii")
    if with_checksum:
        raw += b"*%02X" % checksum(raw)
    return raw + b"\n"


def rotate_square(square: int) -> int:
    """The square as seen from the other side (board turned by 180 degrees)."""
    return 63 - square


def rotate_occupancy(occupied: int) -> int:
    """An occupancy bitmask of a board turned by 180 degrees."""
    return chess.flip_vertical(chess.flip_horizontal(occupied))


def lift_line(square: int, *, with_checksum: bool = True) -> bytes:
    return format_line(f"L {chess.square_name(square)}", with_checksum=with_checksum)


def place_line(square: int, *, with_checksum: bool = True) -> bytes:
    return format_line(f"P {chess.square_name(square)}", with_checksum=with_checksum)


def snapshot_line(occupied: int, *, with_checksum: bool = True) -> bytes:
    return format_line(f"S {occupied & chess.BB_ALL:016X}", with_checksum=with_checksum)


def ident_line(text: str, *, with_checksum: bool = True) -> bytes:
    return format_line(f"I {text}", with_checksum=with_checksum)


_HEX = frozenset(b"0123456789abcdefABCDEF")


def parse_line(line: bytes, t: float, *, rotated: bool = False) -> Message | None:
    """One line without its LF; None for an empty line."""
    raw = line.rstrip(b"\r")
    if not raw.strip():
        return None
    star = raw.rfind(b"*")
    if star >= 0:
        body, tail = raw[:star], raw[star + 1:].strip()
        if len(tail) != 2 or not set(tail) <= _HEX or int(tail, 16) != checksum(body):
            return ProtocolError(t, "checksum", raw)
    else:
        body = raw
    body = body.strip(b" \t")
    kind, rest = body[:1], body[1:]
    if kind in (b"l", b"p", b"s", b"i"):
        kind = kind.upper()     # devices MUST send upper case; a host SHOULD accept lower case (PROTOCOL.md)
    if rest and rest[:1] not in (b" ", b"\t"):
        return ProtocolError(t, "unknown", raw)
    arg = rest.strip(b" \t")
    if kind in (b"L", b"P"):
        name = arg.decode("ascii", "replace").lower()   # "L é4" from a hand-edited log: no square
        if name not in chess.SQUARE_NAMES:
            return ProtocolError(t, "square", raw)
        square = chess.parse_square(name)
        if rotated:
            square = rotate_square(square)
        return Lift(t, square) if kind == b"L" else Place(t, square)
    if kind == b"S":
        if len(arg) != 16 or not set(arg) <= _HEX:
            return ProtocolError(t, "snapshot", raw)
        occupied = int(arg, 16)
        return Snapshot(t, rotate_occupancy(occupied) if rotated else occupied)
    if kind == b"I":
        return Ident(t, arg.decode("utf-8", "replace"))
    if kind == b"#":
        return Comment(t, arg.decode("utf-8", "replace"))
    return ProtocolError(t, "unknown", raw)


class LineAssembler:
    """Bytes in any pieces -> complete ASCII lines, or error reports.

    Bytes outside printable ASCII (noise, invalid UTF-8) before a line starts
    are dropped and reported; inside a line they spoil the whole line.  A line
    longer than :data:`MAX_LINE` is dropped up to its LF.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self.reset()

    def reset(self) -> None:
        """Forget a partial line (after a reconnect it belongs to nothing)."""
        self._buf = bytearray()
        self._spoiled = False
        self._skipping = False
        self._noise = bytearray()

    def feed(self, data: bytes) -> list[tuple[str, bytes]]:
        """Returns ("line", bytes) and ("noise" | "overlong", bytes) items, in order."""
        out: list[tuple[str, bytes]] = []
        for byte in data:
            if byte == 0x0A:  # LF
                if self._noise:
                    out.append(("noise", bytes(self._noise)))
                    self._noise.clear()
                if self._skipping:
                    self._skipping = False
                elif self._spoiled:
                    out.append(("noise", bytes(self._buf)))
                elif self._buf:
                    out.append(("line", bytes(self._buf)))
                self._buf.clear()
                self._spoiled = False
                continue
            if self._skipping:
                continue
            if not (0x20 <= byte < 0x7F or byte in (0x09, 0x0D)):
                if self._buf and self._buf.strip():
                    self._spoiled = True
                    self._buf.append(byte)
                else:
                    self._buf.clear()
                    self._noise.append(byte)
                continue
            if self._noise and not self._buf:
                out.append(("noise", bytes(self._noise)))
                self._noise.clear()
            self._buf.append(byte)
            if len(self._buf) > self.max_line:
                out.append(("overlong", bytes(self._buf[:32])))
                self._buf.clear()
                self._spoiled = False
                self._skipping = True
        return out


class Decoder:
    """Bytes -> protocol messages, for one link (``rotated``: the board is turned)."""

    def __init__(self, *, rotated: bool = False, max_line: int = MAX_LINE) -> None:
        self.rotated = rotated
        self.assembler = LineAssembler(max_line)

    def reset(self) -> None:
        self.assembler.reset()

    def feed(self, data: bytes, t: float) -> list[Message]:
        out: list[Message] = []
        for kind, raw in self.assembler.feed(data):
            if kind != "line":
                out.append(ProtocolError(t, kind, raw))
                continue
            message = parse_line(raw, t, rotated=self.rotated)
            if message is not None:
                out.append(message)
        return out

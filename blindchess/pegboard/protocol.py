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

import re
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

import chess

from .tracker import Lift, Place, Snapshot

__all__ = [
    "REQUEST_SNAPSHOT", "REQUEST_IDENT", "MAX_LINE", "SAMPLE", "TEXT_LIMIT", "Assembled", "Ident", "Comment", "ProtocolError", "Message",
    "checksum", "format_line", "lift_line", "place_line", "snapshot_line", "ident_line",
    "parse_line", "LineAssembler", "Decoder", "rotate_square", "rotate_occupancy",
]

#: Host-to-device commands (single bytes; the device ignores CR and LF).
REQUEST_SNAPSHOT = b"?"
REQUEST_IDENT = b"V"
#: Longest line accepted, without the line end (an ident text may be long-ish).
MAX_LINE = 120
#: At most this many bytes of dropped noise or of an overlong line are kept in a report.
SAMPLE = 32
#: At most this many characters of offending bytes are shown (:attr:`ProtocolError.text`).
TEXT_LIMIT = 64


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

    ``kind``: "checksum" | "noise" | "overlong" | "unknown" | "square" | "snapshot"
    (DGT: "noise" | "dgt-message").  ``raw`` is the offending line, or for
    dropped noise and overlong lines a sample of at most :data:`SAMPLE` bytes;
    ``count`` is the number of bytes dropped (0: ``raw`` is the whole line).
    Every error means events may have been lost: ask for a snapshot.
    """
    t: float
    kind: str
    raw: bytes = b""
    count: int = 0

    @property
    def text(self) -> str:
        """The offending bytes, printable and short: at most :data:`TEXT_LIMIT` characters and " …"."""
        shown = self.raw.decode("ascii", "backslashreplace")
        if len(shown) > TEXT_LIMIT or self.count > len(self.raw):
            return shown[:TEXT_LIMIT] + " …"
        return shown

    @property
    def dropped(self) -> int:
        """Bytes this report stands for."""
        return max(self.count, len(self.raw))


Message: TypeAlias = Lift | Place | Snapshot | Ident | Comment | ProtocolError


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


class Assembled(NamedTuple):
    """One result of :meth:`LineAssembler.feed`.

    ``kind`` "line": ``data`` is a complete line without its LF.  ``kind``
    "noise" (bytes outside printable ASCII before a line started, or a line
    they spoiled) or "overlong": ``data`` is a sample (noise: the dropped
    bytes, at most :data:`SAMPLE`; a spoiled line: the line, at most
    ``max_line`` + 1 bytes; overlong: its first :data:`SAMPLE` bytes) and
    ``size`` the number of bytes (the line's length, or the bytes dropped).
    """
    kind: str
    data: bytes
    size: int


#: Bytes a line may hold: printable ASCII, TAB and CR.
_TEXT = bytes(range(0x20, 0x7F)) + b"\t\r"
_BLANK = b" \t\r"
_NOT_TEXT = re.compile(rb"[^\x20-\x7e\t\r]")
_LINE_START = re.compile(rb"[\x21-\x7e]")


class LineAssembler:
    """Bytes in any pieces -> complete ASCII lines, or reports of dropped bytes.

    Linear in the input and bounded in memory: between two calls it holds at
    most ``max_line`` + 1 bytes of the current line and :data:`SAMPLE` bytes of
    a noise sample, whatever arrives.

    * Bytes outside printable ASCII (noise, invalid UTF-8) before a line
      starts (before its first non-blank byte) are dropped; one run of them is
      reported once, as ("noise", sample, count) when the line starts or at
      the LF — and early, as soon as the run exceeds ``max_line`` bytes (the
      rest of that run is reported when it ends).
    * Inside a line they spoil the whole line: ("noise", line, length) at its LF.
    * A line longer than ``max_line`` is reported once as ("overlong", first
      bytes, length seen) and dropped up to its LF.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        if max_line < 1:
            raise ValueError("max_line must be positive")
        self.max_line = max_line
        self.reset()

    def reset(self) -> None:
        """Forget a partial line (after a reconnect it belongs to nothing)."""
        self._buf = bytearray()
        self._started = False      # a non-blank byte arrived: noise now spoils the line
        self._spoiled = False
        self._skipping = False     # dropping the rest of an overlong line
        self._noise = bytearray()  # sample of the current run of noise before a line
        self._noise_count = 0
        self._noise_reported = 0

    @property
    def pending(self) -> int:
        """Bytes held between calls (bounded: at most ``max_line`` + 1 + :data:`SAMPLE`)."""
        return len(self._buf) + len(self._noise)

    def feed(self, data: bytes) -> list[Assembled]:
        """Complete lines and drop reports, in order (see the class docstring)."""
        out: list[Assembled] = []
        pos, end = 0, len(data)
        while pos < end:
            lf = data.find(b"\n", pos)
            stop = end if lf < 0 else lf
            if not self._skipping and stop > pos:
                self._take(data, pos, stop, out)
            if lf < 0:
                break
            self._line_end(out)
            pos = lf + 1
        if self._noise_count - self._noise_reported > self.max_line and not self._noise_reported:
            out.append(Assembled("noise", bytes(self._noise), self._noise_count))
            self._noise_reported = self._noise_count
        return out

    def _take(self, data: bytes, a: int, b: int, out: list[Assembled]) -> None:
        """A piece ``data[a:b]`` of the current line (no LF in it)."""
        if not self._started:
            found = _LINE_START.search(data, a, b)
            head_end = found.start() if found else b
            head = data[a:head_end]            # blanks and noise only
            bad = head.translate(None, _TEXT)
            if bad:
                self._noise_count += len(bad)
                self._noise += bad[:SAMPLE - len(self._noise)]
                head = head[len(head.rstrip(_BLANK)):]   # the blanks after the last noise byte
                self._buf.clear()
            if found is None:
                self._append(head, out)
                return
            self._end_noise(out)
            self._started = True
            self._append(head + data[head_end:b], out)
            return
        self._append(data[a:b], out)

    def _append(self, piece: bytes, out: list[Assembled]) -> None:
        room = self.max_line + 1 - len(self._buf)
        part = piece[:room]
        if not self._spoiled and _NOT_TEXT.search(part):
            self._spoiled = True
        self._buf += part
        if len(self._buf) > self.max_line:
            out.append(Assembled("overlong", bytes(self._buf[:SAMPLE]), len(self._buf) + len(piece) - len(part)))
            self._buf.clear()
            self._started = self._spoiled = False
            self._skipping = True

    def _end_noise(self, out: list[Assembled]) -> None:
        """A run of noise before a line ended: report what was not reported yet."""
        if self._noise_count > self._noise_reported:
            out.append(Assembled("noise", bytes(self._noise), self._noise_count - self._noise_reported))
        self._noise.clear()
        self._noise_count = self._noise_reported = 0

    def _line_end(self, out: list[Assembled]) -> None:
        if self._skipping:
            self._skipping = False
        else:
            self._end_noise(out)
            if self._spoiled:
                out.append(Assembled("noise", bytes(self._buf), len(self._buf)))
            elif self._started:
                out.append(Assembled("line", bytes(self._buf), len(self._buf)))
        self._buf.clear()
        self._started = self._spoiled = False


class Decoder:
    """Bytes -> protocol messages, for one link (``rotated``: the board is turned)."""

    def __init__(self, *, rotated: bool = False, max_line: int = MAX_LINE) -> None:
        self.rotated = rotated
        self.assembler = LineAssembler(max_line)

    def reset(self) -> None:
        self.assembler.reset()

    def feed(self, data: bytes, t: float) -> list[Message]:
        out: list[Message] = []
        for kind, raw, size in self.assembler.feed(data):
            if kind != "line":
                out.append(ProtocolError(t, kind, raw, size))
                continue
            message = parse_line(raw, t, rotated=self.rotated)
            if message is not None:
                out.append(message)
        return out

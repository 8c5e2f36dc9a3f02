"""Replay a peg-board protocol log through the tracker (pure: text in, events out).

A log has one device-to-host protocol line per line, each optionally prefixed by
a millisecond time stamp and a space (``1520 L e2*5F``, fractions allowed: ``1520.25``) — or a clock time as
loggers write it (``12:00:01.520 L e2``, ``[00:01.5] P e4``).  A line ``> TEXT``
(after the optional stamp) is an announcement heard at that moment — any
written notation (``e8=Q``, ``e8D``, ``exd6 e.p.``, ``e7e8q``) or a spoken
phrase ("Bauer Eva acht Dame") — used as the session would use it: it
completes a promotion, corrects what the board alone cannot tell, or names the
move to be mirrored next.  Without a time stamp a line counts as arriving after
the settle time (comments and the ident take no time).  Stamps may start anywhere (0, or a device's uptime); they are
relative to the untimed lines before the first stamp, and stamps that start
again from a smaller value (a device reset, two logs joined) begin a new
segment after the settle time, so that time never runs backwards.  Blank lines
are ignored.  Events are returned in time order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

import chess

from ...language import read, understand
from ...pegboard import DEFAULT_SETTLE, Comment, Ident, ProtocolError, Tracker, TrackerEvent, parse_line

__all__ = ["LogNote", "replay", "resolve_announcement", "LogError"]

#: A millisecond stamp, whole or with a fraction ("1520", "1520.25"); a decimal comma is not
#: accepted here ("1520,25" could be a list), only in clock-time stamps.
_STAMP = re.compile(rb"^\s*(\d{1,12}(?:\.\d{1,6})?)[ \t]+(.*)$")
#: A clock-time stamp as loggers write it: "12:00:01.250", "00:01.5", "[12:00:01]".
_CLOCK_STAMP = re.compile(rb"^\s*\[?(?:(\d{1,2}):)?(\d{1,2}):(\d{2}(?:[.,]\d{1,6})?)\]?[ \t]+(.*)$")


def _stamp(line: bytes) -> tuple[float, bytes] | None:
    """(seconds, rest of the line) for a stamped line: milliseconds or [h:]mm:ss[.fff]; else None."""
    found = _STAMP.match(line)
    if found:
        return float(found.group(1)) / 1000.0, found.group(2)
    found = _CLOCK_STAMP.match(line)
    if found:
        hours = int(found.group(1) or 0)
        seconds = hours * 3600 + int(found.group(2)) * 60 + float(found.group(3).replace(b",", b"."))
        return seconds, found.group(4)
    return None


class LogError(ValueError):
    """The file is not a protocol log at all (``kind``: "empty" | "binary")."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass(frozen=True)
class LogNote:
    """Something in the log that is not a tracker event.

    ``type``: "protocol-error" (``kind``, ``text``), "ident" / "comment" (``text``),
    "announcement" (``text``, ``move`` if understood).
    """
    type: str
    time: float
    line: int
    text: str = ""
    kind: str = ""
    move: chess.Move | None = None

    def to_dict(self) -> dict:
        d: dict = {"type": self.type, "time": round(self.time, 3), "line": self.line}
        if self.kind:
            d["kind"] = self.kind
        if self.text:
            d["text"] = self.text
        if self.type == "announcement":
            d["announced"] = self.move.uci() if self.move else None
        return d


def _fallback(board: chess.Board, text: str) -> chess.Move | None:
    """Plain UCI or English SAN via python-chess."""
    cleaned = re.sub(r"\s*e\.?\s?p\.?\s*$", "", text.strip())
    try:
        move = chess.Move.from_uci(cleaned.lower())
        if board.is_legal(move):
            return move
    except ValueError:
        pass
    for candidate in (cleaned, cleaned.replace("0", "O")):
        try:
            return board.parse_san(candidate)
        except ValueError:
            continue
    return None


def resolve_announcement(board: chess.Board, text: str, lang: str | None = None) -> chess.Move | None:
    """The legal move in ``board`` that an announcement names, or None.

    Tries UCI, then :func:`blindchess.language.notation.read` (any notation language),
    then :func:`blindchess.language.phonetic.understand` (spoken phrases), then English
    SAN via python-chess.
    """
    try:
        move = chess.Move.from_uci(text.strip().lower())
        if board.is_legal(move):
            return move
    except ValueError:
        pass
    for language in dict.fromkeys([lang, None]):
        reading = read(board, text, language)
        if reading.move is not None:
            return reading.move
    understood = understand(board, text, lang or "de")
    if understood.move is not None and understood.kind in ("move", "correction"):
        return understood.move
    return _fallback(board, text)


def _announce(tracker: Tracker, text: str, lang: str | None) -> tuple[chess.Move | None, list[TrackerEvent]]:
    for before, four in tracker.awaiting_promotions:
        move = resolve_announcement(before, text, lang)
        if move is not None and move.promotion and (move.from_square, move.to_square) == (four.from_square, four.to_square):
            return move, tracker.announce(move)
    last, previous = tracker.last_move, tracker.previous
    if previous is not None and last is not None:
        move = resolve_announcement(previous, text, lang)
        if move is not None and move.from_square == last.from_square and move.to_square == last.to_square:
            return move, tracker.announce(move)
    move = resolve_announcement(tracker.board, text, lang)
    if move is None and previous is not None:
        move = resolve_announcement(previous, text, lang)
    return move, (tracker.announce(move) if move is not None else [])


def _lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    for number, line in enumerate(data.split(b"\n"), start=1):
        line = line.rstrip(b"\r")
        if line.strip():
            yield number, line


def replay(data: bytes, board: chess.Board | None = None, *, settle: float = DEFAULT_SETTLE,
           lang: str | None = None, rotated: bool = False) -> list[TrackerEvent | LogNote]:
    """All tracker events and notes of a log, in order.  Raises :class:`LogError` for a non-log."""
    if b"\x00" in data[:4096]:
        raise LogError("binary")
    tracker = Tracker(board if board is not None else chess.Board(), settle=settle)
    out: list[TrackerEvent | LogNote] = []
    t = 0.0
    usable = 0
    step = settle + 0.001
    offset: float | None = None     # stamp -> replay time; stamps count from any origin
    for number, line in _lines(data):
        stamp = _stamp(line)
        if stamp:
            s = stamp[0]
            if offset is None:
                # the first stamp: untimed header lines before it (a comment, the
                # ident) may already have advanced the time; "0 L e2" follows them
                offset = max(0.0, t - s)
            elif offset + s < t:
                # the stamps start again (a device reset, logs joined): a new segment
                offset = t + step - s
            t = max(t, offset + s)
            body = stamp[1]
        else:
            body = line
            if not isinstance(parse_line(body, t, rotated=rotated), (Comment, Ident)):
                t += step       # a comment or the ident takes no time at the board
        out += tracker.tick(t)
        if body.lstrip().startswith(b">"):
            usable += 1
            text = body.lstrip()[1:].strip().decode("utf-8", "replace")
            move, events = _announce(tracker, text, lang)
            out.append(LogNote("announcement", t, number, text=text, move=move))
            out += events
            continue
        message = parse_line(body, t, rotated=rotated)
        if message is None:
            continue
        if isinstance(message, ProtocolError):
            out.append(LogNote("protocol-error", t, number, text=message.text, kind=message.kind))
            continue
        usable += 1
        if isinstance(message, Ident):
            out.append(LogNote("ident", t, number, text=message.text))
        elif isinstance(message, Comment):
            out.append(LogNote("comment", t, number, text=message.text))
        else:
            out += tracker.feed(message)
    if usable == 0:
        raise LogError("empty")
    out += tracker.tick(t + settle + 0.001)
    # The tracker stamps a mismatch or a move with the moment the board came to show
    # it, but can only report it once the settle time has passed — possibly after a
    # later line.  Print in time order (stable: equal times keep their order).
    # An event judged after an announcement takes the announcement into account
    # ("expected e2e4"): it cannot be dated before it.
    heard = float("-inf")
    for index, item in enumerate(out):
        if isinstance(item, LogNote) and item.type == "announcement":
            heard = item.time
        elif isinstance(item, TrackerEvent) and item.time < heard:
            out[index] = replace(item, time=heard)
    out.sort(key=lambda item: item.time)
    return out


def moves_of(items: list[TrackerEvent | LogNote]) -> list[chess.Move]:
    """The game as the board showed it: moves, minus takebacks, with corrections applied."""
    moves: list[chess.Move] = []
    for item in items:
        if not isinstance(item, TrackerEvent):
            continue
        if item.type == "move" and item.move is not None:
            if item.replaces is not None and item.replaces in moves:
                # the latest report of that move (a promotion may be completed a move later)
                index = len(moves) - 1 - moves[::-1].index(item.replaces)
                moves[index] = item.move
            else:
                moves.append(item.move)
        elif item.type == "takeback" and moves:
            moves.pop()
    return moves

"""A journal followed as its writer appends to it: each look costs what the new lines cost.

A reader that shows a game while it is played (the live broadcast) reads a journal whole once
(:func:`blindchess.storage.journal.read_journal`) and from then on only the bytes appended after
what it has taken. :class:`JournalTail` knows where that is — the end of the last *whole unit*
(:meth:`JournalWriter.append_unit`) — and takes each new unit only when every one of its lines
passes the checks :func:`read_journal` makes of a line: its CRC, the game's ``game_id``, the next
``line_no`` in turn, and as many lines as the unit's first line names. A unit whose last lines are
not written yet is left for the next look (a reader never applies a unit in part, exactly as
:func:`read_journal` leaves a unit a crash cut off). Anything else — a damaged or foreign line, a
gap in the numbers, a blank line, a writer's ``cut-off`` line after a crash, a file that shrank or
was replaced — is not judged here: :meth:`JournalTail.take` answers None, and the reader reads the
journal whole again, which judges it as always.

The length line near the start of a journal is rewritten in place after every write; it lies
before the part followed and is not looked at again. A journal written before the check fields
existed (unchecked) is not followed: it is read whole at every change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..base import MAX_LINE_BYTES
from .journal import LENGTH, OWN_TYPES, _encode_length, _parse

__all__ = ["JournalTail", "TailUnit", "as_of"]

#: The fields a checked line ends with (blindchess.storage.journal, "Line format"), read without parsing
#: the line: only where the whole journal was judged good already (:meth:`JournalTail.after`).
_CHECKED_END = re.compile(rb'"game_id":"([0-9a-f]{32})","line_no":(\d{1,12})(?:,"unit_lines":(\d{1,12}))?'
                          rb'(?:,"input":"[a-z0-9:.-]{1,40}")?(?:,"plies_before":\d{1,12})?,"crc":"[0-9a-f]{8}"\}\Z')
_TYPE = re.compile(rb'"type":"([a-z-]{1,40})"')
_PLIES_BEFORE = re.compile(rb'"plies_before":(\d{1,12}),"crc"')
_LENGTH_FIELDS = re.compile(rb'\{"seq":(\d{1,12}),.*"lines": *(\d{1,12}),"plies": *(\d{1,12}),.*"game_id":"([0-9a-f]{32})",'
                            rb'"line_no":(\d{1,12}),"plies_before":(\d{1,12}),"crc"')


@dataclass(frozen=True)
class TailUnit:
    """One whole unit taken: its lines as (line number in the file, event), and ``end``, the offset in the
    file just after its last line."""

    lines: tuple[tuple[int, dict[str, Any]], ...]
    end: int

    @property
    def t(self) -> float:
        """The latest time (``t``) of the unit's events."""
        return max((float(ev.get("t", 0.0)) for _, ev in self.lines), default=0.0)


class JournalTail:
    """Where a followed journal's whole units end, and the units appended after it (module docstring)."""

    def __init__(self, game_id: str, offset: int, lines: int, next_no: int) -> None:
        self.game_id = game_id
        #: The bytes taken: the offset just after the last whole unit (or the journal's own line after it).
        self.offset = offset
        #: Lines of the file before :attr:`offset` (blank ones counted): the next line is number ``lines + 1``.
        self.lines = lines
        #: The ``line_no`` the next line must carry.
        self.next_no = next_no

    @classmethod
    def after(cls, data: bytes) -> JournalTail | None:
        """A tail going on from ``data``, the bytes of a checked journal that :func:`read_journal` read and
        found whole (what a crash cut off at its end aside, never applied). None when it cannot be followed
        line by line: an unchecked journal, or one whose first write (the set-up, its copy and the length
        line) is not whole yet.

        The lines are not checked again: only their last fields are read, to find where the last whole
        unit ends — the unit being written after it (its last lines still missing) is taken later."""
        game_id: str | None = None
        offset = lines = 0
        next_no = 1
        unit: list[int] | None = None      # [line_no of its first line, lines it has, lines seen]
        whole_first = False                 # the journal's first write is whole: its length line is there
        at = number = 0
        while (end := data.find(b"\n", at)) >= 0:
            raw = data[at:end]
            number += 1
            at = end + 1
            found = _CHECKED_END.search(raw)
            if found is None:               # a blank line, a fragment a crash left (the reader noted it)
                unit = None
                continue
            if game_id is not None and found.group(1).decode() != game_id:
                return None
            game_id = found.group(1).decode()
            line_no, size = int(found.group(2)), found.group(3)
            kind = _TYPE.search(raw, 0, 120)
            if kind is not None and kind.group(1).decode() in OWN_TYPES:
                unit = None                 # the set-up's copy, the length line, a cut-off line: taken as they are
                offset, lines, next_no = at, number, line_no + 1
                whole_first |= kind.group(1) == LENGTH.encode()
                continue
            if size is not None:
                unit = [line_no, int(size), 0]
            if unit is None or line_no != unit[0] + unit[2]:
                unit = None
                continue
            unit[2] += 1
            if unit[2] == unit[1]:
                offset, lines, next_no = at, number, line_no + 1
                unit = None
        if game_id is None or not whole_first:
            return None
        return cls(game_id, offset, lines, next_no)

    def take(self, new: bytes) -> list[TailUnit] | None:
        """The whole units in ``new`` (the file's bytes from :attr:`offset` on), in order, moving past them;
        a unit not yet whole stays for the next look. None: the new bytes hold what only a whole reading
        can judge (module docstring) — nothing is taken then."""
        units: list[TailUnit] = []
        taken, lines, next_no = 0, self.lines, self.next_no
        pending: list[tuple[int, dict[str, Any]]] = []
        size = 0
        at = 0
        number = lines
        while (end := new.find(b"\n", at)) >= 0:
            raw = new[at:end]
            at = end + 1
            number += 1
            event = _checked(number, raw)
            if event is None or event.get("game_id") != self.game_id or event.get("line_no") != next_no:
                return None
            if event.get("type") in OWN_TYPES:
                return None                 # the writer's own line after a crash (a cut-off line)
            next_no += 1
            if not pending:
                unit_lines = event.get("unit_lines")
                if not isinstance(unit_lines, int) or isinstance(unit_lines, bool) or unit_lines < 1:
                    return None             # a line outside any unit
                size = unit_lines
            pending.append((number, event))
            if len(pending) == size:
                units.append(TailUnit(tuple(pending), self.offset + at))
                taken, lines = at, number
                pending = []
        if len(new) - at > MAX_LINE_BYTES:
            return None                     # no line is that long: not a line being written
        self.offset += taken
        self.lines = lines
        self.next_no = next_no - len(pending)
        return units


def _checked(number: int, raw: bytes) -> dict[str, Any] | None:
    """The event of a line that passes the checks of :func:`read_journal` (its CRC, its fields), else None."""
    line = _parse(number, raw, False)
    return line.event if line.crc_ok else None


def as_of(data: bytes) -> bytes:
    """``data``, the first bytes of a checked journal up to the end of one of its lines, as the journal stood when
    it ended there: its length line — rewritten in place as the journal grows — counting only the lines and
    half-moves of ``data`` (a reader held back by a delay reads the game as it stood then, not a journal whose
    last lines are missing). Bytes without a whole length line are returned as they are."""
    at = 0
    for _ in range(4):                          # the length line follows the first write's one or two lines
        end = data.find(b"\n", at)
        if end < 0:
            return data
        raw = data[at:end]
        kind = _TYPE.search(raw, 0, 120)
        if kind is not None and kind.group(1) == LENGTH.encode():
            break
        at = end + 1
    else:
        return data
    fields = _LENGTH_FIELDS.search(raw)
    last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    tail = _CHECKED_END.search(last)
    before = _PLIES_BEFORE.search(last)
    if fields is None or tail is None:
        return data
    plies = int(before.group(1)) if before is not None else 0
    kind = _TYPE.search(last, 0, 120)
    if kind is not None and kind.group(1) == b"move-made":
        plies += 1
    line = _encode_length(int(tail.group(2)), plies, False, fields.group(4).decode(), int(fields.group(5)),
                          int(fields.group(6)), int(fields.group(1)))
    if len(line) != end + 1 - at:
        return data
    return data[:at] + line + data[end + 1:]

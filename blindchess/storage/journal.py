"""The crash-safe, self-checking game journal: every game event as one JSON line.

Line format
-----------
A journal is a UTF-8 text file of JSON objects, one per line, each line ended by
``\\n``. The first line is the ``session-start`` event (players, time control,
start position, language). Every event has ``seq`` (the game's event number),
``type`` and ``t`` (the time in seconds); events derived from others carry
``"derived": true`` and are not replayed (they are computed again when the game
is reopened, and compared with the recorded ones).

A journal written by this version adds these fields to every line, always last
and in this order::

    {"seq":7,"type":"board-move",...,"game_id":"5f0c…e1","line_no":7,"unit_lines":3,"input":"script:17","plies_before":4,"crc":"0b9e52a4"}

* ``game_id`` — 32 lowercase hex digits, chosen at random when the journal is
  created; the same on every line of one game.
* ``line_no`` — the line's number in the journal: 1, 2, 3 … with no gap. A line
  cut off by a crash keeps its number (the next line gets the one after it).
* ``unit_lines`` — only on the first line of a unit (:meth:`JournalWriter.append_unit`:
  an input and every event it causes, written in one write): how many lines the
  unit has, this one included.
* ``input`` — only on the first line of a unit, when the input has an identity
  (:class:`InputId`: ``"script:17"`` a script's line 17, ``"app:42"`` the program's
  42nd input): the input the unit is for. Inputs of one origin come in order, so the
  highest one a journal holds names every input of that origin applied
  (:attr:`JournalRead.inputs`) — given again after a crash, they are not applied twice.
* ``plies_before`` — how many half-moves the journal had recorded before this line
  (the writer counts as it goes, from the ``move-made``, ``move-withdrawn``,
  ``illegal-corrected`` and ruling lines it wrote).
* ``crc`` — CRC-32 (the one of zlib, PNG and Ethernet) as 8 lowercase hex digits
  of the line's own bytes: the UTF-8 text of the line with ``,"crc":"…"``
  removed (that is, everything before ``,"crc"`` followed by ``}``).

Two lines of the journal's own follow the first write of a new journal (both
derived, ``seq`` 0): ``session-start-copy``, the set-up again (``"start"``: the
whole ``session-start`` event), and ``journal-length``, the journal's own
length — ``"lines"`` (how many lines are on the disk), ``"plies"`` (the
half-moves recorded by them) and ``"closed"`` (closed on purpose right after
them). The length line is the one line rewritten in place: after every ``fsync``
with the new count (its numbers are padded with spaces, so it keeps its size) and
at :meth:`JournalWriter.close` with ``"closed": true``. Other tools read every
line as ordinary JSON and may ignore all of this.

Guarantees (what :func:`read_journal` detects)
-----------------------------------------------
In a journal with these fields ("checked"), every line is verified on its own:

* any change of bytes inside a line (one flipped byte is always caught, a longer
  damage with probability 1 − 2⁻³²) — reason ``corrupt``, or ``truncated`` when the
  line ends early;
* a deleted line (``line_no`` jumps without a damaged line in its place) — ``missing``;
* a duplicated line or a line moved backwards (``line_no`` not increasing) —
  ``duplicate`` / ``out-of-order``;
* a line pasted from another game (another ``game_id``) — ``foreign``;
* lines lost at the end of the file, back to the length line's count — ``missing``,
  with the half-moves they recorded.

No damaged line loses more than itself: a damaged ``session-start`` line is
replaced by its copy (the game's identity is on every line); the half-moves a
damaged or missing line recorded are named from the ``plies_before`` of the next
good line, and a half-move the replay recovers from the good lines (a damaged
``move-made`` line whose input line is whole) is not named as lost.

A write cut off by a crash is no damage: every unit is written (and fsynced)
before the program acts on it, so what a crash cut off was never part of the
game. The file's last bytes without their newline, the lines of a unit that stops
before its ``unit_lines`` at the end of the file, and what a writer ended on
reopening and named in a checked ``cut-off`` line right after it stay in
:attr:`JournalRead.problems` as ``truncated`` (the user is told) and are listed in
:attr:`JournalRead.notes`: they are not applied, affect no half-move, and a game
with nothing else wrong is whole (:attr:`Verdict.whole`). A unit cut off is never
applied in part. A damaged line in the middle of the file is never taken for one,
and neither is anything the length line counts: those lines were on the disk.

Not detectable: lines lost at the very end that were written after the length
line's last count — in a game that was not closed on purpose that is at most the
last unit, and the file looks exactly like one a crash cut there —, a journal cut
back before its length line, and deliberate edits (the CRC is no signature).
Journals written before these fields existed still open: without ``crc`` they are
"unchecked" (:attr:`JournalRead.checked` is False), read line by line as before,
and new lines appended to them stay in the old format; with ``crc`` but without
the length line the end of the file cannot be checked.

Bounds: a journal is at most :data:`MAX_BYTES`, a line at most
:data:`blindchess.base.bounds.MAX_LINE_BYTES` and :data:`blindchess.base.bounds.MAX_JSON_DEPTH`
deep (a longer or deeper line is ``corrupt``, never parsed further), a recorded
half-move at most :data:`blindchess.base.bounds.MAX_PLIES`.

Reading is a stream (:func:`read_journal`): the file is read a chunk at a time and what
is kept is the game's lines — one record for a run of damaged lines however long
(blank lines between them included; reported once, as its first line and how many), a
line longer than any journal line let go as it is read. A file whose first whole lines
(:data:`HEAD_LINES`) hold no journal's line — the set-up, or a checked line of a game —
is refused at once (:class:`NotAJournal`), never read to its end.

Writing
-------
:class:`JournalWriter` appends a line or a unit with one ``write`` call, then
``fsync`` s before the caller goes on, so what the program has acted on survives a
crash; a new journal's folder is ``fsync`` ed too, so the file's name survives.
Only regular files are opened (a FIFO or a device named ``*.jsonl`` is refused
without blocking). Journals live in :func:`blindchess.base.paths.journal_dir`;
:func:`new_path` names a new one, :func:`list_journals` describes them all (a
malformed or unreadable file is named, never fatal) and :func:`last_unfinished`
finds the game the app should offer to reopen at start.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime
import errno
import json
import logging
import math
import os
import re
import stat
import uuid
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

from ..base import (
    MAX_HEADER_CHARS,
    MAX_JOURNAL_BYTES,
    MAX_LINE_BYTES,
    MAX_PLIES,
    journal_dir,
    loads,
    lock_file,
    make_blocking,
    open_fd,
    sync_folder,
    unlock_file,
    within,
)

__all__ = ["JournalWriter", "JournalRead", "JournalInfo", "Damage", "Verdict", "verdict", "NotRegularFile", "JournalInUse",
           "NotAJournal", "InputId", "read_journal", "check_start", "new_path",
           "list_journals", "describe", "last_unfinished", "format_plies", "END_TYPES", "SUFFIX",
           "RESERVED_FIELDS", "MAX_BYTES", "OWN_TYPES"]

SUFFIX = ".jsonl"
#: Event types after which a game is finished.
END_TYPES = ("game-end",)
#: The fields the writer adds to lines; an event must not carry them itself.
RESERVED_FIELDS = ("game_id", "line_no", "unit_lines", "input", "plies_before", "crc")
#: The type of the line a writer adds after ending what a crash cut off: ``"line"`` names the last
#: line cut off, ``"from"`` the first (when more than one), as line numbers in the file; after a write
#: that failed (a full disk), ``"numbers"`` names the first and last ``line_no`` the write was given.
CUT_OFF = "cut-off"
#: The copy of the ``session-start`` event (``"start"``), read when line 1 is damaged.
START_COPY = "session-start-copy"
#: The journal's own length, rewritten in place (``"lines"``, ``"plies"``, ``"closed"``).
LENGTH = "journal-length"
#: The lines that are the journal's own, not events of the game (never in :attr:`JournalRead.events`).
OWN_TYPES = (CUT_OFF, START_COPY, LENGTH)
#: The largest journal read (:data:`blindchess.base.bounds.MAX_JOURNAL_BYTES`).
MAX_BYTES = MAX_JOURNAL_BYTES
#: How many of a file's first whole, non-blank lines tell a journal from anything else: a journal's first
#: write is the set-up, its copy and the length line, and one of them whole is enough (:func:`read_journal`).
HEAD_LINES = 3
#: Bytes read at a time: a journal is read as a stream, never whole.
_CHUNK = 1 << 20

_log = logging.getLogger("blindchess.storage.journal")
_CRC_TAIL = re.compile(rb',"crc":"([0-9a-f]{8})"\}\Z')
_GAME_ID = re.compile(r"[0-9a-f]{32}\Z")
_INPUT = re.compile(r"([a-z][a-z0-9-]{0,15}):(\d{1,12})(?:\.(\d{1,6}))?\Z")
_MAX_LINES_DIGITS = 12
#: What a value cut off at the end of a line may look like where JSON stops reading: the start of a number
#: (``1.``, ``-``, ``2e``) or of ``true``, ``false``, ``null``.
_CUT_VALUE = re.compile(r"t(?:r(?:ue?)?)?|f(?:a(?:l(?:se?)?)?)?|n(?:u(?:ll?)?)?|-?[0-9]*\.?[0-9]*(?:[eE][-+]?[0-9]*)?")


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a folder … — not a regular file a journal can be (errno ``ENXIO``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.ENXIO, "not a regular file", str(path))


class JournalInUse(OSError):
    """Another writer — another window of blindchess — has the journal open (errno ``EBUSY``): two writers
    would interleave their lines."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EBUSY, "the journal is open in another blindchess", str(path))


class NotAJournal(OSError):
    """The file is no journal: none of its first whole lines (:data:`HEAD_LINES`) is a journal's line — the
    set-up, or a checked line of a game. Refused before the rest of the file is read (errno ``EINVAL``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EINVAL, "not a blindchess journal", str(path))


@dataclass(frozen=True, order=True)
class InputId:
    """The identity of one input: who gave it (``origin``: ``"script"`` a scenario script's line, ``"app"`` the
    program's own count of the inputs it handled …) and its place in that origin's order (``number``, and
    ``part`` for the second, third … input one line gives). The first line of the input's unit keeps it
    (``"input":"script:17"``, ``"script:17.1"``); inputs of one origin come in this order, so every input
    up to the highest one a journal holds has been applied (:attr:`JournalRead.inputs`)."""

    origin: str
    number: int
    part: int = 0

    def __post_init__(self) -> None:
        if _INPUT.match(f"{self.origin}:{self.number}") is None or not within(self.part, 0, 999_999):
            raise ValueError(f"not an input's identity: {self.origin!r} {self.number!r} {self.part!r}")

    def __str__(self) -> str:
        return f"{self.origin}:{self.number}" + (f".{self.part}" if self.part else "")

    @classmethod
    def parse(cls, text: object) -> InputId | None:
        """The identity written as ``text`` (``"script:17"``, ``"script:17.1"``), None when it is none."""
        found = _INPUT.match(text) if isinstance(text, str) else None
        if found is None:
            return None
        return cls(found.group(1), int(found.group(2)), int(found.group(3) or 0))


def _open_regular(path: Path, flags: int) -> int:
    """Open ``path`` without blocking (a FIFO would) and return the descriptor of a regular file.

    Raises :class:`NotRegularFile` for anything else, OSError when it cannot be opened."""
    fd = open_fd(path, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(path)
        make_blocking(fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_bounded(path: Path) -> bytes:
    """The whole file, read from a regular file only, at most :data:`MAX_BYTES`. Raises OSError."""
    fd = _open_regular(path, os.O_RDONLY)
    try:
        if os.fstat(fd).st_size > MAX_BYTES:
            raise OSError(errno.EFBIG, "file too large", str(path))
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_BYTES:
                raise OSError(errno.EFBIG, "file too large", str(path))
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    """Make a new name in ``folder`` durable (see :func:`blindchess.base.system.sync_folder`)."""
    sync_folder(folder)


def _with_crc(body: bytes) -> bytes:
    """``body`` (a JSON object's text without its closing brace) with its CRC field, brace and newline."""
    return body + b',"crc":"%08x"}\n' % zlib.crc32(body + b"}")


def _encode_checked(event: dict[str, Any], game_id: str, line_no: int, plies_before: int | None = None,
                    unit_lines: int | None = None, ident: InputId | None = None) -> bytes:
    fields: dict[str, Any] = {**event, "game_id": game_id, "line_no": line_no}
    if unit_lines is not None:
        fields["unit_lines"] = unit_lines
        if ident is not None:
            fields["input"] = str(ident)
    if plies_before is not None:
        fields["plies_before"] = plies_before
    body = json.dumps(fields, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return _with_crc(body[:-1])


def _encode_length(lines: int, plies: int, closed: bool, game_id: str, line_no: int, plies_before: int,
                   seq: int) -> bytes:
    """The length line; its size depends only on ``game_id``, ``line_no``, ``plies_before`` and ``seq``
    (the counts are padded)."""
    width = len(str(MAX_PLIES))
    body = (f'{{"seq":{seq},"type":"{LENGTH}","t":0.0,"derived":true,"lines":{lines:{_MAX_LINES_DIGITS}d},'
            f'"plies":{plies:{width}d},"closed":{"true " if closed else "false"},'
            f'"game_id":"{game_id}","line_no":{line_no},"plies_before":{plies_before}').encode("ascii")
    return _with_crc(body)


class JournalWriter:
    """Appends events to a journal file; each append is one ``write``, then flushed and fsynced.

    A new (or empty) file becomes a checked journal with a fresh ``game_id``
    (random), its first write followed by the set-up's copy and the length
    line; appending to an existing checked journal continues its ``game_id``,
    ``line_no`` and half-move count; appending to an old unchecked journal keeps
    its old format. What a crash cut off is ended first and named in a
    ``cut-off`` line, so the next event is never glued to it. Raises OSError
    (:class:`NotRegularFile` for a FIFO, a device …; :class:`JournalInUse` while another writer holds
    the file) when the file cannot be
    opened.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        created_folders = [p for p in (self.path.parent, *self.path.parent.parents) if not p.exists()]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for folder in reversed(created_folders):
            _fsync_folder(folder.parent)
        existed = self.path.exists()
        self._fd = _open_regular(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        if not lock_file(self._fd):
            os.close(self._fd)
            raise JournalInUse(self.path)
        self._closed = False
        self._recorder = _Recorder()
        # The length line: a descriptor of its own to rewrite it, and (offset, size, line_no, plies_before, seq).
        self._slot: tuple[int, tuple[int, int, int, int, int]] | None = None
        self._fresh = True                                   # nothing written yet: the next write is the first
        self._cut: tuple[int, int, bool] | None = None       # a failed write to name: first, last number, fragment
        self._seq = 0                                        # the last event number written
        try:
            if not existed:
                _fsync_folder(self.path.parent)
            self.checked = True
            self.game_id = uuid.uuid4().hex
            self._next: int                              # the next line's number: from the file (1 when empty)
            self._continue(read_journal(self.path))      # an empty file: nothing to go on from
        except BaseException:
            self._close_fds()
            raise

    def _continue(self, read: JournalRead) -> None:
        """Go on after the lines of ``read``: same game, next numbers, what a crash cut off ended and named."""
        # Nothing of a game yet: blank lines, or what a crash cut off of the first write (it is ended and named).
        nothing = not read.events and set(read.problems) <= set(read.notes)
        if read.checked:
            self.game_id = read.game_id or self.game_id
        else:
            self.checked = nothing
        self._fresh = self.checked and nothing
        self._next = read.next_line_no
        self._seq = max((e["seq"] for e in read.events if _is_int(e.get("seq"))), default=self._seq)
        self._recorder.game = list(read.recorded)
        if read.slot is not None:
            self._slot = (_open_regular(self.path, os.O_WRONLY), read.slot)
        wrote = False
        if not read.ends_with_newline:
            self._write(b"\n")
            wrote = True
        if self.checked and read.cut_off:
            # Name what a crash cut off: the reader then knows it was never acted on (a damaged line is
            # never taken for one).
            first, last = read.cut_off[0], read.cut_off[-1]
            mark: dict[str, Any] = {"seq": self._seq, "type": CUT_OFF, "t": 0.0, "derived": True, "line": last}
            if first != last:
                mark["from"] = first
            self._write(_encode_checked(mark, self.game_id, self._next, len(self._recorder.game)))
            self._next += 1
            wrote = True
        if wrote:
            self.sync()

    @property
    def next_line_no(self) -> int:
        """The ``line_no`` the next appended line gets."""
        return self._next

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]

    def append(self, event: dict[str, Any], *, sync: bool = True) -> None:
        """Write one event as one line (one write call), then flush and fsync (unless ``sync=False``).

        Raises ValueError when the event carries a field of :data:`RESERVED_FIELDS`
        or a number that is not finite (nothing is written), OSError when the
        write fails (a partly written line is ended before the next one)."""
        self._append([event], unit=False)
        if sync:
            self.sync()

    def append_unit(self, events: Sequence[dict[str, Any]], *, ident: InputId | None = None) -> None:
        """Write ``events`` (an input and every event it causes) as one unit: one write, then fsync.

        The first line carries ``unit_lines`` and ``ident``, the input's identity, when given (a checked
        journal only); a reader applies the unit whole or not at all, so a crash at any byte leaves the unit
        or nothing of it. Raises ValueError as :meth:`append` (nothing is written), OSError when the write
        fails (what was written is ended before the next line; a reader never applies it)."""
        if events:
            self._append(list(events), unit=True, ident=ident)
            self.sync()

    def _name_cut(self) -> None:
        """Name what a failed write left in the file (a ``cut-off`` line with its numbers), so a reader
        never applies it. Raises OSError when even that cannot be written (tried again before the next line)."""
        if self._cut is None:
            return
        first, last, fragment = self._cut
        if fragment:
            self._write(b"\n")
            self._cut = (first, last, False)
        if self.checked:
            mark = {"seq": self._seq, "type": CUT_OFF, "t": 0.0, "derived": True, "numbers": [first, last]}
            self._write(_encode_checked(mark, self.game_id, self._next, len(self._recorder.game)))
            self._next += 1
        self._cut = None
        os.fsync(self._fd)

    def _append(self, events: list[dict[str, Any]], *, unit: bool, ident: InputId | None = None) -> None:
        for event in events:
            clash = [k for k in RESERVED_FIELDS if k in event]
            if clash:
                raise ValueError(f"journal events must not carry {', '.join(clash)}")
        self._name_cut()
        recorder = _Recorder()
        recorder.game = list(self._recorder.game)
        number = self._next
        lines: list[bytes] = []
        for i, event in enumerate(events):
            if self.checked:
                size = len(events) if unit and i == 0 else None
                lines.append(_encode_checked(event, self.game_id, number, len(recorder.game), size, ident))
            else:
                lines.append((json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
                              + "\n").encode("utf-8"))
            recorder.feed(event)
            number += 1
        slot: tuple[int, int, int, int, int] | None = None
        if self.checked and self._fresh:
            # The journal's own lines after its first write: the set-up again, then the length line (each
            # with the number of the event before it, so the numbers never go down).
            first = events[0]
            seq = max((e["seq"] for e in events if _is_int(e.get("seq"))), default=self._seq)
            if first.get("type") == "session-start":
                copy = {"seq": seq, "type": START_COPY, "t": first.get("t", 0.0), "derived": True, "start": first}
                lines.append(_encode_checked(copy, self.game_id, number, len(recorder.game)))
                number += 1
            length = _encode_length(0, 0, False, self.game_id, number, len(recorder.game), seq)
            slot = (os.fstat(self._fd).st_size + sum(len(x) for x in lines), len(length), number,
                    len(recorder.game), seq)
            lines.append(length)
            number += 1
        data = b"".join(lines)
        before = os.fstat(self._fd).st_size
        try:
            self._write(data)
        except OSError:
            written = os.fstat(self._fd).st_size - before
            if written > 0:
                # What stands in the file keeps its numbers, and so does what never got there (no later
                # line takes a number inside a unit cut off); it is named in a cut-off line — now, or
                # before the next line if the disk takes nothing now — so no reader applies it.
                self._cut = (self._next, number - 1, data[written - 1:written] != b"\n")
                self._next = number
                try:
                    self._name_cut()
                except OSError:
                    pass
            raise
        self._next = number
        self._recorder = recorder
        self._fresh = False
        self._seq = max([self._seq] + [e["seq"] for e in events if _is_int(e.get("seq"))])
        if slot is not None:
            self._slot = (_open_regular(self.path, os.O_WRONLY), slot)

    def _record_length(self, closed: bool) -> None:
        """Rewrite the length line in place with what is on the disk now (no growth, no extra fsync:
        the count only ever names lines an earlier fsync made durable)."""
        if self._slot is None:
            return
        fd, (offset, size, line_no, plies_before, seq) = self._slot
        data = _encode_length(self._next - 1, len(self._recorder.game), closed, self.game_id, line_no, plies_before,
                              seq)
        if len(data) != size:   # pragma: no cover - the counts are bounded far below the padding
            return
        os.lseek(fd, offset, os.SEEK_SET)
        written = 0
        while written < size:
            written += os.write(fd, data[written:])

    def sync(self) -> None:
        """Hand the written lines to the disk (``fsync``), then count them in the length line."""
        os.fsync(self._fd)
        self._record_length(closed=False)

    def close(self) -> None:
        """Mark the journal closed on purpose in its length line, sync and close; closing twice does nothing."""
        if not self._closed:
            try:
                os.fsync(self._fd)
                self._record_length(closed=True)
                os.fsync(self._fd)
            finally:
                self._close_fds()

    def abandon(self) -> None:
        """The program dies: its descriptors are closed (and the lock given up) as the system does then —
        nothing more is written or synced. For crash simulations; closing twice does nothing."""
        if not self._closed:
            self._close_fds()

    def _close_fds(self) -> None:
        with contextlib.suppress(OSError):
            unlock_file(self._fd)       # Windows asks for it before the closing; POSIX closes it anyway
        os.close(self._fd)
        if self._slot is not None:
            os.close(self._slot[0])
        self._slot = None
        self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed


@dataclass(frozen=True)
class Damage:
    """One problem of a journal and the half-moves it may affect.

    ``line`` is the line number in the file (for ``missing``: the first line after
    the gap — for lines lost at the end, the line after the file's last; ``count``
    lines are missing there; for damaged lines one after another, blank ones between
    them, the first: they are lines ``line … line + count - 1``). ``after_ply`` is the number of half-moves the journal
    had recorded before the problem; the half-moves ``after_ply + 1 … until_ply``
    may be wrong or missing (none when ``until_ply == after_ply``: the problem lies
    between two half-moves, e.g. a clock press, a touch or the result)."""

    line: int
    reason: str
    after_ply: int
    until_ply: int
    count: int = 1

    @property
    def plies(self) -> list[int]:
        return list(range(self.after_ply + 1, self.until_ply + 1))


@dataclass(frozen=True)
class Length:
    """What the journal's length line says: ``lines`` were on the disk and recorded ``plies``
    half-moves; ``closed``: the journal was closed on purpose right after them."""

    lines: int
    plies: int
    closed: bool


@dataclass
class JournalRead:
    """The events read from a journal, where they stand, and what was wrong.

    ``events``/``lines``: the good events in file order and the line number of
    each (the journal's own lines, :data:`OWN_TYPES`, are not among them; a
    ``session-start`` read from its copy stands where the copy stands).
    ``problems``: (line number, reason) of every problem — reasons ``corrupt``,
    ``truncated``, ``missing``, ``duplicate``, ``out-of-order``, ``foreign``.
    ``damage``: the same with the plies affected. ``checked``: the journal carries
    ``game_id``/``line_no``/``crc`` (False: an old journal, read unchecked).
    ``recorded``: the game's moves (UCI) as the journal's ``move-made`` /
    ``move-withdrawn`` / ruling lines record them (None where a damaged line left
    a hole). ``length``: the length line, when the journal has a whole one.
    ``start_from_copy``: line 1 was damaged or missing and the set-up was read
    from its copy. ``notes``: problems that lose nothing (what a crash cut off)."""

    path: Path
    events: list[dict[str, Any]]
    problems: list[tuple[int, str]]
    lines: list[int]
    damage: list[Damage]
    checked: bool
    game_id: str | None
    recorded: list[str | None]
    next_line_no: int
    ends_with_newline: bool
    notes: list[tuple[int, str]]
    length: Length | None
    start_from_copy: bool
    #: Where the length line stands, for a writer going on: (offset, size, line_no, plies_before, seq).
    slot: tuple[int, int, int, int, int] | None
    #: Line numbers in the file of what a crash cut off at the end, not yet named by a ``cut-off`` line.
    cut_off: list[int]
    #: The highest input of each origin the journal holds (:class:`InputId`, on the first line of a unit that
    #: stands whole): that input and every one of its origin before it have been applied.
    inputs: dict[str, InputId]

    @property
    def damaged(self) -> bool:
        return bool(self.problems)

    def affected_plies(self, replayed: Sequence[str] | None = None) -> list[int]:
        """Half-moves (1-based) that may be wrong or missing.

        Without ``replayed``: those of every :attr:`damage` and the holes in :attr:`recorded`.
        Given the game as replayed from the good lines (UCI): every recorded half-move the
        replay does not reproduce (a shorter game included), and of the half-moves a damaged
        line recorded those the replay does not recover — a half-move the replay makes where
        the record has none or the same counts as recovered (its input line is whole). A
        replay longer than the record is not counted (the derived lines of the last input
        may not have been written before a crash)."""
        out: set[int] = set()
        for d in self.damage:
            out.update(d.plies)
        if replayed is not None:
            # the replay makes it: recovered — unless the record holds another move there, which the
            # comparison below names
            out = {p for p in out if p > len(replayed)}
        for index, uci in enumerate(self.recorded):
            if uci is None:
                if replayed is None or index >= len(replayed):
                    out.add(index + 1)
            elif replayed is not None and (index >= len(replayed) or replayed[index] != uci):
                out.add(index + 1)
        return sorted(out)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _well_formed(event: object) -> TypeGuard[dict[str, Any]]:
    """The fields every event has, of the right kind: ``type`` text, ``seq`` a whole number
    (not ``true``), ``t`` a finite number of seconds (not NaN). A line failing this was
    damaged (or edited) — never replayed."""
    if not isinstance(event, dict):
        return False
    kind, t = event.get("type"), event.get("t", 0.0)
    if not isinstance(kind, str) or not kind:
        return False
    if "seq" in event and not _is_int(event["seq"]):
        return False
    return not isinstance(t, bool) and isinstance(t, (int, float)) and math.isfinite(t)


@dataclass
class _Line:
    number: int
    event: dict[str, Any] | None   # None: not an event
    reason: str = ""                # why not an event ("corrupt" | "truncated")
    crc_ok: bool = False            # the line carries game_id/line_no/crc and its CRC matches
    cut: bool = False               # the text ends inside the object (a write cut off)
    digest: tuple[int, int] | None = None   # a line's CRC and length (no newline): a second copy is told from a moved one
    count: int = 1                  # the damaged lines of the run
    offset: int = field(init=False)   # where the line starts in the file (set by the scan, as the next one)
    ended: bool = field(init=False)   # it ends with a newline
    last: int = field(init=False)     # a run of damaged lines (blank ones between them): the last one's number

    def __post_init__(self) -> None:
        self.last = self.number


def _parse(number: int, raw: bytes, last: bool) -> _Line:
    """Line ``number`` of the file (``raw``: its bytes without the newline, at most
    :data:`~blindchess.base.bounds.MAX_LINE_BYTES` — :func:`_raw_lines` lets a longer one go as it is read)."""
    try:
        text = raw.decode("utf-8")
        event = loads(text)
    except UnicodeDecodeError:
        return _Line(number, None, "corrupt")
    except json.JSONDecodeError as exc:
        # Cut off while writing: the text ends inside the object (only the last line, or a fragment a
        # writer ended after a crash) — inside a string, or where a value may start or go on (the error at
        # the end of the text: what is left is empty, which _CUT_VALUE matches too).
        ends_early = exc.msg.startswith("Unterminated string") \
            or _CUT_VALUE.fullmatch(text.rstrip()[exc.pos:]) is not None
        cut = ends_early and raw.lstrip().startswith(b"{")
        return _Line(number, None, "truncated" if cut or last else "corrupt", cut=cut)
    except ValueError:   # nested too deep, a number too long to read
        return _Line(number, None, "corrupt")
    if not _well_formed(event):
        return _Line(number, None, "corrupt")
    tail = _CRC_TAIL.search(raw)
    crc_ok = False
    digest: tuple[int, int] | None = None
    if tail is not None:
        digest = (int(tail.group(1), 16), len(raw))
        crc_ok = zlib.crc32(raw[:tail.start()] + b"}") == digest[0]
    if crc_ok and not (isinstance(event.get("game_id"), str) and _GAME_ID.match(event["game_id"])
                       and within(event.get("line_no"), 1, MAX_BYTES)):
        crc_ok = False
    if not crc_ok and any(k in event for k in RESERVED_FIELDS):
        return _Line(number, None, "corrupt")   # a checked line whose check fails
    return _Line(number, event, "", crc_ok, digest=digest)


def _raw_lines(fd: int) -> Iterator[tuple[int, bytes | None, bool]]:
    """The lines of the file open at ``fd``, read :data:`_CHUNK` bytes at a time: (offset, the line's bytes
    without its newline, whether it has one). A line longer than
    :data:`~blindchess.base.bounds.MAX_LINE_BYTES` is let go as it is read (its bytes None): nothing of the
    file is held but the line being read. Raises OSError (EFBIG past :data:`MAX_BYTES`)."""
    pending = bytearray()           # the line being read
    dropped = 0                     # its bytes let go (a line longer than any journal line)
    offset = total = 0
    while chunk := os.read(fd, _CHUNK):
        total += len(chunk)
        if total > MAX_BYTES:
            raise OSError(errno.EFBIG, "file too large")
        at = 0
        while (end := chunk.find(b"\n", at)) >= 0:
            piece = chunk[at:end]
            length = dropped + len(pending) + len(piece)
            kept = not dropped and length <= MAX_LINE_BYTES
            if kept:
                pending += piece
            yield offset, bytes(pending) if kept else None, True
            offset += length + 1
            pending.clear()
            dropped = 0
            at = end + 1
        rest = memoryview(chunk)[at:]
        if dropped or len(pending) + len(rest) > MAX_LINE_BYTES:
            dropped += len(pending) + len(rest)
            pending.clear()
        else:
            pending += rest
    if pending or dropped:
        yield offset, None if dropped else bytes(pending), False


def check_start(path: Path | str) -> None:
    """Whether the file at ``path`` begins as a journal, read only as far as that takes (its first whole lines,
    see :func:`read_journal`): raises :class:`NotAJournal` when it does not, OSError when it cannot be read."""
    _scan(Path(path), head_only=True)


def _is_journal_line(line: _Line) -> bool:
    """A line only a journal has: its set-up, or a checked line of a game."""
    return line.event is not None and (line.crc_ok or line.event.get("type") == "session-start")


def _scan(path: Path, *, head_only: bool = False) -> tuple[list[_Line], int, bool, int]:
    """Every non-blank line of the journal at ``path`` as read (a run of damaged lines as one), how many
    newlines the file has, whether it ends with one, and its non-blank lines (``head_only``: only up to its
    first journal's line). Raises :class:`NotAJournal` as soon as :data:`HEAD_LINES` whole lines (or all
    there are) hold no journal's line, OSError when it cannot be read."""
    fd = _open_regular(path, os.O_RDONLY)
    parsed: list[_Line] = []
    number = newlines = nonblank = head = 0
    ends_nl = True
    journal = checked = False
    try:
        if os.fstat(fd).st_size > MAX_BYTES:
            raise OSError(errno.EFBIG, "file too large", str(path))
        for offset, raw, ended in _raw_lines(fd):
            number += 1
            newlines += ended
            ends_nl = ended
            if raw is not None and not raw.strip():
                continue
            nonblank += 1
            line = _parse(number, raw, not ended) if raw is not None else _Line(number, None, "corrupt")
            line.offset, line.ended = offset, ended
            # An unchecked line in a checked journal is damage (one run with the damaged lines beside it); one
            # before the first checked line is judged so by the reader (it never joins a run after the fact).
            if line.crc_ok:
                checked = True
            elif line.event is not None and checked:
                line.event, line.reason = None, "corrupt"
            if not journal and ended:
                journal, head = _is_journal_line(line), head + 1
                if not journal and head >= HEAD_LINES:
                    raise NotAJournal(path)
                if journal and head_only:
                    break
            before = parsed[-1] if parsed else None
            if before is not None and line.event is None and before.event is None and not line.cut \
                    and not before.cut and line.reason == before.reason == "corrupt":
                before.last, before.count = number, before.count + 1   # one more damaged line of the run
                continue
            parsed.append(line)
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise
    finally:
        os.close(fd)
    if head and not journal:
        raise NotAJournal(path)
    return parsed, newlines, ends_nl, nonblank


class _Recorder:
    """The game as the journal's own lines record it (derived ``move-made`` etc.)."""

    def __init__(self) -> None:
        self.game: list[str | None] = []

    def feed(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "move-made":
            ply, uci = ev.get("ply"), ev.get("uci")
            if _is_int(ply) and 0 < ply <= MAX_PLIES and isinstance(uci, str):
                del self.game[ply:]
                self.game.extend([None] * (ply - len(self.game)))
                self.game[ply - 1] = uci
        elif kind in ("move-withdrawn", "illegal-corrected"):     # withdrawn (D.2.8); taken back from it on
            ply = ev.get("ply")
            if _is_int(ply) and ply > 0:
                del self.game[ply - 1:]
        elif kind in ("ruling", "ruling-override", "pgn-import"):
            moves = ev.get("moves")
            if isinstance(moves, list) and len(moves) <= MAX_PLIES and all(isinstance(m, str) for m in moves):
                self.game = list(moves)


def _increasing(indices: list[int], values: list[int]) -> set[int]:
    """The ``indices`` of a longest strictly increasing run of ``values`` (the earliest of equal ones)."""
    tails: list[int] = []        # the smallest last value of a run of each length
    tail_at: list[int] = []      # position (in ``values``) of that last value
    before: list[int | None] = [None] * len(values)
    for k, value in enumerate(values):
        j = bisect.bisect_left(tails, value)
        if j < len(tails) and tails[j] == value:
            continue                         # an equal value earlier serves every run at least as well
        before[k] = tail_at[j - 1] if j else None
        if j == len(tails):
            tails.append(value)
            tail_at.append(k)
        else:
            tails[j], tail_at[j] = value, k
    out: set[int] = set()
    at = tail_at[-1] if tail_at else None
    while at is not None:
        out.add(indices[at])
        at = before[at]
    return out


class _Note(NamedTuple):
    """A line a crash cut off (in the reader's list of lines and problems)."""

    line: int


def _own_field(event: dict[str, Any], name: str, high: int) -> int | None:
    value = event.get(name)
    return value if within(value, 0, high) else None


def read_journal(path: Path | str) -> JournalRead:
    """Read every good line and report the others (see the module docstring for what is checked).

    The file is read as a stream: what is kept is the game's lines (and what a crash or damage left of
    them: one record for each run of damaged lines), never the file. Raises OSError if the file cannot be
    read, :class:`NotRegularFile` if it is no regular file (a FIFO is never waited on), OSError(EFBIG)
    above :data:`MAX_BYTES`, :class:`NotAJournal` (an OSError) for a file whose first lines are no
    journal's."""
    path = Path(path)
    parsed, last_index, ends_nl, nonblank = _scan(path)
    checked = any(p.crc_ok for p in parsed)
    game_id: str | None = None
    if checked:
        counts = Counter(p.event["game_id"] for p in parsed if p.crc_ok and p.event is not None)
        best = max(counts.values())
        starts = [p.event["game_id"] for p in parsed if p.crc_ok and p.event is not None
                  and p.event.get("type") in ("session-start", START_COPY)]
        game_id = next((g for g in starts if counts[g] == best), None) or max(counts, key=counts.__getitem__)

    # The lines that stand in order: the longest run of increasing line numbers (a line copied or
    # moved forward must not make every line after it look out of order).
    own: list[tuple[int, int]] = [(i, int(p.event["line_no"])) for i, p in enumerate(parsed)
                                  if checked and p.crc_ok and p.event is not None and p.event["game_id"] == game_id]
    keep = _increasing([i for i, _ in own], [n for _, n in own])
    kept_raw = {int(p.event["line_no"]): p.digest for i, p in enumerate(parsed) if i in keep and p.event is not None}

    def good(i: int) -> bool:        # (asked of a checked journal: a line that stands in order)
        return i in keep

    def own_event(i: int, kind: str) -> dict[str, Any] | None:
        event = parsed[i].event if i in keep else None
        return event if event is not None and event.get("type") == kind else None

    # The journal's own lines: its length, the set-up's copy.
    length: Length | None = None
    slot: tuple[int, int, int, int, int] | None = None
    copy_start: dict[str, Any] | None = None
    for i, p in enumerate(parsed):
        counted = own_event(i, LENGTH)
        if counted is not None:
            lines_ = _own_field(counted, "lines", MAX_BYTES)       # a line has a byte at least
            plies_ = _own_field(counted, "plies", MAX_PLIES)
            closed = counted.get("closed")
            before = _own_field(counted, "plies_before", MAX_PLIES)
            if lines_ is not None and plies_ is not None and isinstance(closed, bool) and before is not None:
                length = Length(lines_, plies_, closed)
                if p.digest is not None:   # a writer rewrites it in place (with its newline: one it lacks is
                    # the first thing a writer adds)
                    slot = (p.offset, p.digest[1] + 1, int(counted["line_no"]), before, int(counted["seq"]))
        copied = own_event(i, START_COPY)
        if copied is not None and copy_start is None:
            start = copied.get("start")
            if _well_formed(start) and start.get("type") == "session-start":
                copy_start = start

    # The number each line stands for (a damaged line: the one after the line before it).
    numbered = dict(own)
    expected: list[int] = []
    for i in range(len(parsed)):
        expected.append(numbered[i] if good(i) else (expected[-1] + parsed[i - 1].count if expected else 1))

    # What a crash cut off (never applied): what a writer named in a cut-off line, and the end of the
    # file — its last bytes without their newline, a unit that stops before its last line — unless
    # the length line counts it (then it was on the disk, and is damage).
    cut: set[int] = set()
    skipped: dict[int, int] = {}      # a cut-off line naming numbers: its index -> the last number it names
    for k in range(len(parsed)):
        mark = own_event(k, CUT_OFF)
        span = mark.get("numbers") if mark is not None else None
        if isinstance(span, list) and len(span) == 2 and all(within(n, 1, MAX_BYTES) for n in span):
            # A write that failed: every line of it that stands in the file, by its number; a fragment
            # ended just before this line.
            low, high = span
            cut.update(j for j in range(k) if (good(j) or (j == k - 1 and parsed[j].cut))
                       and low <= expected[j] <= high)
            skipped[k] = high
            continue
        if k == 0 or mark is None or mark.get("line") != parsed[k - 1].last:
            continue
        first = mark.get("from", mark.get("line"))
        named = [j for j in range(k) if _is_int(first) and first <= parsed[j].last]
        if all(good(j) or (j == k - 1 and parsed[j].cut) for j in named):
            cut.update(named)
    tail: list[int] = []
    if parsed and not parsed[-1].ended and parsed[-1].cut:
        tail.append(len(parsed) - 1)
    starts_at = [(i, int(p.event["unit_lines"])) for i, p in enumerate(parsed)
                 if good(i) and p.event is not None and within(p.event.get("unit_lines"), 1, MAX_BYTES)]
    if starts_at:
        u, size = starts_at[-1]
        first_no = expected[u]
        after = range(u, len(parsed))
        inside = all(good(j) and first_no <= expected[j] < first_no + size or j in tail for j in after)
        whole = {expected[j] for j in after if good(j)} == set(range(first_no, first_no + size))
        if inside and not whole:
            tail = list(after)
    if tail and length is not None and expected[tail[0]] <= length.lines:
        tail = []
    cut.update(tail)

    events: list[dict[str, Any]] = []
    numbers: list[int] = []
    notes: list[tuple[int, str]] = []
    found: list[tuple[int, str, int]] = []                 # (line, reason, count) in file order
    order: list[dict[str, Any] | _Note | None] = []        # a good line, None for a problem, or a note
    last_no = 0
    slots = 0                                               # lines since the last good one that may have held a number
    max_no = max((n for _, n in own), default=0)
    copy_at: tuple[int, int] | None = None
    units = bool(starts_at)

    def numbered_line(n: int, line: int) -> None:
        """A line that stands in order, numbered ``n``, at ``line`` of the file: the lines missing before it."""
        nonlocal last_no, slots
        missing = n - last_no - 1 - slots
        if missing > 0:
            found.append((line, "missing", missing))
            order.append(None)
        last_no, slots = n, 0

    for i, p in enumerate(parsed):
        if i in cut:
            if good(i):                 # its number is known: a line deleted before it is missing
                numbered_line(expected[i], p.number)
            else:
                slots += 1
            notes.append((p.number, "truncated"))
            order.append(_Note(p.number))
            continue
        reason = ""
        if p.event is None:
            reason = p.reason
        elif checked and not p.crc_ok:
            reason = "corrupt"
        elif checked and p.event["game_id"] != game_id:
            reason = "foreign"
        elif checked and i not in keep:     # its number is known and stands elsewhere: it fills no gap
            n = int(p.event["line_no"])
            found.append((p.number, "duplicate" if kept_raw.get(n) == p.digest else "out-of-order", 1))
            order.append(None)
            continue
        if reason:
            found.append((p.number, reason, p.last - p.number + 1))   # a run of damaged lines: all of them
            order.append(None)
            slots += p.count
            continue
        assert p.event is not None
        if checked:
            if i in skipped:      # the numbers of a failed write: never lines
                last_no = max(last_no, skipped[i])
            numbered_line(int(p.event["line_no"]), p.number)
        order.append(p.event)
        if p.event.get("type") in OWN_TYPES:
            if p.event.get("type") == START_COPY:     # (one copy stands in order: its line number is its own)
                copy_at = (len(events), p.number)
            continue
        # (A complete line without its newline was cut just before "\n": it is kept.)
        events.append(p.event)
        numbers.append(p.number)
    file_lines = last_index + (0 if ends_nl else 1)
    if checked and length is not None and length.lines > last_no + slots:
        # Lines the length line counts but the file no longer holds: its end was cut off.
        found.append((file_lines + 1, "missing", length.lines - last_no - slots))
        order.append(None)
    start_from_copy = False
    if copy_start is not None and copy_at is not None and not any(e.get("type") == "session-start" for e in events):
        events.insert(copy_at[0], copy_start)
        numbers.insert(copy_at[0], copy_at[1])
        start_from_copy = True

    # The plies each problem may affect: from the half-moves recorded before it up to those recorded
    # when the next good line was written (its plies_before) and by the derived lines that follow it
    # before the next input line.
    recorder = _Recorder()
    damage: list[Damage] = []
    pending: list[tuple[int, str, int, int]] = []   # problems waiting for the next input line
    hint: int                                         # plies_before of the first good line after them (once hinted)
    hinted = False
    problem_iter = iter(found)
    for entry in order:
        if isinstance(entry, _Note):
            damage.append(Damage(entry.line, "truncated", len(recorder.game), len(recorder.game)))
            continue
        if entry is None:
            number, reason, count = next(problem_iter)
            pending.append((number, reason, count, len(recorder.game)))
            continue
        if pending and not hinted:
            hint = _own_field(entry, "plies_before", MAX_PLIES) or 0
            hinted = True
        if pending and not entry.get("derived"):
            until = max(len(recorder.game), hint)
            damage.extend(Damage(n, r, after, max(after, until), c) for n, r, c, after in pending)
            pending, hinted = [], False
        recorder.feed(entry)
    if pending:
        if length is not None and length.lines >= last_no + slots:
            # The length line counts everything up to the end: it says how many half-moves were recorded;
            # unless the journal was closed on purpose or is written in units, the last input line may
            # have made one more whose move-made line was never written.
            until = max(len(recorder.game), length.plies, hint if hinted else 0)
            exact = length.closed or units
            damage.extend(Damage(n, r, after, max(after + (0 if exact else 1), until), c)
                          for n, r, c, after in pending)
        else:
            # After the last good line nothing tells what a damaged line held: it may have made the next
            # half-move.
            damage.extend(Damage(n, r, after, max(after + 1, len(recorder.game)), c) for n, r, c, after in pending)
    damage.sort(key=lambda d: d.line)
    problems = [(d.line, d.reason) for d in damage]
    next_no = max(nonblank, max_no, length.lines if length is not None else 0) + 1
    tail_numbers = [parsed[i].number for i in sorted(tail)]
    return JournalRead(path, events, problems, numbers, damage, checked, game_id, recorder.game, next_no,
                       ends_nl, notes, length, start_from_copy, slot, tail_numbers, held_inputs(events))


def held_inputs(events: Sequence[dict[str, Any]]) -> dict[str, InputId]:
    """The highest input of each origin that ``events`` (journal lines as read) hold on their units' first lines."""
    held: dict[str, InputId] = {}
    for event in events:
        ident = InputId.parse(event.get("input")) if "input" in event else None
        if ident is not None:
            held[ident.origin] = max(held.get(ident.origin, ident), ident)
    return held



@dataclass(frozen=True)
class Verdict:
    """What a journal and its replay say together (see :func:`verdict`).

    ``problems``: every (line, reason) — the reader's and the replay's (``inapplicable``);
    ``plies``: the half-moves that may be wrong or missing; ``recorded``/``replayed``: how
    many half-moves the journal records and how many the replay produced; ``checked``:
    False for an old journal without check fields (damage there cannot be detected)."""

    problems: list[tuple[int, str]]
    plies: list[int]
    recorded: int
    replayed: int
    checked: bool
    missing_lines: dict[int, int] = field(default_factory=dict)   # line -> how many lines are missing before it
    notes: list[tuple[int, str]] = field(default_factory=list)     # reported problems that lose nothing
    spans: dict[int, int] = field(default_factory=dict)            # line -> damaged lines from it on, when more than one

    @property
    def whole(self) -> bool:
        """Nothing is damaged and the replay reproduces every recorded half-move (a write cut off by
        a crash, never acted on, is reported but loses nothing)."""
        return not (set(self.problems) - set(self.notes)) and not self.plies


def verdict(read: JournalRead, replayed: Sequence[str], replay_problems: Sequence[tuple[int, str]] = ()) -> Verdict:
    """Judge a journal against the game replayed from it (``replayed``: its moves as UCI;
    ``replay_problems``: the (line, reason) the replay reported, the reader's may be among them)."""
    problems = sorted(set(read.problems) | set(replay_problems))
    plies = read.affected_plies(replayed)
    missing = {d.line: d.count for d in read.damage if d.reason == "missing"}
    spans = {d.line: d.count for d in read.damage if d.reason != "missing" and d.count > 1}
    return Verdict(problems, plies, len(read.recorded), len(replayed), read.checked, missing, list(read.notes), spans)


def format_plies(plies: Sequence[int]) -> str:
    """``[3, 4, 5, 9]`` as ``"3–5, 9"``."""
    out: list[str] = []
    values = sorted(set(plies))
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(str(values[i]) if i == j else f"{values[i]}–{values[j]}")
        i = j + 1
    return ", ".join(out)


def _slug(name: str) -> str:
    return re.sub(r"[^\w-]+", "_", name, flags=re.UNICODE).strip("_")[:40] or "player"


def new_path(white: str = "", black: str = "", *, when: datetime.datetime | None = None,
             folder: Path | None = None) -> Path:
    """A fresh journal path in ``journal_dir()``: ``20261129-143000-White-Black.jsonl``;
    when that name is taken ``…-2.jsonl``, ``…-3.jsonl`` and so on."""
    folder = Path(folder) if folder is not None else journal_dir()
    when = when or datetime.datetime.now()
    stem = f"{when:%Y%m%d-%H%M%S}-{_slug(white)}-{_slug(black)}"
    path = folder / f"{stem}{SUFFIX}"
    n = 2
    while os.path.lexists(path):
        path = folder / f"{stem}-{n}{SUFFIX}"
        n += 1
    return path


@dataclass
class JournalInfo:
    """A one-line description of a journal for lists.

    ``error`` names why a file named ``*.jsonl`` is no usable journal (``not-regular``,
    ``unreadable``, ``too-big``, ``bad-field``, ``no-start``); such an entry is never
    offered to reopen. ``affected`` lists the plies damaged lines may affect."""

    path: Path
    white: str
    black: str
    plies: int
    result: str | None
    finished: bool
    damaged: bool
    modified: float
    start_event: dict[str, Any] | None
    error: str | None = None
    checked: bool = False
    affected: list[int] = field(default_factory=list)


def _player_name(value: object) -> str | None:
    """A player's name from the set-up, or None when it is no text or longer than a name can be."""
    if isinstance(value, dict):
        name = value.get("name", "")
        return name if isinstance(name, str) and len(name) <= MAX_HEADER_CHARS else None
    return None


def describe(path: Path | str) -> JournalInfo:
    """Summarize one journal (players, moves made, result). Content of the wrong kind is
    reported in ``error``, never raised; OSError when the file cannot be read (a FIFO or
    a device: :class:`NotRegularFile`)."""
    path = Path(path)
    try:
        read = read_journal(path)
    except NotAJournal:     # refused from its first lines: no game in it
        return JournalInfo(path, "", "", 0, None, False, False, path.stat().st_mtime, None, "no-start")
    modified = path.stat().st_mtime
    start = next((e for e in read.events if e.get("type") == "session-start"), None)
    white = black = ""
    error: str | None = None
    if start is None:
        error = "no-start"
    else:
        names = _player_name(start.get("white")), _player_name(start.get("black"))
        if names[0] is None or names[1] is None:
            error, start = "bad-field", None
        else:
            white, black = names[0], names[1]
    result: str | None = None
    finished = False
    for e in read.events:
        if e.get("type") in END_TYPES:
            finished = True
            value = e.get("result")
            result = value if isinstance(value, str) else None
    return JournalInfo(path, white, black, len(read.recorded), result, finished, read.damaged, modified, start,
                       error, read.checked, read.affected_plies())


def _error_kind(exc: OSError) -> str:
    if isinstance(exc, NotRegularFile):
        return "not-regular"
    if exc.errno == errno.EFBIG:
        return "too-big"
    return "unreadable"


def _listed(path: Path) -> JournalInfo:
    """:func:`describe`, or the entry of a file that cannot be read (``error`` set), named on the logger."""
    try:
        info = describe(path)
    except OSError as exc:
        try:
            modified = path.lstat().st_mtime
        except OSError:
            modified = 0.0
        info = JournalInfo(path, "", "", 0, None, False, False, modified, None, _error_kind(exc))
    if info.error is not None:
        _log.warning("journal %s skipped: %s", path, info.error)
    return info


def _newest_first(folder: Path) -> list[Path]:
    """The files ``*.jsonl`` of ``folder``, the most recently written first."""
    def when(path: Path) -> tuple[float, str]:
        try:
            return path.stat().st_mtime, path.name
        except OSError:
            try:
                return path.lstat().st_mtime, path.name
            except OSError:
                return 0.0, path.name
    return sorted(folder.glob(f"*{SUFFIX}"), key=when, reverse=True)


def list_journals(folder: Path | None = None) -> list[JournalInfo]:
    """Every file ``*.jsonl`` in the folder, newest first. A file that cannot be read or holds
    no game is listed with ``error`` set (and ``start_event`` None) and named on the
    ``blindchess.storage.journal`` logger — never raised, never waited on. One file is read at a
    time, as a stream: what a file costs is the game it holds (:func:`read_journal`)."""
    folder = Path(folder) if folder is not None else journal_dir()
    if not folder.is_dir():
        return []
    out = [_listed(p) for p in folder.glob(f"*{SUFFIX}")]
    out.sort(key=lambda i: (i.modified, i.path.name), reverse=True)
    return out


def last_unfinished(folder: Path | None = None) -> Path | None:
    """The most recently written journal of a game that has not ended (the app reopens it);
    never a finished game, never a file that holds no game. The journals are read newest first,
    one at a time, until one is found."""
    folder = Path(folder) if folder is not None else journal_dir()
    if not folder.is_dir():
        return None
    for path in _newest_first(folder):
        info = _listed(path)
        if not info.finished and info.start_event is not None and info.error is None:
            return info.path
    return None


# -- the envelope of an adjourned game (Guidelines I.2-3) -------------------------------

#: The file beside a journal that keeps the sealed move as written until the envelope is opened.
ENVELOPE_SUFFIX = ".envelope.json"
#: Every envelope file has this size (its JSON padded with spaces): its size tells nothing of the move.
ENVELOPE_BYTES = 1024


def envelope_path(journal: Path | str) -> Path:
    """Where the sealed envelope of the game journaled at ``journal`` is kept."""
    path = Path(journal)
    return path.with_name(path.name + ENVELOPE_SUFFIX)


def write_envelope(journal: Path | str, data: dict[str, Any]) -> None:
    """Keep the sealed envelope (the move as written, never in the journal): written whole to a new
    file of :data:`ENVELOPE_BYTES` bytes, fsynced, renamed over the old one, the folder synced. Raises
    OSError when it cannot be kept."""
    target = envelope_path(journal)
    tmp = target.with_name(target.name + ".tmp")
    body = json.dumps(data, ensure_ascii=False, allow_nan=False).encode("utf-8")
    body += b" " * (ENVELOPE_BYTES - len(body))     # one size whatever it holds (the table bounds the move)
    fd = open_fd(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(body)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, target)
    _fsync_folder(target.parent)


def read_envelope(journal: Path | str) -> dict[str, Any] | None:
    """The sealed envelope kept beside ``journal``, or None when there is none or it cannot be read
    (a lost envelope, Guidelines I.12)."""
    path = envelope_path(journal)
    try:
        data = json.loads(_read_bounded(path).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None

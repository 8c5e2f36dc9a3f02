"""The crash-safe, self-checking game journal: every session event as one JSON line (issue 4 §5, issue 14 §7).

Line format
-----------
A journal is a UTF-8 text file of JSON objects, one per line, each line ended by
``\\n``. The first line is the ``session-start`` event (players, time control,
start position, language). Every event has ``seq`` (the session's event number),
``type`` and ``t`` (the session time in seconds); events the session derives
from others carry ``"derived": true`` and are not replayed (they are computed
again when the game is reopened, and compared with the recorded ones).

A journal written by this version adds three fields to every line, always last
and in this order::

    {"seq":7,"type":"board-move",...,"game_id":"5f0c…e1","line_no":7,"crc":"0b9e52a4"}

* ``game_id`` — 32 lowercase hex digits, chosen at random when the journal is
  created; the same on every line of one game.
* ``line_no`` — the line's number in the journal: 1, 2, 3 … with no gap. A line
  cut off by a crash keeps its number (the next line gets the one after it).
* ``crc`` — CRC-32 (the one of zlib, PNG and Ethernet) as 8 lowercase hex digits
  of the line's own bytes: the UTF-8 text of the line with ``,"crc":"…"``
  removed (that is, everything before ``,"crc"`` followed by ``}``).

Other tools read the lines as ordinary JSON; they may ignore the three fields.

Guarantees (what :func:`read_journal` detects)
-----------------------------------------------
In a journal with these fields ("checked"), every line is verified on its own:

* any change of bytes inside a line (one flipped byte is always caught, a longer
  damage with probability 1 − 2⁻³²) — reason ``corrupt``, or ``truncated`` when the
  line ends early (cut off by a crash);
* a deleted line (``line_no`` jumps without a damaged line in its place) — ``missing``;
* a duplicated line or a line moved backwards (``line_no`` not increasing) —
  ``duplicate`` / ``out-of-order``;
* a line pasted from another game (another ``game_id``) — ``foreign``.

A write cut off by a crash is no damage: every line is written (and fsynced)
before the app acts on it, so a fragment was never part of the game. The
file's last bytes without their newline, and a fragment that a writer ended on
reopening and named in a checked ``cut-off`` line right after it, stay in
:attr:`JournalRead.problems` as ``truncated`` (the user is told) and are also
listed in :attr:`JournalRead.notes`: they affect no half-move, and a game with
nothing else wrong is whole (:attr:`Verdict.whole`).
A damaged line in the middle of the file is never taken for one: it has its
newline and no checked line naming it.

Damaged lines are skipped; the lines after them are still read (a later event
that depended on a skipped one is then reported by the session as
``inapplicable``). Every problem is listed in :attr:`JournalRead.damage` with the
half-moves (plies) it may affect; :attr:`JournalRead.recorded` holds the game
as the journal's own ``move-made`` lines record it, and
:meth:`JournalRead.affected_plies` compares a replayed game with it, so a game
that comes out shorter or different than its journal is never taken as whole.
Not detectable: whole lines lost at the very end of the file (they look like
lines never written), and deliberate edits (the CRC is no signature).

Journals written before these fields existed still open: they are "unchecked"
(:attr:`JournalRead.checked` is False), read line by line as before, and new
lines appended to them stay in the old format.

Writing
-------
:class:`JournalWriter` appends a line with one ``write`` call, flushes and
``fsync`` s before the caller goes on, so a line the app has acted on survives a
crash; a new journal's folder is ``fsync`` ed too, so the file's name survives.
Only regular files are opened (a FIFO or a device named ``*.jsonl`` is refused
without blocking). Journals live in :func:`blindchess.paths.journal_dir`;
:func:`new_path` names a new one, :func:`list_journals` describes them all (a
malformed or unreadable file is named, never fatal) and :func:`last_unfinished`
finds the game the app should offer to reopen at start.
"""

from __future__ import annotations

import bisect
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from . import paths, system

__all__ = ["JournalWriter", "JournalRead", "JournalInfo", "Damage", "Verdict", "verdict", "NotRegularFile", "read_journal", "new_path",
           "list_journals", "describe", "last_unfinished", "format_plies", "END_TYPES", "SUFFIX",
           "RESERVED_FIELDS", "MAX_BYTES"]

SUFFIX = ".jsonl"
#: Event types after which a game is finished.
END_TYPES = ("game-end",)
#: The fields the writer adds to every line; an event must not carry them itself.
RESERVED_FIELDS = ("game_id", "line_no", "crc")
#: The type of the line a writer adds after ending a fragment cut off by a crash: ``"line"`` names
#: the fragment's line in the file (a derived line: nothing replays it).
CUT_OFF = "cut-off"
#: The largest journal read (a game of 500 moves with every touch is a few MB).
MAX_BYTES = 256 * 1024 * 1024

_log = logging.getLogger("blindchess.journal")
_CRC_TAIL = re.compile(rb',"crc":"([0-9a-f]{8})"\}\Z')
_GAME_ID = re.compile(r"[0-9a-f]{32}\Z")


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a folder … — not a regular file a journal can be."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EINVAL, "not a regular file", str(path))


def _open_regular(path: Path, flags: int) -> int:
    """Open ``path`` without blocking (a FIFO would) and return the descriptor of a regular file.

    Raises :class:`NotRegularFile` for anything else, OSError when it cannot be opened."""
    fd = system.open_fd(path, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(path)
        system.make_blocking(fd)
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
            chunk = os.read(fd, 1 << 20)
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
    """Make a new name in ``folder`` durable (see :func:`blindchess.system.sync_folder`)."""
    system.sync_folder(folder)


def _encode_checked(event: dict[str, Any], game_id: str, line_no: int) -> bytes:
    body = json.dumps({**event, "game_id": game_id, "line_no": line_no}, ensure_ascii=False,
                      separators=(",", ":"), allow_nan=False).encode("utf-8")
    crc = zlib.crc32(body)
    return body[:-1] + b',"crc":"%08x"}\n' % crc


class JournalWriter:
    """Appends events to a journal file; each append is flushed and fsynced (unless ``sync=False``).

    A new (or empty) file becomes a checked journal with a fresh ``game_id`` (or
    the one given); appending to an existing checked journal continues its
    ``game_id`` and ``line_no``; appending to an old unchecked journal keeps its
    old format. A line cut off by a crash is ended first, so the next event is
    never glued to it. Raises OSError (:class:`NotRegularFile` for a FIFO, a
    device …) when the file cannot be opened; ValueError for a ``game_id`` that
    is not 32 lowercase hex digits.
    """

    def __init__(self, path: Path | str, *, game_id: str | None = None) -> None:
        self.path = Path(path)
        if game_id is not None and not _GAME_ID.match(game_id):
            raise ValueError(f"game_id must be 32 lowercase hex digits: {game_id!r}")
        created_folders = [p for p in (self.path.parent, *self.path.parent.parents) if not p.exists()]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for folder in reversed(created_folders):
            _fsync_folder(folder.parent)
        existed = self.path.exists()
        self._fd = _open_regular(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        self._closed = False
        try:
            if not existed:
                _fsync_folder(self.path.parent)
            size = os.fstat(self._fd).st_size
            self.checked = True
            self.game_id = game_id or uuid.uuid4().hex
            self._next = 1
            needs_newline = False
            if size > 0:
                read = read_journal(self.path)
                if read.checked:
                    self.game_id = read.game_id or self.game_id
                else:
                    self.checked = not read.events and not read.problems   # only blank lines so far
                self._next = read.next_line_no
                needs_newline = not read.ends_with_newline
            if needs_newline:
                self._write(b"\n")
                if self.checked and read.notes:
                    # Name the fragment just ended: the reader then knows it was cut off by a crash
                    # before anything was acted on (a damaged line is never taken for one).
                    fragment = read.notes[-1][0]
                    self._write(_encode_checked({"seq": 0, "type": CUT_OFF, "t": 0.0, "derived": True,
                                                 "line": fragment}, self.game_id, self._next))
                    self._next += 1
                self.sync()
        except BaseException:
            os.close(self._fd)
            self._closed = True
            raise

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
        """Write one event as one line (one write call), then flush and fsync.

        Raises ValueError when the event carries a field of :data:`RESERVED_FIELDS`
        or a number that is not finite (nothing is written), OSError when the
        write fails (a partly written line is ended before the next one)."""
        clash = [k for k in RESERVED_FIELDS if k in event]
        if clash:
            raise ValueError(f"journal events must not carry {', '.join(clash)}")
        if self.checked:
            line = _encode_checked(event, self.game_id, self._next)
        else:
            line = (json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode()
        before = os.fstat(self._fd).st_size
        try:
            self._write(line)
        except OSError:
            if os.fstat(self._fd).st_size > before:   # a fragment stands in the file: it keeps its number
                self._next += 1
                self._write(b"\n")
            raise
        self._next += 1
        if sync:
            self.sync()

    def sync(self) -> None:
        """Hand the written lines to the disk (``fsync``)."""
        os.fsync(self._fd)

    def close(self) -> None:
        """Sync and close; closing twice does nothing."""
        if not self._closed:
            try:
                self.sync()
            finally:
                os.close(self._fd)
                self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed


@dataclass(frozen=True)
class Damage:
    """One problem of a journal and the half-moves it may affect.

    ``line`` is the line number in the file (for ``missing``: the first line after
    the gap; ``count`` lines are missing there). ``after_ply`` is the number of
    half-moves the journal had recorded before the problem; the half-moves
    ``after_ply + 1 … until_ply`` may be wrong or missing (none when
    ``until_ply == after_ply``: the problem lies between two half-moves, e.g. a
    clock press, a touch or the result). A problem after the last good line may have
    made the next half-move, so it affects ``after_ply + 1`` at least."""

    line: int
    reason: str
    after_ply: int
    until_ply: int
    count: int = 1

    @property
    def plies(self) -> list[int]:
        return list(range(self.after_ply + 1, self.until_ply + 1))


@dataclass
class JournalRead:
    """The events read from a journal, where they stand, and what was wrong.

    ``events``/``lines``: the good events in file order and the line number of
    each. ``problems``: (line number, reason) of every problem — reasons
    ``corrupt``, ``truncated``, ``missing``, ``duplicate``, ``out-of-order``,
    ``foreign``. ``damage``: the same with the plies affected. ``checked``: the
    journal carries ``game_id``/``line_no``/``crc`` (False: an old journal, read
    unchecked). ``recorded``: the game's moves (UCI) as the journal's
    ``move-made`` / ``move-withdrawn`` / ruling lines record them (None where a
    damaged line left a hole)."""

    path: Path
    events: list[dict[str, Any]]
    problems: list[tuple[int, str]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    damage: list[Damage] = field(default_factory=list)
    checked: bool = False
    game_id: str | None = None
    recorded: list[str | None] = field(default_factory=list)
    next_line_no: int = 1
    ends_with_newline: bool = True
    notes: list[tuple[int, str]] = field(default_factory=list)   # problems that lose nothing (a cut-off write)

    @property
    def damaged(self) -> bool:
        return bool(self.problems)

    def affected_plies(self, replayed: Sequence[str] | None = None) -> list[int]:
        """Half-moves (1-based) that may be wrong or missing: those of every :attr:`damage`,
        holes in :attr:`recorded`, and — given the game as replayed from the good lines
        (UCI) — every recorded half-move the replay does not reproduce (a shorter game
        included). A replay longer than the record is not counted (the derived lines of the
        last input may not have been written before a crash)."""
        out: set[int] = set()
        for d in self.damage:
            out.update(d.plies)
        for index, uci in enumerate(self.recorded):
            if uci is None or (replayed is not None and (index >= len(replayed) or replayed[index] != uci)):
                out.add(index + 1)
        return sorted(out)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _well_formed(event: object) -> bool:
    """The fields every event has, of the right kind: ``type`` text, ``seq`` a whole number
    (not ``true``), ``t`` a finite number of seconds (not NaN). A line failing this was
    damaged (or edited) — never replayed."""
    if not isinstance(event, dict):
        return False
    kind, seq, t = event.get("type"), event.get("seq", 0), event.get("t", 0.0)
    if not isinstance(kind, str) or not kind:
        return False
    if not _is_int(seq):
        return False
    return not isinstance(t, bool) and isinstance(t, (int, float)) and math.isfinite(t)


@dataclass
class _Line:
    number: int
    raw: bytes
    event: dict[str, Any] | None   # None: not an event
    reason: str = ""                # why not an event ("corrupt" | "truncated")
    crc_ok: bool = False            # the line carries game_id/line_no/crc and its CRC matches
    cut: bool = False               # the text ends inside the object (a write cut off)


def _parse(number: int, raw: bytes, last: bool) -> _Line:
    try:
        text = raw.decode("utf-8")
        event = json.loads(text)
    except UnicodeDecodeError:
        return _Line(number, raw, None, "corrupt")
    except json.JSONDecodeError as exc:
        # Cut off while writing: the text ends inside the object (only the last line, or a fragment a
        # writer ended after a crash).
        ends_early = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
        cut = ends_early and raw.lstrip().startswith(b"{")
        return _Line(number, raw, None, "truncated" if cut or last else "corrupt", cut=cut)
    if not _well_formed(event):
        return _Line(number, raw, None, "corrupt")
    tail = _CRC_TAIL.search(raw)
    crc_ok = tail is not None and zlib.crc32(raw[:tail.start()] + b"}") == int(tail.group(1), 16)
    if crc_ok and not (isinstance(event.get("game_id"), str) and _GAME_ID.match(event["game_id"])
                       and _is_int(event.get("line_no")) and event["line_no"] > 0):
        crc_ok = False
    if not crc_ok and any(k in event for k in RESERVED_FIELDS):
        return _Line(number, raw, None, "corrupt")   # a checked line whose check fails
    return _Line(number, raw, event, "", crc_ok)


class _Recorder:
    """The game as the journal's own lines record it (derived ``move-made`` etc.)."""

    def __init__(self) -> None:
        self.game: list[str | None] = []

    def feed(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "move-made":
            ply, uci = ev.get("ply"), ev.get("uci")
            if _is_int(ply) and 0 < ply <= 10000 and isinstance(uci, str):
                del self.game[ply:]
                self.game.extend([None] * (ply - len(self.game)))
                self.game[ply - 1] = uci
        elif kind == "move-withdrawn":
            ply = ev.get("ply")
            if _is_int(ply) and ply > 0:
                del self.game[ply - 1:]
        elif kind in ("ruling", "ruling-override", "pgn-import"):
            moves = ev.get("moves")
            if isinstance(moves, list) and all(isinstance(m, str) for m in moves):
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


def read_journal(path: Path | str) -> JournalRead:
    """Read every good line and report the others (see the module docstring for what is checked).

    Raises OSError if the file cannot be read, :class:`NotRegularFile` if it is no regular
    file (a FIFO is never waited on), OSError(EFBIG) above :data:`MAX_BYTES`."""
    path = Path(path)
    data = _read_bounded(path)
    raws = data.split(b"\n")
    last_index = len(raws) - 1
    parsed = [_parse(i + 1, raw, i == last_index) for i, raw in enumerate(raws) if raw.strip()]
    checked = any(p.crc_ok for p in parsed)
    game_id: str | None = None
    if checked:
        counts = Counter(p.event["game_id"] for p in parsed if p.crc_ok and p.event is not None)
        best = max(counts.values())
        starts = [p.event["game_id"] for p in parsed
                  if p.crc_ok and p.event is not None and p.event.get("type") == "session-start"]
        game_id = next((g for g in starts if counts[g] == best), None) or counts.most_common(1)[0][0]

    # The lines that stand in order: the longest run of increasing line numbers (a line copied or
    # moved forward must not make every line after it look out of order).
    own: list[tuple[int, int]] = [(i, int(p.event["line_no"])) for i, p in enumerate(parsed)
                                  if checked and p.crc_ok and p.event is not None and p.event["game_id"] == game_id]
    keep = _increasing([i for i, _ in own], [n for _, n in own])
    kept_raw = {int(p.event["line_no"]): p.raw for i, p in enumerate(parsed) if i in keep and p.event is not None}

    events: list[dict[str, Any]] = []
    numbers: list[int] = []
    notes: list[tuple[int, str]] = []
    # A write cut off by a crash: the file's last bytes without their newline, or a fragment followed
    # by the writer's own checked line naming it (see JournalWriter).
    ends_nl = data == b"" or data.endswith(b"\n")
    torn_tail = {len(parsed) - 1} if parsed and not ends_nl and parsed[-1].number == last_index + 1 else set()
    marked = {k for k, p in enumerate(parsed)
              if k > 0 and p.crc_ok and p.event is not None and p.event.get("type") == CUT_OFF
              and p.event.get("line") == parsed[k - 1].number and p.event.get("game_id") == game_id}
    found: list[tuple[int, str, int]] = []        # (line, reason, count) in file order
    order: list[dict[str, Any] | None] = []      # each good event, None for each problem, in file order
    last_no = 0
    slots = 0                                     # lines since the last good one that may have held a number
    max_no = max((n for _, n in own), default=0)
    for i, p in enumerate(parsed):
        reason = ""
        if p.event is None:
            reason = p.reason
        elif checked and not p.crc_ok:
            reason = "corrupt"
        elif checked and p.event["game_id"] != game_id:
            reason = "foreign"
        elif checked and i not in keep:     # its number is known and stands elsewhere: it fills no gap
            n = int(p.event["line_no"])
            found.append((p.number, "duplicate" if kept_raw.get(n) == p.raw else "out-of-order", 1))
            order.append(None)
            continue
        if reason and p.cut and (i in torn_tail or i + 1 in marked):
            # Cut off by a crash while being written (the last bytes of the file, or a fragment the
            # writer ended and named): reported, but never acted on, so no half-move is affected.
            notes.append((p.number, "truncated"))
        if reason:
            found.append((p.number, reason, 1))
            order.append(None)
            slots += 1
            continue
        assert p.event is not None
        if checked:
            n = int(p.event["line_no"])
            missing = n - last_no - 1 - slots
            if missing > 0:
                found.append((p.number, "missing", missing))
                order.append(None)
            last_no, slots = n, 0
        # (A complete line without its newline was cut just before "\n": it is kept.)
        events.append(p.event)
        numbers.append(p.number)
        order.append(p.event)

    # The plies each problem may affect: from the half-moves recorded before it up to those
    # recorded by the derived lines that follow it before the next input line.
    recorder = _Recorder()
    damage: list[Damage] = []
    pending: list[tuple[int, str, int, int]] = []   # problems waiting for the next input line
    problem_iter = iter(found)
    for ev in order:
        if ev is None:
            number, reason, count = next(problem_iter)
            pending.append((number, reason, count, len(recorder.game)))
            continue
        if pending and not ev.get("derived"):
            damage.extend(Damage(n, r, after, max(after, len(recorder.game)), c) for n, r, c, after in pending)
            pending = []
        recorder.feed(ev)
    # After the last good line nothing tells what a damaged line held: it may have made the next half-move.
    damage.extend(Damage(n, r, after, max(after + 1, len(recorder.game)), c) for n, r, c, after in pending)
    cut_off = {line for line, _ in notes}
    damage = [Damage(d.line, d.reason, d.after_ply, d.after_ply, d.count) if d.line in cut_off else d
              for d in damage]
    problems = [(d.line, d.reason) for d in damage]
    next_no = max(len(parsed), max_no) + 1
    return JournalRead(path, events, problems, numbers, damage, checked, game_id, recorder.game, next_no,
                       ends_nl, notes)


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
    return Verdict(problems, plies, len(read.recorded), len(replayed), read.checked, missing, list(read.notes))


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
    folder = Path(folder) if folder is not None else paths.journal_dir()
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
    if isinstance(value, dict):
        name = value.get("name", "")
        return name if isinstance(name, str) else None
    return None


def describe(path: Path | str) -> JournalInfo:
    """Summarize one journal (players, moves made, result). Content of the wrong kind is
    reported in ``error``, never raised; OSError when the file cannot be read (a FIFO or
    a device: :class:`NotRegularFile`)."""
    path = Path(path)
    read = read_journal(path)
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


def list_journals(folder: Path | None = None) -> list[JournalInfo]:
    """Every file ``*.jsonl`` in the folder, newest first. A file that cannot be read or holds
    no game is listed with ``error`` set (and ``start_event`` None) and named on the
    ``blindchess.journal`` logger — never raised, never waited on."""
    folder = Path(folder) if folder is not None else paths.journal_dir()
    if not folder.is_dir():
        return []
    out: list[JournalInfo] = []
    for p in folder.glob(f"*{SUFFIX}"):
        try:
            out.append(describe(p))
        except OSError as exc:
            try:
                modified = p.lstat().st_mtime
            except OSError:
                modified = 0.0
            out.append(JournalInfo(p, "", "", 0, None, False, False, modified, None, _error_kind(exc)))
        if out[-1].error is not None:
            _log.warning("journal %s skipped: %s", p, out[-1].error)
    out.sort(key=lambda i: (i.modified, i.path.name), reverse=True)
    return out


def last_unfinished(folder: Path | None = None) -> Path | None:
    """The most recently written journal of a game that has not ended (the app reopens it);
    never a finished game, never a file that holds no game."""
    for info in list_journals(folder):
        if not info.finished and info.start_event is not None and info.error is None:
            return info.path
    return None

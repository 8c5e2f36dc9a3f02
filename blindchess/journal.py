"""The crash-safe game journal: every session event as one JSON line (issue 4 §5).

A journal is a text file of JSON objects, one per line, UTF-8. The first line is
the ``session-start`` event (players, time control, start position, language).
Every line has ``seq`` (1, 2, ...), ``type`` and ``t`` (the session time in
seconds); events the session derives from others carry ``"derived": true`` and
are not replayed (they are computed again when the game is reopened).

:class:`JournalWriter` appends a line, flushes and ``fsync`` s before the caller
goes on, so a line the app has acted on survives a crash. :func:`read_journal`
reads a journal back; a truncated or corrupt line (the last one, after a crash)
is reported in :attr:`JournalRead.problems` and skipped, the rest is recovered.

Journals live in :func:`blindchess.paths.journal_dir`; :func:`new_path` names a
new one, :func:`list_journals` describes them all and :func:`last_unfinished`
finds the game the app should offer to reopen at start.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import paths

__all__ = ["JournalWriter", "JournalRead", "JournalInfo", "read_journal", "new_path", "list_journals",
           "last_unfinished", "END_TYPES", "SUFFIX"]

SUFFIX = ".jsonl"
#: Event types after which a game is finished.
END_TYPES = ("game-end",)


class JournalWriter:
    """Appends events to a journal file; each append is flushed and fsynced (unless ``sync=False``)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # A line cut off by a crash must not swallow the next one: end it first.
        needs_newline = False
        if self.path.exists() and self.path.stat().st_size > 0:
            with self.path.open("rb") as f:
                f.seek(-1, os.SEEK_END)
                needs_newline = f.read(1) != b"\n"
        self._file = self.path.open("a", encoding="utf-8", newline="\n")
        if needs_newline:
            self._file.write("\n")
            self.sync()

    def append(self, event: dict, *, sync: bool = True) -> None:
        """Write one event as one line (one write call), then flush and fsync."""
        self._file.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
        if sync:
            self.sync()

    def sync(self) -> None:
        """Flush Python's buffer and the operating system's to the disk."""
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
            self._file.close()

    @property
    def closed(self) -> bool:
        return self._file.closed


@dataclass
class JournalRead:
    """The events read from a journal and the lines that could not be read."""

    path: Path
    events: list[dict]
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line number, what is wrong)
    lines: list[int] = field(default_factory=list)  # the line number of each event

    @property
    def damaged(self) -> bool:
        return bool(self.problems)


def _well_formed(event: dict) -> bool:
    """The fields every event has, of the right kind: ``type`` text, ``seq`` a whole number,
    ``t`` a finite number of seconds. A line failing this was damaged (or edited) — never replayed."""
    kind, seq, t = event.get("type"), event.get("seq", 0), event.get("t", 0.0)
    if not isinstance(kind, str) or not kind:
        return False
    if isinstance(seq, bool) or not isinstance(seq, int):
        return False
    return not isinstance(t, bool) and isinstance(t, (int, float)) and math.isfinite(t)


def read_journal(path: Path | str) -> JournalRead:
    """Read every good line; report (line number, reason) for the others. Raises OSError if unreadable.

    A line is good when it is a JSON object whose ``type``, ``seq`` and ``t`` are of
    the right kind (see :func:`_well_formed`)."""
    path = Path(path)
    data = path.read_bytes()
    events: list[dict] = []
    problems: list[tuple[int, str]] = []
    numbers: list[int] = []
    lines = data.split(b"\n")
    last_index = len(lines) - 1
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        truncated = number - 1 == last_index  # no newline after it: cut off while writing
        try:
            event = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            problems.append((number, "truncated" if truncated else "corrupt"))
            continue
        if not isinstance(event, dict) or not _well_formed(event):
            problems.append((number, "corrupt"))
            continue
        # (A complete object without its newline was cut just before "\n": it is kept.)
        events.append(event)
        numbers.append(number)
    return JournalRead(path, events, problems, numbers)


def _slug(name: str) -> str:
    return re.sub(r"[^\w-]+", "_", name, flags=re.UNICODE).strip("_")[:40] or "player"


def new_path(white: str = "", black: str = "", *, when: datetime.datetime | None = None,
             folder: Path | None = None) -> Path:
    """A fresh journal path in ``journal_dir()``: ``20261129-143000-White-Black.jsonl``."""
    folder = Path(folder) if folder is not None else paths.journal_dir()
    when = when or datetime.datetime.now()
    stem = f"{when:%Y%m%d-%H%M%S}-{_slug(white)}-{_slug(black)}"
    path = folder / f"{stem}{SUFFIX}"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{SUFFIX}"
        n += 1
    return path


@dataclass
class JournalInfo:
    """A one-line description of a journal for lists."""

    path: Path
    white: str
    black: str
    plies: int
    result: str | None
    finished: bool
    damaged: bool
    modified: float
    start_event: dict | None


def describe(path: Path | str) -> JournalInfo:
    """Summarize one journal (players, moves made, result)."""
    path = Path(path)
    read = read_journal(path)
    start = next((e for e in read.events if e.get("type") == "session-start"), None)
    white = black = ""
    if start:
        white = (start.get("white") or {}).get("name", "")
        black = (start.get("black") or {}).get("name", "")
    plies = 0
    result = None
    finished = False
    for e in read.events:
        if e.get("type") == "move-made":
            plies = max(plies, int(e.get("ply", 0)))
        elif e.get("type") == "move-withdrawn":
            plies = int(e.get("ply", 1)) - 1
        elif e.get("type") in ("ruling", "ruling-override", "pgn-import"):
            plies = len(e.get("moves", []))
        elif e.get("type") in END_TYPES:
            finished = True
            result = e.get("result")
    return JournalInfo(path, white, black, plies, result, finished, read.damaged, path.stat().st_mtime, start)


def list_journals(folder: Path | None = None) -> list[JournalInfo]:
    """Every journal in the folder, newest first (unreadable files are skipped)."""
    folder = Path(folder) if folder is not None else paths.journal_dir()
    if not folder.is_dir():
        return []
    out = []
    for p in folder.glob(f"*{SUFFIX}"):
        try:
            out.append(describe(p))
        except OSError:
            continue
    out.sort(key=lambda i: (i.modified, i.path.name), reverse=True)
    return out


def last_unfinished(folder: Path | None = None) -> Path | None:
    """The most recently written journal of a game that has not ended (the app reopens it)."""
    for info in list_journals(folder):
        if not info.finished and info.start_event is not None:
            return info.path
    return None

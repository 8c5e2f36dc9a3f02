"""The journals a broadcast follows, looked at cheaply and read again only when they changed.

A source is a journal or a folder of journals (``*.jsonl``, not its sub-folders; files whose name
begins with a dot are a writer's temporary files and skipped). Each :meth:`Watcher.poll` lists the
folders and asks the system for each journal's identity, size and times (``stat``): a journal is
read again only when these changed — and once more when it has been quiet for :data:`SETTLE`
seconds, because a file system's times are coarse (a change within the same tick of its clock
that keeps the size would otherwise go unseen).

Games are numbered in the order their journals first hold a game (journals found together: in the
order of the sources, a folder's by name); a number never changes and never comes from a request.
A journal that disappears keeps its number and its last state. A journal whose bytes are what they
were at its last reading (a settling look, a time changed without a write) is not replayed again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..base import UserError
from ..storage import SUFFIX
from .reading import LiveGame, journal_bytes, read_game

__all__ = ["Watcher", "MAX_GAMES", "SETTLE"]

#: The most games one broadcast follows (a hall of a hundred boards and its rounds fit many times).
MAX_GAMES = 1000
#: Seconds a journal must have been left alone before a read of it counts as settled.
SETTLE = 1.0

_log = logging.getLogger("blindchess.broadcast")

Signature = tuple[int, int, int, int]


@dataclass
class _Entry:
    signature: Signature | None = None
    settled: bool = False
    game: LiveGame | None = None
    problem: str | None = None
    digest: bytes = b""


class Watcher:
    """The games of ``sources`` (journals and folders of journals), in number order.

    ``lang``: the language of the PGN comments and the arbiter's texts; ``workdir``: a private
    folder for the copies read; ``clock``: the wall clock (seconds since the epoch, as the file
    system's times are)."""

    def __init__(self, sources: Sequence[Path], lang: str, workdir: Path, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.sources = [Path(p) for p in sources]
        self.lang = lang
        self.workdir = workdir
        self._clock = clock
        self._entries: dict[Path, _Entry] = {}
        self._numbered: list[Path] = []
        self._warned_full = False

    def set_sources(self, sources: Sequence[Path]) -> None:
        """Follow ``sources`` from the next poll on (games already numbered keep their numbers)."""
        self.sources = [Path(p) for p in sources]

    @property
    def games(self) -> list[tuple[int, LiveGame]]:
        """(number, game) of every game numbered so far, in number order."""
        out: list[tuple[int, LiveGame]] = []
        for number, path in enumerate(self._numbered, start=1):
            game = self._entries[path].game
            if game is not None:
                out.append((number, game))
        return out

    @property
    def problems(self) -> list[tuple[str, str]]:
        """(file name, why) of the journals found that hold no game (yet)."""
        return [(path.name, entry.problem) for path, entry in self._entries.items()
                if entry.game is None and entry.problem is not None]

    def found(self) -> list[Path]:
        """The journals of the sources as they are now: given files as given, folders' journals by name."""
        out: list[Path] = []
        seen: set[Path] = set()
        for source in self.sources:
            if source.is_dir():
                try:
                    with os.scandir(source) as entries:
                        names = sorted(e.name for e in entries if e.name.endswith(SUFFIX)
                                       and not e.name.startswith(".") and e.is_file())
                except OSError:
                    continue
                paths = [source / name for name in names]
            else:
                paths = [source]
            for path in paths:
                if path not in seen:
                    seen.add(path)
                    out.append(path)
        return out

    def poll(self) -> bool:
        """Look at every journal once and read those that changed; True when a game changed."""
        changed = False
        for path in self.found():
            entry = self._entries.get(path)
            if entry is None:
                if len(self._entries) >= MAX_GAMES * 2:
                    self._full()
                    continue
                entry = self._entries[path] = _Entry()
            try:
                st = os.stat(path)
            except OSError:
                continue        # gone for now: its last state stays
            signature = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            now = self._clock()
            quiet = now - st.st_mtime_ns / 1e9 >= SETTLE
            if signature == entry.signature and (entry.settled or not quiet):
                continue
            entry.signature, entry.settled = signature, quiet
            changed |= self._read(path, entry)
        return changed

    def _read(self, path: Path, entry: _Entry) -> bool:
        try:
            data = journal_bytes(path, self.lang)
            digest = hashlib.blake2b(data, digest_size=16).digest()
            if digest == entry.digest:
                return False
            entry.digest = digest
            game = read_game(path, self.lang, self.workdir, data)
        except UserError as exc:
            entry.problem = exc.message.replace(str(path), path.name)
            return False
        except OSError as exc:
            entry.problem = f"{path.name}: {exc.strerror or exc}"
            return False
        entry.problem = None
        old = entry.game
        if path not in self._numbered:
            if len(self._numbered) >= MAX_GAMES:
                self._full()
                return False
            self._numbered.append(path)
        entry.game = game
        return old is None or (old.pgn, old.state, old.moves) != (game.pgn, game.state, game.moves)

    def _full(self) -> None:
        if not self._warned_full:
            self._warned_full = True
            _log.warning("broadcast: more than %d journals; the others are left out", MAX_GAMES)

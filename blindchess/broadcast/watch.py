"""The journals a broadcast follows, looked at cheaply and read as far as they grew.

A source is a journal or a folder of journals (``*.jsonl``, not its sub-folders; files whose name
begins with a dot are a writer's temporary files and skipped). Each :meth:`Watcher.poll` lists the
folders and asks the system for each journal's identity, size and times (``stat``): a journal is
looked at only when these changed — its new units taken (:class:`~.reading.GameFollower`) — and once
more when it has been quiet for :data:`SETTLE` seconds, because a file system's times are coarse (a
change within the same tick of its clock that keeps the size would otherwise go unseen) and a unit
still not whole then was cut off by a crash.

Games are numbered in the order their journals first hold a game (journals found together: in the
order of the sources, a folder's by name); a number never changes and never comes from a request.
A journal that disappears keeps its number and its last state.

With a delay (``delay`` seconds, FIDE's anti-cheating measure for a public broadcast) each journal has a
second follower that reads it only as far as it was written ``delay`` seconds ago: :attr:`Watcher.public`
holds those games — the whole game as it stood then, its clocks, its result —, :attr:`Watcher.games` the
games as they are (the arbiter's). Without a delay both are the same.

The journals are read in the order they changed the longest time ago first, at most :data:`BUDGET`
seconds of reading in one poll — so at the start the first games are served while the others are still
being read, and one long game read whole never holds the others back for long.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..storage import SUFFIX
from .reading import GameFollower, LiveGame

__all__ = ["Watcher", "MAX_GAMES", "SETTLE", "BUDGET"]

#: The most games one broadcast follows (a hall of a hundred boards and its rounds fit many times).
MAX_GAMES = 1000
#: Seconds a journal must have been left alone before a look at it counts as settled.
SETTLE = 1.0
#: Seconds of reading in one poll before the others wait for the next one.
BUDGET = 0.25

_log = logging.getLogger("blindchess.broadcast")

Signature = tuple[int, int, int, int]


@dataclass
class _Entry:
    follower: GameFollower
    public: GameFollower | None
    signature: Signature | None = None
    settled: bool = field(init=False)    # quiet at its last look (both set at the first look at the file)
    waiting: bool = field(init=False)    # changed since its last look
    upto: int | None = None              # how far the public follower has read
    changed: float = 0.0                 # when the journal last changed (seconds since 1970)


class Watcher:
    """The games of ``sources`` (journals and folders of journals), in number order.

    ``lang``: the language of the PGN comments and the arbiter's texts; ``workdir``: a private folder for
    the copies read; ``delay``: seconds the public games are held back; ``clock``: the wall clock (seconds
    since the epoch, as the file system's times are); ``budget``: seconds of reading in one poll, measured on
    ``timer``."""

    def __init__(self, sources: Sequence[Path], lang: str, workdir: Path, *, delay: float = 0.0,
                 clock: Callable[[], float] = time.time, budget: float = BUDGET,
                 timer: Callable[[], float] = time.monotonic) -> None:
        self.sources = [Path(p) for p in sources]
        self.lang = lang
        self.workdir = workdir
        self.delay = max(0.0, float(delay))
        self.budget = budget
        self._clock = clock
        self._timer = timer
        self._entries: dict[Path, _Entry] = {}
        self._numbered: list[Path] = []
        self._warned_full = False
        #: Whether journals found are still waiting to be read (the start is not over yet).
        self.behind = False

    def set_sources(self, sources: Sequence[Path]) -> None:
        """Follow ``sources`` from the next poll on (games already numbered keep their numbers)."""
        self.sources = [Path(p) for p in sources]

    @property
    def games(self) -> list[tuple[int, LiveGame]]:
        """(number, game) of every game numbered so far as it stands, in number order."""
        out: list[tuple[int, LiveGame]] = []
        for number, path in enumerate(self._numbered, start=1):
            game = self._entries[path].follower.game
            if game is not None:
                out.append((number, game))
        return out

    @property
    def public(self) -> list[tuple[int, LiveGame]]:
        """(number, game) as the public sees them: each game as it stood :attr:`delay` seconds ago (a game
        begun since is not there yet); ``changed`` is when its journal last changed."""
        if not self.delay:
            return self.games
        out: list[tuple[int, LiveGame]] = []
        for number, path in enumerate(self._numbered, start=1):
            entry = self._entries[path]
            game = entry.public.game if entry.public is not None else None
            live = entry.follower.game
            if game is not None and live is not None:
                out.append((number, dataclasses.replace(game, changed=live.changed)))
        return out

    @property
    def problems(self) -> list[tuple[str, str]]:
        """(file name, why) of the journals found that hold no game (yet)."""
        return [(path.name, entry.follower.problem) for path, entry in self._entries.items()
                if entry.follower.game is None and entry.follower.problem is not None]

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
        """Look at every journal once and read those that changed (for at most :attr:`budget` seconds, the
        longest waiting first); True when a game changed, for the arbiter or the public."""
        changed = False
        now = self._clock()
        due: list[tuple[float, int, Path, _Entry, bool]] = []
        for order, path in enumerate(self.found()):
            entry = self._entries.get(path)
            if entry is None:
                if len(self._entries) >= MAX_GAMES * 2:
                    self._full()
                    continue
                entry = self._entries[path] = _Entry(
                    GameFollower(path, self.lang, self.workdir, clock=self._clock),
                    GameFollower(path, self.lang, self.workdir, clock=self._clock) if self.delay else None)
            try:
                st = os.stat(path)
            except OSError:
                continue        # gone for now: its last state stays
            signature = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            quiet = now - st.st_mtime_ns / 1e9 >= SETTLE
            if signature != entry.signature or (quiet and not entry.settled):
                if signature != entry.signature:
                    entry.changed = st.st_mtime
                entry.signature, entry.settled, entry.waiting = signature, quiet, True
            if entry.waiting:
                due.append((0.0 if entry.follower.game is None else entry.changed,     # a journal not read yet first
                            order, path, entry, quiet))
        due.sort(key=lambda d: (d[0], d[1]))
        started = self._timer()
        self.behind = False
        for _, _, path, entry, settled in due:
            if self._timer() - started > self.budget and self._numbered:
                self.behind = True
                break
            entry.waiting = False
            changed |= self._look(path, entry, settled)
        if self.delay:
            for path, entry in self._entries.items():
                changed |= self._hold_back(path, entry, now)
        return changed

    def _look(self, path: Path, entry: _Entry, settled: bool) -> bool:
        follower = entry.follower
        changed = follower.look(settled=settled)
        if follower.game is None or path in self._numbered:
            return changed
        if len(self._numbered) >= MAX_GAMES:
            self._full()
            return False
        self._numbered.append(path)
        return True

    def _hold_back(self, path: Path, entry: _Entry, now: float) -> bool:
        """The public follower read as far as the journal was written :attr:`delay` seconds ago."""
        assert entry.public is not None         # with a delay every journal has its public follower
        if entry.follower.game is None:
            return False
        upto = entry.follower.offset_at(now - self.delay)
        if upto == entry.upto:
            return False
        entry.upto = upto
        before = entry.public.game
        entry.public.look(upto, settled=True)
        return entry.public.game is not before

    def _full(self) -> None:
        if not self._warned_full:
            self._warned_full = True
            _log.warning("broadcast: more than %d journals; the others are left out", MAX_GAMES)

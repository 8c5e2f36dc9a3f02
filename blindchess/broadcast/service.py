"""A live broadcast: the journals followed, the answers made once per change, served and written.

:class:`Broadcast` ties the parts together: a :class:`~blindchess.broadcast.watch.Watcher` looks at
the journals every :data:`POLL` seconds (so a move is served well within a second of being
journaled), the pages are made again when a game changed
(:func:`~blindchess.broadcast.pages.build_pages`) and swapped in whole — a request sees the old
answers or the new ones, never a mixture —, the PGN files go to ``--folder`` when one is given, and
the HTTP server (:class:`~blindchess.broadcast.server.BroadcastServer`) answers from them.
:class:`WindowBroadcast` is the same for the one game the window plays.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..base import UserError, tr
from .folder import FolderWriter
from .pages import Page, build_pages
from .server import MAX_CONNECTIONS, BroadcastServer
from .watch import Watcher

__all__ = ["Broadcast", "WindowBroadcast", "POLL", "DEFAULT_PORT", "DEFAULT_HOST"]

#: Seconds between two looks at the journals.
POLL = 0.2
DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"

_log = logging.getLogger("blindchess.broadcast")


class Broadcast:
    """The games of ``sources`` served on ``host``:``port`` (port 0: any free one) and, with ``folder``, written
    there; every text in ``lang``. ``on_problem`` hears what goes wrong while it runs (a folder that can no
    longer be written), once until it works again."""

    def __init__(self, sources: Sequence[Path], *, lang: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 folder: Path | None = None, poll: float = POLL, max_connections: int = MAX_CONNECTIONS,
                 on_problem: Callable[[str], None] | None = None) -> None:
        self.lang = lang
        self.host = host
        self.poll = poll
        self._sources = [Path(p) for p in sources]
        self._port = port
        self._max_connections = max_connections
        self._folder = FolderWriter(folder, lang) if folder is not None else None
        self._on_problem = on_problem or (lambda text: _log.warning("%s", text))
        self._pages: dict[str, Page] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._server: BroadcastServer | None = None
        self._workdir: Path | None = None
        self._watcher: Watcher | None = None
        self._failing = False
        self.changes = 0   # how many times the answers were made again (for tests and the benchmark)

    # -- running ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Listen, read the journals once, write the folder, then keep following them in the background.

        Raises :class:`~blindchess.base.errors.UserError` when the port cannot be listened on or the folder
        cannot be written; nothing keeps running then."""
        self._server = BroadcastServer(self.host, self._port, self.page, self.lang,
                                       max_connections=self._max_connections)
        try:
            self._workdir = Path(tempfile.mkdtemp(prefix="blindchess-broadcast-"))
            self._watcher = Watcher(self._sources, self.lang, self._workdir)
            self.refresh(force=True, strict=True)
        except BaseException:
            self._close()
            raise
        for target, name in ((self._server.serve_forever, "broadcast-http"), (self._follow, "broadcast-poll")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    @property
    def port(self) -> int:
        """The port listened on (the one chosen when 0 was asked for)."""
        return self._server.port if self._server is not None else self._port

    @property
    def url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"http://{host}:{self.port}/"

    def stop(self) -> None:
        """Stop serving and following; the files written stay."""
        self._stop.set()
        if self._server is not None:
            self._server.shutdown()
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads.clear()
        self._close()

    def _close(self) -> None:
        if self._server is not None:
            self._server.server_close()
            self._server = None
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None

    def wait(self) -> None:
        """Block until :meth:`stop` (Ctrl-C reaches the caller: it waits in short steps)."""
        while not self._stop.wait(0.5):
            pass

    def _follow(self) -> None:
        """A look every :attr:`poll` seconds from one start to the next (at once again when a look took longer)."""
        due = time.monotonic()
        while True:
            due = max(due + self.poll, time.monotonic())
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return
            try:
                self.refresh()
            except Exception:  # noqa: BLE001 - the broadcast goes on; the fault is logged with its traceback
                _log.exception("broadcast: reading the journals failed")

    # -- the answers ------------------------------------------------------------------------------
    def page(self, path: str) -> Page | None:
        """The answer for ``path`` as it stands (None: no such address)."""
        return self._pages.get(path)

    def follow_only(self, sources: Sequence[Path]) -> None:
        """Follow ``sources`` instead, numbered afresh (the window's next game)."""
        with self._lock:
            self._sources = [Path(p) for p in sources]
            if self._workdir is not None:
                self._watcher = Watcher(self._sources, self.lang, self._workdir)
        self.refresh(force=True)

    def refresh(self, *, force: bool = False, strict: bool = False) -> bool:
        """Look at the journals once; make the answers again when a game changed (or ``force``), and write
        the folder. True when the answers changed. ``strict``: a folder that cannot be written raises
        UserError (at the start) instead of being reported to ``on_problem``."""
        with self._lock:
            watcher = self._watcher
            if watcher is None:
                return False
            changed = watcher.poll()
            if not (changed or force):
                return False
            pages = build_pages(watcher.games, watcher.problems, self.lang, time.strftime("%H:%M:%S"))
            self._pages = pages
            self.changes += 1
            if self._folder is not None:
                try:
                    self._folder.write(pages)
                    self._failing = False
                except UserError as exc:
                    if strict:
                        raise
                    if not self._failing:
                        self._failing = True
                        self._on_problem(exc.message)
            return True


class WindowBroadcast:
    """The window's broadcast of the game it plays: on 127.0.0.1:``port``; :meth:`follow` the game's journal."""

    def __init__(self, port: int, lang: str) -> None:
        self.port = port
        self.lang = lang
        self._broadcast: Broadcast | None = None
        self._journal: Path | None = None

    @property
    def url(self) -> str | None:
        return self._broadcast.url if self._broadcast is not None else None

    def follow(self, journal: Path | None) -> str | None:
        """Broadcast the game of ``journal`` (None: stop). Returns what the window should tell: the address
        when the broadcast starts, why it cannot (the port taken), or None when nothing changed."""
        if journal is None:
            self.close()
            return None
        journal = Path(journal)
        if self._broadcast is None:
            broadcast = Broadcast([journal], lang=self.lang, port=self.port)
            try:
                broadcast.start()
            except UserError as exc:
                return exc.message
            self._broadcast, self._journal = broadcast, journal
            return tr("broadcast.window_started", self.lang, url=broadcast.url)
        if journal != self._journal:
            self._journal = journal
            self._broadcast.follow_only([journal])
        return None

    def close(self) -> None:
        if self._broadcast is not None:
            self._broadcast.stop()
            self._broadcast = None
            self._journal = None

"""A live broadcast: the journals followed, the state handed to the server at each change, served and written.

:class:`Broadcast` ties the parts together: the HTTP server (:class:`~.server.HttpServer`, its answers from
:class:`~.hall.Hall`) listens first, so the broadcast serves at once; a :class:`~.watch.Watcher` looks at
the journals every :data:`POLL` seconds in a thread of its own (so a move is served well within a second
of being journaled; at the start the games fill in as they are read) and, when a game changed — or a
game's status changed with the time: a table gone silent —, the new state is handed to the server's loop
whole: a request sees the old answers or the new ones, never a mixture. The public PGN files go to
``--folder`` when one is given, and to a Lichess broadcast round with ``--lichess-round``
(:mod:`.lichess`). :class:`WindowBroadcast` is the same for the one game the window plays.

The arbiter's pages are the arbiter's: a broadcast that listens beyond this computer (``--host`` other
than a loopback address) locks them with a token — the one given, else one made at the start — that the
address printed at the start carries (:attr:`Broadcast.arbiter_url`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base import UserError, tr
from .answers import Config, State
from .cards import DEFAULT_STALE_AFTER, status_of
from .folder import FolderWriter
from .lichess import LichessTarget
from .pages import collection, error_page, round_folder
from .reading import LiveGame
from .watch import Watcher

if TYPE_CHECKING:
    from .hall import Hall
    from .lichess import LichessPush
    from .server import HttpServer

__all__ = ["Broadcast", "WindowBroadcast", "POLL", "DEFAULT_PORT", "DEFAULT_HOST", "is_loopback"]

#: Seconds between two looks at the journals.
POLL = 0.2
DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"

_log = logging.getLogger("blindchess.broadcast")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this computer only (127.0.0.0/8, ::1, "localhost")."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Broadcast:
    """The games of ``sources`` served on ``host``:``port`` (port 0: any free one) and, with ``folder``, written
    there; every text in ``lang``. ``delay``: seconds the public answers are held back; ``stale_after``: seconds
    without a change after which a running game is stale; ``arbiter_token``: the token of the arbiter's pages
    (None: one is made when listening beyond this computer); ``lichess``: a Lichess broadcast round to push
    to. ``on_problem`` hears what goes wrong while it runs (a folder that can no longer be written, a push to
    Lichess refused), once until it changes. ``clock``: the wall clock; ``timer``: the stopwatch each look's
    reading budget is measured on (:class:`~.watch.Watcher`)."""

    def __init__(self, sources: Sequence[Path], *, lang: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 folder: Path | None = None, poll: float = POLL, max_connections: int | None = None,
                 per_client: int | None = None, head_timeout: float | None = None, delay: float = 0.0,
                 stale_after: float = DEFAULT_STALE_AFTER, arbiter_token: str | None = None,
                 lichess: LichessTarget | None = None, on_problem: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.time, timer: Callable[[], float] = time.monotonic) -> None:
        self.lang = lang
        self.host = host
        self.poll = poll
        self.delay = max(0.0, float(delay))
        self.stale_after = stale_after
        self.token = arbiter_token or (None if is_loopback(host) else secrets.token_urlsafe(18))
        self._sources = [Path(p) for p in sources]
        self._port = port
        self._limits: dict[str, Any] = {key: value for key, value in (
            ("max_connections", max_connections), ("per_client", per_client), ("head_timeout", head_timeout))
            if value is not None}
        self._folder = FolderWriter(folder, lang) if folder is not None else None
        self._on_problem = on_problem or (lambda text: _log.warning("%s", text))
        self._clock = clock
        self._timer = timer
        self._lichess_target = lichess
        self._lichess: LichessPush | None = None
        self._lichess_task: asyncio.Task[None] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._server: HttpServer | None = None
        self.config = Config(lang, stale_after, self.delay)
        self.hall: Hall | None = None
        self._workdir: Path | None = None
        self._watcher: Watcher | None = None
        self._failing = False
        #: What the last state handed on showed besides the games: each game's status, the files that hold no game.
        self._statuses: tuple[tuple[tuple[int, str], ...], tuple[tuple[str, str], ...]] = ((), ())
        self._read = threading.Event()
        self.changes = 0   # how many states were handed to the server (for tests and the benchmark)

    # -- running ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Listen and serve at once; the journals are read in the background from now on (the games fill in as
        they are read: :meth:`ready`).

        Raises :class:`~blindchess.base.errors.UserError` when the port cannot be listened on or the folder
        cannot be written; nothing keeps running then."""
        # The server and the push are aiohttp's: imported when a broadcast starts, not with the command line.
        from .hall import Hall
        from .lichess import LichessPush
        from .server import HttpServer

        self.hall = Hall(self.config, token=self.token)
        self._server = HttpServer(self.host, self._port, self.hall.handle, lambda code: error_page(code, self.lang),
                                  self.lang, **self._limits)
        try:
            if self._folder is not None:
                self._folder.check()
            self._workdir = Path(tempfile.mkdtemp(prefix="blindchess-broadcast-"))
            self._watcher = Watcher(self._sources, self.lang, self._workdir, delay=self.delay, clock=self._clock,
                                    timer=self._timer)
            self._server.start()
            if self._lichess_target is not None:
                self._lichess = LichessPush(self._lichess_target, self.lang, self._told)
                self._server.call(self._start_lichess)
        except BaseException:
            self._close()
            raise
        thread = threading.Thread(target=self._follow, name="broadcast-poll", daemon=True)
        thread.start()
        self._threads.append(thread)

    def ready(self, timeout: float = 60.0) -> bool:
        """Wait until every journal found has been read once and its games are served (False: not within
        ``timeout`` seconds)."""
        return self._read.wait(timeout)

    def _start_lichess(self) -> None:
        assert self._lichess is not None
        assert self._server is not None
        self._lichess_task = self._server.loop.create_task(self._lichess.run())

    def _told(self, notices: tuple[str, ...]) -> None:
        """What the push to Lichess has to tell: on the arbiter's page (this runs in the server's loop) and
        to ``on_problem``."""
        if self.hall is not None:
            self.hall.notice(notices)
        for text in notices:
            self._on_problem(text)

    @property
    def port(self) -> int:
        """The port listened on (the one chosen when 0 was asked for)."""
        return self._server.port if self._server is not None else self._port

    @property
    def url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"http://{host}:{self.port}/"

    @property
    def arbiter_url(self) -> str:
        """The arbiter's page, with its token when it has one."""
        return self.url + "arbiter" + (f"?token={self.token}" if self.token else "")

    @property
    def lichess(self) -> LichessPush | None:
        return self._lichess

    @property
    def connections(self) -> int:
        return self._server.connections if self._server is not None else 0

    def stop(self) -> None:
        """Stop serving and following; the files written stay."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=10.0)
        self._threads.clear()
        self._close()

    def _close(self) -> None:
        if self._server is not None:
            if self._lichess_task is not None:
                task = self._lichess_task
                self._server.call(task.cancel)
            self._server.stop()
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
        due = time.monotonic() - self.poll
        first = True
        while True:
            due = max(due + self.poll, time.monotonic())
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return
            try:
                self.refresh(force=first)
                first = False
            except Exception:  # noqa: BLE001 - the broadcast goes on; the fault is logged with its traceback
                _log.exception("broadcast: reading the journals failed")

    # -- the state ------------------------------------------------------------------------------------
    def follow_only(self, sources: Sequence[Path]) -> None:
        """Follow ``sources`` instead, numbered afresh (the window's next game)."""
        with self._lock:
            self._sources = [Path(p) for p in sources]
            if self._workdir is not None:
                self._watcher = Watcher(self._sources, self.lang, self._workdir, delay=self.delay, clock=self._clock,
                                    timer=self._timer)
        self.refresh()          # the new sources' games (or files that hold none): a new state whenever it differs

    @property
    def behind(self) -> bool:
        """Journals found are still waiting to be read (the start is not over)."""
        return self._watcher is not None and self._watcher.behind

    def refresh(self, *, force: bool = False) -> bool:
        """Look at the journals once; hand the new state to the server when a game or a game's status changed, or the
        files that hold no game (or ``force``), and write the folder (one that cannot be written is reported to ``on_problem``, once until it
        can be again). True when the state changed."""
        with self._lock:
            watcher = self._watcher
            server = self._server
            hall = self.hall
            if watcher is None or server is None or hall is None:
                return False
            changed = watcher.poll()
            now = self._clock()
            games, public = watcher.games, watcher.public
            statuses = (tuple((n, status_of(g, now, self.stale_after)) for n, g in games) +
                        tuple((-n, status_of(g, now, self.stale_after)) for n, g in public), tuple(watcher.problems))
            if not (changed or force or statuses != self._statuses):
                if not watcher.behind:
                    server.call(self._read.set)      # the start is over (its last journals brought nothing new)
                return False
            self._statuses = statuses
            state = State(tuple(games), tuple(public), statuses[1], (), now)
            server.call(hall.publish, state)
            self.changes += 1
            if self._lichess is not None:
                pushed = [(n, f"{g.headers.get('White', '?')} – {g.headers.get('Black', '?')}", g.pgn) for n, g in public]
                server.call(self._lichess.update, pushed)
            if self._folder is not None:
                self._write(public)
            if not watcher.behind:
                server.call(self._read.set)      # after the state: the games read are served
            return True

    def _write(self, public: list[tuple[int, LiveGame]]) -> None:
        assert self._folder is not None
        files = {"/games.pgn": collection(public)}
        rounds: dict[str, list[tuple[int, LiveGame]]] = {}
        for number, game in public:
            folder = round_folder(game)
            if folder is not None:
                rounds.setdefault(folder, []).append((number, game))
        for folder, members in rounds.items():
            files[f"/{folder}/games.pgn"] = collection(members)
        try:
            self._folder.write(files)
            self._failing = False
        except UserError as exc:
            if not self._failing:
                self._failing = True
                self._on_problem(exc.message)


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

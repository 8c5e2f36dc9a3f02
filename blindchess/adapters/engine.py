"""The computer as the sighted side: a UCI engine in its own process (adapter).

python-chess's :mod:`chess.engine` drives the engine (Stockfish from
Debian/Ubuntu, or any UCI engine by path). Nothing here decides anything about
the game: the table says when the computer is to move, this module only asks
the engine for a move and turns every way an engine can fail into one
:class:`EngineError` with one sentence in the player's language, told by what
happened — never a file path, never an exception's name:

* ``missing`` — no engine found;
* ``cannot_start`` — the program cannot be started (not executable, not a program);
* ``not_uci`` — it runs but does not answer as a UCI engine (no ``uciok``, it ends at
  once, or it floods its output with what is no UCI);
* ``hung`` — no answer: silent for :attr:`Engine.SILENT` seconds after the time its
  search may take (:attr:`Engine.MIN_WAIT`, or its node limit at :attr:`Engine.MIN_NPS`),
  or no move after :attr:`Engine.TALK_FACTOR` times that time (at least :attr:`Engine.MAX_WAIT`)
  however much it talks;
* ``crashed`` — the process ended during the game;
* ``illegal_move`` — it answered with a move that is not legal in the position;
* ``no_move`` — it answered without a move although there is one.

The engine's output is read bounded: a line longer than :data:`MAX_LINE` and
anything that is no UCI (binary bytes, text of another protocol) is dropped
without being kept or copied anywhere — 200 MB without a newline hold at most
:data:`MAX_LINE` bytes —, and more than :data:`MAX_JUNK` bytes of it end the
process (``not_uci``). The engine's stderr is not read at all.

Levels are what a player would choose, from beginner to strong. Stockfish's
"Skill Level" (0–20) with a node limit makes it weak enough for a beginner;
``UCI_LimitStrength``/``UCI_Elo`` are used where the engine offers them (and
the level names an Elo); engines that offer neither only get the node limit.

Contract::

    find_engine(path=None) -> str | None      # the engine's path, or None
    Engine.start(path, level, lang) -> Engine  # raises EngineError (missing, cannot start, not UCI)
    engine.choose(board) -> chess.Move         # raises EngineError (crashed, hung, illegal move, no move)
    engine.close()                              # idempotent, never raises
    EngineChooser(path, level, lang)           # the table's MoveChooser: starts the engine when first
    chooser.choose(board) -> chess.Move        #   asked (so a missing engine is told in the game), then
    chooser.close()                            #   as Engine; close() ends the process

Every EngineError message is one sentence (no line breaks): what the player hears.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

from ..base import UserError, tr

__all__ = ["LEVELS", "Engine", "EngineChooser", "EngineError", "Level", "find_engine", "level", "MAX_LINE",
           "MAX_JUNK"]

#: Where Debian/Ubuntu put Stockfish (``/usr/games`` is not always on PATH).
_KNOWN_PATHS = ("/usr/games/stockfish", "/usr/local/bin/stockfish", "/opt/homebrew/bin/stockfish")
#: The longest line of engine output read (an ``info`` line with a long principal variation is a few kB).
MAX_LINE = 64 * 1024
#: Bytes of output that is no UCI after which the engine is ended (``not_uci``).
MAX_JUNK = 1024 * 1024
#: The first words of every line a UCI engine sends (the UCI protocol's engine-to-GUI commands).
_UCI_WORDS = frozenset({"id", "uciok", "readyok", "bestmove", "copyprotection", "registration", "info", "option"})


@dataclass(frozen=True)
class Level:
    """One playing strength: ``number`` 1 (beginner) … 6 (strong)."""

    number: int
    name: str            # key in the engine locale: engine.level_<name>
    skill: int           # Stockfish "Skill Level" 0..20
    nodes: int           # search limit per move
    elo: int | None = None   # UCI_Elo where the engine supports it


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", skill=0, nodes=200),
    Level(2, "novice", skill=3, nodes=1_000),
    Level(3, "casual", skill=6, nodes=5_000),
    Level(4, "club", skill=10, nodes=20_000, elo=1600),
    Level(5, "expert", skill=15, nodes=100_000, elo=2000),
    Level(6, "strong", skill=20, nodes=400_000),
)


def level(value: int | str | None) -> Level:
    """The level ``value`` (1–6 or a name); None gives level 2. Raises UserError for anything else."""
    if value is None or value == "":
        return LEVELS[1]
    text = str(value).strip().lower()
    for lv in LEVELS:
        if text in (str(lv.number), lv.name):
            return lv
    raise UserError(tr("engine.bad_level", None, value=value,
                       choices=", ".join(f"{lv.number} {lv.name}" for lv in LEVELS)))


def find_engine(path: str | Path | None = None) -> str | None:
    """The engine executable: ``path`` if it is one, else Stockfish on PATH or where Debian puts it."""
    if path:
        p = Path(path)
        return str(p) if p.is_file() else shutil.which(str(path))
    found = shutil.which("stockfish")
    if found:
        return found
    return next((p for p in _KNOWN_PATHS if Path(p).is_file()), None)


class EngineError(UserError):
    """The engine is missing, cannot start, crashed, hung or gave no legal move; ``message`` says so in one
    sentence."""


class _BoundedUci(chess.engine.UciProtocol):
    """python-chess's UCI protocol reading the engine's output bounded (see the module docstring).

    Only whole UTF-8 lines of at most :data:`MAX_LINE` bytes that begin with a UCI word reach
    python-chess; a ``bestmove`` reaches it without its ``ponder`` part (nobody ponders here) and
    an illegal one is noted in :attr:`illegal`. :attr:`heard` is the moment output last came."""

    def __init__(self) -> None:
        super().__init__()
        self._partial = bytearray()
        self._skipping = False        # inside a line longer than MAX_LINE: dropped up to its newline
        self.junk = 0                 # bytes dropped
        self.flooded = False          # more than MAX_JUNK dropped: the process was ended
        self.illegal: str | None = None
        self.heard = time.monotonic()

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if fd != 1:
            return
        chunk = data.encode() if isinstance(data, str) else bytes(data)
        self.heard = time.monotonic()
        pos = 0
        while pos < len(chunk):
            newline = chunk.find(b"\n", pos)
            if newline < 0:
                rest = len(chunk) - pos
                if self._skipping or len(self._partial) + rest > MAX_LINE:
                    self._drop(len(self._partial) + rest)
                    self._partial.clear()
                    self._skipping = True
                else:
                    self._partial += chunk[pos:]
                break
            piece = chunk[pos:newline]
            pos = newline + 1
            if self._skipping:
                self._drop(len(piece))
                self._skipping = False
                continue
            line = bytes(self._partial) + piece
            self._partial.clear()
            self._line(line)

    def _drop(self, count: int) -> None:
        self.junk += count
        if self.junk > MAX_JUNK and not self.flooded:
            self.flooded = True
            self.transport.kill()   # type: ignore[union-attr]

    def _line(self, raw: bytes) -> None:
        try:
            text = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            self._drop(len(raw) + 1)
            return
        words = text.split()
        if len(raw) > MAX_LINE or not words or words[0] not in _UCI_WORDS:
            self._drop(len(raw) + 1)
            return
        if words[0] == "bestmove":
            text = " ".join(words[:2])
            if len(words) > 1 and words[1] not in ("(none)", "NULL") and not _legal(self.board, words[1]):
                self.illegal = words[1][:10]
        self._line_received(text)


def _legal(board: chess.Board, uci: str) -> bool:
    try:
        return board.is_legal(chess.Move.from_uci(uci.lower()))
    except ValueError:
        return False


class Engine:
    """One UCI engine process at one level. Use :meth:`start`."""

    #: Seconds the engine may take to start and say ``uciok``.
    START_TIMEOUT = 5.0
    #: Seconds any search may take before silence counts as hanging.
    MIN_WAIT = 3.0
    #: Nodes a second even a slow machine searches: a node limit's search takes at most nodes / MIN_NPS.
    MIN_NPS = 100_000
    #: Seconds of silence after which an engine past its search time counts as hung.
    SILENT = 2.0
    #: An engine that talks but gives no move counts as hung after this many times its search time, at
    #: least :attr:`MAX_WAIT` seconds.
    TALK_FACTOR = 5.0
    MAX_WAIT = 15.0
    #: Seconds a healthy engine gets to end when asked to.
    QUIT_TIMEOUT = 2.0

    def __init__(self, protocol: chess.engine.SimpleEngine, path: str, lv: Level, lang: str,
                 timeout: float | None = None) -> None:
        self._engine: chess.engine.SimpleEngine | None = protocol
        self.timeout = timeout
        self.path = path
        self.level = lv
        self.lang = lang
        self.name = str(protocol.id.get("name", Path(path).name))

    @classmethod
    def start(cls, path: str | Path | None, lv: Level, lang: str = "de", *, timeout: float | None = None) -> Engine:
        """Start the engine process and set its strength. Raises EngineError (missing, cannot start, not UCI).

        ``timeout``: seconds the engine may take to start, and seconds an answer may take beyond
        the search before the engine counts as hung (default: :attr:`START_TIMEOUT` and the
        search's own bound).
        """
        found = find_engine(path)
        if found is None:
            raise EngineError(tr("engine.missing", lang))
        try:
            protocol = chess.engine.SimpleEngine.popen(_BoundedUci, found, stderr=subprocess.DEVNULL,
                                                       timeout=cls.START_TIMEOUT if timeout is None else timeout)
        except OSError as exc:
            raise EngineError(tr("engine.cannot_start", lang)) from exc
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as exc:
            raise EngineError(tr("engine.not_uci", lang)) from exc
        protocol.timeout = cls.QUIT_TIMEOUT
        engine = cls(protocol, found, lv, lang, timeout)
        engine._configure()
        return engine

    def _configure(self) -> None:
        assert self._engine is not None
        options = self._engine.options
        config: dict[str, chess.engine.ConfigValue] = {}
        if "Skill Level" in options:
            config["Skill Level"] = self.level.skill
        if self.level.elo is not None and "UCI_LimitStrength" in options and "UCI_Elo" in options:
            elo = options["UCI_Elo"]
            low = elo.min if elo.min is not None else self.level.elo
            high = elo.max if elo.max is not None else self.level.elo
            config["UCI_LimitStrength"] = True
            config["UCI_Elo"] = max(low, min(high, self.level.elo))
        if "Threads" in options:
            config["Threads"] = 1
        try:
            self._engine.configure(config)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as exc:
            self._fail()
            raise EngineError(tr("engine.not_uci", self.lang)) from exc

    @property
    def running(self) -> bool:
        """The process is (believed to be) running: started, not closed, not known to have failed."""
        return self._engine is not None

    @property
    def pid(self) -> int | None:
        """The engine process's id while it runs, else None."""
        engine = self._engine
        if engine is None:
            return None
        pid = engine.transport.get_pid()
        return int(pid) if pid is not None else None

    def choose(self, board: chess.Board) -> chess.Move:
        """The engine's move in ``board`` (a legal move). Raises EngineError when it fails; the process
        is ended then, except after ``no_move``."""
        engine = self._engine
        if engine is None:
            raise EngineError(tr("engine.stopped", self.lang))
        protocol = engine.protocol
        assert isinstance(protocol, _BoundedUci)
        protocol.illegal = None
        try:
            result = self._play(engine, board)
        except TimeoutError as exc:
            self._fail()
            raise EngineError(tr("engine.hung", self.lang)) from exc
        except chess.engine.EngineTerminatedError as exc:
            self._fail()
            raise EngineError(tr("engine.not_uci" if protocol.flooded else "engine.crashed", self.lang)) from exc
        except chess.engine.EngineError as exc:
            self._fail()
            key = "engine.illegal_move" if protocol.illegal is not None else "engine.not_uci"
            raise EngineError(tr(key, self.lang)) from exc
        if result.move is None:
            raise EngineError(tr("engine.no_move", self.lang))
        if not board.is_legal(result.move):
            self._fail()
            raise EngineError(tr("engine.illegal_move", self.lang))
        return result.move

    def _budget(self) -> float:
        """Seconds the search may take before silence counts as hanging."""
        if self.timeout is not None:
            return self.timeout
        return max(self.MIN_WAIT, self.level.nodes / self.MIN_NPS)

    def _play(self, engine: chess.engine.SimpleEngine, board: chess.Board) -> chess.engine.PlayResult:
        """``SimpleEngine.play`` watched for a hang: TimeoutError when the engine is silent for
        :attr:`SILENT` seconds after its search time, or gives no move within :attr:`TALK_FACTOR`
        times that time (at least :attr:`MAX_WAIT` seconds).
        Raises EngineTerminatedError when the process is gone (its event loop has ended)."""
        loop = engine.protocol.loop
        protocol = engine.protocol
        assert isinstance(protocol, _BoundedUci)
        limit = chess.engine.Limit(nodes=self.level.nodes)
        budget = self._budget()
        silent = min(self.SILENT, budget)
        hard = max(self.MAX_WAIT, self.TALK_FACTOR * budget)

        async def play() -> chess.engine.PlayResult:
            task = asyncio.ensure_future(protocol.play(board, limit))
            begun = time.monotonic()
            while True:
                done, _ = await asyncio.wait({task}, timeout=0.1)
                if done:
                    return task.result()
                now = time.monotonic()
                if (now - begun > budget and now - protocol.heard > silent) or now - begun > hard:
                    task.cancel()
                    raise TimeoutError("no answer")

        coro = play()
        try:
            future = asyncio.run_coroutine_threadsafe(coro, loop)
        except RuntimeError as exc:            # "Event loop is closed": the process ended
            coro.close()
            raise chess.engine.EngineTerminatedError("engine process ended") from exc
        return future.result()

    def _fail(self) -> None:
        """End a failed engine at once: it is not asked to quit (a hung one would not)."""
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()

    def close(self) -> None:
        """End the engine process (also a crashed or hung one)."""
        engine, self._engine = self._engine, None
        if engine is None:
            return
        try:
            engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError, OSError):
            engine.close()


class EngineChooser:
    """The table's move chooser (``blindchess.table.opponent.MoveChooser``) on a UCI engine.

    The engine process is started when the first move is asked for, so a
    missing or broken engine is told to the player in the game (as
    :class:`EngineError` from :meth:`choose`) like a crash. After a failure the
    chooser stays failed: a new one (a new engine) continues the game.
    """

    def __init__(self, path: str | Path | None, lv: Level, lang: str = "de", *, timeout: float | None = None) -> None:
        self.path = path
        self.level = lv
        self.lang = lang
        self.timeout = timeout
        self.engine: Engine | None = None
        self._failed: EngineError | None = None

    def choose(self, board: chess.Board) -> chess.Move:
        """The engine's move in ``board``. Raises EngineError (missing, cannot start, not UCI, crashed, hung,
        illegal move, no move)."""
        if self._failed is not None:
            raise EngineError(tr("engine.stopped", self.lang)) from self._failed
        try:
            if self.engine is None:
                self.engine = Engine.start(self.path, self.level, self.lang, timeout=self.timeout)
            return self.engine.choose(board)
        except EngineError as exc:
            self._failed = exc
            raise

    @property
    def pid(self) -> int | None:
        """The engine process's id while it runs (None before the first move and after it ended)."""
        engine = self.engine
        return engine.pid if engine is not None else None

    def close(self) -> None:
        """End the engine process (idempotent, never raises)."""
        if self.engine is not None:
            self.engine.close()

"""The computer as the sighted side: a UCI engine in its own process (adapter).

python-chess's :mod:`chess.engine` drives the engine (Stockfish from
Debian/Ubuntu, or any UCI engine by path). Nothing here decides anything about
the game: the table says when the computer is to move, this module only asks
the engine for a move and turns every way an engine can fail (missing, crashed,
hung, not a UCI engine) into one :class:`EngineError` with one sentence in the
player's language.

Levels are what a player would choose, from beginner to strong. Stockfish's
"Skill Level" (0–20) with a node limit makes it weak enough for a beginner;
``UCI_LimitStrength``/``UCI_Elo`` are used where the engine offers them (and
the level names an Elo); engines that offer neither only get the node limit.

Contract::

    find_engine(path=None) -> str | None      # the engine's path, or None
    Engine.start(path, level, lang) -> Engine  # raises EngineError (missing, not UCI)
    engine.choose(board) -> chess.Move         # raises EngineError (crashed, hung, no move)
    engine.close()                              # idempotent, never raises
    EngineChooser(path, level, lang)           # the table's MoveChooser: starts the engine when first
    chooser.choose(board) -> chess.Move        #   asked (so a missing engine is told in the game), then
    chooser.close()                            #   as Engine; close() ends the process

Every EngineError message is one sentence (no line breaks): what the player hears.
"""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

from .errors import UserError
from .i18n import tr

__all__ = ["LEVELS", "Engine", "EngineChooser", "EngineError", "Level", "find_engine", "level"]

#: Where Debian/Ubuntu put Stockfish (``/usr/games`` is not always on PATH).
_KNOWN_PATHS = ("/usr/games/stockfish", "/usr/local/bin/stockfish", "/opt/homebrew/bin/stockfish")


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
    """The engine is missing, crashed, hung or gave no move; ``message`` says so in one sentence."""


def _detail(exc: BaseException) -> str:
    """An exception's text on one short line (for a message the player hears)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


class Engine:
    """One UCI engine process at one level. Use :meth:`start`."""

    #: Seconds the engine may take to answer beyond its node limit before it counts as hung.
    TIMEOUT = 20.0

    def __init__(self, protocol: chess.engine.SimpleEngine, path: str, lv: Level, lang: str,
                 timeout: float | None = None) -> None:
        self._engine: chess.engine.SimpleEngine | None = protocol
        self.timeout = self.TIMEOUT if timeout is None else timeout
        self.path = path
        self.level = lv
        self.lang = lang
        self.name = str(protocol.id.get("name", Path(path).name))

    @classmethod
    def start(cls, path: str | Path | None, lv: Level, lang: str = "de", *, timeout: float | None = None) -> Engine:
        """Start the engine process and set its strength. Raises EngineError.

        ``timeout``: seconds an answer may take beyond the search before the engine counts as hung.
        """
        found = find_engine(path)
        if found is None:
            raise EngineError(tr("engine.missing", lang, path=path or "stockfish"))
        try:
            protocol = chess.engine.SimpleEngine.popen_uci(found, timeout=cls.TIMEOUT if timeout is None else timeout)
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as exc:
            raise EngineError(tr("engine.not_uci", lang, path=found, error=_detail(exc))) from exc
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
            self.close()
            raise EngineError(tr("engine.crashed", self.lang, error=_detail(exc))) from exc

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
        """The engine's move in ``board`` (a legal move). Raises EngineError when it fails."""
        if self._engine is None:
            raise EngineError(tr("engine.stopped", self.lang))
        try:
            result = self._play(self._engine, board)
        except chess.engine.EngineTerminatedError as exc:
            self.close()
            raise EngineError(tr("engine.crashed", self.lang, error=_detail(exc))) from exc
        except TimeoutError as exc:
            self.close()
            raise EngineError(tr("engine.hung", self.lang)) from exc
        except chess.engine.EngineError as exc:
            raise EngineError(tr("engine.crashed", self.lang, error=_detail(exc))) from exc
        if result.move is None or not board.is_legal(result.move):
            raise EngineError(tr("engine.no_move", self.lang))
        return result.move

    def _play(self, engine: chess.engine.SimpleEngine, board: chess.Board) -> chess.engine.PlayResult:
        """``SimpleEngine.play`` with a timeout also for a node limit (it has none then), so a hung engine
        is caught. Raises EngineTerminatedError when the process is gone (its event loop has ended)."""
        loop = engine.protocol.loop
        limit = chess.engine.Limit(nodes=self.level.nodes)

        async def play() -> chess.engine.PlayResult:
            return await asyncio.wait_for(engine.protocol.play(board, limit), self.timeout)

        coro = play()
        try:
            future = asyncio.run_coroutine_threadsafe(coro, loop)
        except RuntimeError as exc:            # "Event loop is closed": the process ended
            coro.close()
            raise chess.engine.EngineTerminatedError("engine process ended") from exc
        return future.result()

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
        """The engine's move in ``board``. Raises EngineError (missing, not UCI, crashed, hung, no move)."""
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

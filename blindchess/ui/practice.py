"""Practice against the computer in the app: the engine's process behind the table (adapter).

The table decides when the computer moves and what happens with its move
(:mod:`blindchess.table.opponent`); this module only gets the engine's answer
to it without blocking the window. :class:`PracticeDriver` is created by the
controller for a table whose setup has ``opponent == "engine"``:

* **threaded** (the app on the real clock): the table asks with
  ``DeviceRequest(device="engine", what="move", fen)``; the driver hands the
  position to its one worker thread, which starts the engine when first needed
  (:class:`~blindchess.adapters.engine.EngineChooser`), lets it choose, and hands the
  move — or the engine's one-sentence failure — back to the GUI thread through
  ``later`` (the controller's inbox). There it goes to the table with the time
  of then (``table.engine_move`` / ``table.engine_failed``); the table plays it
  when it is due. Only the newest request is worked on.
* **synchronous** (time passes only through ``tick``: scenario scripts, tests):
  the chooser is connected to the table and asked inside the table call, so
  the app gives exactly the events the headless table gives.

:func:`table_setup` adds the new-game dialog's opponent fields to a
:class:`~blindchess.table.setup.TableSetup`.
"""

from __future__ import annotations

import dataclasses
import functools
import queue
import threading
from collections.abc import Callable

import chess

from ..adapters import EngineChooser, level
from ..base import UserError
from ..table import ConnectEngine, DeviceRequest, EngineFailed, EngineMove, Table, TableEvent, TableSetup
from .new_game import GameSetup

__all__ = ["PracticeDriver", "table_setup"]

_Job = tuple[chess.Board, str] | None


def table_setup(base: TableSetup, dialog: GameSetup) -> TableSetup:
    """``base`` with the opponent chosen in the new-game dialog (``GameSetup.opponent``, ``engine_level``,
    ``engine_path``, ``coaching``)."""
    if dialog.opponent != "engine":
        return base
    return dataclasses.replace(base, opponent="engine", engine_level=dialog.engine_level,
                               engine_path=dialog.engine_path or None, coaching=dialog.coaching)


class PracticeDriver:
    """The engine behind one practice table (see the module docstring). Use :meth:`attach`."""

    def __init__(self, table: Table, *, later: Callable[[Callable[[], object]], None], now: Callable[[], float],
                 changed: Callable[[], None], threaded: bool) -> None:
        setup = table.setup
        self.table = table
        self.now = now
        self.threaded = threaded
        self.chooser = EngineChooser(setup.engine_path, level(setup.engine_level), table.lang)
        self._later = later
        self._changed = changed
        self._closed = False
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        if threaded:
            self._unsubscribe = table.subscribe(self._on_event)
            self._worker = threading.Thread(target=self._work, name="blindchess-engine", daemon=True)
            self._worker.start()
            table.handle(ConnectEngine(None), now())
        else:
            table.handle(ConnectEngine(self.chooser), now())

    @classmethod
    def attach(cls, table: Table, *, later: Callable[[Callable[[], object]], None], now: Callable[[], float],
               changed: Callable[[], None], threaded: bool) -> PracticeDriver | None:
        """A driver for ``table`` when it is a practice game, else None.

        Call after the window's own subscription (that one gets the events of the table's start).
        """
        if table.setup.opponent != "engine":
            return None
        return cls(table, later=later, now=now, changed=changed, threaded=threaded)

    def close(self) -> None:
        """Stop asking; the engine process ends (in the worker thread when threaded)."""
        if self._closed:
            return
        self._closed = True
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._worker is not None:
            self._jobs.put(None)
        else:
            self.chooser.close()

    def join(self) -> None:
        """After :meth:`close`: wait until the worker thread has ended the engine process."""
        if self._worker is not None:
            self._worker.join()

    # ---------------------------------------------------------------- GUI thread
    def _on_event(self, event: TableEvent) -> None:
        if isinstance(event, DeviceRequest) and event.device == "engine" and event.what == "move" \
                and event.fen is not None and not self._closed:
            self._jobs.put((self.table.session.game_board(), event.fen))

    def _chosen(self, move: chess.Move, fen: str) -> None:
        if not self._closed:
            self.table.handle(EngineMove(move, fen), self.now())
            self._changed()

    def _failed(self, message: str) -> None:
        if not self._closed:
            self.table.handle(EngineFailed(message), self.now())
            self._changed()

    # ---------------------------------------------------------------- the worker thread
    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            while True:            # only the newest request counts
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
            if job is None:
                self.chooser.close()
                return
            board, fen = job
            try:
                move = self.chooser.choose(board)
            except UserError as exc:
                self._later(functools.partial(self._failed, exc.message))
                continue
            self._later(functools.partial(self._chosen, move, fen))

"""Practice against the computer in the app: the engine never blocks the window.

The controller's :class:`~blindchess.ui.practice.PracticeDriver` hands the
table's request for a move to its worker thread; the real Stockfish chooses
there and the answer comes back to the GUI thread through the controller's
inbox, where the table plays it with the time of then. The event loop is run
until the answer is there (it wakes on the worker's signal) — no sleeps. On a
script's clock (the scenario front) the engine is asked synchronously:
tests/ui/test_ui_scenario.py compares the app with the headless table on
tests/scenarios/practice_*.scn.
"""

from __future__ import annotations

import threading

import chess
import pytest
from PySide6.QtCore import QCoreApplication, QEventLoop

from blindchess.adapters.engine import EngineChooser, find_engine
from blindchess.adapters.speech.tts import Speaker
from blindchess.base.i18n import tr
from blindchess.table.events import Moved, Speak
from blindchess.ui.controller import GameController
from blindchess.ui.new_game import GameSetup
from blindchess.ui.settings import Settings

needs_engine = pytest.mark.skipif(find_engine() is None, reason="Stockfish is not installed (make test installs it)")


@pytest.fixture
def app_controller(qtbot):
    clock = [0.0]
    speaker = Speaker("de", engine="text")
    controller = GameController(Settings(lang="de"), speaker=speaker, clock=lambda: clock[0], ticking=True)
    events: list = []
    controller.tableEvent.connect(events.append)
    yield controller, clock, events
    driver = controller._practice
    if driver is not None:
        driver.close()
        driver.join()
    controller.shutdown()
    speaker.close()


def practice(**fields) -> GameSetup:
    return GameSetup(white="Stockfish", black="Bernd", white_impaired=False, black_impaired=True,
                     time_control="", tactile="none", opponent="engine", engine_level=6, **fields)


def run_until(condition) -> None:
    """Run the Qt event loop until ``condition()`` holds (it wakes on every event, e.g. the worker's signal)."""
    app = QCoreApplication.instance()
    assert app is not None
    while not condition():
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)


@needs_engine
def test_the_engine_chooses_in_a_worker_thread_and_the_move_is_played_on_the_gui_thread(app_controller,
                                                                                          monkeypatch):
    controller, clock, events = app_controller
    threads: list[str] = []
    original = EngineChooser.choose

    def choose(self, board):
        threads.append(threading.current_thread().name)
        return original(self, board)

    monkeypatch.setattr(EngineChooser, "choose", choose)
    assert controller.new_game(practice())
    table = controller.table
    assert table is not None and table.opponent is not None
    assert list(table.session.snapshot.game_moves) == []          # new_game returned before the engine answered
    clock[0] = 10.0                                # the answer comes later than its least delay: played at once
    run_until(lambda: len(table.session.snapshot.game_moves) == 1)
    assert threads == ["blindchess-engine"] and threading.current_thread() is threading.main_thread()
    made = [e for e in events if isinstance(e, Moved)]
    assert len(made) == 1 and made[0].t == 10.0 and made[0].color == "white"
    move = chess.Move.from_uci(made[0].uci)
    assert list(table.session.snapshot.moves("sighted")) == [move]
    assert any(isinstance(e, Speak) and e.to == "blind" and e.priority == "move" and e.t == 10.0 for e in events)


def test_a_missing_engine_is_said_in_one_sentence_in_the_app(app_controller, tmp_path):
    controller, clock, events = app_controller
    missing = tmp_path / "no-engine"
    assert controller.new_game(practice(engine_path=str(missing)))
    table = controller.table
    assert table is not None and table.opponent is not None
    clock[0] = 2.0
    run_until(lambda: table.opponent.failure is not None)
    message = tr("engine.missing", "de", path=str(missing))
    assert table.opponent.failure == message and "\n" not in message
    assert any(isinstance(e, Speak) and e.text == message and e.to == "blind" for e in events)
    assert list(table.session.snapshot.game_moves) == [] and not table.session.snapshot.finished    # the game is kept

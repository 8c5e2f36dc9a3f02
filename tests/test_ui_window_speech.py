"""The window as a screen-reader user meets it, offscreen: what it shows and says, which keys do what.

Whole sessions with the real Orca are in tests/test_orca.py; here the window's parts are checked
without a desktop: a start position with Black to move, a question that must not take the board's keys,
the input line of a game without an electronic tactile board.
"""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import Qt

from blindchess.speech.tts import Speaker
from blindchess.table.table import TableSetup
from blindchess.ui.controller import GameController
from blindchess.ui.main_window import MainWindow
from blindchess.ui.panels import ScoreTable
from blindchess.ui.settings import Settings

pytest.importorskip("pytestqt")

BLACK_TO_MOVE = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.fixture
def window(qtbot, tmp_path):
    now = [0.0]
    with Speaker("de", engine="text") as speaker:
        controller = GameController(Settings(lang="de", earcons=False, speech_channel="app"), speaker=speaker,
                                    clock=lambda: now[0], ticking=False)
        win = MainWindow(controller, controller.settings)
        qtbot.addWidget(win)
        win.now = now
        win.journal = tmp_path / "game.jsonl"
        yield win
        controller.shutdown()


def test_both_scores_start_with_black_to_move(qtbot):
    """A score whose first move is Black's: row 1 has White's cell empty; nothing is compared out of range."""
    table = ScoreTable(lang="de")
    qtbot.addWidget(table)
    table.set_scores(["e5"], [], first_white=False, first_number=1)       # the sighted sheet has not written it yet
    assert table.table.rowCount() == 1
    assert [table.table.item(0, c).text() for c in range(5)] == ["1.", "", "e5", "", ""]
    table.set_scores(["e5", "Nf3"], ["e5"], first_white=False, first_number=1)
    assert table.table.rowCount() == 2
    assert [table.table.item(1, c).text() for c in range(5)] == ["2.", "Nf3", "", "", ""]
    assert table.first_diff is None


def test_a_game_from_a_position_with_black_to_move_keeps_the_window_up_to_date(window):
    """The next-step line, the clock names and the title follow the game although Black moves first."""
    c = window.controller
    assert c.start(TableSetup(white="Anna", black="Bernd", blind="black", start_fen=BLACK_TO_MOVE, tactile="none",
                              lang="de"), window.journal)
    window.refresh()
    assert "Anna" in window.windowTitle() and "Bernd" in window.windowTitle()
    assert window.clocks.names == {True: "Anna", False: "Bernd"}
    step = window.next_step.text()
    assert step and "Bernd" in step
    window.now[0] = 1.0
    c.tactile_text("e7e5")            # the blind player (Black) moves first
    c.sighted_move("e7e5")            # … mirrored on the sighted board
    window.refresh()
    assert window.next_step.text() != step
    assert window.scores.table.item(0, 2).text() in ("e5", "")

"""Accessibility: every window and dialog fully labelled, every action on a key, the board speakable.

The walk goes through the real widget tree of each window (offscreen Qt) and
fails on any control a screen reader would stop on without an accessible name
and description.
"""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QTableWidget

from blindchess.ui import a11y
from blindchess.ui.arbiter import ArbiterDialog
from blindchess.ui.guide import GuideDialog
from blindchess.ui.new_game import GameSetup, NewGameDialog
from blindchess.ui.settings_dialog import SettingsDialog
from blindchess.ui.shortcuts import SHORTCUTS, HelpDialog
from tests.support.ui_window import open_window


@pytest.fixture(params=["de", "en"])
def app_window(request, qtbot):
    with open_window(qtbot, request.param) as opened:
        yield opened


def _diverged_game(controller) -> None:
    """1. e4 (blind, White) … then a wrong mirror of 2. Sf3 on the sighted board."""
    s_move = controller.sighted_move
    controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, tactile="none",
                                  time_control="90+30", lang=controller.lang))
    controller.tactile_text("e2e4")
    controller.hear("Eva vier" if controller.lang == "de" else "Eva four", typed=True)
    s_move(chess.Move.from_uci("e2e4"))
    s_move(chess.Move.from_uci("e7e5"))
    controller.tactile_text("e7e5")
    controller.tactile_text("g1f3")
    controller.hear("Springer Felix drei" if controller.lang == "de" else "Knight Felix three", typed=True)
    s_move(chess.Move.from_uci("g1h3"))


def test_every_control_of_every_window_is_labelled(app_window, qtbot):
    controller, window = app_window
    assert a11y.missing_labels(window) == []
    for menu_name in ("game", "view", "input", "requests", "speech", "help"):
        menu = window.findChild(type(window.menuBar().actions()[0].menu()), f"menu_{menu_name}")
        assert menu is not None and menu.accessibleName() and menu.accessibleDescription()
    dialogs = [NewGameDialog(window, lang=controller.lang), HelpDialog(window, lang=controller.lang),
               SettingsDialog(window, window.settings, lang=controller.lang), GuideDialog(window, lang=controller.lang)]
    _diverged_game(controller)
    assert controller.session.snapshot.divergence is not None
    assert a11y.missing_labels(window) == []
    dialogs.append(ArbiterDialog(window, controller, lang=controller.lang))
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
        assert a11y.missing_labels(dialog) == [], type(dialog).__name__


def test_the_walk_notices_a_missing_label(qtbot):
    from PySide6.QtWidgets import QPushButton, QWidget

    root = QWidget()
    qtbot.addWidget(root)
    a11y.label(root, "root", "a container")
    button = QPushButton("?", root)
    button.setObjectName("nameless")
    assert a11y.missing_labels(root) == ["QPushButton 'nameless'"]


def test_every_action_has_a_unique_shortcut_listed_on_the_help_screen(app_window, qtbot):
    controller, window = app_window
    keys = [QKeySequence(k).toString() for _a, _m, k in SHORTCUTS]
    assert len(set(keys)) == len(keys)
    for action_id, _menu, key in SHORTCUTS:
        action = window.actions[action_id]
        assert action.shortcut() == QKeySequence(key)
        assert action.text() and action.toolTip()
    help_dialog = HelpDialog(window, lang=controller.lang)
    qtbot.addWidget(help_dialog)
    table = help_dialog.findChild(QTableWidget, "shortcuts")
    listed = {table.item(r, 1).text() for r in range(table.rowCount())}
    assert {window.actions[a].text() for a, _m, _k in SHORTCUTS} <= listed


def _focused_cell_name(board) -> str:
    """What a screen reader reads: the name of the square (a list item) that has the keyboard focus."""
    from PySide6.QtGui import QAccessible

    cell = QAccessible.queryAccessibleInterface(board).focusChild()
    assert cell is not None and cell.role() == QAccessible.Role.ListItem
    return cell.text(QAccessible.Text.Name)


def test_board_square_names_follow_the_cursor_for_screen_readers(app_window, qtbot):
    controller, window = app_window
    controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=False, black_impaired=True,
                                  tactile="none", time_control="", lang=controller.lang))
    board = window.board
    window.actions["focus_board"].trigger()
    qtbot.waitUntil(board.hasFocus, timeout=2000)
    board.move_cursor(chess.E7)
    qtbot.keyClick(board, Qt.Key.Key_Up)      # the blind player (Black) sees his side at the bottom (12.5)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    expected = {"de": "Eva fünf, leer", "en": "Eva five, empty"}[controller.lang]
    assert _focused_cell_name(board).lower() == expected.lower()
    qtbot.keyClick(board, Qt.Key.Key_Down)
    qtbot.keyClick(board, Qt.Key.Key_Down)
    assert _focused_cell_name(board).lower() == {"de": "eva sieben, schwarzer bauer",
                                                 "en": "eva seven, black pawn"}[controller.lang]


def test_arrows_move_in_the_blind_players_view_by_default(app_window, qtbot):
    """With the blind player as White, ↑ from e2 goes to e3; Ctrl+F shows the sighted player's view."""
    controller, window = app_window
    controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, black_impaired=False,
                                  tactile="none", time_control="", lang=controller.lang))
    board = window.board
    assert not board.flipped
    window.actions["focus_board"].trigger()
    qtbot.waitUntil(board.hasFocus, timeout=2000)
    board.move_cursor(chess.E2)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    assert board.cursor == chess.E3
    window.actions["flip"].trigger()                      # the sighted player's view (Black)
    assert board.flipped and "Bernd" in window.message.text()
    board.move_cursor(chess.E2)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    assert board.cursor == chess.E1
    window.actions["flip"].trigger()
    assert not board.flipped and "Anna" in window.message.text()


def test_keyboard_only_game_start_and_move(app_window, qtbot):
    """A sighted player who cannot use a mouse: shortcuts to focus, arrow keys and Space to move."""
    controller, window = app_window
    controller.new_game(GameSetup(white="Sam", black="Bea", white_impaired=False, black_impaired=True,
                                  tactile="none", time_control="", lang=controller.lang))
    board = window.board
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(board.hasFocus, timeout=2000)
    assert board.flipped                         # the blind player's (Black's) view by default …
    qtbot.keyClick(board, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert not board.flipped                     # … Ctrl+F: the sighted player's, White at the bottom
    board.move_cursor(chess.G1)
    qtbot.keyClick(board, Qt.Key.Key_Space)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    qtbot.keyClick(board, Qt.Key.Key_Left)
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert list(controller.session.snapshot.moves("sighted")) == [chess.Move.from_uci("g1f3")]
    # Ctrl+L: the input line — without a tactile board it starts with what the blind player says; Ctrl+J to the
    # sighted board's moves — and a typed move in another language's notation
    assert window.mode.currentData() == "spoken"
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(window.input.hasFocus, timeout=2000)
    while window.mode.currentData() != "sighted":
        qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(window.input, "Sc6" if controller.lang == "de" else "Nc6")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    assert controller.session.snapshot.moves("sighted")[-1] == chess.Move.from_uci("g1f3")  # Black's move is not made yet
    controller.tactile_text("g1f3")                                 # the blind player mirrors 1. Sf3 …
    controller.tactile_text("b8c6")                                 # … and makes his move
    controller.hear("Springer Cäsar sechs" if controller.lang == "de" else "Knight Cesar six", typed=True)
    qtbot.keyClicks(window.input, "Sc6" if controller.lang == "de" else "Nc6")       # … mirrored by typing
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    assert controller.session.snapshot.moves("sighted")[-1] == chess.Move.from_uci("b8c6")
    assert window.input.text() == ""


@pytest.mark.slow
def test_high_contrast_and_font_scaling(app_window, qtbot):
    controller, window = app_window
    app = QApplication.instance()
    base = app.font().pointSizeF()
    window.actions["font_bigger"].trigger()
    window.actions["font_bigger"].trigger()
    assert window.settings.font_scale == pytest.approx(1.4)
    assert app.font().pointSizeF() == pytest.approx(base * 1.4, rel=0.02)
    window.actions["high_contrast"].trigger()
    assert window.settings.theme == "high-contrast" and window.board.theme == "high-contrast"
    assert app.palette().window().color().name() == "#000000"
    window.actions["high_contrast"].trigger()
    window.actions["font_reset"].trigger()
    assert app.font().pointSizeF() == pytest.approx(base, rel=0.02)


def test_a_screen_reader_reads_the_focused_square(qtbot):
    """With an assistive technology listening, the board's focused square names the cursor square; the board
    itself has one short sentence of description."""
    from PySide6.QtGui import QAccessible

    from blindchess.ui.board import BoardView

    view = BoardView(lang="de")
    qtbot.addWidget(view)
    view.show()
    QAccessible.setActive(True)
    try:
        view.setFocus()
        view.set_position(chess.Board("8/8/8/8/4P3/8/8/K6k w - - 0 1"))
        view.move_cursor(chess.E4)
        interface = QAccessible.queryAccessibleInterface(view)
        assert _focused_cell_name(view).lower() == "eva vier, weißer bauer"
        assert "Pfeiltasten" in interface.text(QAccessible.Text.Description)
        assert len(interface.text(QAccessible.Text.Description)) < 80
        qtbot.keyClick(view, Qt.Key.Key_Right)
        assert _focused_cell_name(view).lower() == "felix vier, leer"
    finally:
        QAccessible.setActive(False)


@pytest.mark.slow
def test_at_200_percent_the_cursor_square_is_scrolled_into_view(qtbot):
    """At 200 % the cursor's square is always seen whole in its column (scrolled to when the column scrolls)."""
    from blindchess.ui import theme

    with open_window(qtbot, "de") as (controller, window):
        app = QApplication.instance()
        try:
            theme.apply(app, "light", 2.0)
            for _ in range(3):
                app.processEvents()
            board, area = window.board, window.left_area
            window.actions["focus_board"].trigger()
            for square in (chess.A1, chess.H8, chess.A1):
                board.move_cursor(square)
                rect = board.square_rect(square).toRect()
                seen = area.viewport().rect()
                corner = board.mapTo(area.viewport(), rect.topLeft())
                assert seen.contains(corner) and seen.contains(corner + rect.bottomRight() - rect.topLeft())
        finally:
            theme.apply(app, "light", 1.0)


def test_ctrl_r_repeats_the_last_announcement_not_the_square(qtbot):
    """After a move and some squares read on the board, Ctrl+R says the move again."""
    from blindchess.table.events import Speak
    from tests.support.ui_window import TestClock

    clock = TestClock()
    with open_window(qtbot, "de", clock=clock) as (controller, window):
        controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=False, black_impaired=True,
                                      tactile="none", time_control="", lang="de"))
        spoken = []
        controller.tableEvent.connect(lambda e: spoken.append(e) if isinstance(e, Speak) else None)
        controller.sighted_move(chess.Move.from_uci("g1f3"))
        clock.advance(10)
        window.board.move_cursor(chess.A1)
        window.board.move_cursor(chess.B2)
        clock.advance(10)
        count = len(spoken)
        window.actions["repeat"].trigger()
        clock.advance(10)
        assert [e.text for e in spoken[count:]] == ["Springer Felix drei"]


def test_labels_carry_their_text_in_their_accessible_names(app_window):
    """Message line, clocks, next step, tactile port/device/state, voice and model say their value."""
    controller, window = app_window
    controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, tactile="none",
                                  time_control="90+30", lang=controller.lang))
    window.show_message("Hallo")
    assert window.message.accessibleName() == {"de": "Meldung: Hallo", "en": "Message: Hallo"}[controller.lang]
    assert window.next_step.accessibleName().endswith(window.next_step.text())
    face = window.clocks.faces[chess.WHITE].accessibleName()
    assert "Anna" in face and "1:30:00" in face
    status = window.tactile_status
    for label in (status.port, status.device, status.state):
        assert label.accessibleName().endswith(label.text()) and ": " in label.accessibleName()
    for label in (window.speech_status.voice, window.speech_status.model):
        assert label.accessibleName().endswith(label.text()) and ": " in label.accessibleName()


def test_help_counts_the_input_modes_and_lists_the_board_keys(app_window, qtbot):
    """The list of keys' (Ctrl+F1) text for Ctrl+J is counted from the modes; the board's own keys are listed."""
    from blindchess.ui.main_window import INPUT_MODES

    controller, window = app_window
    dialog = HelpDialog(window, lang=controller.lang)
    qtbot.addWidget(dialog)
    table = dialog.findChild(QTableWidget, "shortcuts")
    rows = [" | ".join(table.item(r, c).text() for c in range(3)) for r in range(table.rowCount())]
    n = len(INPUT_MODES)
    assert any(("Strg+J" in row or "Ctrl+J" in row) and (f"{n} Arten" in row or f"{n} kinds" in row) for row in rows)
    letters = "K, D, T, L, S, B" if controller.lang == "de" else "K, Q, R, B, N, P"
    assert any(letters in row for row in rows)
    assert any(row.split(" | ")[0] == "M" for row in rows)


def test_ctrl_n_asks_before_replacing_a_running_game(app_window, qtbot):
    """With a game running, Ctrl+N asks; "no" keeps the game."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox

    controller, window = app_window
    controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, tactile="none",
                                  time_control="", lang=controller.lang))
    session = controller.session
    asked = []

    def answer_no() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        asked.append(box.text())
        next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.NoRole).click()

    QTimer.singleShot(100, answer_no)
    window.actions["new_game"].trigger()
    assert asked and ("Partie läuft" in asked[0] or "game is still running" in asked[0])
    assert controller.session is session


def test_ctrl_w_changes_the_wording_of_the_board_and_the_table(qtbot):
    """Lichess's choice (Anna / NATO / SAN): the cells, the table's answers and the saved setting follow Ctrl+W."""
    from blindchess.table.events import Speak
    from blindchess.ui.settings import Settings
    from tests.support.ui_window import TestClock

    clock = TestClock()
    with open_window(qtbot, "de", clock=clock) as (controller, window):
        controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, tactile="none",
                                      time_control="", lang="de"))
        said = []
        controller.tableEvent.connect(lambda e: said.append(e.text) if isinstance(e, Speak) else None)
        window.actions["move_wording"].trigger()
        assert window.board.cell_name(chess.E2) == "Echo zwei, weißer Bauer"
        assert controller.table.state.wording == "nato" and Settings.load().wording == "nato"
        controller.tactile_text("e2e4")
        controller.hear("Eva vier", typed=True)
        clock.advance(10)
        window.board.setFocus()
        qtbot.keyClick(window.board, Qt.Key.Key_L)
        clock.advance(10)
        assert said[-1] == "Zug 1, Weiß: Echo vier"
        window.actions["move_wording"].trigger()
        assert window.board.cell_name(chess.E2) == "e2, weißer Bauer" and controller.table.state.wording == "san"
        window.actions["move_wording"].trigger()
        assert window.board.cell_name(chess.E2) == "Eva zwei, weißer Bauer"


def test_the_e_board_has_its_own_status_and_the_arbiter_sees_the_touches(qtbot):
    """In the window: an e-board panel (only with an e-board); D.2.10 e touches in the arbiter's view."""
    with open_window(qtbot, "de") as (controller, window):
        controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, tactile="none",
                                      time_control="", lang="de"))
        assert not window.eboard_status.isVisible()
        controller.tactile_text("e2e4")
        controller.hear("Eva vier", typed=True)
        controller.sighted_move(chess.Move.from_uci("e2e4"))
        window.board.move_cursor(chess.G8)
        window.actions["sighted_touch"].trigger()
        window.open_arbiter()
        touches = window.arbiter_dialog.touches.accessibleName()
        assert touches.startswith("Berührungen: Bernd hat berührt") and "Gustav acht" in touches
        window.arbiter_dialog.reject()
        controller.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, tactile="none",
                                      time_control="", lang="de", sighted_board="dgt", sighted_port="/nonexistent"))
        window.refresh()
        assert window.eboard_status.isVisible()
        assert window.eboard_status.state.accessibleName().startswith("E-Brett: ")
        assert window.eboard_status.accessibleName() == "E-Brett des Sehenden"

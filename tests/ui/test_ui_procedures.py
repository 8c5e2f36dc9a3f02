"""Tournament procedures in the window, without a mouse: the rule set chosen in the new-game dialog
(FIDE Laws, Appendices A and B), the arbiter's view adjourning and resuming a game (Guidelines I) and
deciding a quickplay-finish claim (Guidelines III), the claim dialog (Art. 6.8, 9.2, 9.3; A.4, B.3)."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import Qt

from blindchess.game.events import MoveMade
from blindchess.ui.claims import CLAIMS, ClaimDialog
from blindchess.ui.controller import table_setup
from blindchess.ui.new_game import GameSetup, NewGameDialog
from blindchess.ui.settings import Settings
from tests.support.ui_window import TestClock, open_window


@pytest.fixture
def clock():
    return TestClock()


@pytest.fixture
def app_window(qtbot, clock):
    with open_window(qtbot, "de", clock=clock) as opened:
        yield opened


def _start(controller, **kw) -> None:
    setup = dict(white="Anna", black="Bernd", white_impaired=True, tactile="none", time_control="90+30", lang="de")
    setup.update(kw)
    assert controller.new_game(GameSetup(**setup))


# ---------------------------------------------------------------- the rule set (Appendices A, B)
def test_the_new_game_dialog_chooses_the_rules_and_the_supervision(qtbot):
    dialog = NewGameDialog(None, lang="de", initial=GameSetup())
    qtbot.addWidget(dialog)
    dialog.time_control.setCurrentText("25+10")
    assert "Regeln: Schnellschach" in dialog.time_meaning.text()       # from the time control (A: 15 to < 60)
    dialog.rules.setCurrentIndex(dialog.rules.findData("blitz"))
    assert "Regeln: Blitz" in dialog.time_meaning.text()
    dialog.supervised.setChecked(False)
    setup = dialog.setup()
    assert (setup.rules, setup.supervised) == ("blitz", False)
    table = table_setup(setup, Settings())
    assert (table.rules, table.supervised) == ("blitz", False)
    assert dialog.rules.accessibleName() == "Regeln" and dialog.supervised.accessibleDescription()


def test_the_rules_chosen_are_the_games(qtbot, app_window):
    c, _w = app_window
    _start(c, time_control="25+10", rules="blitz", supervised=False)
    assert c.session.snapshot.rules.kind == "blitz" and not c.session.snapshot.rules.supervised


# ---------------------------------------------------------------- the arbiter's procedures
def test_the_arbiter_adjourns_and_resumes_from_his_view(qtbot, app_window, clock):
    c, w = app_window
    _start(c)
    s = c.session
    w.open_arbiter()
    dialog = w.arbiter_dialog
    buttons = dialog.procedure_buttons
    assert buttons["adjourn"].isEnabled() and not buttons["resume"].isEnabled()
    assert not buttons["quickplay_draw"].isEnabled()
    assert all(b.accessibleName() and b.accessibleDescription() for b in buttons.values())
    dialog.show()
    buttons["adjourn"].setFocus()
    qtbot.keyClick(buttons["adjourn"], Qt.Key.Key_Space)               # the keyboard, not the mouse
    assert s.snapshot.sealing and s.snapshot.sealer == chess.WHITE
    assert "Anna schreibt den Abgabezug auf" in w.next_step.text()
    assert not buttons["adjourn"].isEnabled()
    # the keyboard is not left to fall onto the next button ("White wins"): it is on the next step
    qtbot.waitUntil(lambda: dialog.focusWidget() is dialog.step_line, timeout=5000)
    assert "Abgabezug" in dialog.step_line.accessibleName()
    clock.advance(20.0)
    assert c.hear("Springer Felix drei", typed=True)                     # his sealed move, on his own line
    assert s.snapshot.envelope_sealed and not s.snapshot.game_moves
    assert "Umschlag verschlossen" in w.next_step.text()
    dialog.refresh()
    assert buttons["resume"].isEnabled()
    clock.advance(86400.0)
    buttons["resume"].setFocus()
    qtbot.keyClick(buttons["resume"], Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: dialog.focusWidget() is dialog.step_line, timeout=5000)
    assert [m.uci() for m in s.snapshot.game_moves] == ["g1f3"]
    assert any(isinstance(e, MoveMade) and e.uci == "g1f3" for e in s.events)
    assert s.clock.running == chess.BLACK and not s.clock.paused


def test_the_arbiter_decides_a_quickplay_claim_from_his_view(qtbot, app_window, clock):
    c, w = app_window
    _start(c, time_control="16+0")
    s = c.session
    assert c.hear("Eva vier", typed=True)
    clock.advance(2.0)
    assert c.sighted_move("e2e4")                                        # the mirror; the app presses
    clock.advance(900.0)
    assert c.claim_quickplay("sighted", "cannot_win")
    assert s.clock.paused and s.snapshot.quickplay_claim is not None
    w.open_arbiter()
    buttons = w.arbiter_dialog.procedure_buttons
    assert buttons["quickplay_draw"].isEnabled() and not buttons["adjourn"].isEnabled()
    qtbot.keyClick(buttons["quickplay_reject"], Qt.Key.Key_Space)
    assert s.snapshot.quickplay_claim is None and not s.clock.paused and s.snapshot.result is None
    assert not buttons["quickplay_draw"].isEnabled()


# ---------------------------------------------------------------- the claim dialog
def test_the_claim_dialog_reads_who_claims_what(qtbot):
    dialog = ClaimDialog(None, lang="de", blind_name="Anna", sighted_name="Bernd")
    qtbot.addWidget(dialog)
    assert dialog.by_blind.isChecked() and dialog.kind.currentData() == CLAIMS[0]
    assert dialog.declared.isEnabled()                                  # a draw claim may name his move
    dialog.choose("sighted", "time")
    assert not dialog.declared.isEnabled()
    assert dialog.claim() == ("sighted", "time", None)
    dialog.choose("blind", "threefold", "Sf3")
    assert dialog.claim() == ("blind", "threefold", "Sf3")
    assert dialog.by_blind.text() == "Anna (sehbehindert)" and dialog.kind.accessibleName() == "Reklamation"
    assert [dialog.kind.itemData(i) for i in range(dialog.kind.count())] == list(CLAIMS)


def test_ctrl_shift_c_claims_from_the_keyboard(qtbot, app_window, clock):
    """Threefold repetition claimed through the dialog: the table judges it (Art. 9.2) and the game ends."""
    c, w = app_window
    _start(c, white_impaired=False, black_impaired=True, tactile="none")    # Anna (White) sighted
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"):
        clock.advance(1.0)
        mover_is_white = c.session.snapshot.to_move == chess.WHITE
        if mover_is_white:
            assert c.sighted_move(uci)                                   # the sighted player's move
        else:
            assert c.hear(uci, typed=True)                               # the blind player's announcement
            assert c.sighted_move(uci)                                   # mirrored on the sighted board
    assert c.session.snapshot.to_move == chess.WHITE and c.session.snapshot.plies == 8
    qtbot.keyClick(w, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dialog = w.claim_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(dialog.kind.hasFocus, timeout=2000)                  # the keyboard is on what is claimed
    assert dialog.by_sighted.isChecked()                                 # the player to move, offered first
    qtbot.keyClick(dialog.kind, Qt.Key.Key_Return)                       # Enter: the default button claims
    assert c.session.snapshot.result == "1/2-1/2" and c.session.snapshot.result_reason == "threefold_repetition"


def test_after_the_claim_dialog_the_keyboard_is_back_where_it_was(qtbot, app_window):
    c, w = app_window
    _start(c)
    w.board.setFocus()
    qtbot.waitUntil(w.board.hasFocus, timeout=2000)
    w.actions["claim"].trigger()
    dialog = w.claim_dialog
    qtbot.waitUntil(dialog.kind.hasFocus, timeout=2000)
    qtbot.keyClick(dialog.kind, Qt.Key.Key_Escape)                       # nothing claimed
    assert not dialog.isVisible() and c.session.snapshot.result is None
    qtbot.waitUntil(w.board.hasFocus, timeout=2000)


def test_a_decision_that_ends_the_game_is_asked_first(qtbot, app_window, clock):
    """"White wins (decision)" ends the game at once: the arbiter is asked, No is the default (Enter, Escape)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    c, w = app_window
    _start(c)
    w.open_arbiter()
    dialog = w.arbiter_dialog
    asked: list[str] = []

    def answer(key: Qt.Key) -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        asked.append(box.text())
        qtbot.keyClick(box, key)

    QTimer.singleShot(100, lambda: answer(Qt.Key.Key_Return))          # Enter: the default, No
    dialog.procedure_buttons["result_white"].click()
    assert asked and "endet sofort" in asked[0] and c.game.result is None
    QTimer.singleShot(100, lambda: answer(Qt.Key.Key_Escape))          # Escape: No
    dialog.procedure_buttons["result_white"].click()
    assert c.game.result is None and len(asked) == 2
    dialog.procedure("result_white", confirmed=True)
    assert c.game.result == "1-0"

"""The arbiter's view and the rest of the window's game handling, without a peg-board.

Moves on the tactile board are entered by hand (the input line's third mode),
as in a game without an electronic tactile board.
"""

from __future__ import annotations

from typing import Any

import chess
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QInputDialog

from blindchess.game.events import Announce, AnnounceIgnored, AnnounceUnclear, Note, RulingOverride, TimeRequest, Touch
from blindchess.table.speech import internal_ids
from blindchess.ui.app import build, journal_to_reopen
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


def _type(qtbot, window, mode: str, text: str) -> None:
    window.mode.setCurrentIndex(window.mode.findData(mode))
    window.input.setText(text)
    qtbot.keyClick(window.input, Qt.Key.Key_Return)


def _start(controller, **kw) -> None:
    setup: dict[str, Any] = dict(white="Anna", black="Bernd", white_impaired=True, tactile="none",
                                 time_control="90+30", lang="de")
    setup.update(kw)
    assert controller.new_game(GameSetup(**setup))


def test_a_wrong_mirror_leaves_the_scores_so_the_wrong_board_is_corrected(qtbot, app_window):
    """D.2.9 first case: 1. e4 announced and made, mirrored as e3 — both scores say e4, only the board is put right."""
    c, w = app_window
    _start(c)
    _type(qtbot, w, "tactile", "e2e4")
    _type(qtbot, w, "spoken", "Eva vier")
    _type(qtbot, w, "sighted", "e3")                       # the wrong mirror
    assert w.arbiter_dialog is not None and w.arbiter_dialog.isVisible()
    assert c.game.score("sighted") == c.game.score("blind") == ("e4",)   # a mirror writes no score
    dialog = w.arbiter_dialog
    assert dialog.ruling.kind == "correct-board"
    shown = [dialog.explanation.text(), dialog.summary.text(), dialog.apply_button.text(), dialog.retrace_button.text()]
    assert [internal_ids(text) for text in shown] == [[], [], [], []]
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert c.session.board("sighted").move_stack == [chess.Move.from_uci("e2e4")]
    assert c.session.snapshot.divergence is None
    assert "Bernd" in w.next_step.text()                 # the sighted player (Black) is to move


def test_the_arbiter_retraces_and_sets_the_clock_he_changed(qtbot, app_window, clock):
    c, w = app_window
    _start(c)
    clock.advance(20)
    _type(qtbot, w, "tactile", "d4")
    _type(qtbot, w, "spoken", "David vier")
    clock.advance(5)
    _type(qtbot, w, "sighted", "d3")
    dialog = w.arbiter_dialog
    assert dialog is not None and dialog.isVisible()
    assert c.session.clock.remaining(chess.BLACK, c.now()) == 5395   # Black's clock ran 5 s
    dialog.plies.setValue(0)
    dialog.clock_edits[chess.WHITE].setText("1:20:00")        # a text field: read whole by a screen reader
    qtbot.mouseClick(dialog.retrace_button, Qt.MouseButton.LeftButton)
    s = c.session
    assert isinstance(s.snapshot.rulings[-1], RulingOverride)
    assert s.snapshot.game_moves == s.snapshot.moves("sighted") == s.snapshot.moves("tactile") == ()
    assert s.clock.remaining(chess.WHITE, c.now()) == 4800                  # set by the arbiter
    assert s.clock.remaining(chess.BLACK, c.now()) == 5400   # left alone: as it was at half-move 0
    assert not dialog.isVisible()


def test_garbage_input_changes_nothing_and_says_why(qtbot, app_window):
    c, w = app_window
    _start(c)
    before = len(c.session.events)
    _type(qtbot, w, "sighted", "Qxz9!!")
    assert w.input.text() == "Qxz9!!"                  # kept for correcting
    assert w.message.text()                              # a reason, in German
    _type(qtbot, w, "spoken", "blubb blubb")
    _type(qtbot, w, "tactile", "\x00\x01 ;DROP")
    assert c.game.game_moves == c.game.moves("sighted") == c.game.moves("tactile") == ()
    assert all(isinstance(e, (Note, Announce, AnnounceUnclear, AnnounceIgnored)) for e in c.session.events[before:])


def test_requests_by_key_are_answered_aloud(qtbot, app_window, clock):
    c, w = app_window
    _start(c, white_impaired=False, black_impaired=True)
    said = []
    c.said.connect(said.append)
    _type(qtbot, w, "sighted", "e4")
    w.board.move_cursor(chess.E4)
    for action in ("request_position", "request_last_move", "request_pieces", "request_time"):
        w.actions[action].trigger()       # each asked once the one before was heard (a newer one replaces it)
        for _ in range(12):
            clock.advance(5)
    assert any("König" in text for text in said)         # the whole position
    assert sum("Eva vier" in text for text in said) >= 2    # the move announced, then the last move again
    assert any("Bauer" in text for text in said)           # where the pawns stand
    assert isinstance(c.session.events[-1], TimeRequest)  # D.2.10 d: only on request, journaled


def test_a_promotion_asks_for_the_piece(qtbot, app_window):
    c, w = app_window
    _start(c, white_impaired=False, black_impaired=True, time_control="")
    s = c.session
    s.import_moves([chess.Move.from_uci(u) for u in
                    ("a2a4", "h7h6", "a4a5", "h6h5", "a5a6", "h5h4", "a6b7", "h4h3")], c.now())
    c.changed.emit()

    def choose_knight() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue("Springer")
        dialog.accept()

    QTimer.singleShot(200, choose_knight)
    for square in (chess.B7, chess.A8):
        qtbot.mouseClick(w.board, Qt.MouseButton.LeftButton, pos=w.board.square_rect(square).center().toPoint())
    assert s.snapshot.game_moves[-1] == chess.Move.from_uci("b7a8n")


def test_the_last_unfinished_game_is_reopened(qtbot):
    settings = Settings(lang="de")
    app, c, w = build(settings)
    qtbot.addWidget(w)
    _start(c)
    c.tactile_text("e4")
    c.hear("Eva vier", typed=True)
    c.sighted_text("e4")
    c.sighted_text("c5")
    path = c.session.snapshot.journal_path
    w.close()                                              # remembers the journal, closes it
    again = journal_to_reopen(None, Settings.load())
    assert again == path
    app, c2, w2 = build(Settings.load())
    qtbot.addWidget(w2)
    assert c2.open_journal(again)
    assert list(c2.session.snapshot.game_moves) == [chess.Move.from_uci("e2e4"), chess.Move.from_uci("c7c5")]
    assert c2.score("blind") == c2.score("sighted") == ["e4", "c5"]  # both keepers write every move (D.2.7)
    w2.refresh()
    assert w2.scores.table.item(0, 3).text() == "e4"
    assert "Anna" in w2.next_step.text()
    c2.shutdown()


def test_new_game_dialog_checks_before_starting(qtbot):
    dialog = NewGameDialog(None, lang="de")
    qtbot.addWidget(dialog)
    dialog.time_control.setEditText("90 Äpfel")
    dialog._accept()
    assert dialog.chosen is None and "90 Äpfel" in dialog.problem.text()
    dialog.time_control.setEditText("40/5400+30:1800+30")
    dialog.white_impaired.setChecked(False)
    dialog.black_impaired.setChecked(False)
    dialog._accept()
    assert dialog.chosen is None and "sehbehindert" in dialog.problem.text()
    dialog.black_impaired.setChecked(True)
    dialog.white.setText("Anna")
    dialog.black.setText("Bernd")
    dialog.swap.click()
    dialog.fischer.setChecked(True)
    dialog.number.setValue(123)
    dialog._accept()
    chosen = dialog.chosen
    assert (chosen.white, chosen.black, chosen.white_impaired, chosen.black_impaired) == ("Bernd", "Anna", True, False)
    assert chosen.chess960 == 123 and chosen.time_control == "40/5400+30:1800+30"


def test_chess960_game_and_pgn_export(qtbot, app_window, tmp_path):
    c, w = app_window
    _start(c, chess960=0, white_impaired=False, black_impaired=True, time_control="")
    assert c.session.snapshot.start.chess960 and c.board("sighted").board_fen() == chess.Board.from_chess960_pos(0).board_fen()
    _type(qtbot, w, "sighted", "e4")
    assert c.save_pgn(tmp_path / "game.pgn")
    text = (tmp_path / "game.pgn").read_text(encoding="utf-8")
    assert "1. e4" in text and "Chess960" in text


def test_sighted_touch_draw_offer_and_the_blind_players_answer(qtbot, app_window):
    c, w = app_window
    _start(c)                                              # Anna (White) is blind, Bernd (Black) sighted
    s = c.session
    w.board.move_cursor(chess.G8)
    w.actions["sighted_touch"].trigger()                   # D.2.10 e
    touch = [e for e in s.events if isinstance(e, Touch)][-1]
    assert touch.board == "sighted" and touch.square == "g8"
    w.actions["sighted_draw"].trigger()
    assert s.snapshot.draw_offer == chess.BLACK
    # the blind player is asked at once whether he accepts; the question says that the game then ends drawn
    assert s.snapshot.result is None and w.question.isVisible()
    assert "endet dann unentschieden" in c.open_question.text
    assert [b.text() for b in w.question.buttons] == ["Ja (Alt+J)", "Nein (Alt+N)"]
    qtbot.keyClick(w, Qt.Key.Key_J, Qt.KeyboardModifier.AltModifier)   # confirmed by key (never a board key)
    assert s.snapshot.result == "1/2-1/2" and not w.question.isVisible()
    assert "1/2-1/2" in w.next_step.text()


def test_a_broken_journal_is_reported_in_the_window_and_changes_nothing(qtbot, app_window, tmp_path):
    c, w = app_window
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"\x00\xff garbage {not json\n")
    assert not c.open_journal(broken)
    assert c.session is None
    assert "broken.jsonl" in w.message.text()
    assert "Keine Partie" in w.next_step.text()

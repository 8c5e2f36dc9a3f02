"""The dialogs' text fields are one-line plain-text fields (ui/line.py: a screen reader reads them whole) that behave
as line edits: Enter presses the dialog's default button, Tab selects what stands there, the layout is a line
edit's in every look and text size, and what is typed reaches the game (GameSetup) and the claim."""

from __future__ import annotations

import datetime
import os
import stat

import pytest
from PySide6.QtCore import QMimeData, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from blindchess.ui import a11y, theme
from blindchess.ui.claims import ClaimDialog
from blindchess.ui.line import LineDialog, LineInput
from blindchess.ui.new_game import GameSetup, NewGameDialog
from blindchess.ui.settings import Settings
from blindchess.ui.settings_dialog import SettingsDialog
from blindchess.ui.text import t
from tests.support.ui_window import TestClock, open_window

TODAY = datetime.date(2025, 6, 1)
#: The new-game dialog's text fields, what is typed into each and what the game gets (GameSetup's field).
TYPED = [("white", "Anna", "white", "Anna"), ("black", "Bernd", "black", "Bernd"),
         ("assistant", "Cleo", "assistant", "Cleo"), ("event_name", "Vereinsmeisterschaft 2025", "event",
                                                         "Vereinsmeisterschaft 2025"),
         ("site", "Bern", "site", "Bern"), ("date", "3.5.2025", "date", "2025.05.03"), ("round", "4.2", "round", "4.2")]


def _show(qtbot, dialog: QDialog) -> QDialog:
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def _type(qtbot, field: QWidget, text: str) -> None:
    """Into ``field`` as a person does: to the field, Ctrl+A, type (ASCII: Qt's test keys know no more)."""
    field.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(field, text)


def _engine(folder) -> str:
    path = folder / "stockfish"
    path.write_text("#!/bin/sh\n", encoding="utf-8")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return str(path)


def _bare_line_edits(dialog: QDialog) -> list[str]:
    """Line edits a user types into that are not a combo box's or spin box's own."""
    return [f.objectName() or f.accessibleName() for f in dialog.findChildren(QLineEdit)
            if not isinstance(f.parentWidget(), (QComboBox, QAbstractSpinBox))]


# ---------------------------------------------------------------------------- which fields
def test_the_dialogs_a_blind_user_fills_in_have_no_bare_line_edit(qtbot):
    new_game = NewGameDialog(None, lang="de", today=TODAY)
    claim = ClaimDialog(None, lang="de", blind_name="Anna", sighted_name="Bernd")
    settings = SettingsDialog(None, Settings(), lang="de")
    for dialog in (new_game, claim, settings):
        qtbot.addWidget(dialog)
        assert _bare_line_edits(dialog) == [], dialog.objectName()
    for name in ("white", "black", "assistant", "event_name", "site", "date", "round", "engine_path"):
        assert isinstance(getattr(new_game, name), LineInput), name
    assert isinstance(claim.declared, LineInput)


# ---------------------------------------------------------------------------- Enter accepts, the values arrive
@pytest.mark.parametrize(("field", "typed", "attribute", "value"), TYPED)
def test_enter_in_a_text_field_starts_the_game_with_what_was_typed(qtbot, field, typed, attribute, value):
    dialog = _show(qtbot, NewGameDialog(None, lang="de", today=TODAY))
    line = getattr(dialog, field)
    _type(qtbot, line, typed)
    assert line.text() == typed                                  # what stood there (a date, nothing) replaced
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.chosen is not None
    assert getattr(dialog.chosen, attribute) == value


def test_enter_in_the_engine_field_starts_a_practice_game_with_that_engine(qtbot, tmp_path):
    dialog = _show(qtbot, NewGameDialog(None, lang="de", today=TODAY))
    dialog.computer.setChecked(True)
    engine = _engine(tmp_path)
    _type(qtbot, dialog.engine_path, engine)
    qtbot.keyClick(dialog.engine_path, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)   # the keypad's Enter
    assert dialog.chosen is not None
    assert (dialog.chosen.opponent, dialog.chosen.engine_path, dialog.chosen.black) == ("engine", engine, "Stockfish")


def test_enter_with_a_bad_date_says_what_is_wrong_and_stays_in_the_field(qtbot):
    dialog = _show(qtbot, NewGameDialog(None, lang="de", today=TODAY))
    _type(qtbot, dialog.date, "31.2.2025")
    qtbot.keyClick(dialog.date, Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.chosen is None and "31.2.2025" in dialog.problem.text()
    assert dialog.focusWidget() is dialog.date                    # the dialog's keyboard is in the date again
    _type(qtbot, dialog.date, "28.2.2025")                        # put right: Enter starts it
    qtbot.keyClick(dialog.date, Qt.Key.Key_Return)
    assert dialog.chosen is not None and dialog.chosen.date == "2025.02.28"


def test_every_text_field_round_trips_through_the_dialog(qtbot, tmp_path):
    earlier = GameSetup(white="Anna Łukasiewicz", black="Bernd", assistant="Cäsar", event="Offene Stadtmeisterschaft",
                        site="Bern", date="2024.11.02", round="7", opponent="engine", engine_path=_engine(tmp_path),
                        white_impaired=True, black_impaired=False, time_control="5+3")
    dialog = _show(qtbot, NewGameDialog(None, lang="de", initial=earlier, today=TODAY))
    assert (dialog.white.text(), dialog.site.text(), dialog.engine_path.text()) == (
        "Anna Łukasiewicz", "Bern", earlier.engine_path)
    qtbot.keyClick(dialog.round, Qt.Key.Key_Return)
    got = dialog.chosen
    assert got is not None
    for name in ("white", "black", "assistant", "event", "site", "date", "round", "opponent", "engine_path",
                 "time_control"):
        assert getattr(got, name) == getattr(earlier, name), name
    dialog._swap()                                                # "Farben tauschen" moves the names with the sides
    assert (dialog.white.text(), dialog.black.text()) == ("Bernd", "Anna Łukasiewicz")


def test_enter_in_the_claim_dialogs_move_field_claims_with_that_move(qtbot):
    dialog = _show(qtbot, ClaimDialog(None, lang="de", blind_name="Anna", sighted_name="Bernd"))
    dialog.choose("blind", "fifty")
    _type(qtbot, dialog.declared, "Springer Felix drei")
    qtbot.keyClick(dialog.declared, Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.claim() == ("blind", "fifty", "Springer Felix drei")


# ---------------------------------------------------------------------------- as a line edit does
class _Form(QDialog):
    """A dialog with one field (a ``QLineEdit`` or a :class:`LineInput`) and OK / Cancel."""

    def __init__(self, kind: type, connected: bool) -> None:
        super().__init__()
        self.field = kind("Anna", self)
        self.returns = 0
        if connected:
            self.field.returnPressed.connect(self._count)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.field)
        layout.addWidget(buttons)

    def _count(self) -> None:
        self.returns += 1


@pytest.mark.parametrize("connected", [False, True])
@pytest.mark.parametrize(("key", "modifier"), [
    (Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier),
    (Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier), (Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)])
def test_enter_and_escape_do_in_a_dialog_what_they_do_with_a_line_edit(qtbot, key, modifier, connected):
    outcome = {}
    for kind in (QLineEdit, LineInput):
        form = _Form(kind, connected)
        _show(qtbot, form)
        form.field.setFocus()
        qtbot.waitUntil(form.field.hasFocus, timeout=2000)
        qtbot.keyClick(form.field, key, modifier)
        outcome[kind.__name__] = (form.result(), form.isVisible(), form.returns, form.field.text())
    assert outcome["LineInput"] == outcome["QLineEdit"], outcome
    assert outcome["LineInput"][3] == "Anna"                        # never a second line


def test_tab_selects_the_text_and_typing_replaces_it(qtbot):
    dialog = _show(qtbot, NewGameDialog(None, lang="de", initial=GameSetup(white="Anna", black="Bernd"),
                                        today=TODAY))
    dialog.white.setFocus()
    qtbot.waitUntil(dialog.white.hasFocus, timeout=2000)
    qtbot.keyClick(dialog.white, Qt.Key.Key_Tab)
    assert dialog.black.hasFocus()
    qtbot.keyClicks(dialog.black, "Bea")                           # at once after Tab: still replaces "Bernd"
    assert dialog.black.text() == "Bea"
    qtbot.keyClick(dialog.black, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: dialog.white.textCursor().selectedText() == "Anna", timeout=2000)


def test_pasted_lines_become_one(qtbot):
    line = LineInput("")
    qtbot.addWidget(line)
    data = QMimeData()
    data.setText("Vereins-\nmeisterschaft\r\n2025")
    line.insertFromMimeData(data)
    assert line.text() == "Vereins- meisterschaft 2025"
    line.setText("Anna\nBernd")
    assert line.text() == "Anna Bernd"


def test_the_placeholder_is_kept_whole_though_shown_shortened(qtbot):
    dialog = NewGameDialog(None, lang="de", today=TODAY)
    qtbot.addWidget(dialog)
    hint = t("new.engine_path_automatic", "de")
    assert dialog.white.placeholderText() == "Weiß" and dialog.engine_path.placeholderText() == hint
    assert dialog.engine_path.minimumWidth() >= dialog.engine_path.fontMetrics().horizontalAdvance(hint)   # shown whole


# ---------------------------------------------------------------------------- a line edit's size, the text seen
@pytest.mark.parametrize("look", ["light", "high-contrast"])
@pytest.mark.parametrize("scale", [1.0, 2.0, 3.0])
def test_a_line_input_is_as_large_as_a_line_edit_and_shows_its_text_whole(qtbot, look, scale):
    app = QApplication.instance()
    theme.apply(app, look, scale)
    try:
        holder = QWidget()
        layout = QVBoxLayout(holder)
        edit, line = QLineEdit("Anna Ågjy", holder), LineInput("Anna Ågjy", holder)
        layout.addWidget(edit)
        layout.addWidget(line)
        _show(qtbot, holder)
        assert line.sizeHint() == edit.sizeHint() and line.minimumSizeHint().height() == edit.minimumSizeHint().height()
        assert line.height() == edit.height()
        line.setFocus()
        qtbot.keyClicks(line, " Bernd")
        qtbot.keyClick(line, Qt.Key.Key_Home)
        # the only line is never scrolled away (the editor scrolls by lines) and fits the field's height
        assert line.verticalScrollBar().maximum() == 0 and line.verticalScrollBar().value() == 0
        block = line.document().documentLayout().blockBoundingRect(line.document().firstBlock())
        assert block.height() < line.viewport().height()
    finally:
        theme.apply(app, "light", 1.0)


# ---------------------------------------------------------------------------- a score entry corrected (F2)
def _corrected_by_keys(qtbot, typed: str | None) -> tuple[list[str], dict[str, object]]:
    """1. e4 on both boards; F2 on the blind player's entry; ``typed`` and Enter (None: Escape). The blind
    player's score after it, and what the dialog showed."""
    seen: dict[str, object] = {}
    with open_window(qtbot, "de", clock=TestClock()) as (controller, window):
        assert controller.new_game(GameSetup(white="Anna", black="Bernd", tactile="none", time_control="", lang="de"))
        assert controller.hear("e4", typed=True) and controller.sighted_move("e2e4")
        window.refresh()
        table = window.scores.table
        window.activateWindow()
        table.setFocus()
        qtbot.waitUntil(table.hasFocus, timeout=2000)
        table.setCurrentCell(0, 1)                                     # move 1, the blind player's score

        def answer() -> None:
            dialog = QApplication.activeModalWidget()
            seen["dialog"] = dialog
            if not isinstance(dialog, LineDialog):
                if dialog is not None:
                    dialog.close()
                return
            seen.update(text=dialog.line.text(), selected=dialog.line.textCursor().selectedText(),
                        name=dialog.line.accessibleName(), unlabelled=a11y.missing_labels(dialog))
            if typed is None:
                qtbot.keyClick(dialog.line, Qt.Key.Key_Escape)
            else:
                qtbot.keyClicks(dialog.line, typed)
                qtbot.keyClick(dialog.line, Qt.Key.Key_Return)

        QTimer.singleShot(100, answer)
        qtbot.keyClick(table, Qt.Key.Key_F2)
        score = controller.score("blind")
        qtbot.waitUntil(table.hasFocus, timeout=2000)                  # the scoresheet has the keyboard again
        seen["back"] = QApplication.focusWidget() is table
    return score, seen


def test_f2_corrects_a_score_entry_in_a_line_read_whole(qtbot):
    score, seen = _corrected_by_keys(qtbot, "e3")
    assert isinstance(seen["dialog"], LineDialog)
    assert (seen["text"], seen["selected"]) == ("e4", "e4")          # the entry as written, selected: typing replaces it
    assert seen["name"] == "Eintrag bei Zug 1, so wie er geschrieben ist:" and seen["unlabelled"] == []
    assert score == ["e3"]                                           # Enter took it


def test_escape_leaves_the_score_entry_as_it_was(qtbot):
    score, seen = _corrected_by_keys(qtbot, None)
    assert isinstance(seen["dialog"], LineDialog) and score == ["e4"]

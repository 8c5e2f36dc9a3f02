"""The new-game dialog: Enter in the time-control field, event/site/date/round,
the practice opponent, the sighted player's board, and every field labelled and reachable by keys."""

from __future__ import annotations

import datetime
import os
import stat

import chess.pgn
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from blindchess.ui.line import LineInput
from blindchess.ui.new_game import GameSetup, NewGameDialog, describe_time_control, pgn_date
from tests.support.ui_window import TestClock, open_window

TODAY = datetime.date(2025, 6, 1)


@pytest.fixture
def dialog(qtbot):
    dlg = NewGameDialog(None, lang="de", today=TODAY)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def _type_time_control(qtbot, dlg: NewGameDialog, text: str) -> None:
    line = dlg.time_control.lineEdit()
    assert line is not None
    line.setFocus()
    line.selectAll()
    qtbot.keyClicks(line, text)


# ---------------------------------------------------------------------------- the time control
def test_enter_in_the_time_control_field_starts_the_game_with_the_time_typed(qtbot, dialog):
    entries = dialog.time_control.count()
    _type_time_control(qtbot, dialog, "2+0")
    qtbot.keyClick(dialog.time_control.lineEdit(), Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.chosen is not None and dialog.chosen.time_control == "2+0"
    assert dialog.time_control.count() == entries           # no list entry without a value was added


def test_enter_with_an_unreadable_time_control_says_what_is_wrong_and_stays_open(qtbot, dialog):
    _type_time_control(qtbot, dialog, "2+x")
    assert dialog.time_meaning.text() == "nicht lesbar"
    qtbot.keyClick(dialog.time_control.lineEdit(), Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.chosen is None and dialog.result() != QDialog.DialogCode.Accepted
    assert "„2+x“" in dialog.problem.text() and "90+30" in dialog.problem.text()
    assert dialog.time_control.hasFocus() or dialog.time_control.lineEdit().hasFocus()
    _type_time_control(qtbot, dialog, "5+3")                 # put right: Enter starts it
    assert dialog.time_meaning.accessibleName() == "Bedeutet: 5 Min. + 3 Sek. je Zug; Regeln: Blitz"   # read with its meaning
    qtbot.keyClick(dialog.time_control.lineEdit(), Qt.Key.Key_Return)
    assert dialog.chosen is not None and dialog.chosen.time_control == "5+3"


def test_the_no_clock_entry_is_the_only_way_to_a_game_without_a_clock(qtbot, dialog):
    dialog.time_control.setCurrentIndex(dialog.time_control.findText("ohne Uhr"))
    assert dialog.time_meaning.text() == "ohne Uhr"
    dialog.ok.click()
    assert dialog.chosen is not None and dialog.chosen.time_control == ""


@pytest.mark.parametrize(("text", "lang", "meaning"), [
    ("90+30", "de", "90 Min. + 30 Sek. je Zug"),
    ("2+0", "de", "2 Min."),
    ("40/5400+30:1800+30", "de", "40 Züge in 90 Min. + 30 Sek. je Zug, dann 30 Min. für den Rest der Partie + 30 Sek. je Zug"),
    ("90d5", "en", "90 min, 5 s delay per move"),
    ("1h30+30s", "en", "90 min + 30 s per move"),
    ("", "en", "no clock"),
])
def test_the_time_control_is_read_back_as_a_person_says_it(text, lang, meaning):
    assert describe_time_control(text, lang) == meaning


# ---------------------------------------------------------------------------- the event (PGN headers)
@pytest.mark.parametrize(("text", "pgn"), [
    ("2025.06.01", "2025.06.01"), ("2025-6-1", "2025.06.01"), ("1.6.2025", "2025.06.01"),
    ("06/01/2025", "2025.06.01"), ("", ""), ("2025.??.??", "2025.??.??"),
    ("31.2.2025", None), ("gestern", None), ("2025.13.01", None),
])
def test_dates_are_read_in_the_usual_forms_and_written_as_pgn(text, pgn):
    assert pgn_date(text) == pgn


def test_event_site_date_round_reach_the_setup_and_its_headers(qtbot, dialog):
    assert dialog.date.text() == "2025.06.01"                # today, as PGN writes it
    dialog.event_name.setText("Vereinsmeisterschaft 2025")
    dialog.site.setText("Berlin")
    dialog.date.setText("3.5.2025")
    dialog.round.setText("4.2")
    dialog.ok.click()
    chosen = dialog.chosen
    assert chosen is not None
    assert chosen.headers() == {"Event": "Vereinsmeisterschaft 2025", "Site": "Berlin", "Date": "2025.05.03",
                                "Round": "4.2"}


def test_a_bad_date_is_named_and_the_focus_goes_to_the_date(qtbot, dialog):
    dialog.date.setText("31.2.2025")
    dialog.ok.click()
    assert dialog.chosen is None and "31.2.2025" in dialog.problem.text()
    assert dialog.date.hasFocus()


def test_empty_event_fields_are_pgn_unknowns():
    assert GameSetup().headers() == {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?"}


def test_the_headers_reach_the_game_record(qtbot, tmp_path):
    with open_window(qtbot, "de", clock=TestClock()) as (controller, window):
        setup = GameSetup(white="Anna", black="Bernd", tactile="none", time_control="90+30", lang="de",
                          event="Offene Stadtmeisterschaft", site="Leipzig", date="2025.06.01", round="3")
        assert controller.new_game(setup)
        assert controller.save_pgn(tmp_path / "game.pgn")
    game = chess.pgn.read_game((tmp_path / "game.pgn").open(encoding="utf-8"))
    assert game is not None
    assert (game.headers["Event"], game.headers["Site"], game.headers["Date"], game.headers["Round"]) == (
        "Offene Stadtmeisterschaft", "Leipzig", "2025.06.01", "3")


# ---------------------------------------------------------------------------- opponent and sighted board
def test_a_practice_game_against_the_computer(qtbot, dialog, tmp_path):
    assert not dialog.level.isEnabled() and not dialog.coaching.isEnabled()
    dialog.computer.setChecked(True)
    assert dialog.level.isEnabled() and dialog.engine_path.isEnabled() and dialog.coaching.isEnabled()
    dialog.level.setCurrentIndex(dialog.level.findData(5))
    dialog.coaching.setChecked(True)
    engine = tmp_path / "my-engine"
    engine.write_text("#!/bin/sh\n", encoding="utf-8")
    os.chmod(engine, os.stat(engine).st_mode | stat.S_IXUSR)
    dialog.engine_path.setText(str(engine))
    dialog.ok.click()
    chosen = dialog.chosen
    assert chosen is not None
    assert (chosen.opponent, chosen.engine_level, chosen.engine_path, chosen.coaching) == (
        "engine", 5, str(engine), True)
    assert dialog.level.currentText() == "5 – Experte"


def test_the_computer_needs_exactly_one_visually_impaired_player_and_an_engine(qtbot, dialog, tmp_path):
    dialog.computer.setChecked(True)
    dialog.black_impaired.setChecked(True)                  # both blind: no sighted side to play
    dialog.ok.click()
    assert dialog.chosen is None and "genau ein Spieler" in dialog.problem.text()
    dialog.black_impaired.setChecked(False)
    missing = tmp_path / "no-such-engine"
    dialog.engine_path.setText(str(missing))
    dialog.ok.click()
    assert dialog.chosen is None and str(missing) in dialog.problem.text() and dialog.engine_path.hasFocus()


def test_a_human_opponent_has_no_coaching(qtbot, dialog):
    dialog.computer.setChecked(True)
    dialog.coaching.setChecked(True)
    dialog.human.setChecked(True)
    assert not dialog.coaching.isEnabled()
    dialog.ok.click()
    assert dialog.chosen is not None and (dialog.chosen.opponent, dialog.chosen.coaching) == ("human", False)


def test_the_sighted_players_dgt_board_and_its_port(qtbot, dialog):
    assert not dialog.sighted_port.isEnabled()
    dialog.sighted_board.setCurrentIndex(dialog.sighted_board.findData("dgt"))
    assert dialog.sighted_port.isEnabled()
    dialog.ok.click()
    assert dialog.chosen is not None and (dialog.chosen.sighted_board, dialog.chosen.sighted_port) == ("dgt", "")
    again = NewGameDialog(None, lang="de", initial=dialog.chosen, today=TODAY)
    qtbot.addWidget(again)
    again.sighted_port.setCurrentText("/dev/ttyUSB7")
    again.ok.click()
    assert again.chosen is not None and again.chosen.sighted_port == "/dev/ttyUSB7"


def test_the_dialog_starts_from_an_earlier_setup(qtbot):
    earlier = GameSetup(white="Anna", black="Bernd", event="Cup", site="Graz", date="2024.11.02", round="7",
                        opponent="engine", engine_level=4, coaching=True, sighted_board="dgt", time_control="5+3")
    dlg = NewGameDialog(None, lang="en", initial=earlier, today=TODAY)
    qtbot.addWidget(dlg)
    got = dlg.setup()
    for name in ("white", "black", "event", "site", "date", "round", "opponent", "engine_level", "coaching",
                 "sighted_board", "time_control"):
        assert getattr(got, name) == getattr(earlier, name), name


def test_old_callers_keep_working():
    setup = GameSetup(white="A", black="B", white_impaired=True, tactile="none", time_control="90+30", lang="de")
    assert (setup.opponent, setup.sighted_board, setup.event, setup.coaching) == ("human", "window", "", False)


# ---------------------------------------------------------------------------- keyboard and screen reader
def _fields(dlg: NewGameDialog) -> list[QWidget]:
    kinds = (LineInput, QLineEdit, QComboBox, QSpinBox, QAbstractButton)
    found: list[QWidget] = []
    for widget in dlg.findChildren(QWidget):
        if isinstance(widget, kinds) and not isinstance(widget.parentWidget(), (QComboBox, QSpinBox)):
            found.append(widget)
    return found


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_field_has_a_name_a_description_and_a_caption(qtbot, lang):
    dlg = NewGameDialog(None, lang=lang, today=TODAY)
    qtbot.addWidget(dlg)
    fields = _fields(dlg)
    assert len(fields) >= 24
    for widget in fields:
        assert widget.accessibleName() and widget.accessibleDescription(), widget
    buddies = {label.buddy() for label in dlg.findChildren(QLabel) if label.buddy() is not None}
    for widget in (dlg.white, dlg.black, dlg.assistant, dlg.event_name, dlg.site, dlg.date, dlg.round,
                   dlg.time_control, dlg.level, dlg.tactile, dlg.sighted_board, dlg.sighted_port, dlg.language):
        assert widget in buddies, widget.accessibleName()   # Alt+letter of its caption, read with it
    for box in (dlg.white_impaired, dlg.black_impaired, dlg.coaching):
        assert isinstance(box, QCheckBox) and box.text() == box.accessibleName()
    assert dlg.swap.accessibleName() == dlg.swap.text()       # "Farben tauschen", not "Farben"


def test_tab_reaches_every_field_in_reading_order(qtbot, dialog):
    dialog.computer.setChecked(True)
    dialog.sighted_board.setCurrentIndex(dialog.sighted_board.findData("dgt"))
    dialog.white.setFocus()
    seen: list[QWidget] = []
    for _ in range(60):
        widget = dialog.focusWidget()
        if widget is None or widget in seen:
            break
        seen.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    owners = [w.parentWidget() if isinstance(w.parentWidget(), QComboBox) else w for w in seen]
    order = [dialog.white, dialog.black, dialog.swap, dialog.white_impaired, dialog.black_impaired, dialog.assistant,
             dialog.event_name, dialog.site, dialog.date, dialog.round, dialog.time_control, dialog.level,
             dialog.engine_path, dialog.browse, dialog.coaching, dialog.tactile, dialog.sighted_board,
             dialog.sighted_port, dialog.language, dialog.ok]
    positions = [owners.index(w) for w in order]
    assert positions == sorted(positions)


def test_the_computer_gets_a_name_on_the_scoresheet(qtbot, dialog, tmp_path):
    engine = tmp_path / "stockfish"
    engine.write_text("#!/bin/sh\n", encoding="utf-8")
    os.chmod(engine, os.stat(engine).st_mode | stat.S_IXUSR)
    dialog.white.setText("Anna")
    dialog.computer.setChecked(True)
    dialog.engine_path.setText(str(engine))
    dialog.ok.click()
    assert dialog.chosen is not None and (dialog.chosen.white, dialog.chosen.black) == ("Anna", "Stockfish")


def test_the_problem_line_is_read_by_a_screen_reader(qtbot, dialog):
    dialog.date.setText("gestern")
    dialog.ok.click()
    assert "gestern" in dialog.problem.text() and "gestern" in dialog.problem.accessibleName()

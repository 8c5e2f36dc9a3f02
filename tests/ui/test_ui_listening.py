"""What the blind player hears, offscreen: the window's notices through Orca, one language at once, the move line's
NVUI commands, the keyboard kept in the move line, answers never held back, the arbiter's clock fields.

The whole game under the real Orca is tests/ui/test_orca_listening.py; here the parts, on a test clock.
"""

from __future__ import annotations

import chess
import pytest
from PySide6.QtWidgets import QApplication, QStatusBar

from blindchess.adapters.speech.tts import Speaker
from blindchess.base import speaking_time
from blindchess.language import describe_square
from blindchess.table.table import TableSetup
from blindchess.ui.a11y import Notices
from blindchess.ui.arbiter import clock_seconds, clock_text
from blindchess.ui.board import g
from blindchess.ui.controller import GameController
from blindchess.ui.main_window import MainWindow
from blindchess.ui.new_game import GameSetup
from blindchess.ui.settings import Settings
from blindchess.ui.shortcuts import nvui_command
from blindchess.ui.text import t
from tests.support.recording_reader import RecordingReader

pytest.importorskip("pytestqt")


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
        win.reader = RecordingReader()
        controller.voice.use("screenreader", lang="de", screen_reader=win.reader)
        yield win
        controller.shutdown()


def _start(window, **setup) -> GameController:
    c = window.controller
    assert c.start(TableSetup(**{"white": "Anna", "black": "Bernd", "blind": "white", "tactile": "none",
                                 "lang": "de", "time_control": "90+30", "auto_press": True, **setup}), window.journal)
    window.refresh()
    return c


def _texts(window) -> list[str]:
    return [text for _priority, text in window.reader.texts]


# ---------------------------------------------------------------- the notices through Orca
def test_notices_go_one_at_a_time_by_priority_and_only_the_same_request_replaces(qtbot):
    bar = QStatusBar()
    qtbot.addWidget(bar)
    notices = Notices(bar, wpm=600.0)
    notices.say("Übertragung: http://127.0.0.1:8765/", "notice", None)
    notices.say("Darstellung: normal, Schriftgröße 80 %", "notice", "look")
    notices.say("Darstellung: normal, Schriftgröße 60 %", "notice", "look")      # replaces the one waiting
    notices.say("Eva fünf", "move")                                               # goes before the notices
    assert notices.presented == ["Übertragung: http://127.0.0.1:8765/"]          # the first: at once, whole
    qtbot.waitUntil(lambda: len(notices.presented) == 3, timeout=5000)
    assert notices.presented == ["Übertragung: http://127.0.0.1:8765/", "Eva fünf",
                                 "Darstellung: normal, Schriftgröße 60 %"]
    notice = [w for w in bar.children() if w.objectName() == "notice" and not w.isHidden()]
    assert len(notice) == 1 and notice[0].accessibleName() == ""      # Orca says the label's text, once
    qtbot.waitUntil(lambda: not notices._timer.isActive(), timeout=5000)
    first = notices.say("Reihe fünf: Eva fünf, schwarzer Bauer.", "answer", "request")
    notices.say("Ihr Gegner: Bernd, Schwarz.", "answer", "request")     # the same request: at once, not after it
    assert notices.presented[-2:] == ["Reihe fünf: Eva fünf, schwarzer Bauer.", "Ihr Gegner: Bernd, Schwarz."]
    notices.say("Springer Cäsar sechs", "move")                        # another text: waits, cuts nothing
    notices.say("Reihe vier: leer.", "answer", "request")               # … and the request after it replaces …
    notices.say("Ihr Gegner: Bernd, Schwarz, Elo 1850.", "answer", "request")    # … the one still waiting
    qtbot.waitUntil(lambda: len(notices.presented) == 7, timeout=5000)
    assert notices.presented[-2:] == ["Springer Cäsar sechs", "Ihr Gegner: Bernd, Schwarz, Elo 1850."]
    assert first > 0 and "Reihe vier: leer." not in notices.presented
    notices.close()


# ---------------------------------------------------------------- 8: answers never held back
def test_an_answer_asked_while_a_long_one_is_said_is_given_at_once_without_time_passing(window):
    """The answers to his requests are one request: Ctrl+G while the position is being read is answered at once —
    not when the position would have been read to its end (what made answers 10-26 s late)."""
    c = _start(window)
    window.now[0] = 5.0
    window.on_request_position()
    assert _texts(window)[-1].startswith("Weiß: König Eva eins")
    position = _texts(window)[-1]
    assert speaking_time(position) > 20.0                               # half a minute to hear
    window.on_request_opponent()                                        # the clock stands still: no tick
    assert _texts(window)[-1] == "Ihr Gegner: Bernd, Schwarz."
    assert window.reader.cut_texts == [position]
    window.on_request_last_move()
    assert _texts(window)[-1] == "Es wurde noch kein Zug gemacht."
    assert c.session is not None


def test_a_text_waiting_behind_another_begins_when_that_one_ends_not_at_the_next_beat(qtbot, tmp_path):
    """The controller ticks the table the moment its next text is due (a single-shot timer), not at the next beat of
    the 200-ms timer: the due time is asked of the table after every call."""
    with Speaker("de", engine="text") as speaker:
        controller = GameController(Settings(lang="de", earcons=False, speech_channel="app"), speaker=speaker)
        try:
            assert controller.start(TableSetup(white="Anna", black="Bernd", blind="white", tactile="none", lang="de"),
                                    tmp_path / "g.jsonl")
            before = controller.now()
            controller.hear("e4", typed=True)           # the greeting is still being said: the confirmation waits
            due = controller.table.next_due(controller.now())
            assert due is not None and controller._due.isActive()
            # set for the due time, however slow the machine: no later than due as seen before the call (a
            # millisecond's rounding), and beyond the next beat of the 200-ms timer while due is still far
            remaining = controller._due.remainingTime()
            after = controller.now()
            assert remaining <= int((due - before) * 1000) + 1
            assert remaining > 200 or due - after < 0.5
        finally:
            controller.shutdown()


# ---------------------------------------------------------------- 7: the move line
def test_nvui_commands_in_the_move_line():
    assert nvui_command("c", "de") == ("time", {})
    assert nvui_command("L", "de") == ("last_move", {})
    assert nvui_command("o", "en") == ("opponent", {})
    assert nvui_command("p S", "de") == ("pieces", {"piece_type": chess.KNIGHT})
    assert nvui_command("p N", "de") == ("pieces", {"piece_type": chess.KNIGHT})       # English letters too
    assert nvui_command("s a", "de") == ("file", {"square": chess.A1})
    assert nvui_command("s 4", "de") == ("rank", {"square": chess.A4})
    for move in ("e4", "Sf3", "Springer Felix drei", "0-0", "Lb5", "d", "ich gebe auf"):
        assert nvui_command(move, "de") is None, move


def test_the_move_line_answers_nvui_letters_and_gets_the_keyboard_back_after_the_opponents_move(window, qtbot):
    c = _start(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    window.input.setFocus()
    qtbot.waitUntil(window.input.hasFocus, timeout=2000)
    window.now[0] = 1.0
    window.input.setText("e4")
    window.submit_input()
    assert list(c.game.game_moves) == [chess.Move.from_uci("e2e4")]
    window.board.setFocus()                                   # the sighted side works the board …
    window.now[0] = 2.0
    window._board_move(chess.Move.from_uci("e2e4"))
    window._board_move(chess.Move.from_uci("e7e5"))
    qtbot.waitUntil(window.input.hasFocus, timeout=2000)     # … and after its move the line has the keyboard
    assert window.mode.currentData() == "spoken"
    window.now[0] = 30.0
    c.tick()
    window.input.setText("l")
    window.submit_input()
    assert _texts(window)[-1] == "Zug 1, Schwarz: Eva fünf" and window.input.text() == ""
    window.settings.keep_line_focus = False                   # the option off: the keyboard stays where it is
    window.input.setText("Sf3")
    window.submit_input()
    window._board_move(chess.Move.from_uci("g1f3"))
    window.board.setFocus()
    qtbot.waitUntil(window.board.hasFocus, timeout=2000)
    window._board_move(chess.Move.from_uci("b8c6"))
    QApplication.processEvents()
    assert not window.input.hasFocus()


def test_alt_answers_without_a_question_say_so_and_type_nothing(window, qtbot):
    _start(window)
    window.input.setText("")
    for shortcut in window.answer_keys:
        assert shortcut.isEnabled()
    window.answer_keys[-1].activated.emit()                                # Alt+N
    assert _texts(window)[-1] == "Keine Frage offen." and window.input.text() == ""


# ---------------------------------------------------------------- 4: one language
def test_a_language_chosen_for_a_new_game_is_the_whole_programs_at_once(window, qtbot, monkeypatch):
    c = window.controller
    setup = GameSetup(white="Анна", black="Борис", white_impaired=True, tactile="none", lang="ru")

    class Dialog:
        def __init__(self, *args, **kwargs) -> None:
            self.chosen = setup

        def exec(self) -> int:
            return 1

    monkeypatch.setattr("blindchess.ui.new_game.NewGameDialog", Dialog)
    window.on_new_game()
    assert c.table is not None and c.table.lang == "ru" and window.lang == "ru" and c.lang == "ru"
    assert window.board.describe_cursor() == describe_square(chess.Board(), window.board.cursor, "ru")  # the board
    assert window.actions["help"].text() == t("action.help", "ru")           # the menus, F1 …
    window.on_move_wording()                                                  # … Ctrl+W answers in Russian
    assert window.message.text() == g(f"wording_{window.controller.wording()}", "ru")
    window.on_flip()                                                          # Ctrl+F too
    assert window.message.text() == g("view_sighted", "ru", name="Борис")
    assert window.reader.lang == "ru"


def test_a_language_changed_in_the_settings_changes_the_running_game_and_is_said(window):
    c = _start(window)
    window.board.set_cursor(chess.G1)
    window.set_language("en")
    assert window.lang == "en" and c.lang == "en" and c.table.lang == "en"
    assert _texts(window)[-1] == "Language: English."
    assert window.board.describe_cursor() == "Gustav one, white knight" and window.board.cursor == chess.G1
    assert window.actions["help"].text() == t("action.help", "en")
    window.now[0] = 50.0
    c.hear("Knight Felix three", typed=True)                                  # the table understands English now
    assert list(c.game.game_moves) == [chess.Move.from_uci("g1f3")]
    assert list(c.game.score("blind")) == ["Sf3"]                               # the scoresheet keeps its notation


# ---------------------------------------------------------------- 5: the arbiter's clock fields
def test_the_clock_fields_are_read_and_typed_as_times():
    assert clock_text(5399) == "1:29:59" and clock_text(59) == "0:00:59"
    assert clock_seconds("1:29:59") == 5399 and clock_seconds("29:59") == 1799 and clock_seconds("59") == 59
    for bad in ("1:60:00", "1:29:60", "eins", "", "-5", "1:2:3:4"):
        assert clock_seconds(bad) is None, bad

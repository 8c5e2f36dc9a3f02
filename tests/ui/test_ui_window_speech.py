"""The window as a screen-reader user meets it, offscreen: what it shows and says, which keys do what.

Whole sessions with the real Orca are in tests/ui/test_orca.py; here the window's parts are checked
without a desktop: a start position with Black to move, a question that must not take the board's keys,
the input line of a game without an electronic tactile board.
"""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import Qt

from blindchess.adapters.speech.tts import Speaker
from blindchess.table.table import TableSetup
from blindchess.ui.controller import GameController
from blindchess.ui.main_window import MainWindow
from blindchess.ui.panels import ScoreTable
from blindchess.ui.settings import Settings
from tests.support.recording_reader import RecordingReader

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


def _start(window, **setup) -> GameController:
    c = window.controller
    assert c.start(TableSetup(**{"white": "Anna", "black": "Bernd", "blind": "white", "tactile": "none",
                                 "lang": "de", **setup}), window.journal)
    window.refresh()
    return c


def test_without_a_tactile_board_the_blind_players_move_is_one_line_and_enter(window, qtbot):
    c = _start(window, time_control="90+30", auto_press=True)
    assert window.mode.currentData() == "spoken"          # what the blind player says
    window.input.setFocus()
    qtbot.keyClicks(window.input, "Sf3")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    assert list(c.session.snapshot.game_moves) == [chess.Move.from_uci("g1f3")]     # his move is made (FIDE Laws D.2.3)
    assert window.input.text() == ""
    with_board = GameController(Settings(lang="de", earcons=False, speech_channel="app"), clock=lambda: 0.0,
                                ticking=False)
    try:
        other = MainWindow(with_board, with_board.settings)
        qtbot.addWidget(other)
        assert with_board.start(TableSetup(white="Anna", black="Bernd", blind="white", tactile="pegboard",
                                           lang="de"), window.journal.with_name("other.jsonl"))
        other.refresh()
        assert other.mode.currentData() == "sighted"      # a peg-board reports his moves: the sighted board's
    finally:
        with_board.shutdown()


def test_a_question_never_takes_the_boards_keys(window, qtbot):
    c = _start(window)
    c.hear("ich gebe auf", typed=True)                     # the table asks him to confirm
    window.refresh()
    assert c.open_question is not None and not window.question.isHidden()
    board = window.board
    board.move_cursor(chess.E2)
    qtbot.keyClick(board, Qt.Key.Key_1)                    # a rank key: b1 … e1, not "answer 1"
    qtbot.keyClick(board, Qt.Key.Key_J)                    # no board key, no answer
    qtbot.keyClick(board, Qt.Key.Key_N)
    assert board.cursor == chess.E1 and c.open_question is not None and c.session.snapshot.result is None
    assert [b.text() for b in window.question.buttons] == ["Ja (Alt+J)", "Nein (Alt+N)"]
    window.answer_keys[-1].activated.emit()                # Alt+N: no, he does not resign
    assert c.open_question is None and c.session.snapshot.result is None


def test_an_action_is_answered_once_through_the_screen_reader(window, qtbot):
    c = _start(window, time_control="90+30", auto_press=True)
    reader = RecordingReader()
    c.voice.use("screenreader", lang="de", screen_reader=reader)
    window.now[0] = 1.0
    window.on_pause()                                      # F8: the table only shows it
    assert reader.texts[-1] == ("answer", "Die Uhr ist angehalten.")
    window.now[0] = 2.0
    window.on_pause()
    assert reader.texts[-1] == ("answer", "Die Uhr läuft wieder.")
    before = len(reader.texts)
    window.now[0] = 3.0
    window.mode.setCurrentIndex(window.mode.findData("spoken"))
    window.input.setText("Springer Felix drei")
    window.submit_input()                                  # the table confirms it: that is the answer, alone —
    said = reader.texts[before:]
    assert said == [("move", "Zug ausgeführt: Springer Felix drei.")]   # the mirror to make is the sighted side's
    window.refresh()
    assert len(reader.texts) == before + len(said)         # a refresh says nothing
    window.now[0] = 4.0
    window.mode.setCurrentIndex(window.mode.findData("sighted"))
    window.input.setText("g1f3")
    window.submit_input()                                  # the mirror, the sighted side's action: not in his ears
    assert len(reader.texts) == before + len(said)
    c.voice.verbosity = "full"
    window.now[0] = 5.0
    window.input.setText("e7e5")
    window.submit_input()                      # his opponent's move, once — not again as a mirror he is to make
    # (without a tactile board his board follows the game: the next step is his move — which the opponent's
    # move just heard says already, so not said even at "full")
    assert c.next_step() == "Anna (Weiß) ist am Zug: Zug ansagen."
    assert reader.texts[before + 1:] == [("move", "Eva fünf")]
    c.hear("ich gebe auf", typed=True)                     # a question: the next step at "full" is the question
    window.now[0] = 30.0
    c.tick()
    assert [text for _p, text in reader.texts].count("Wollen Sie wirklich aufgeben? Ja oder nein.") == 1


def test_tab_goes_through_the_questions_answers_and_on_through_the_whole_window(window):
    c = _start(window)
    c.hear("ich gebe auf", typed=True)
    window.refresh()
    chain, widget = [], window.board.square_widget(window.board.cursor)
    for _ in range(400):
        widget = widget.nextInFocusChain()
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget not in chain:
            chain.append(widget)
    wanted = [*window.question.buttons, window.input, window.enter, window.mode, window.scores.table,
              window.log.table]
    assert [chain.index(w) for w in wanted] == sorted(chain.index(w) for w in wanted)


def test_the_boards_lookup_keys_ask_the_table(window, qtbot):
    """Shift+M captures, U around, Shift+X the last capture, Ctrl+arrows through the game; Ctrl+G, Ctrl+Shift+M."""
    c = _start(window, headers={"BlackElo": "1850"})
    reader = RecordingReader()
    c.voice.use("screenreader", lang="de", screen_reader=reader)
    for now, text in ((1.0, "e4"), (2.0, "e2e4")):
        window.now[0] = now
        c.hear(text, typed=True) if now == 1.0 else c.sighted_move(text)
    asked: list[tuple[str, int]] = []
    window.board.commandRequested.connect(lambda kind, square: asked.append((kind, square)))
    board = window.board
    board.move_cursor(chess.E4)
    qtbot.keyClick(board, Qt.Key.Key_M, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(board, Qt.Key.Key_U)
    qtbot.keyClick(board, Qt.Key.Key_X, Qt.KeyboardModifier.ShiftModifier)
    for key in (Qt.Key.Key_Left, Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home):
        qtbot.keyClick(board, key, Qt.KeyboardModifier.ControlModifier)
    assert [kind for kind, _square in asked] == ["captures", "around", "last_capture", "step_back", "step_back",
                                                 "step_forward", "step_first"]
    assert window._step_ply == 0
    window.now[0] = 60.0
    c.tick()
    texts = [text for _priority, text in reader.texts]
    assert not any(t.startswith("Weiß: ") for t in texts), "what the table shows is not said when it says the move"
    assert any(t.startswith("Ausgangsstellung; Halbzüge der Partie: 1.") for t in texts)
    qtbot.keyClick(board, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)     # the whole position there …
    assert reader.texts[-1][1].startswith("Ausgangsstellung: Weiß: König Eva eins")
    window.on_request_opponent()                            # … asked something else before it is over
    assert reader.texts[-1] == ("answer", "Ihr Gegner: Bernd, Schwarz, Elo 1850.")
    # a newer request replaces the answer still being said (the same request: what he asked): cut at once
    assert len(reader.cut_texts) == 1 and reader.cut_texts[0].startswith("Ausgangsstellung: ")


def test_a_combo_box_changed_by_the_arrow_keys_says_its_new_value(window, qtbot):
    """Orca 43 says nothing when a Qt combo box's value changes: the window says it (tests/ui/test_orca.py hears it)."""
    from PySide6.QtWidgets import QApplication

    reader = RecordingReader()
    window.controller.voice.use("screenreader", lang="de", screen_reader=reader)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    window.mode.setFocus()
    qtbot.waitUntil(window.mode.hasFocus, timeout=2000)
    QApplication.processEvents()
    qtbot.keyClick(window.mode, Qt.Key.Key_Down)
    assert reader.texts[-1] == ("answer", window.mode.currentText())
    window.input.setFocus()
    window.mode.setCurrentIndex(0)                   # changed while another control has the keyboard: nothing said
    assert reader.texts[-1][1] != window.mode.currentText()

"""A whole game in the app: a scripted blind player and a sighted player, with a D.2.9 board correction.

The blind player (White) moves pegs on the virtual peg-board — a real
pseudo-terminal driven by ``pegboard.simulator.VirtualPegboard`` and read by
the app's real ``pegboard.link.SerialLink`` — and announces each move (the
phrases are given as recognised text). The sighted player (Black) and the
assistant click on the sighted board. At move 2 the assistant mirrors the
blind player's bishop to the wrong square: the boards diverge, the arbiter's
view opens; both scores say Lc4 (a mirror writes no score), so the proposal is
D.2.9's first case — the sighted board is corrected, the clocks run on — and
the game goes on to mate. Screenshots of the main window and of the arbiter's
view are saved to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import random

import chess
import pytest
from PySide6.QtCore import Qt

from blindchess.adapters.devices.simulator import VirtualPegboard
from blindchess.adapters.speech.tts import Speaker
from blindchess.base import paths
from blindchess.game.events import Ruling, TimeRequest, Touch
from blindchess.pegboard.choreography import plan_move
from blindchess.ui.app import build
from blindchess.ui.new_game import GameSetup
from blindchess.ui.settings import Settings
from tests.support.paths import ARTIFACTS

SCREENSHOTS = ARTIFACTS / "screenshots"


@pytest.fixture
def game(qtbot):
    settings = Settings(lang="de")
    app, controller, window = build(settings)
    # The test machine has no sound device: the speaker's "text" engine reports every text it would say.
    speaker = Speaker("de", engine="text")
    controller.attach_speaker(speaker)
    qtbot.addWidget(window)
    window.resize(1280, 820)
    window.show()
    qtbot.waitExposed(window)
    paths.data_dir().mkdir(parents=True, exist_ok=True)
    board = VirtualPegboard(chess.Board(), link=paths.data_dir() / "pegboard-simulator")
    board.open()
    yield controller, window, board
    controller.shutdown()
    board.close()
    board.remove_link()
    speaker.close()


class Players:
    """The scripted people at the table."""

    def __init__(self, qtbot, controller, window, pegboard) -> None:
        self.qtbot, self.c, self.w, self.pegs = qtbot, controller, window, pegboard
        self.rng = random.Random(7)
        self.tactile = chess.Board()       # what stands on the peg-board

    def wait(self, seconds: float) -> None:
        self.qtbot.wait(int(seconds * 1000))

    def hand(self, uci: str) -> None:
        """The blind player's hand carries out a move on the peg-board (realistic lifts and places)."""
        move = chess.Move.from_uci(uci)
        steps = plan_move(self.tactile, move, self.rng, settle=0.5, hold_chance=0.0)
        self.pegs.perform(steps, sleep=self.wait)
        self.tactile.push(move)

    def click(self, uci: str) -> None:
        """Someone at the sighted board moves a piece with two clicks."""
        move = chess.Move.from_uci(uci)
        board = self.w.board
        for square in (move.from_square, move.to_square):
            self.qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.square_rect(square).center().toPoint())

    def wait_for(self, condition, timeout: float = 6.0) -> None:
        self.qtbot.waitUntil(condition, timeout=int(timeout * 1000))


@pytest.mark.slow
def test_a_whole_game_with_a_wrong_mirror_and_a_board_correction(qtbot, game):
    c, w, pegs = game
    p = Players(qtbot, c, w, pegs)
    assert c.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, assistant="Clara",
                                tactile="simulator", time_control="90+30", lang="de"))
    s = c.session
    p.wait_for(lambda: c.tactile.connected and c.tactile.state in ("identified", "connected"))
    assert not w.board.flipped  # the blind player's view by default
    said = []
    c.said.connect(said.append)

    # 1. e4 — the blind player moves the peg and announces it (D.2.3: placement + announcement)
    p.hand("e2e4")
    p.wait_for(lambda: len(s.snapshot.moves("tactile")) == 1)
    assert "angesagt" in w.next_step.text()          # placed, not yet made (D.2.3)
    assert c.hear("Eva vier", 0.91)
    assert list(s.snapshot.game_moves) == [chess.Move.from_uci("e2e4")]
    assert "nachziehen" in w.next_step.text() and "e4" in w.next_step.text()
    p.click("e2e4")                                   # the assistant mirrors it
    assert s.snapshot.moves("sighted") == s.snapshot.game_moves
    # 1... e5 — the sighted player moves; the app announces it, the blind player carries it out
    p.click("e7e5")
    p.wait_for(lambda: any("Eva fünf" in text for text in said))   # spoken (logged as said), after what was said
    p.hand("e7e5")
    p.wait_for(lambda: len(s.snapshot.moves("tactile")) == 2)
    assert w.tactile_status.state.text() == "stimmt überein"

    # 2. Lc4 — announced; the assistant mirrors it wrongly to b5: the boards diverge (D.2.9)
    p.hand("f1c4")
    p.wait_for(lambda: len(s.snapshot.moves("tactile")) == 3)
    assert c.hear("Läufer Cäsar vier", 0.88)
    p.click("f1b5")
    p.wait_for(lambda: w.arbiter_dialog is not None and w.arbiter_dialog.isVisible(), timeout=2)
    dialog = w.arbiter_dialog
    assert s.snapshot.divergence is not None
    assert {chess.C4, chess.B5} <= w.board.differing
    assert s.snapshot.score("blind") == s.snapshot.score("sighted") == ("e4", "e5", "Lc4")   # a wrong mirror writes no score
    assert "D.2.9" in dialog.explanation.text()                          # shown, never spoken
    assert dialog.ruling.kind == "correct-board"
    assert dialog.scores.first_diff is None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    w.grab().save(str(SCREENSHOTS / "main-window-divergence.png"))
    dialog.grab().save(str(SCREENSHOTS / "arbiter-view.png"))

    clock_before = s.clock.remaining(chess.BLACK, c.now())
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)   # the arbiter applies the correction
    assert not dialog.isVisible()
    assert isinstance(s.snapshot.rulings[-1], Ruling) and s.snapshot.rulings[-1].kind == "correct-board"
    assert len(s.snapshot.game_moves) == 3 and s.snapshot.moves("sighted") == s.snapshot.game_moves
    assert s.snapshot.divergence is None
    assert s.clock.running == chess.BLACK and s.clock.remaining(chess.BLACK, c.now()) <= clock_before  # runs on
    assert not any("D.2" in text for text in said)     # article numbers are shown, never spoken

    # the game goes on: 2... Sc6 3. Dh5 Sf6 4. Dxf7#
    w.input.setText("Sc6")                             # the sighted player types his move
    qtbot.keyClick(w.input, Qt.Key.Key_Return)
    assert len(s.snapshot.game_moves) == 4
    p.hand("b8c6")
    p.wait_for(lambda: len(s.snapshot.moves("tactile")) == 4)
    assert c.hear("zeit", 0.8)                          # a request: only on request (D.2.10 d)
    assert any(isinstance(e, TimeRequest) for e in s.events)
    p.wait_for(lambda: any(text.startswith("Sie:") and "Gegner" in text for text in said), timeout=15)  # talking clock (D.2.6)
    pegs.lift(chess.D1)                                # the lifted peg is shown on the sighted board (D.2.2)
    p.wait_for(lambda: w.board.lifted == chess.D1, timeout=2)
    assert s.snapshot.touches[-1].square == "d1" and s.snapshot.touches[-1].board == "tactile"
    pegs.place(chess.H5)
    p.tactile.push(chess.Move.from_uci("d1h5"))
    p.wait_for(lambda: len(s.snapshot.moves("tactile")) == 5)
    assert w.board.lifted is None
    assert c.hear("Dame Hector fünf", 0.9)
    p.click("d1h5")
    p.click("g8f6")
    p.hand("g8f6")
    p.wait_for(lambda: len(s.snapshot.moves("tactile")) == 6)
    p.hand("h5f7")
    p.wait_for(lambda: len(s.snapshot.moves("tactile")) == 7)
    assert any(isinstance(e, Touch) for e in s.events)  # lifted pegs were recorded as touched (D.2.2)
    assert c.hear("Dame schlägt Felix sieben matt", 0.9)
    p.click("h5f7")
    assert s.snapshot.result == "1-0"
    assert s.snapshot.score("blind") == s.snapshot.score("sighted") == ("e4", "e5", "Lc4", "Sc6", "Dh5", "Sf6", "Dxf7#")
    assert s.snapshot.moves("sighted") == s.snapshot.moves("tactile") == s.snapshot.game_moves
    w.refresh()
    assert "1-0" in w.next_step.text()
    w.grab().save(str(SCREENSHOTS / "main-window-game-over.png"))
    # the journal holds the whole game: reopening it gives the same game
    from blindchess.game import Session

    again = Session.load(s.snapshot.journal_path)
    assert again.snapshot.game_moves == s.snapshot.game_moves and again.snapshot.result == "1-0"

"""The app as a scenario front: a script drives the real window offscreen, on the script's clock.

:class:`AppFront` implements :class:`blindchess.scenario.runner.Front` with the
Qt window and its :class:`~blindchess.ui.controller.GameController`, doing what
the people at the table would do with it:

* ``sighted move``: two clicks on the sighted board widget (a promotion piece
  chosen in its promotion question); a move the widget cannot make (illegal on
  the sighted board) is typed into the input line in the "sighted" mode, as a
  player would type it;
* ``sighted touch``: the board cursor on the square, then the "sighted touch"
  action (Ctrl+U);
* ``sighted says``: typed into the input line in the "sighted side says" mode;
* ``blind says``: the recogniser's result with its confidence, as push-to-talk
  delivers it (:meth:`GameController.hear`);
* ``blind answer``: the question panel's button for that answer (keys 1…n, J,
  N press the same buttons); an answer by someone who was not asked goes to the
  controller directly (the table refuses it, as headless);
* ``clock press``: the clock panel's press button of that colour;
* ``arbiter apply`` / ``arbiter retrace N``: the arbiter's view (opened if it is
  not open), its apply button, or the half-move field and the retrace button;
  the arbiter's procedures (adjourn — with the minutes left in the session when
  adjourned before its end —, resume, a player absent or too late, annul): their
  buttons in the same view;
* the players' claims (a draw, a flag, an illegal move, the quickplay finish, a
  wrong set-up, touch-move, a clock wrongly set at resumption, agreeing to correct
  an illegal move): the claim dialog (Ctrl+Shift+C), filled in and confirmed;
* ``peg`` lines: decoded with the peg-board protocol as the serial link decodes
  them, and the board events given to the controller exactly as the link's
  ``on_input`` does (``I`` lines are the link's business and reach no table);
* ``eboard`` lines: the runner has made them DGT board events through
  the real decoder; they go to the controller as the e-board link's
  ``on_input`` gives them;
* ``app crash``: the controller drops its table without closing anything and
  reopens the journal, as the restarted app does.

Events are every table event the controller passes on (``tableEvent``),
except the UI's own readings: ``speak`` events with priority "reading" and the
``said`` events of those utterances. Clicking the board gives it the keyboard
focus, and the focused board reads its cursor square through
the table's ``Reading`` command — speech only the window has, which (by the table's speech
policy) never cuts or delays any other text. Everything else is compared
as it is with the headless front (``tests/test_ui_scenario.py``).

A QApplication must exist. Raises what the controller's table raises.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import chess
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from ..adapters import Speaker
from ..pegboard import Lift, PieceUpdate, Place, Snapshot, parse_line
from ..scenario import Script
from ..storage import InputId
from ..table import (
    AgreesCorrection,
    Answers,
    ArbiterAdjourn,
    ArbiterAnnul,
    ArbiterApply,
    ArbiterLate,
    ArbiterQuickplay,
    ArbiterResult,
    ArbiterResume,
    ArbiterResumeAbsent,
    ArbiterResumeSealerAbsent,
    ArbiterRetrace,
    BlindSays,
    Claims,
    ClaimsQuickplay,
    ClaimsSetup,
    ClaimsTouch,
    ClockPress,
    Command,
    EBoardInput,
    Final,
    PegLine,
    PointsOutClock,
    Said,
    Seals,
    SightedMove,
    SightedSays,
    SightedTouch,
    Speak,
    TableEvent,
    Tick,
    Who,
)
from .arbiter import RESULT_BUTTONS
from .controller import GameController
from .main_window import MainWindow
from .settings import Settings


class AppFront:
    """The scenario front on the Qt window (see the module docstring)."""

    def __init__(self, *, lang: str = "de", speaker: Speaker | None = None) -> None:
        self.now = 0.0
        self.settings = Settings(lang=lang)
        self.controller = GameController(self.settings, speaker=speaker, clock=lambda: self.now, ticking=False)
        self.window = MainWindow(self.controller, self.settings)
        self.window.resize(1280, 820)
        self.window.show()
        self.journal: Path | None = None
        self._callbacks: list[Callable[[TableEvent], None]] = []
        self.readings: set[tuple[float, str, str]] = set()   # (t, to, text) of the window's own readings
        self.controller.tableEvent.connect(self._deliver)

    # -- events
    def _deliver(self, event: TableEvent) -> None:
        if isinstance(event, Speak) and event.priority == "reading":
            self.readings.add((event.t, event.to, event.text))
            return
        if isinstance(event, Said) and (event.t, event.to, event.text) in self.readings:
            return
        for callback in list(self._callbacks):
            callback(event)

    def subscribe(self, callback: Callable[[TableEvent], None]) -> None:
        self._callbacks.append(callback)

    # -- the game
    def _at(self, now: float) -> GameController:
        self.now = now
        return self.controller

    def start(self, script: Script, journal: Path, now: float) -> None:
        self.journal = journal
        if not self._at(now).start(script.setup, journal):
            raise ValueError(self.window.message.text())

    def resume(self, script: Script, journal: Path, now: float, pegs_still_since: float | None = None) -> None:
        # the window's restart reads the pegs when it is back: their settle time counts from its snapshot
        self.journal = journal
        if not self._at(now).open_journal(journal):
            raise ValueError(self.window.message.text())

    def handle(self, command: Command, now: float, ident: InputId | None = None) -> None:
        """One input at the table, done as the people at it do it with the window (see the module docstring).
        The window numbers its inputs itself (the app's own count): ``ident`` is not given on."""
        controller = self._at(now)
        match command:
            case PegLine(text=text):
                message = parse_line(text.encode("utf-8", "replace"), now)
                if isinstance(message, (Lift, Place, Snapshot, PieceUpdate)):
                    controller.board_input(message)
            case EBoardInput(event=event):
                controller.eboard_input(event)
            case Tick():
                controller.tick()
            case BlindSays(text=text, confidence=confidence):
                controller.hear(text, confidence)
            case Answers(who=who, answer=answer):
                question = controller.open_question
                button = self.window.question.button_for(answer) \
                    if question is not None and question.to == who else None
                if button is not None:
                    button.click()
                else:
                    controller.answer(answer, who)
            case SightedMove(move=move):
                self._sighted_move(move)
            case SightedTouch(square=square):
                self.window.board.move_cursor(square)
                self.window.actions["sighted_touch"].trigger()
            case SightedSays(text=text):
                self._type("sighted_says", text)
            case ClockPress(color=color):
                self.window.clocks.press_buttons[color].click()
            case ArbiterApply():
                self.window.open_arbiter()
                dialog = self.window.arbiter_dialog
                assert dialog is not None
                dialog.apply_button.click()
            case ArbiterRetrace(plies=plies):
                self.window.open_arbiter()
                dialog = self.window.arbiter_dialog
                assert dialog is not None
                dialog.plies.setValue(plies)
                dialog.retrace_button.click()
            case Claims(who=who, kind=kind, move=move):
                self._claim(who, kind, move if move is None else str(move))
            case ClaimsQuickplay(who=who, ground=ground):
                self._claim(who, f"quickplay_{ground}", None)
            case ClaimsSetup(who=who, fault=fault):
                self._claim(who, f"setup_{fault}", None)
            case ClaimsTouch(who=who):
                self._claim(who, "touch", None)
            case PointsOutClock(who=who):
                self._claim(who, "clock", None)
            case AgreesCorrection(who=who):
                self._claim(who, "correction", None)
            case ArbiterQuickplay(verdict=verdict):
                self._arbiter_button(f"quickplay_{verdict}")
            case Seals(who=who, text=text):
                controller.seal(who, text)
            case ArbiterAdjourn(session_end=session_end):
                minutes = 0.0 if session_end is None else (session_end - now) / 60.0
                if minutes != int(minutes) or minutes < 0:
                    controller.act(command)      # the view's field takes whole minutes
                    return
                self.window.open_arbiter()
                dialog = self.window.arbiter_dialog
                assert dialog is not None
                dialog.session_minutes.setValue(int(minutes))
                self._arbiter_button("adjourn")
                dialog.session_minutes.setValue(0)
            case ArbiterResume():
                self._arbiter_button("resume")
            case ArbiterResumeAbsent():
                self._arbiter_button("resume_absent")
            case ArbiterResumeSealerAbsent():
                self._arbiter_button("resume_sealer_absent")
            case ArbiterLate(color=color):
                self._arbiter_button("late_white" if color == chess.WHITE else "late_black")
            case ArbiterAnnul():
                self._arbiter_button("annul")
            case ArbiterResult(result=result):
                self._arbiter_button(RESULT_BUTTONS[result])
            case _:
                controller.act(command)     # no widget of its own in a script: as the window's code gives it

    def _sighted_move(self, move: chess.Move | str) -> None:
        """Two clicks on the sighted board (a promotion piece chosen in its question); a move the widget cannot
        make is typed into the input line in the "sighted" mode, as a player would type it."""
        view = self.window.board
        if isinstance(move, str) or move not in view.board.legal_moves:
            self._type("sighted", move if isinstance(move, str) else move.uci())
            return
        chosen = view.choose_promotion
        view.choose_promotion = lambda _moves: move.promotion or chess.QUEEN
        try:
            for square in (move.from_square, move.to_square):
                QTest.mouseClick(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                                 view.square_rect(square).center().toPoint())
        finally:
            view.choose_promotion = chosen

    def _type(self, mode: str, text: str) -> None:
        w = self.window
        w.mode.setCurrentIndex(w.mode.findData(mode))
        w.input.setText(text)
        QTest.keyClick(w.input, Qt.Key.Key_Return)

    def _claim(self, who: Who, kind: str, move: str | None) -> None:
        """Ctrl+Shift+C, the claim dialog filled in as a person would, and its OK button."""
        self.window.actions["claim"].trigger()
        dialog = self.window.claim_dialog
        assert dialog is not None and dialog.isVisible()
        dialog.choose(who, kind, move)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    def _arbiter_button(self, name: str) -> None:
        """The arbiter's view opened and one of its procedure buttons pressed (an inactive one is the
        table's refusal: the table is asked all the same, as the button's action would)."""
        self.window.open_arbiter()
        dialog = self.window.arbiter_dialog
        assert dialog is not None
        button = dialog.procedure_buttons[name]
        if name in RESULT_BUTTONS.values():
            dialog.procedure(name, confirmed=True)    # the script's decision is the one the arbiter confirmed
        elif button.isEnabled():
            button.click()
        else:
            dialog.procedure(name)

    def crash(self, now: float) -> None:
        controller = self._at(now)
        controller.abandon()  # killed at once: nothing closed, nothing written beyond the journal
        assert self.journal is not None
        if not controller.open_journal(self.journal):
            raise ValueError(self.window.message.text())

    def idle_at(self, now: float) -> float:
        table = self.controller.table
        if table is None:
            raise RuntimeError("AppFront.start() first")
        return max(now, table.idle_at(now))

    def next_due(self, now: float) -> float | None:
        """When the app's timer would tick next: ``Table.next_due`` (settle, speech, a flag)."""
        table = self.controller.table
        if table is None:
            raise RuntimeError("AppFront.start() first")
        return table.next_due(now)

    def final(self, now: float) -> Final:
        table = self.controller.table
        if table is None:
            raise RuntimeError("AppFront.start() first")
        return table.final(now)

    def close(self) -> None:
        self.controller.shutdown()
        self.window.close()
        self.window.deleteLater()

"""The main window: the sighted board, both scores, both clocks, the announcement log, device status.

The window is a view of a :class:`~blindchess.ui.controller.GameController`
(the shell over the table): it shows what the controller reports and hands
user input — clicks, typed moves and phrases, clock presses, answers to the
table's questions, menu actions, the board's commands — back to it. Messages
are shown in the message line (whose accessible name carries the text), logged,
and given to the speech channel the user chose (``controller.voice.message``);
what the table says is logged as said when it begins to be spoken.

Accessibility: the board is 64 named squares, the focused one read by the
screen reader (:mod:`blindchess.ui.board`), shown from the blind player's side by
default (Ctrl+F: the sighted player's); every label that shows a value carries
it in its accessible name; descriptions are one short sentence; Tab goes board →
(the open question's answers) → input line → scores → log.

The person at the keyboard is answered once, on the speech channel: an action
the table answers with speech is answered by the table; one it only shows (F8:
the clock stopped) or answers with nothing (a move typed for the tactile board)
is answered by what it showed, and a changed next step is said after it
(:meth:`MainWindow._answer`; spoken only through a screen reader, "newer replaces
older"). A question never takes the board's keys: its answers have keys of
their own (Alt+1 … Alt+9, Alt+J/Alt+Y yes, Alt+N no) and buttons.

Without an electronic tactile board the input line starts in the mode "what
the blind player says" and has the keyboard after a new game: his move is one
line and Enter ("Sf3", "Springer Felix drei").
"""

from __future__ import annotations

from pathlib import Path

import chess
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..language import WORDINGS
from . import a11y, theme
from .arbiter import ArbiterDialog
from .board import BoardView, g
from .claims import ClaimDialog
from .line import LineInput, ask_line
from .panels import AnnouncementLog, ClockPanel, QuestionPanel, ScoreTable, SpeechStatus, TactileStatus
from .settings import Settings
from .shortcuts import INPUT_MODES, MENUS, SHORTCUTS, HelpDialog, action_description, action_text
from .text import t

__all__ = ["ANSWER_KEYS", "INPUT_MODES", "MainWindow", "ONE_COLUMN_SCALE"]
#: From this text size on (250 %), the window is one column: beside the board there is no room for the panels.
ONE_COLUMN_SCALE = 2.5
#: Keys that answer the table's question: Alt+1…Alt+9 pick a candidate; yes and no. Never a key of the board
#: or of a text field: a rank key "1" meant for the board cannot confirm a move.
ANSWER_KEYS: tuple[tuple[str, int | str], ...] = (
    *((f"Alt+{n}", n) for n in range(1, 10)), ("Alt+J", "yes"), ("Alt+Y", "yes"), ("Alt+N", "no"))


class MainWindow(QMainWindow):
    """The app's window around one :class:`GameController`."""

    NAME_ONLY = True      # the title is read whenever the window comes back; nothing more before the square

    def __init__(self, controller, settings: Settings) -> None:
        super().__init__()
        self.controller = controller
        self.settings = settings
        self.lang = settings.lang
        self.arbiter_dialog: ArbiterDialog | None = None
        self.claim_dialog: ClaimDialog | None = None    # the last claim dialog opened (Ctrl+Shift+C)
        self._oriented_for = None
        self.view_of = "blind"      # the board is shown (and walked) from the blind player's side; Ctrl+F: sighted
        lang = self.lang
        self.setObjectName("main_window")
        self.setWindowTitle(t("app.title", lang))
        a11y.label(self, t("app.title", lang), "")
        self.setWhatsThis(t("app.description", lang))     # what the window is, on request (Shift+F1), not read each time
        a11y.install_focus_first(t("short.empty", lang))
        a11y.install_combo_values(self.say_board)     # a combo box's new value, said (Orca 43 is silent there)
        self._step_said = ""          # the next step as last said (a change is said once)
        self._step_ply: int | None = None   # where Ctrl+arrows stand in the game (None: at its last half-move)

        # --- left: the board, the next step, the input line
        left = QWidget(self)
        left_layout = self._left_layout = QVBoxLayout(left)
        self.next_step = QLabel("", left)
        self.next_step.setObjectName("next_step")
        self.next_step.setWordWrap(True)
        # bold, 1.25 x the scaled font: the look's stylesheet (QLabel#next_step), so it grows with Ctrl++
        self.next_step.setMinimumHeight(self.next_step.fontMetrics().lineSpacing() * 2 + 6)  # two lines, never cut
        a11y.label(self.next_step, g("next_name", lang, text=""), t("next.description", lang))
        left_layout.addWidget(self.next_step)
        self.question = QuestionPanel(left, lang=lang)
        left_layout.addWidget(self.question)
        self.board = BoardView(left, lang=lang)
        self.board.setObjectName("sighted_board")
        self.board.set_identity(g("board_name", lang), g("board_description_short", lang))
        self.board.set_theme(settings.theme)
        self.board.choose_promotion = self.ask_promotion
        left_layout.addWidget(self.board, 1)

        row = QHBoxLayout()
        self.mode = QComboBox(left)
        self.mode.setObjectName("input_mode")
        # at large fonts the longest mode's text must not widen the column (its list shows it whole)
        self.mode.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.mode.setMinimumContentsLength(12)
        for mode in INPUT_MODES:
            self.mode.addItem(t(f"input.mode_{mode}", lang), mode)
        a11y.label(self.mode, t("input.mode", lang), t("short.input_mode", lang))
        self.input = LineInput("", left)       # read whole by Orca (a QLineEdit loses its last letter there)
        self.input.setObjectName("move_input")
        self.input.setPlaceholderText(t("input.placeholder", lang))
        self.input.setClearButtonEnabled(True)
        a11y.label(self.input, t("input.name", lang), t("short.input", lang))
        self.enter = QPushButton(t("input.enter", lang), left)
        self.enter.setObjectName("enter")
        a11y.label(self.enter, t("input.enter", lang), t("short.enter", lang))
        mode_caption = QLabel(t("input.mode", lang), left)
        a11y.label(mode_caption, t("input.mode", lang), t("input.mode_description", lang))
        mode_caption.setBuddy(self.mode)
        row.addWidget(mode_caption)
        row.addWidget(self.mode, 1)
        left_layout.addLayout(row)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.enter)
        left_layout.addLayout(row)
        self.message = QLabel("", left)
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        a11y.label(self.message, g("message_empty", lang), t("message.description", lang))
        left_layout.addWidget(self.message)

        # --- right: clocks, scores, log, status
        right = self._right = QWidget(self)
        right_layout = QVBoxLayout(right)
        self.clocks = ClockPanel(right, lang=lang)
        right_layout.addWidget(self.clocks)
        self.scores = ScoreTable(right, lang=lang)
        right_layout.addWidget(self.scores, 2)
        self.log = AnnouncementLog(right, lang=lang)
        right_layout.addWidget(self.log, 3)
        self.tactile_status = TactileStatus(right, lang=lang)   # one below the other: room for 200 % fonts
        self.speech_status = SpeechStatus(right, lang=lang)
        self.eboard_status = TactileStatus(right, lang=lang, kind="eboard")   # shown with a sighted e-board only
        self.eboard_status.setVisible(False)
        right_layout.addWidget(self.tactile_status)
        right_layout.addWidget(self.eboard_status)
        right_layout.addWidget(self.speech_status)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setObjectName("splitter")
        a11y.label(splitter, t("app.splitter", lang), t("app.splitter_description", lang))
        # each column scrolls when large fonts need more room than the window has: nothing is squeezed or cut
        self.left_area = self._scrolling(left, "left_area", "area_left", splitter)
        self.left_area.viewport().installEventFilter(self)   # its width limits the board's (no sideways scrolling)
        self.right_area = self._scrolling(right, "right_area", "area_right", splitter)
        splitter.addWidget(self.left_area)
        splitter.addWidget(self.right_area)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([700, 580])
        self.setCentralWidget(splitter)
        self.statusBar().setObjectName("status_bar")
        self.statusBar().setSizeGripEnabled(False)
        a11y.label(self.statusBar(), t("app.status_bar", lang), t("app.status_bar_description", lang))

        self.actions: dict[str, QAction] = {}  # type: ignore[assignment]  # by id; tests and menus use it
        self._build_menus()
        self._connect()
        self._tab_order()
        self._one_column = False
        self._fit_screen()
        self._reflow()
        self.refresh()
        self.board.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------- structure
    def _build_menus(self) -> None:
        bar = self.menuBar()
        bar.setObjectName("menu_bar")
        a11y.label(bar, t("menu.bar", self.lang), t("menu.bar_description", self.lang))
        menus = {}
        for name in MENUS:
            menu = bar.addMenu(t(f"menu.{name}", self.lang))
            menu.setObjectName(f"menu_{name}")
            a11y.label(menu, t(f"menu.{name}", self.lang).replace("&", ""), t(f"menu.{name}_description", self.lang))
            menus[name] = menu
        for action_id, menu_name, keys in SHORTCUTS:
            action = QAction(action_text(action_id, self.lang), self)
            action.setObjectName(action_id)
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.setToolTip(action_description(action_id, self.lang))
            action.setStatusTip(action_description(action_id, self.lang))
            action.triggered.connect(getattr(self, f"on_{action_id}"))
            menus[menu_name].addAction(action)
            self.addAction(action)
            self.actions[action_id] = action
        self.actions["high_contrast"].setCheckable(True)
        self.actions["high_contrast"].setChecked(self.settings.theme == "high-contrast")
        self.actions["push_to_talk"].setCheckable(True)

    def _connect(self) -> None:
        c = self.controller
        self.board.moveEntered.connect(c.sighted_move)
        self.board.squareDescribed.connect(c.speak_quietly)
        self.board.squareDescribed.connect(lambda _text: self._show_cursor())
        self.board.boardSaid.connect(self.say_board)
        self.board.rejected.connect(self.board_refused)
        self.board.commandRequested.connect(self.board_command)
        self.question.answered.connect(c.answer)
        self.clocks.pressed.connect(c.press)
        self.answer_keys: list[QShortcut] = []
        for keys, answer in ANSWER_KEYS:  # a text field takes its own keys first; the board gives them up
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setEnabled(False)
            shortcut.activated.connect(lambda a=answer: self._answer_key(a))
            self.answer_keys.append(shortcut)
        self.input.returnPressed.connect(self.submit_input)
        self.scores.table.cellDoubleClicked.connect(self.amend_score)
        self.scores.table.installEventFilter(self)
        self.enter.clicked.connect(self.submit_input)
        self.speech_status.pushToTalk.connect(self._push_to_talk)
        c.acted.connect(self._answer)
        c.changed.connect(self.refresh)
        c.said.connect(lambda text: self._logged("said", text, None))
        c.heard.connect(lambda text, confidence: self._logged("heard", text, confidence))
        c.info.connect(self.show_message)
        c.confided.connect(self._confided)
        c.question.connect(lambda _asked: self.refresh())
        c.divergence.connect(self.open_arbiter)
        c.micLevel.connect(self.speech_status.set_level)
        self._tick = QTimer(self)
        self._tick.setInterval(250)
        self._tick.timeout.connect(self._refresh_clocks)
        self._tick.start()

    def _scrolling(self, content: QWidget, name: str, key: str, parent: QWidget) -> QScrollArea:
        area = QScrollArea(parent)
        area.setObjectName(name)
        area.setWidget(content)
        area.setWidgetResizable(True)
        area.setFrameShape(QScrollArea.Shape.NoFrame)
        area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        a11y.label(area, g(key, self.lang), g(f"{key}_description", self.lang))
        return area

    def _tab_order(self) -> None:
        """Tab: board → (the open question's answers) → input line → enter → input mode → clock buttons → scores
        → log → push-to-talk."""
        chain = [self.board, *self.question.buttons, self.input, self.enter, self.mode,
                 *self.clocks.press_buttons.values(), self.scores.table, self.log.table, self.speech_status.talk]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    # --------------------------------------------------------------- display
    def refresh(self) -> None:
        """Show the controller's current state everywhere."""
        c = self.controller
        self.speech_status.set_state(c.voice_name(), c.model_name(), c.can_listen())
        self.tactile_status.set_state(**c.tactile_state())
        eboard = c.eboard_state()
        self.eboard_status.setVisible(eboard is not None)
        if eboard is not None:
            self.eboard_status.set_state(**eboard)
        self._refresh_clocks()
        self._show_question()
        if c.session is None:
            a11y.set_text(self.next_step, t("next.no_game", self.lang),
                          g("next_name", self.lang, text=t("next.no_game", self.lang)))
            self.board.set_position(chess.Board())
            self.scores.set_scores([], [])
            self.clocks.set_pressable(False)
            return
        game = c.game
        self.clocks.set_pressable(game is not None and game.time_control is not None and not game.auto_press)
        # while a move is sealed what is typed is never shown (Guidelines I.1: written secretly)
        self.input.setEchoMode(QLineEdit.EchoMode.Password if game is not None and game.sealing
                               else QLineEdit.EchoMode.Normal)
        self.board.set_position(c.board("sighted"))
        self.board.set_marks(lifted=c.lifted(), differing=c.differing())
        if self._oriented_for is not c.session:  # a new game: the blind player's view, his wording
            self._oriented_for = c.session
            self._step_ply = None
            self.view_of = "blind"
            self.board.set_flipped(self._view_colour() == chess.BLACK)
            self.board.set_wording(c.wording())
            self._default_input()
        self.actions["take_back"].setEnabled(c.can_take_back())
        blind, sighted = c.sheet_names()
        self.scores.set_sheet_names(blind, sighted)
        start = c.start_board()
        self.scores.set_scores(c.score("blind"), c.score("sighted"), first_white=start.turn == chess.WHITE,
                               first_number=start.fullmove_number)
        white, black = c.player_names()
        self.clocks.set_names(white, black)
        self._refresh_clocks()
        step = c.next_step()
        a11y.set_text(self.next_step, step, g("next_name", self.lang, text=step))
        changed = self._step_to_say()    # the next step changed without an action here (his opponent's move)
        if changed:
            c.voice.answer([changed])
        self.setWindowTitle(t("app.title_game", self.lang, white=white, black=black))

    def _default_input(self) -> None:
        """A new game: without an electronic tactile board the input line takes what the blind player says
        (his move is one line and Enter); otherwise moves on the sighted board."""
        mode = "spoken" if self.controller.blind_typed() else "sighted"
        self.mode.setCurrentIndex(max(0, self.mode.findData(mode)))

    def _answer(self, said: list[str], shown: list[str]) -> None:
        """The answer to an action at the keyboard (see the module docstring): what the table showed when it
        said nothing, and the next step when it changed — one utterance, on the screen-reader channel. While a
        question is open the table says the question (now or when its voice is free): nothing more is said."""
        c = self.controller
        asking = c.open_question is not None
        texts = [] if said or asking else list(shown)
        step = self._step_to_say()
        if step:
            texts.append(step)
        c.voice.answer(texts)

    def _step_to_say(self) -> str:
        """The next step when it changed since it was last said ("" otherwise). Not while a question is open
        (the question is the next step, and the table says it) nor once the game is over (the table says the
        end): an answered question does not bring back a step already said."""
        c = self.controller
        if c.table is None or c.open_question is not None or c.table.game.result is not None:
            return ""
        step = c.next_step()
        if step == self._step_said:
            return ""
        self._step_said = step
        return step

    def _show_question(self) -> None:
        """The table's open question with its answers (buttons, keys Alt+1…Alt+n, Alt+J/Alt+Y and Alt+N)."""
        question = self.controller.open_question
        for shortcut in self.answer_keys:
            shortcut.setEnabled(question is not None)
        if question is None:
            self.question.clear()
            return
        if tuple(question.candidates) == ("yes", "no"):
            options: list[tuple[int | str, str]] = [("yes", t("short.question_yes", self.lang)),
                                                    ("no", t("short.question_no", self.lang))]
        else:
            words = list(question.phrases) or list(question.candidates)
            options = [(n, f"Alt+{n}: {word}") for n, word in enumerate(words, start=1)]
        self.question.show_question(question.text, options)
        self._tab_order()                                          # the answers right after the board

    def _answer_key(self, answer: int | str) -> None:
        button = self.question.button_for(answer)
        if button is not None:
            button.click()

    def _refresh_clocks(self) -> None:
        remaining, running, moves = self.controller.clock_state()
        self.clocks.set_state(remaining, running, moves)

    def show_message(self, text: str, *, log: bool = True) -> None:
        """A state change or a problem: shown (the label's accessible name carries it), logged, and given to the
        speech channel (said once by the screen reader when the user chose one; the table's own texts are not
        said twice)."""
        a11y.set_text(self.message, text, g("message_name", self.lang, text=text) if text
                      else g("message_empty", self.lang))
        if log:
            self.log.add("info", text)
        self.controller.voice.message(text)

    def _confided(self, text: str) -> None:
        """A text for the sighted player alone (his sealed move to write again, Guidelines I.1): on the message
        line only — never logged, never given to a screen reader or the program's voice."""
        self.message.setText(text)

    def _logged(self, kind: str, text: str, confidence: float | None) -> None:
        self.log.add(kind, text, confidence)

    # ------------------------------------------------------------------ the board's words and commands
    def say_board(self, text: str) -> None:
        """What the board says besides square names (picked up, let go, a square's marks): every channel, once."""
        self.controller.speak_quietly(text)      # the program's voice, through the table's speech policy
        self.controller.voice.message(text)      # the screen reader (when the user chose one)

    def _show_cursor(self) -> None:
        """Large fonts may make the left column scroll: the cursor's square is scrolled into view."""
        content = self.left_area.widget()
        assert content is not None  # set in __init__
        rect = self.board.square_rect(self.board.cursor)
        centre = self.board.mapTo(content, rect.center().toPoint())
        margin = int(rect.width())
        self.left_area.ensureVisible(centre.x(), centre.y(), margin, margin)

    def tell(self, text: str) -> None:
        """The answer to a view command (Ctrl+F, Ctrl+W): shown and said on every channel, not logged."""
        self.controller.speak_quietly(text)
        self.show_message(text, log=False)

    def board_refused(self, text: str) -> None:
        """A move the board refused: shown, and said by the program's voice and the screen reader."""
        self.controller.speak_quietly(text)
        self.show_message(text)

    def board_command(self, kind: str, square: int) -> None:
        """A board key asks the table (D.2.10 d: time only on request): the rank, file, moves, captured pieces …;
        Ctrl+arrows go through the game half-move by half-move (this window keeps the place)."""
        if kind == "pieces":
            self.on_request_pieces()
        elif kind.startswith("step_"):
            plies = len(self.controller.board("sighted").move_stack) if self.controller.session else 0
            here = plies if self._step_ply is None else self._step_ply
            self._step_ply = {"step_back": max(0, here - 1), "step_forward": min(plies, here + 1),
                              "step_first": 0, "step_last": plies}[kind]
            self.controller.request("step", ply=self._step_ply)
        else:
            self.controller.request(kind, square=square)

    def _view_colour(self) -> bool:
        """The colour whose side of the board is shown at the bottom (the blind player's by default)."""
        c = self.controller
        blind = c.blind_color
        if self.view_of == "blind":
            return blind if blind is not None else chess.WHITE
        return c.sighted_color if blind is not None else chess.BLACK

    def _view_text(self) -> str:
        """"Brett aus der Sicht von Anna (blind)" — whose view the board shows now."""
        c = self.controller
        colour = self._view_colour()
        if c.session is None or c.blind_color is None:
            return g("view_white" if colour == chess.WHITE else "view_black", self.lang)
        white, black = c.player_names()
        name = white if colour == chess.WHITE else black
        return g("view_blind" if colour == c.blind_color else "view_sighted", self.lang, name=name)

    # ------------------------------------------------------------------ input
    def submit_input(self) -> None:
        text = self.input.text().strip()
        if not text:
            return
        mode = self.mode.currentData()
        if mode == "sighted":
            accepted = self.controller.sighted_text(text)
        elif mode == "spoken":
            accepted = self.controller.hear(text, None, typed=True)
        elif mode == "sighted_says":
            accepted = self.controller.sighted_says(text)
        else:
            accepted = self.controller.tactile_text(text)
        if accepted:
            self.input.clear()       # the keyboard stays here: the next move is one line and Enter again
        else:
            self.input.selectAll()

    def _push_to_talk(self, on: bool) -> None:
        self.actions["push_to_talk"].setChecked(on)
        self.controller.listen(on)

    def ask_promotion(self, moves) -> int:
        """Which piece a pawn reaching the last rank becomes (D.2.1: it must be announced)."""
        from PySide6.QtWidgets import QInputDialog

        from ..language import piece_name

        kinds = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT]
        names = [piece_name(kind, self.controller.game.lang if self.controller.game else self.lang)
                 for kind in kinds]
        name, ok = QInputDialog.getItem(self, t("board.promotion_title", self.lang),
                                        t("board.promotion_question", self.lang), names, 0, False)
        return kinds[names.index(name)] if ok and name in names else chess.QUEEN

    def amend_score(self, row: int, column: int) -> None:
        """The arbiter or assistant corrects a score entry as written (double-click or F2 on a cell)."""
        if column == 0 or self.controller.session is None:
            return
        start = self.controller.start_board()
        offset = 0 if start.turn == chess.WHITE else 1
        ply = row * 2 + (column - 1) % 2 - offset
        who = "blind" if column in (1, 2) else "sighted"
        entries = self.controller.score(who)
        if not 0 <= ply <= len(entries):
            return
        current = entries[ply] if ply < len(entries) else ""
        back = QApplication.focusWidget()
        text = ask_line(self, title=t("score.amend_title", self.lang), text=current, lang=self.lang,
                        question=t("score.amend_question", self.lang, number=start.fullmove_number + row),
                        description=t("score.amend_description", self.lang))   # read whole by a screen reader
        if text is not None and text.strip() and text.strip() != current:
            self.controller.amend_score(who, ply, text.strip())
        # the scoresheet has the keyboard again (and the screen reader says so) once the dialog is gone
        QTimer.singleShot(0, lambda: self._back_to(back))

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
        from PySide6.QtCore import QEvent

        if watched is self.left_area.viewport() and event.type() == QEvent.Type.Resize:
            self._board_room(event.size().width(), event.size().height())
        if watched is self.scores.table and event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_F2:
            index = self.scores.table.currentIndex()
            if index.isValid():
                self.amend_score(index.row(), index.column())
                return True
        return super().eventFilter(watched, event)

    # ---------------------------------------------------------------- arbiter
    def open_arbiter(self) -> None:
        """The boards diverge (D.2.9): show the arbiter's view (non-modal, one at a time)."""
        if self.arbiter_dialog is not None and self.arbiter_dialog.isVisible():
            self.arbiter_dialog.refresh()
            return
        self.arbiter_dialog = ArbiterDialog(self, self.controller, lang=self.lang)
        back = QApplication.focusWidget()
        self.arbiter_dialog.finished.connect(lambda _r: self._arbiter_closed(back))
        self.arbiter_dialog.show()
        self.arbiter_dialog.raise_()
        self.arbiter_dialog.activateWindow()   # the keyboard goes to the ruling text (also without a window manager)

    def _arbiter_closed(self, back: QWidget | None) -> None:
        self.refresh()
        self._back_to(back)

    # ---------------------------------------------------------------- actions
    def on_new_game(self) -> None:
        """Ctrl+N: the new-game dialog; a running game is replaced only when the user says so."""
        from .new_game import NewGameDialog

        back = QApplication.focusWidget()
        game = self.controller.game
        if game is not None and game.result is None and not self._confirm_new_game():
            self._back_to(back)
            return
        dialog = NewGameDialog(self, lang=self.lang, initial=self.controller.last_setup())
        if dialog.exec() and dialog.chosen is not None and self.controller.new_game(dialog.chosen):
            # a new game: the keyboard on the board — or, without an electronic tactile board, in the input line
            back = self.input if self.controller.blind_typed() else self.board
        self._back_to(back)

    def _back_to(self, widget: QWidget | None) -> None:
        """After a dialog: the window is active again and ``widget`` (else the board) has the keyboard.

        Without a window manager (a kiosk, Xvfb) nothing else gives the keyboard back to the window.
        """
        self.activateWindow()
        (widget if widget is not None and widget.window() is self else self.board).setFocus(
            Qt.FocusReason.ActiveWindowFocusReason)

    def _confirm_new_game(self) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, g("new_game_title", self.lang), g("new_game_running", self.lang),
                          QMessageBox.StandardButton.NoButton, self)
        a11y.label(box, g("new_game_title", self.lang), "")     # its text is read once, as the alert's text
        yes = box.addButton(g("yes", self.lang), QMessageBox.ButtonRole.YesRole)
        no = box.addButton(g("no", self.lang), QMessageBox.ButtonRole.NoRole)
        a11y.label(yes, g("yes", self.lang), t("short.new_game_yes", self.lang))
        a11y.label(no, g("no", self.lang), t("short.new_game_no", self.lang))
        box.setDefaultButton(no)
        box.setEscapeButton(no)
        box.exec()
        return box.clickedButton() is yes

    def on_open_journal(self) -> None:
        from ..base import journal_dir

        back = QApplication.focusWidget()
        name, _ = QFileDialog.getOpenFileName(self, t("action.open_journal", self.lang), str(journal_dir()),
                                              t("journal.filter", self.lang))
        self._back_to(back)
        if name:
            self.controller.open_journal(Path(name))

    def on_save_pgn(self) -> None:
        back = QApplication.focusWidget()
        name, _ = QFileDialog.getSaveFileName(self, t("action.save_pgn", self.lang), "", t("pgn.filter", self.lang))
        self._back_to(back)
        if name:
            self.controller.save_pgn(Path(name))

    def on_pause(self) -> None:
        self.controller.toggle_pause()

    def on_arbiter(self) -> None:
        self.open_arbiter()

    def on_sighted_touch(self) -> None:
        """The sighted player touched the piece on the cursor square (D.2.10 e: the assistant tells the arbiter)."""
        self.controller.sighted_touch(self.board.cursor)

    def on_sighted_draw(self) -> None:
        """The sighted player offers a draw, or accepts the blind player's offer."""
        self.controller.sighted_draw()

    def on_sighted_resign(self) -> None:
        """The sighted player wants to resign: the table asks him to confirm (the question panel)."""
        self.controller.sighted_resign()

    def on_claim(self) -> None:
        """A player (or the assistant for the blind player) claims: the claim dialog, then the table judges."""
        if self.controller.session is None:
            self.controller.info.emit(t("next.no_game", self.lang))
            return
        game = self.controller.game
        blind, sighted = self.controller.sheet_names()
        to_move = "blind" if game is not None and game.blind_color == game.to_move else "sighted"  # who claims, most often
        dialog = ClaimDialog(self, lang=self.lang, blind_name=blind, sighted_name=sighted, who=to_move)
        back = QApplication.focusWidget()
        dialog.accepted.connect(lambda: self._claimed(dialog.claim()))
        dialog.finished.connect(lambda _result: self._back_to(back))     # the keyboard back where it was
        self.claim_dialog = dialog
        dialog.open()
        dialog.activateWindow()                 # the keyboard goes to the claim (also without a window manager)
        dialog.kind.setFocus(Qt.FocusReason.OtherFocusReason)

    def _claimed(self, claim: tuple[str, str, str | None]) -> None:
        who, kind, move = claim
        if kind.startswith("quickplay_"):
            self.controller.claim_quickplay(who, "no_effort" if kind.endswith("no_effort") else "cannot_win")
        elif kind.startswith("setup_"):
            self.controller.claim_setup(who, kind.removeprefix("setup_"))
        elif kind == "touch":
            self.controller.claim_touch(who)
        elif kind == "clock":
            self.controller.point_out_clock(who)
        elif kind == "correction":
            self.controller.agree_correction(who)
        else:
            self.controller.claim(who, kind, move)

    def on_quit(self) -> None:
        self.close()

    def on_focus_board(self) -> None:
        self.board.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def on_focus_input(self) -> None:
        self.input.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.input.selectAll()

    def on_focus_scores(self) -> None:
        self.scores.table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def on_focus_log(self) -> None:
        self.log.table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def on_flip(self) -> None:
        """Ctrl+F: the board from the blind player's side or the sighted player's; arrows follow."""
        self.view_of = "sighted" if self.view_of == "blind" else "blind"
        self.board.set_flipped(self._view_colour() == chess.BLACK)
        self.tell(self._view_text())

    def on_high_contrast(self) -> None:
        self.settings.theme = "normal" if self.settings.theme == "high-contrast" else "high-contrast"
        self._apply_look()

    def on_font_bigger(self) -> None:
        self.settings.font_scale = min(3.0, round(self.settings.font_scale + 0.2, 2))
        self._apply_look()

    def on_font_smaller(self) -> None:
        self.settings.font_scale = max(0.8, round(self.settings.font_scale - 0.2, 2))
        self._apply_look()

    def on_font_reset(self) -> None:
        self.settings.font_scale = 1.0
        self._apply_look()

    def _fit_screen(self) -> None:
        """1280 × 1024 at most, within the screen's free area (the window is never larger than the screen)."""
        screen = self.screen()
        free = screen.availableGeometry().size() if screen is not None else None
        width, height = (1280, 1024) if free is None else (min(1280, free.width()), min(1024, free.height()))
        self.resize(width, height)

    def _reflow(self) -> None:
        """From :data:`ONE_COLUMN_SCALE` on, one column: the clocks, scores, log and status below the board and the
        input line, in the same scrolling column — wide enough that nothing in them is cut; below it two."""
        one = self.settings.font_scale >= ONE_COLUMN_SCALE
        if one == self._one_column:
            return
        self._one_column = one
        if one:
            self.right_area.takeWidget()
            self._left_layout.addWidget(self._right)
            self.right_area.hide()
        else:
            self._left_layout.removeWidget(self._right)
            self.right_area.setWidget(self._right)
            self.right_area.show()
        self._right.show()
        self._table_heights()
        viewport = self.left_area.viewport()
        self._board_room(viewport.width(), viewport.height())

    def _table_heights(self) -> None:
        """In one column the scores and the log keep room for eight lines each (else the column gives them little)."""
        lines = QApplication.fontMetrics().lineSpacing() * 8 if self._one_column else 0
        for table in (self.scores.table, self.log.table):
            table.setMinimumHeight(lines)

    def _board_room(self, width: int, height: int) -> None:
        """The board is seen whole: no wider than its column, no higher than the column's visible height below the
        next-step line (the board shrinks rather than being cut; the column scrolls for what follows it)."""
        margins = self._left_layout.contentsMargins()
        above = self.next_step.sizeHint().height() + self._left_layout.spacing() + margins.top() + margins.bottom()
        self.board.set_room(max(1, min(width - margins.left() - margins.right(), height - above)))

    def _apply_look(self) -> None:
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        theme.apply(app, self.settings.theme, self.settings.font_scale)
        self._reflow()
        self._table_heights()
        self.board.set_theme(self.settings.theme)
        self.actions["high_contrast"].setChecked(self.settings.theme == "high-contrast")
        self.settings.save()
        self.show_message(t("look.changed", self.lang, theme=t(f"theme.{self.settings.theme}", self.lang),
                            scale=f"{self.settings.font_scale:.0%}"))

    def on_input_mode(self) -> None:
        self.mode.setCurrentIndex((self.mode.currentIndex() + 1) % self.mode.count())
        self.tell(self.mode.currentText())
        self.input.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def on_push_to_talk(self) -> None:
        if not self.controller.can_listen():
            self.controller.listen(True)  # says why not (no model, no microphone)
            return
        self.speech_status.talk.toggle()

    def on_request_time(self) -> None:
        self.controller.request("time")

    def on_request_last_move(self) -> None:
        self.controller.request("last_move")

    def on_request_square(self) -> None:
        self.controller.request("square", square=self.board.cursor)

    def on_request_pieces(self) -> None:
        piece = self.controller.board("sighted").piece_at(self.board.cursor) if self.controller.session else None
        if piece is None:
            self.show_message(t("request.no_piece_on_cursor", self.lang))
            return
        self.controller.request("pieces", piece_type=piece.piece_type, color=piece.color)

    def on_request_opponent(self) -> None:
        """Ctrl+G: the opponent's name and colour (and rating when known)."""
        self.controller.request("opponent")

    def on_request_move_list(self) -> None:
        """Ctrl+Shift+M: every move of the game, in words."""
        self.controller.request("move_list")

    def on_request_touched(self) -> None:
        """The sighted player's touches (D.2.10 e), said to the blind player."""
        self.controller.request("touched")

    def on_take_back(self) -> None:
        """Practice with coaching: take back the last move and the computer's reply."""
        self.controller.take_back()

    def on_request_position(self) -> None:
        self.controller.request("position")

    def on_repeat(self) -> None:
        """Ctrl+R: the last announcement again (the table's, not the last square)."""
        self.controller.repeat()

    def on_move_wording(self) -> None:
        """Ctrl+W: squares and moves said phonetically, in the NATO alphabet or as notation (as Lichess offers)."""
        wordings = WORDINGS
        wording = wordings[(wordings.index(self.controller.wording()) + 1) % len(wordings)]
        self.settings.wording = wording
        self.settings.save()
        if self.controller.table is not None:
            self.controller.set_wording(wording)     # what the table says follows, and the journal keeps it
        self.board.set_wording(wording)
        self.tell(g(f"wording_{wording}", self.lang))

    def on_stop_speech(self) -> None:
        self.controller.stop_speech()

    def on_settings(self) -> None:
        from .settings_dialog import SettingsDialog

        back = QApplication.focusWidget()
        dialog = SettingsDialog(self, self.settings, lang=self.lang)
        accepted = dialog.exec()
        self._back_to(back)
        if accepted:
            dialog.store()
            self.settings.save()
            self.controller.apply_settings(self.settings)
            self._apply_look()

    def on_help(self) -> None:
        back = QApplication.focusWidget()
        HelpDialog(self, lang=self.lang).exec()
        self._back_to(back)

    def on_guide(self) -> None:
        from shiboken6 import isValid

        from .guide import GuideDialog

        back = QApplication.focusWidget()
        GuideDialog(self, lang=self.lang).exec()
        self._back_to(back if back is not None and isValid(back) else None)   # a widget gone meanwhile: the board

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.settings.last_journal = str(self.controller.journal_path or "")
        self.settings.save()
        self.controller.shutdown()
        super().closeEvent(event)

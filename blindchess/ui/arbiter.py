"""The arbiter's view: the two boards have diverged (FIDE Laws D.2.9).

Shows both boards side by side with the differing squares marked, both game
scores aligned by move number with the first disagreement marked, the ruling
the session proposes (``ruling.rule`` → ``Ruling.explain``) in words, and the
clock times the arbiter may set. "Apply" carries out the proposal the table
made; "Retrace" is the arbiter's own decision: the game goes back to a chosen
half-move (the clocks as they were then). Both are the table's calls
(``arbiter_apply``, ``arbiter_retrace``); clock times the arbiter changed are
set first (``set_clock``). The dialog offers nothing the table did not propose.

The same view holds the arbiter's tournament procedures: adjourning the game (with the
minutes left in the session when it is adjourned before its end, Guidelines I.1 b) and
opening the envelope at resumption (I.7; the replying player absent, I.9 b; the sealer
absent, I.9 c), a player too late (I.10), the game annulled (I.12 b), and the decision on
a quickplay-finish claim (Guidelines III.5) — each button enabled only when it applies.

For a screen reader: each board is a table named for what it is
("Tastbrett von Anna" — the tactile board as reported, for looking only); the
finding above the boards is worded from the same proposal the ruling text
explains, so they never disagree; both carry their text in their accessible
names; Tab goes ruling text → sighted board → tactile board → scores → clock
fields → half-move → buttons. The boards' reading keys (Shift+arrows, M, X, L, O,
P) read *that* board, not the game.
"""

from __future__ import annotations

import chess
from PySide6.QtCore import Qt, QTime
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTimeEdit,
    QVBoxLayout,
    QWidget,
)

from ..language import answer, describe_pieces, describe_position
from ..table import touch_report
from . import a11y
from .board import BoardView, g
from .panels import ScoreTable, format_seconds
from .text import t

#: The arbiter's tournament procedures (Guidelines I, III), each a button named for it.
#: One row each: the adjournment (Guidelines I), the quickplay finish (III), the result (Art. 12.9), a player
#: too late or the game annulled (Guidelines I.10, I.12 b).
PROCEDURE_ROWS = (("adjourn", "resume", "resume_absent", "resume_sealer_absent"),
                  ("quickplay_draw", "quickplay_reject", "quickplay_postpone"),
                  ("result_white", "result_black", "result_draw"),
                  ("late_white", "late_black", "annul"))
PROCEDURES = tuple(name for row in PROCEDURE_ROWS for name in row)
#: The arbiter's decision of a result (Art. 12.9): the button for each.
RESULT_BUTTONS = {"1-0": "result_white", "0-1": "result_black", "1/2-1/2": "result_draw"}


def _time_edit(parent: QWidget, seconds: float | None) -> QTimeEdit:
    edit = QTimeEdit(parent)
    edit.setDisplayFormat("H:mm:ss")
    seconds = max(0, int(seconds or 0))
    edit.setTime(QTime(min(23, seconds // 3600), (seconds // 60) % 60, seconds % 60))
    return edit


class ArbiterDialog(QDialog):
    """Non-modal: the game window stays visible behind it (the arbiter looks at both)."""

    def __init__(self, parent: QWidget | None, controller, *, lang: str = "de") -> None:
        super().__init__(parent)
        self.controller = controller
        self.lang = lang
        self.ruling = None
        self.shown_clocks: dict[bool, int] = {}
        self.setObjectName("arbiter_view")
        self.setWindowTitle(t("arbiter.title", lang))
        a11y.label(self, t("arbiter.title", lang), t("arbiter.description", lang))
        layout = QVBoxLayout(self)

        self.summary = QLabel("", self)
        self.summary.setWordWrap(True)
        self.summary.setObjectName("arbiter_summary")
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        a11y.label(self.summary, t("arbiter.summary", lang), t("arbiter.summary_description", lang))
        layout.addWidget(self.summary)

        boards = QHBoxLayout()
        self.boards: dict[str, BoardView] = {}
        self.board_captions: dict[str, QLabel] = {}
        for which in ("sighted", "tactile"):
            column = QVBoxLayout()
            caption = QLabel("", self)
            caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
            a11y.label(caption, t(f"arbiter.board_{which}", lang), t(f"arbiter.board_{which}_description", lang))
            view = BoardView(self, lang=lang, interactive=False)
            view.setObjectName(f"arbiter_board_{which}")
            view.setMinimumSize(300, 300)
            view.squareDescribed.connect(self.controller.speak_quietly)
            view.boardSaid.connect(self._say)
            view.commandRequested.connect(lambda kind, square, v=view: self._board_command(v, kind, square))
            caption.setBuddy(view)
            column.addWidget(caption)
            column.addWidget(view, 1)
            boards.addLayout(column, 1)
            self.boards[which] = view
            self.board_captions[which] = caption
        layout.addLayout(boards, 3)

        self.scores = ScoreTable(self, lang=lang)
        layout.addWidget(self.scores, 1)

        proposal = QGroupBox(t("arbiter.proposal", lang), self)
        a11y.label(proposal, t("arbiter.proposal", lang), t("arbiter.proposal_description", lang))
        proposal_layout = QVBoxLayout(proposal)
        self.explanation = QLabel("", proposal)
        self.explanation.setObjectName("ruling_text")
        self.explanation.setWordWrap(True)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                 | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.explanation.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        a11y.label(self.explanation, t("arbiter.proposal", lang), t("arbiter.explanation_description", lang))
        proposal_layout.addWidget(self.explanation)
        self.touches = QLabel("", proposal)                 # D.2.10 e: what the sighted player touched
        self.touches.setObjectName("touches")
        self.touches.setWordWrap(True)
        a11y.label(self.touches, g("touches_name", lang, text=""), g("touches_description", lang))
        proposal_layout.addWidget(self.touches)
        layout.addWidget(proposal)

        decide = QGroupBox(t("arbiter.decision", lang), self)
        a11y.label(decide, t("arbiter.decision", lang), t("arbiter.decision_description", lang))
        form = QFormLayout(decide)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        self.clock_edits: dict[bool, QTimeEdit] = {}
        for colour in (chess.WHITE, chess.BLACK):
            edit = _time_edit(decide, None)
            key = "arbiter.clock_white" if colour else "arbiter.clock_black"
            a11y.label(edit, t(key, lang), t("arbiter.clock_description", lang))
            caption = QLabel(t(key, lang), decide)
            a11y.label(caption, t(key, lang), t("arbiter.clock_description", lang))
            caption.setBuddy(edit)
            form.addRow(caption, edit)
            self.clock_edits[colour] = edit
        self.plies = QSpinBox(decide)
        self.plies.setRange(0, 999)
        a11y.label(self.plies, t("arbiter.plies", lang), t("arbiter.plies_description", lang))
        caption = QLabel(t("arbiter.plies", lang), decide)
        a11y.label(caption, t("arbiter.plies", lang), t("arbiter.plies_description", lang))
        caption.setBuddy(self.plies)
        form.addRow(caption, self.plies)
        self.session_minutes = QSpinBox(decide)          # adjourned before the session's end (Guidelines I.1 b)
        self.session_minutes.setObjectName("session_minutes")
        self.session_minutes.setRange(0, 600)
        a11y.label(self.session_minutes, t("arbiter.session_minutes", lang),
                   t("arbiter.session_minutes_description", lang))
        caption = QLabel(t("arbiter.session_minutes", lang), decide)
        a11y.label(caption, t("arbiter.session_minutes", lang), t("arbiter.session_minutes_description", lang))
        caption.setBuddy(self.session_minutes)
        form.addRow(caption, self.session_minutes)
        layout.addWidget(decide)

        procedures = QGroupBox(t("arbiter.procedures", lang), self)
        a11y.label(procedures, t("arbiter.procedures", lang), t("arbiter.procedures_description", lang))
        grid = QGridLayout(procedures)
        self.procedure_buttons: dict[str, QPushButton] = {}
        for r, names in enumerate(PROCEDURE_ROWS):
            for place, name in enumerate(names):
                button = QPushButton(t(f"arbiter.{name}", lang), procedures)
                button.setObjectName(name)
                a11y.label(button, t(f"arbiter.{name}", lang), t(f"arbiter.{name}_description", lang))
                button.clicked.connect(lambda _checked=False, n=name: self.procedure(n))
                grid.addWidget(button, r, place)
                self.procedure_buttons[name] = button
        layout.addWidget(procedures)

        buttons = QHBoxLayout()
        self.apply_button = QPushButton(t("arbiter.apply", lang), self)
        self.apply_button.setObjectName("apply_ruling")
        self.apply_button.setShortcut("Alt+A" if lang != "de" else "Alt+W")
        a11y.label(self.apply_button, t("arbiter.apply", lang), t("arbiter.apply_description", lang))
        self.retrace_button = QPushButton(t("arbiter.retrace_button", lang), self)
        self.retrace_button.setObjectName("retrace")
        a11y.label(self.retrace_button, t("arbiter.retrace_button", lang), t("arbiter.retrace_button_description", lang))
        self.close_button = QPushButton(t("close", lang), self)
        self.close_button.setObjectName("close_arbiter")
        a11y.label(self.close_button, t("close", lang), t("arbiter.close_description", lang))
        for button in (self.apply_button, self.retrace_button, self.close_button):
            buttons.addWidget(button)
        self.apply_button.clicked.connect(self.apply)
        self.retrace_button.clicked.connect(self.retrace)
        self.close_button.clicked.connect(self.reject)
        layout.addLayout(buttons)
        self.resize(1100, 980)
        self.refresh()
        self.apply_button.setDefault(True)
        chain = [self.explanation, self.boards["sighted"], self.boards["tactile"], self.scores.table,
                 *self.clock_edits.values(), self.plies, self.session_minutes, *self.procedure_buttons.values(),
                 self.apply_button,
                 self.retrace_button, self.close_button]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)
        self.explanation.setFocus(Qt.FocusReason.OtherFocusReason)

    def refresh(self) -> None:
        """Read both boards, both scores and the proposed ruling from the controller."""
        c = self.controller
        self.ruling = c.proposal
        differing = c.differing()
        names = c.sheet_names()
        if self.ruling is not None:   # every square the proposal names is marked too
            differing = differing | {chess.parse_square(sq) for sq in self.ruling.boards_diff}
            differing |= {chess.parse_square(sq) for squares in self.ruling.squares.values() for sq in squares}
        for which, name in zip(("sighted", "tactile"), (names[1], names[0]), strict=True):
            board = c.board(which)
            self.boards[which].set_position(board)
            self.boards[which].set_marks(differing=differing)
            self.boards[which].set_flipped(c.blind_color == chess.BLACK)   # the blind player's view, as the window
            self.board_captions[which].setText(t(f"arbiter.board_{which}_named", self.lang, name=name))
            self.boards[which].set_identity(
                g(f"board_{which}_named", self.lang, name=name),
                g("board_tactile_description" if which == "tactile" else "board_sighted_view_description", self.lang))
        start = c.start_board()
        agreed = getattr(self.ruling, "agreed_plies", None)
        blind, sighted = c.score("blind"), c.score("sighted")
        first = agreed if agreed is not None and (agreed < max(len(blind), len(sighted))) else None
        self.scores.set_sheet_names(*names)
        self.scores.set_scores(blind, sighted, first_white=start.turn == chess.WHITE,
                               first_number=start.fullmove_number, first_diff=first)
        summary = self._finding(differing)
        a11y.set_text(self.summary, summary, g("summary_name", self.lang, text=summary))
        text = self.ruling.explain(self.lang) if self.ruling is not None else t("arbiter.no_ruling", self.lang)
        a11y.set_text(self.explanation, text, g("ruling_name", self.lang, text=text))
        if c.session is not None:
            touched = touch_report(c.session, self.lang)
            a11y.set_text(self.touches, touched, g("touches_name", self.lang, text=touched))
        remaining = c.clock_state()[0]
        has_clock = self._has_clock()
        for colour, edit in self.clock_edits.items():
            seconds = remaining.get(colour)  # the clock as it runs now (a ruling keeps or restores it)
            edit.setEnabled(has_clock)
            if seconds is not None:
                value = max(0, int(seconds))
                edit.setTime(QTime(min(23, value // 3600), (value // 60) % 60, value % 60))
                edit.setToolTip(format_seconds(value))
                self.shown_clocks[colour] = value
        if agreed is not None:
            self.plies.setValue(agreed)
        game = c.game
        running = game is not None and not game.finished
        adjourned = running and game is not None and game.adjourned
        waiting = running and game is not None and game.quickplay_claim is not None
        sealed = running and game is not None and game.envelope_sealed
        self.procedure_buttons["adjourn"].setEnabled(running and not adjourned and not waiting)
        self.procedure_buttons["resume"].setEnabled(sealed)
        self.procedure_buttons["resume_absent"].setEnabled(sealed and game is not None
                                                           and not game.responder_clock_started)
        self.procedure_buttons["resume_sealer_absent"].setEnabled(sealed and game is not None
                                                                  and not game.reply_sealing)
        for name in ("late_white", "late_black", "annul"):
            self.procedure_buttons[name].setEnabled(running)
        for verdict in ("quickplay_draw", "quickplay_reject", "quickplay_postpone"):
            self.procedure_buttons[verdict].setEnabled(waiting)
        for button in RESULT_BUTTONS.values():
            self.procedure_buttons[button].setEnabled(running)

    def _finding(self, differing: set[int]) -> str:
        """The heading, worded from the proposal the ruling text explains (never "they agree" beside a ruling)."""
        ruling = self.ruling
        if differing:
            return g("summary_boards", self.lang, squares=", ".join(chess.square_name(s) for s in sorted(differing)))
        if ruling is not None and not ruling.sheets_agree:
            return g("summary_scores", self.lang, ply=ruling.agreed_plies + 1)
        if ruling is not None and ruling.kind != "none":
            return g("summary_other", self.lang)
        return g("summary_agree", self.lang)

    def _say(self, text: str) -> None:
        """What a board says besides square names: the program's voice and the screen reader, once each."""
        self.controller.speak_quietly(text)
        self.controller.voice.message(text)

    def _board_command(self, view: BoardView, kind: str, square: int) -> None:
        """A reading key on one of the boards: read *that* board (the time is the table's, on request)."""
        if kind == "time":
            self.controller.request("time")
            return
        board, lang = view.board, view.lang
        if kind == "position":
            text = describe_position(board, lang)
        elif kind == "pieces":
            piece = board.piece_at(square)
            text = (describe_pieces(board, piece.piece_type, piece.color, lang) if piece is not None
                    else t("request.no_piece_on_cursor", self.lang))
        else:
            text = answer(kind, board, lang, wording=view.wording, square=square,
                                      white_view=not view.flipped)
        self._say(text)

    def _has_clock(self) -> bool:
        game = self.controller.game
        return game is not None and game.time_control is not None

    def changed_clocks(self) -> dict[bool, float]:
        """The clock times the arbiter changed (seconds); the ones he left alone run on untouched."""
        if not self._has_clock():
            return {}
        times = {colour: float(QTime(0, 0).secsTo(edit.time())) for colour, edit in self.clock_edits.items()}
        return {colour: seconds for colour, seconds in times.items() if int(seconds) != self.shown_clocks.get(colour)}

    def procedure(self, name: str) -> None:
        """The arbiter adjourns, resumes, or decides the quickplay-finish claim (the table refuses what does
        not apply now and says why)."""
        c = self.controller
        if name == "adjourn":
            c.adjourn(self.session_minutes.value() * 60.0)
        elif name == "resume":
            c.resume_adjourned()
        elif name == "resume_absent":
            c.resume_absent()
        elif name == "resume_sealer_absent":
            c.resume_sealer_absent()
        elif name in ("late_white", "late_black"):
            c.late(chess.WHITE if name == "late_white" else chess.BLACK)
        elif name == "annul":
            c.annul()
        elif name in RESULT_BUTTONS.values():
            c.arbiter_result(next(r for r, n in RESULT_BUTTONS.items() if n == name))
        else:
            c.arbiter_quickplay(name.removeprefix("quickplay_"))
        self.refresh()

    def apply(self) -> None:
        """Carry out the table's proposal (the table refuses, with a reason, when there is none)."""
        if self.controller.apply_ruling():
            self.controller.set_clocks(self.changed_clocks())
            self.accept()

    def retrace(self) -> None:
        """The arbiter's own decision: back to the chosen half-move."""
        if self.controller.retrace(self.plies.value()):
            self.controller.set_clocks(self.changed_clocks())
            self.accept()

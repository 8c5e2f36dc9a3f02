"""The side panels of the main window: both game scores, both clocks, the
announcement log, the tactile-board status and the speech status.

They only show what they are given; the window feeds them from the session.
Differences are never shown by colour alone: a differing score entry also
carries "≠", a mismatch names its squares, so a screen reader and a
colour-blind arbiter get the same information (WCAG 1.4.1). Every label that
shows a value (clock faces, port, device, state, voice, model, the question)
carries the value in its accessible name ("Uhr Weiß, Anna: 1:29:59, 12 Züge"),
so a screen reader reads what is shown.
"""

from __future__ import annotations

import datetime
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from . import a11y, theme
from .board import g
from .text import t

DIFF_BRUSH = QBrush(QColor("#ffc8c8"))
FIRST_DIFF_BRUSH = QBrush(QColor("#ff7070"))
DIFF_MARK = " ≠"


def _same_entry(a: str, b: str) -> bool:
    """Two written moves agree when they differ only in check/mate signs, spaces or O/0."""
    def norm(text: str) -> str:
        return text.replace(" ", "").replace("O", "0").rstrip("+#!?").replace("e.p.", "")
    return norm(a) == norm(b)


def first_difference(a: list[str], b: list[str]) -> int | None:
    """The first ply (0-based) where both scores have an entry and they disagree, or None.

    A score that is only shorter is no disagreement: the last move may not be written yet.
    """
    for ply in range(min(len(a), len(b))):
        if not _same_entry(a[ply], b[ply]):
            return ply
    return None


def format_seconds(seconds: float) -> str:
    """1:29:59 / 4:05 — a clock face, never negative."""
    seconds = max(0, int(seconds + 0.999)) if seconds > 0 else 0
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _table(parent: QWidget, name: str, description: str, headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers), parent)
    table.setHorizontalHeaderLabels(headers)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.setTabKeyNavigation(False)
    table.setWordWrap(False)
    a11y.label(table, name, description)
    return table


class ScoreTable(QWidget):
    """The two game scores, by move number, side by side (D.2.7, D.2.9)."""

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de") -> None:
        super().__init__(parent)
        self.lang = lang
        a11y.label(self, t("score.title", lang), t("score.title_description", lang))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(t("score.title", lang), self)
        self.title.setWordWrap(True)
        a11y.label(self.title, t("score.title", lang), t("score.title_description", lang))
        layout.addWidget(self.title)
        self.table = _table(self, t("score.title", lang), t("short.scores", lang), self._headers("", ""))
        self.table.setObjectName("scores")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table)
        self.blind: list[str] = []
        self.sighted: list[str] = []
        self.first_diff: int | None = None

    def _headers(self, blind: str, sighted: str) -> list[str]:
        return [t("score.number", self.lang),
                t("score.column", self.lang, sheet=blind or t("score.blind", self.lang), side=t("white", self.lang)),
                t("score.column", self.lang, sheet=blind or t("score.blind", self.lang), side=t("black", self.lang)),
                t("score.column", self.lang, sheet=sighted or t("score.sighted", self.lang), side=t("white", self.lang)),
                t("score.column", self.lang, sheet=sighted or t("score.sighted", self.lang), side=t("black", self.lang))]

    def set_sheet_names(self, blind: str, sighted: str) -> None:
        if (blind, sighted) == getattr(self, "_names", None):
            return
        self._names = (blind, sighted)
        self.table.setHorizontalHeaderLabels(self._headers(blind, sighted))
        self.title.setText(t("score.title_named", self.lang, blind=blind, sighted=sighted))

    def set_scores(self, blind: list[str], sighted: list[str], *, first_white: bool = True,
                   first_number: int = 1, first_diff: int | None = None) -> None:
        """Show both scores; ``first_diff`` (ply) overrides the plain textual comparison."""
        shown = (list(blind), list(sighted), first_white, first_number, first_diff)
        if shown == getattr(self, "_shown", None):
            return  # unchanged: keep the table (and the screen reader's place in it)
        self._shown = shown
        self.blind, self.sighted = list(blind), list(sighted)
        offset = 0 if first_white else 1
        self.first_diff = first_diff if first_diff is not None else first_difference(blind, sighted)
        plies = max(len(blind), len(sighted))
        rows = (plies + offset + 1) // 2
        self.table.setRowCount(rows)
        bold = QFont(self.font())
        bold.setBold(True)
        for row in range(rows):
            number = QTableWidgetItem(f"{first_number + row}.")
            number.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, 0, number)
            for side in (0, 1):
                ply = row * 2 + side - offset
                for column, sheet, other in ((1 + side, blind, sighted), (3 + side, sighted, blind)):
                    text = sheet[ply] if 0 <= ply < len(sheet) else ""
                    item = QTableWidgetItem(text)
                    # an entry not yet written on the other sheet is no difference (the mirror may be pending)
                    both = 0 <= ply < len(sheet) and ply < len(other)
                    if (both and not _same_entry(sheet[ply], other[ply])) or (ply == self.first_diff and text):
                        if text:
                            item.setText(text + DIFF_MARK)
                        key = "first_diff_background" if ply == self.first_diff else "diff_background"
                        item.setBackground(QBrush(QColor(theme.colour(key))))   # the look's colours (A11Y-LOOK)
                        item.setForeground(QBrush(QColor(theme.colour("diff_text"))))
                        item.setToolTip(t("score.differs", self.lang))
                    if ply == self.first_diff:
                        item.setFont(bold)
                    self.table.setItem(row, column, item)
        last = self.table.item(rows - 1, 0) if rows else None
        if last is not None:
            self.table.scrollToItem(last)


class ClockPanel(QWidget):
    """Both clocks, large; the running one framed. Times are read aloud only on request (D.2.10 d).

    Below each face a button presses that player's clock (D.2.4), shown only when
    the game's clock is pressed by hand (:meth:`set_pressable`); ``pressed(colour)``.
    """

    pressed = Signal(bool)

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de") -> None:
        super().__init__(parent)
        self.lang = lang
        a11y.label(self, t("clock.panel", lang), t("clock.description", lang))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.faces: dict[bool, QLabel] = {}
        self.press_buttons: dict[bool, QPushButton] = {}
        for colour in (True, False):
            side = t("white" if colour else "black", lang)
            button = QPushButton(t("clock.press", lang, side=side), self)
            button.setObjectName("press_white" if colour else "press_black")
            a11y.label(button, t("clock.press", lang, side=side), t("short.clock_press", lang))
            button.clicked.connect(lambda _checked=False, c=colour: self.pressed.emit(c))
            button.setVisible(False)
            self.press_buttons[colour] = button
            face = QLabel("–", self)
            face.setObjectName("clock_white" if colour else "clock_black")
            face.setAlignment(Qt.AlignmentFlag.AlignCenter)
            face.setTextFormat(Qt.TextFormat.RichText)
            face.setFrameShape(QLabel.Shape.Box)
            face.setMinimumWidth(120)
            side = t("white" if colour else "black", lang)
            a11y.label(face, t("clock.name", lang, side=side), t("clock.description", lang))
            column = QVBoxLayout()
            column.addWidget(face)
            column.addWidget(self.press_buttons[colour])
            layout.addLayout(column)
            self.faces[colour] = face
        self.names = {True: t("white", lang), False: t("black", lang)}
        self.set_state({True: None, False: None}, None, {})

    def set_names(self, white: str, black: str) -> None:
        self.names = {True: white, False: black}

    def set_pressable(self, pressable: bool) -> None:
        """Show the press buttons (a clock pressed by hand) or hide them (the app presses it)."""
        for button in self.press_buttons.values():
            button.setVisible(pressable)

    def set_state(self, remaining: dict[bool, float | None], running: bool | None,
                  moves: dict[bool, int], warning: float = 300.0) -> None:
        for colour, face in self.faces.items():
            seconds = remaining.get(colour)
            shown = t("clock.none", self.lang) if seconds is None else format_seconds(seconds)
            n = moves.get(colour, 0)
            count = t("clock.moves_one" if n == 1 else "clock.moves", self.lang, n=n)
            low = seconds is not None and seconds < warning
            # low time: the look's colour (>= 4.5:1 on its window) and underlined — not by colour alone (A11Y-LOOK)
            colour_css = f"color:{theme.colour('clock_low')};text-decoration:underline;" if low else ""
            face.setText(f"<div style='text-align:center'><b>{escape(self.names[colour])}</b><br>"
                         f"<span style='font-size:200%;font-weight:bold;{colour_css}'>{shown}</span><br>{count}</div>")
            name = g("clock_name", self.lang, side=t("white" if colour else "black", self.lang),
                     name=self.names[colour], time=shown, moves=count)
            if running is colour:
                name = f"{name}, {g('clock_running', self.lang)}"
            if face.accessibleName() != name:
                face.setAccessibleName(name)
            face.setStyleSheet(f"border: 4px solid {theme.colour('running')};" if running is colour
                               else f"border: 1px solid {theme.colour('border')};")


class AnnouncementLog(QWidget):
    """Everything said (by the app's voice) and heard (recognised or typed), with confidence."""

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de") -> None:
        super().__init__(parent)
        self.lang = lang
        a11y.label(self, t("log.title", lang), t("log.title_description", lang))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel(t("log.title", lang), self)
        a11y.label(title, t("log.title", lang), t("log.title_description", lang))
        layout.addWidget(title)
        headers = [t("log.time", lang), t("log.kind", lang), t("log.text", lang), t("log.confidence", lang)]
        self.table = _table(self, t("log.title", lang), t("short.log", lang), headers)
        self.table.setObjectName("announcements")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table)

    def add(self, kind: str, text: str, confidence: float | None = None) -> None:
        """``kind``: "said", "heard", "typed" or "info"."""
        row = self.table.rowCount()
        self.table.insertRow(row)
        stamp = datetime.datetime.now().strftime("%H:%M:%S")
        values = [stamp, t(f"log.{kind}", self.lang), text, "" if confidence is None else f"{confidence:.0%}"]
        for column, value in enumerate(values):
            item = QTableWidgetItem(value)
            item.setToolTip(value)
            self.table.setItem(row, column, item)
        self.table.resizeRowToContents(row)
        self.table.scrollToBottom()

    def texts(self) -> list[tuple[str, str]]:
        """(kind label, text) of every row — for tests and the arbiter's record."""
        def text(row: int, column: int) -> str:
            item = self.table.item(row, column)
            return item.text() if item is not None else ""
        return [(text(r, 1), text(r, 2)) for r in range(self.table.rowCount())]


class TactileStatus(QGroupBox):
    """Port, device and sync state of the tactile board — or, with ``kind="eboard"``, of the sighted player's
    electronic board (the same rows, its own title and state caption)."""

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de", kind: str = "tactile") -> None:
        title = t("tactile.title", lang) if kind == "tactile" else g("eboard_title", lang)
        super().__init__(title, parent)
        self.lang = lang
        self.kind = kind
        a11y.label(self, title, t("tactile.description", lang) if kind == "tactile" else g("eboard_description", lang))
        grid = QGridLayout(self)
        self.port = self._row(grid, 0, "tactile.port")
        self.device = self._row(grid, 1, "tactile.device")
        self.state = self._row(grid, 2, "tactile.state")
        self.set_state(None, None, None)

    def _show(self, label: QLabel, text: str, key: str) -> None:
        a11y.set_text(label, text, g(key, self.lang, text=text))

    def _row(self, grid: QGridLayout, row: int, key: str) -> QLabel:
        caption = QLabel(t(key, self.lang), self)
        value = QLabel("–", self)
        value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard | Qt.TextInteractionFlag.TextSelectableByMouse)
        value.setWordWrap(True)
        value.setMinimumHeight(value.fontMetrics().lineSpacing() * 2 + 4)  # room for a wrapped line
        a11y.label(caption, t(key, self.lang), t(f"{key}_description", self.lang))
        a11y.label(value, t(key, self.lang), t(f"{key}_description", self.lang))
        caption.setBuddy(value)
        grid.addWidget(caption, row, 0)
        grid.addWidget(value, row, 1)
        return value

    def set_state(self, port: str | None, device: str | None, mismatch: list[str] | None,
                  in_sync: bool | None = None, adjusting: bool = False) -> None:
        """``in_sync``: the tracker's last word (None: not known yet); ``adjusting``: after a ruling."""
        shown = port or t("tactile.none", self.lang)
        if port and len(port) > 24:
            shown = "…/" + port.replace("\\", "/").rsplit("/", 1)[-1]  # the whole path is in the tooltip
        self._show(self.port, shown, "tactile_port")
        self.port.setToolTip(port or "")
        self._show(self.device, device or t("tactile.manual", self.lang), "tactile_device")
        if mismatch:
            text = t("tactile.mismatch", self.lang, squares=", ".join(mismatch))
            self.state.setStyleSheet(f"color: {theme.colour('problem')}; font-weight: bold;")
        else:
            if adjusting:
                text = t("tactile.adjusting", self.lang)
            elif in_sync and device:
                text = t("tactile.in_sync", self.lang)
            else:
                text = "–"
            self.state.setStyleSheet("")
        self._show(self.state, text, "tactile_state" if self.kind == "tactile" else "eboard_state")


class SpeechStatus(QGroupBox):
    """Voice, recognition model, microphone level and the push-to-talk button."""

    pushToTalk = Signal(bool)

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de") -> None:
        super().__init__(t("speech.title", lang), parent)
        self.lang = lang
        a11y.label(self, t("speech.title", lang), t("speech.description", lang))
        grid = QGridLayout(self)
        self.voice = QLabel("–", self)
        self.model = QLabel("–", self)
        for row, (key, value) in enumerate((("speech.voice", self.voice), ("speech.model", self.model))):
            caption = QLabel(t(key, lang), self)
            a11y.label(caption, t(key, lang), t(f"{key}_description", lang))
            a11y.label(value, t(key, lang), t(f"{key}_description", lang))
            value.setWordWrap(True)
            grid.addWidget(caption, row, 0)
            grid.addWidget(value, row, 1)
        caption = QLabel(t("speech.level", lang), self)
        a11y.label(caption, t("speech.level", lang), t("speech.level_description", lang))
        self.level = QProgressBar(self)
        self.level.setRange(0, 100)
        self.level.setTextVisible(False)
        self.level.setMinimumHeight(8)  # no fixed maximum: it grows with the font and is never cut (A11Y-LOOK)
        a11y.label(self.level, t("speech.level", lang), t("speech.level_description", lang))
        grid.addWidget(caption, 2, 0)
        grid.addWidget(self.level, 2, 1)
        self.talk = QPushButton(t("speech.push_to_talk", lang), self)
        self.talk.setCheckable(True)
        self.talk.setObjectName("push_to_talk")
        a11y.label(self.talk, t("speech.push_to_talk", lang), t("short.push_to_talk", lang))
        self.talk.toggled.connect(self.pushToTalk.emit)
        grid.addWidget(self.talk, 3, 0, 1, 2)

    def set_state(self, voice: str | None, model: str | None, listening_possible: bool) -> None:
        shown = voice or t("speech.no_voice", self.lang)
        a11y.set_text(self.voice, shown, g("speech_voice", self.lang, text=shown))
        shown = model or t("speech.no_model", self.lang)
        a11y.set_text(self.model, shown, g("speech_model", self.lang, text=shown))
        self.talk.setEnabled(listening_possible)

    def set_level(self, level: float) -> None:
        self.level.setValue(int(max(0.0, min(1.0, level)) * 100))


class QuestionPanel(QGroupBox):
    """The table's open question (D.2.1, resignation, draw answers) with one button per answer.

    Buttons are numbered 1…n (candidate moves) or "yes"/"no"; ``answered(answer)``
    gives 1-based ints or "yes"/"no". Hidden while no question is open.
    """

    answered = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de") -> None:
        super().__init__(t("question.title", lang), parent)
        self.lang = lang
        self.setObjectName("question")
        a11y.label(self, t("question.title", lang), t("short.question", lang))
        layout = QVBoxLayout(self)
        self.text = QLabel("", self)
        self.text.setObjectName("question_text")
        self.text.setWordWrap(True)
        a11y.label(self.text, t("question.title", lang), t("question.description", lang))
        layout.addWidget(self.text)
        self.row = QHBoxLayout()
        layout.addLayout(self.row)
        self.buttons: list[QPushButton] = []
        self.answers: list[int | str] = []
        self.shown: tuple[str, tuple[str, ...]] | None = None
        self.setVisible(False)

    def show_question(self, text: str, options: list[tuple[int | str, str]]) -> None:
        """Show ``text`` with one button per (answer, label); the same question again changes nothing."""
        key = (text, tuple(label for _answer, label in options))
        if key == self.shown:
            return
        self.shown = key
        for button in self.buttons:
            self.row.removeWidget(button)
            button.deleteLater()
        self.buttons, self.answers = [], []
        a11y.set_text(self.text, text, g("question_name", self.lang, text=text))
        for answer, label in options:
            button = QPushButton(label, self)
            button.setObjectName(f"answer_{answer}")
            a11y.label(button, label, t("question.answer_description", self.lang))
            button.clicked.connect(lambda _checked=False, a=answer: self.answered.emit(a))
            self.row.addWidget(button)
            self.buttons.append(button)
            self.answers.append(answer)
        self.setVisible(True)

    def clear(self) -> None:
        if self.shown is not None:
            self.shown = None
            self.setVisible(False)

    def button_for(self, answer: int | str) -> QPushButton | None:
        """The button that gives ``answer`` (None when the question has no such answer)."""
        return self.buttons[self.answers.index(answer)] if answer in self.answers else None

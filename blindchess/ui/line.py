"""A one-line text field that a screen reader reads whole.

Orca reads a Qt ``QLineEdit``'s value without its last character ("Ann" for
"Anna"): Qt reports no text attributes for a line edit (its attribute runs are
empty, start = end), and Orca takes the text up to the start of the last run.
Qt's plain-text editor reports real runs and is read whole. :class:`LineInput`
is that editor kept to one line: Enter gives :attr:`LineInput.returnPressed`
instead of a new line, pasted line breaks become spaces, Tab moves on; it has
the parts of ``QLineEdit``'s interface the window and the dialogs use (``text``,
``setText``, ``clear``, ``selectAll``, ``setPlaceholderText``, ``placeholderText``,
``setEchoMode``: a sealed move typed is not shown on the screen).

Enter is then passed on as a line edit passes it on: in a dialog it presses the
dialog's default button (``QDialog`` does that with an Enter no field took), so
Enter in any field of a form accepts the form, as it did with ``QLineEdit``.

:func:`ask_line` is ``QInputDialog.getText`` with such a line.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QMargins, QMimeData, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QPalette, QResizeEvent, QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QStyle,
    QStyleOptionFrame,
    QVBoxLayout,
    QWidget,
)

from . import a11y
from .text import t

__all__ = ["LineDialog", "LineInput", "ask_line"]

#: A line edit's own room around its text (Qt's QLineEditPrivate): 2 pixels left and right, 1 above and below.
_LINE_EDIT_MARGIN = (2, 1)


class LineInput(QPlainTextEdit):
    """One line of text; :attr:`returnPressed` on Enter (see the module docstring)."""

    returnPressed = Signal()

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._placeholder = ""
        self._selecting = False      # the text is to be selected: the field was entered by Tab or a shortcut
        self._select_when_opened = False
        self.setTabChangesFocus(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setWordWrapMode(QTextOption.WrapMode.NoWrap)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.document().setDocumentMargin(0)      # the room around the line: the viewport's margins (_centre)
        self.setBackgroundRole(QPalette.ColorRole.Base)     # those margins in the field's colour, not the window's
        self.setAutoFillBackground(True)
        self.setPlainText(text)
        self._echo = QLineEdit.EchoMode.Normal

    # ------------------------------------------------------------------ QLineEdit's words
    def text(self) -> str:
        """The line's text."""
        return self.toPlainText()

    def setText(self, text: str) -> None:  # noqa: N802 - as QLineEdit
        """Replace the text (line breaks become spaces); the cursor goes to its end."""
        self.setPlainText(" ".join(text.splitlines()))
        self.moveCursor(self.textCursor().MoveOperation.End)

    def setEchoMode(self, mode: QLineEdit.EchoMode) -> None:  # noqa: N802 - as QLineEdit
        """Normal: the text is shown; Password or NoEcho: what is typed is not shown on the screen (drawn in no
        colour, whatever the theme) — a sealed move written while others may look (Guidelines I.1)."""
        if mode == self._echo:
            return
        self._echo = mode
        self.setStyleSheet("" if mode == QLineEdit.EchoMode.Normal else "color: transparent;")

    def echoMode(self) -> QLineEdit.EchoMode:  # noqa: N802 - as QLineEdit
        return self._echo

    def setClearButtonEnabled(self, _on: bool) -> None:  # noqa: N802 - as QLineEdit
        """Nothing: Ctrl+A and Delete clear the line."""

    def setPlaceholderText(self, text: str) -> None:  # noqa: N802 - as QLineEdit
        """The grey hint shown while the line is empty — on one line, shortened with "…" when it is longer."""
        self._placeholder = text
        self._fit_placeholder()

    def placeholderText(self) -> str:  # noqa: N802 - as QLineEdit
        """The hint as given (the one shown may be shortened to fit)."""
        return self._placeholder

    def _fit_placeholder(self) -> None:
        full = self._placeholder
        room = self.viewport().width() - 4
        super().setPlaceholderText(self.fontMetrics().elidedText(full, Qt.TextElideMode.ElideRight, max(room, 0)))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._centre()
        self._fit_placeholder()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):   # another line height or frame
            self._centre()
            self._fit_placeholder()

    def _line_height(self) -> int:
        """The room the line of text needs: its height (Qt's text layout may give it a pixel or two above the
        font's) and one pixel below — with less the editor would scroll its only line out of sight."""
        block = self.document().documentLayout().blockBoundingRect(self.document().firstBlock()).height()
        return max(math.ceil(block), self.fontMetrics().lineSpacing()) + 1

    def _centre(self) -> None:
        """The line in the middle of the field's height and a line edit's 2 pixels in from its sides, as a
        ``QLineEdit`` places its text."""
        room = max(0, self.contentsRect().height() - self._line_height())
        top = (room + 1) // 2
        margins = QMargins(_LINE_EDIT_MARGIN[0], top, _LINE_EDIT_MARGIN[0], room - top)
        if self.viewportMargins() != margins:
            self.setViewportMargins(margins)

    # ------------------------------------------------------------------ one line
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        self._select_on_entry()   # a key typed at once after Tab still replaces the text
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.returnPressed.emit()
            event.ignore()        # on to the window, as a line edit does: a dialog presses its default button
            return
        super().keyPressEvent(event)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 - Qt API
        if source.hasText():
            self.insertPlainText(" ".join(source.text().splitlines()))

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt API
        """Coming by Tab, Shift+Tab or a shortcut, the text is selected, as a line edit does (typing replaces it) —
        just after the focus is reported, not before: a screen reader would read the selection before the
        field's name and then again with it."""
        super().focusInEvent(event)
        if event.reason() in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason,
                              Qt.FocusReason.ShortcutFocusReason) or (
                event.reason() == Qt.FocusReason.ActiveWindowFocusReason and self._select_when_opened):
            self._select_when_opened = False
            self._selecting = True
            QTimer.singleShot(0, self, self._select_on_entry)

    def select_when_opened(self) -> None:
        """Select the text when the window this line is in opens with the keyboard here, as Tab does."""
        self._select_when_opened = True

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt API
        self._selecting = False
        super().focusOutEvent(event)

    def _select_on_entry(self) -> None:
        if self._selecting:
            self._selecting = False
            self.selectAll()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """As large as a ``QLineEdit`` in the same font and look (room for about 17 letters), never lower than its
        line of text: forms keep the layout they had with line edits."""
        self.ensurePolished()
        metrics = self.fontMetrics()
        icon = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, self)
        height = max(metrics.height(), 14, icon - 2) + 2 * _LINE_EDIT_MARGIN[1]
        return self._as_line_edit(metrics.horizontalAdvance("x") * 17 + 2 * _LINE_EDIT_MARGIN[0], height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """As small as a ``QLineEdit`` may be (one letter wide), one line of text high."""
        self.ensurePolished()
        metrics = self.fontMetrics()
        height = metrics.height() + max(2 * _LINE_EDIT_MARGIN[1], metrics.leading())
        return self._as_line_edit(metrics.maxWidth() + 2 * _LINE_EDIT_MARGIN[0], height)

    def _as_line_edit(self, width: int, height: int) -> QSize:
        """The size of a line edit whose text area is ``width`` × ``height`` (the look's frame and padding added),
        at least as high as the line of text inside this field's frame."""
        option = QStyleOptionFrame()
        option.initFrom(self)
        option.lineWidth = self.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, option, self)
        option.midLineWidth = 0
        option.state |= QStyle.StateFlag.State_Sunken
        size = self.style().sizeFromContents(QStyle.ContentsType.CT_LineEdit, option, QSize(width, height), self)
        frame = self.contentsMargins()
        return QSize(size.width(), max(size.height(), self._line_height() + frame.top() + frame.bottom()))


class LineDialog(QDialog):
    """A question answered in one line of text: the question is the line's caption (its buddy) and its name,
    ``description`` what a screen reader adds; OK and Cancel in ``lang``; Enter presses OK, Escape cancels.
    Opened, the keyboard is in the line and its text selected (the first field, reached as by Tab)."""

    def __init__(self, parent: QWidget | None, *, title: str, question: str, text: str = "", description: str,
                 lang: str) -> None:
        super().__init__(parent)
        self.setObjectName("line_dialog")
        self.setWindowTitle(title)
        a11y.label(self, title, description)
        caption = QLabel(question, self)
        caption.setWordWrap(True)
        self.line = LineInput(text, self)
        for widget in (caption, self.line):
            a11y.label(widget, question, description)
        caption.setBuddy(self.line)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        a11y.label(buttons, title, description)
        for which, key in ((QDialogButtonBox.StandardButton.Ok, "ok"), (QDialogButtonBox.StandardButton.Cancel, "cancel")):
            button = buttons.button(which)
            button.setText(t(key, lang))
            a11y.label(button, t(key, lang), description)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(caption)
        layout.addWidget(self.line)
        layout.addWidget(buttons)
        self.line.select_when_opened()


def ask_line(parent: QWidget | None, *, title: str, question: str, text: str = "", description: str,
             lang: str) -> str | None:
    """Ask ``question`` in a :class:`LineDialog` that starts with ``text`` (selected, so typing replaces it);
    the line as it stands when OK or Enter is pressed, None when cancelled."""
    dialog = LineDialog(parent, title=title, question=question, text=text, description=description, lang=lang)
    try:
        return dialog.line.text() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()

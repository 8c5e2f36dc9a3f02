"""A one-line text field that a screen reader reads whole.

Orca reads a Qt ``QLineEdit``'s value without its last character ("Ann" for
"Anna"): Qt reports no text attributes for a line edit (its attribute runs are
empty, start = end), and Orca takes the text up to the start of the last run.
Qt's plain-text editor reports real runs and is read whole. :class:`LineInput`
is that editor kept to one line: Enter gives :attr:`LineInput.returnPressed`
instead of a new line, pasted line breaks become spaces, Tab moves on; it has
the parts of ``QLineEdit``'s interface the window uses (``text``, ``setText``,
``clear``, ``selectAll``, ``setPlaceholderText``).
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QSize, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QResizeEvent, QTextOption
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QSizePolicy, QWidget

__all__ = ["LineInput"]


class LineInput(QPlainTextEdit):
    """One line of text; :attr:`returnPressed` on Enter (see the module docstring)."""

    returnPressed = Signal()

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setWordWrapMode(QTextOption.WrapMode.NoWrap)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.document().setDocumentMargin(2)
        self.setPlainText(text)

    # ------------------------------------------------------------------ QLineEdit's words
    def text(self) -> str:
        """The line's text."""
        return self.toPlainText()

    def setText(self, text: str) -> None:  # noqa: N802 - as QLineEdit
        """Replace the text (line breaks become spaces); the cursor goes to its end."""
        self.setPlainText(" ".join(text.splitlines()))
        self.moveCursor(self.textCursor().MoveOperation.End)

    def setClearButtonEnabled(self, _on: bool) -> None:  # noqa: N802 - as QLineEdit
        """Nothing: Ctrl+A and Delete clear the line."""

    def setPlaceholderText(self, text: str) -> None:  # noqa: N802 - as QLineEdit
        """The grey hint shown while the line is empty — on one line, shortened with "…" when it is longer."""
        self._placeholder = text
        self._fit_placeholder()

    def _fit_placeholder(self) -> None:
        full = getattr(self, "_placeholder", "")
        room = self.viewport().width() - 2 * int(self.document().documentMargin()) - 4
        super().setPlaceholderText(self.fontMetrics().elidedText(full, Qt.TextElideMode.ElideRight, max(room, 0)))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_placeholder()

    # ------------------------------------------------------------------ one line
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            self.returnPressed.emit()
            return
        super().keyPressEvent(event)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 - Qt API
        if source.hasText():
            self.insertPlainText(" ".join(source.text().splitlines()))

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt API
        super().focusInEvent(event)
        if event.reason() in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason,
                              Qt.FocusReason.ShortcutFocusReason):
            self.selectAll()      # as a line edit does: typing replaces what stands there

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """One line of the current font, with the frame, margins and the look's padding."""
        lines = self.fontMetrics().height()
        margins = self.contentsMargins()
        frame = int(self.document().documentMargin() * 2) + margins.top() + margins.bottom()
        return QSize(super().sizeHint().width(), lines + frame + 10)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(super().minimumSizeHint().width(), self.sizeHint().height())

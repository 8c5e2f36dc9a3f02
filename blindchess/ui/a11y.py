"""Screen-reader plumbing shared by every window.

Qt exposes a widget's ``accessibleName``/``accessibleDescription`` to NVDA,
Orca and VoiceOver. Labels that show a value (the message line, clocks,
device and voice status, findings) carry that value in their accessible name
(:func:`set_text`), so a screen reader reads the value, not a fixed caption.
The main window sends no AT-SPI *announcements* (Orca 43 ignores them): what
is spoken goes through the speech channel the user chose (:mod:`blindchess.ui.voice`);
with Orca, as status-bar notifications (:class:`Notices`), which Orca speaks and shows
on the braille display.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import (
    QAccessible,
    QAccessibleAnnouncementEvent,
    QAccessibleEvent,
    QAccessibleInterface,
    QAccessibleTextCursorEvent,
    QAccessibleValueChangeEvent,
)
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QAccessibleWidget,
    QApplication,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenuBar,
    QPlainTextEdit,
    QScrollArea,
    QScrollBar,
    QStatusBar,
    QWidget,
)

from ..base import DEFAULT_WPM, SpeechQueue, speaking_time


class FocusFirst(QObject):
    """Text fields are read when the keyboard comes to them, and say "leer" when they are empty.

    A ``QLineEdit`` moves its caret (and selects its text) while it takes the focus, and Qt reports that
    before the focus itself; Orca then takes the caret event for the focus change and reads nothing — an
    empty field is silent on Tab. Installed on the application, this filter reports the caret once more
    right after the focus: Orca drops an older caret event of the same field when a newer one is waiting,
    so it sees the focus first and reads the field. While the field is empty, "leer" (``empty_word``) comes
    before its description. A field with the property ``a11y_hint_once`` (the move line, come back to with
    every move) has its description read the first time only.
    """

    def __init__(self, empty_word: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.empty_word = empty_word

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.FocusIn and isinstance(watched, (QLineEdit, QPlainTextEdit)) \
                and QAccessible.isActive():
            own = watched.property("a11y_description")
            if own is None:
                own = watched.accessibleDescription()
                watched.setProperty("a11y_description", own)
            elif watched.property("a11y_hint_once"):
                own = ""            # its hint was read the first time: a field come back to says its name only
            empty = not (watched.text() if isinstance(watched, QLineEdit) else watched.toPlainText())
            wanted = f"{self.empty_word}. {own}".strip() if empty else own
            if watched.accessibleDescription() != wanted:
                watched.setAccessibleDescription(wanted)
            field = watched
            QTimer.singleShot(0, lambda: _caret_again(field))
        return False


def _caret_again(field: QLineEdit | QPlainTextEdit) -> None:
    """Report ``field``'s caret again (after its focus; see :class:`FocusFirst`)."""
    if field.hasFocus() and QAccessible.isActive():
        caret = field.cursorPosition() if isinstance(field, QLineEdit) else field.textCursor().position()
        QAccessible.updateAccessibility(QAccessibleTextCursorEvent(field, caret))


class ComboValues(QObject):
    """A combo box's new value is said when the arrow keys change it: Orca 43 takes Qt's notice of the change for
    a repeat and says nothing. Installed on the application; ``say`` speaks on the chosen channel."""

    def __init__(self, say: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.say = say

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.FocusIn or not isinstance(watched, QWidget):
            return False
        combo = watched if isinstance(watched, QComboBox) else watched.parentWidget()   # an editable one's line
        if isinstance(combo, QComboBox) and not combo.property("a11y_values"):
            combo.setProperty("a11y_values", True)
            combo.currentIndexChanged.connect(lambda _index, box=combo: self._changed(box))
        return False

    def _changed(self, combo: QComboBox) -> None:
        if combo.hasFocus() and not combo.view().isVisible() and combo.currentText():
            self.say(combo.currentText())


def install_combo_values(say: Callable[[str], None]) -> None:
    """Install :class:`ComboValues` on the application (once; a later window's ``say`` replaces the earlier)."""
    app = QApplication.instance()
    if app is None:
        return
    for existing in app.findChildren(ComboValues):
        existing.say = say
        return
    app.installEventFilter(ComboValues(say, app))


def install_focus_first(empty_word: str) -> None:
    """Install :class:`FocusFirst` on the application (once; a later window's word replaces the earlier)."""
    app = QApplication.instance()
    if app is None:
        return
    for existing in app.findChildren(FocusFirst):
        existing.empty_word = empty_word
        return
    app.installEventFilter(FocusFirst(empty_word, app))


def label(widget: QWidget, name: str, description: str) -> QWidget:
    """Give ``widget`` its accessible name and description; returns it."""
    widget.setAccessibleName(name)
    widget.setAccessibleDescription(description)
    return widget


def form_row(form: QFormLayout, widget: QWidget, name: str, description: str) -> QWidget:
    """Add ``widget`` to ``form`` with a caption that is its buddy (Alt+letter) and both labelled."""
    label(widget, name, description)
    caption = QLabel(name, widget.parentWidget())
    label(caption, name, description)
    caption.setBuddy(widget)
    form.addRow(caption, widget)
    return widget


def set_text(label: QLabel, text: str, name: str) -> None:
    """Show ``text`` in ``label`` and give it the accessible name ``name`` (which carries the text).

    A label's accessible name is what a screen reader reads for it; a fixed name
    ("Meldung") would hide the text. Qt sends NameChanged itself when the name changes.
    Unchanged text and name change nothing (no event).
    """
    if label.text() != text:
        label.setText(text)
    if label.accessibleName() != name:
        label.setAccessibleName(name)


def name_changed(widget: QWidget, name: str, description: str | None = None) -> None:
    """Update what a screen reader says for ``widget`` and notify it (focus, name, value)."""
    widget.setAccessibleName(name)
    if description is not None:
        widget.setAccessibleDescription(description)
    if not QAccessible.isActive():
        return  # no assistive technology listening; the events would be dropped anyway
    QAccessible.updateAccessibility(QAccessibleEvent(widget, QAccessible.Event.NameChanged))
    QAccessible.updateAccessibility(QAccessibleValueChangeEvent(widget, name))
    if widget.hasFocus():
        QAccessible.updateAccessibility(QAccessibleEvent(widget, QAccessible.Event.Focus))


def announce(widget: QWidget, message: str, assertive: bool = False) -> None:
    """An AT-SPI/UIA announcement of ``message`` (for dialogs without a speech channel; Orca 43 ignores it —
    the window's speech goes through :mod:`blindchess.ui.voice`)."""
    if not message or not QAccessible.isActive():
        return
    event = QAccessibleAnnouncementEvent(widget, message)
    if assertive:
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)


def missing_labels(root: QWidget) -> list[str]:
    """Every widget under ``root`` a screen reader would stop on that lacks a name or description.

    Skipped: plain layout containers (bare ``QWidget``/``QFrame`` that take no
    focus), scroll bars, and the helpers Qt builds inside its own controls
    (a combo box's popup, a spin box's line edit, a table's viewport and
    headers, a line edit's clear button, the menu bar's overflow button) —
    those take their name from the control that owns them. What a
    :class:`QScrollArea` holds is the window's own content and is checked.
    Widgets whose class sets ``NAME_ONLY`` (the board's squares: the name is
    all a screen reader should read there) need a name only.
    """
    missing = []
    composite = (QComboBox, QAbstractSpinBox, QAbstractScrollArea, QLineEdit, QMenuBar)
    for widget in [root, *root.findChildren(QWidget)]:
        if widget.objectName().startswith("qt_") or isinstance(widget, QScrollBar):
            continue
        parent = widget.parentWidget()
        inside_control = False
        while parent is not None and parent is not root:
            if isinstance(parent, composite) and not isinstance(parent, QScrollArea):
                inside_control = True
                break
            parent = parent.parentWidget()
        if inside_control or getattr(widget, "CONTENT_ONLY", False) \
                or getattr(widget.parentWidget(), "CONTENT_ONLY", False):
            continue
        if type(widget) in (QWidget, QFrame) and widget.focusPolicy() == Qt.FocusPolicy.NoFocus:
            continue
        if not widget.accessibleName() or not (widget.accessibleDescription() or getattr(widget, "NAME_ONLY", False)):
            missing.append(f"{type(widget).__name__} {widget.objectName()!r}")
    return missing


class _Notice(QWidget):
    """One text presented to the screen reader: a notification in the status bar, its text in a label (the
    notification itself has no name: Orca would say the text twice)."""

    CONTENT_ONLY = True


class _NoticeAccessible(QAccessibleWidget):
    """A :class:`_Notice` to assistive technology: a notification (Orca speaks it and flashes it in braille)."""

    def __init__(self, widget: _Notice) -> None:
        super().__init__(widget, QAccessible.Role.Notification)


def _notice_factory(_key: str, obj: QObject) -> QAccessibleInterface | None:
    return _NoticeAccessible(obj) if isinstance(obj, _Notice) else None


@functools.cache
def _install_notices() -> None:
    QAccessible.installFactory(_notice_factory)


class Notices:
    """The window's texts presented through the screen reader itself — Orca: each text is a notification in the
    window's status bar, which Orca speaks in its voice (its role name left out, as for every status-bar
    notification) and flashes on the braille display, as it shows any notification; it also keeps it in its
    list of notifications. A :class:`~blindchess.adapters.ScreenReader`.

    Orca queues what it speaks and stops it only for the user's next key; so the texts are handed to it one at
    a time, in the program's one queue (:class:`~blindchess.base.SpeechQueue`: the highest priority first,
    nothing cut but by the text that replaces the same request), each after the modelled speaking time of the
    one before (``wpm`` words a minute, :func:`~blindchess.base.speaking_time`). The last :data:`KEEP`
    notifications stay in the status bar (shown, small), so Orca can still read each while the next comes.
    """

    name = "Orca"
    KEEP = 4

    def __init__(self, bar: QStatusBar, *, wpm: float = DEFAULT_WPM) -> None:
        _install_notices()
        self.bar = bar
        self.wpm = wpm
        self._queue = SpeechQueue()
        self._shown: list[_Notice] = []
        self._timer = QTimer(bar)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._over)
        self.presented: list[str] = []          # every text handed to the screen reader, in order (tests)

    def say(self, text: str, priority: str = "answer", about: str | None = None) -> int:
        utt, cut, _dropped = self._queue.offer(text, priority, about)
        if cut is not None:
            self._timer.stop()          # Orca cannot be stopped from here: the newer text follows it at once
        self._next()
        return utt.ident

    def cut(self, ident: int) -> None:
        self._queue.cut_waiting(ident)
        if self._queue.done(ident) is not None:
            self._timer.stop()
            self._next()

    def cancel(self) -> None:
        self._queue.clear()
        self._timer.stop()

    def set_language(self, lang: str) -> None:
        pass  # Orca speaks and brailles in its own voice and tables

    def close(self) -> None:
        self.cancel()
        for notice in self._shown:
            notice.deleteLater()
        self._shown = []

    def _over(self) -> None:
        self._queue.done()
        self._next()

    def _next(self) -> None:
        utt = self._queue.next()
        if utt is None:
            return
        notice = _Notice(self.bar)
        notice.setObjectName("notice")
        label = QLabel(utt.text, notice)
        label.setAccessibleName(utt.text)
        label.setWordWrap(False)
        layout = QHBoxLayout(notice)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        notice.setAccessibleName("")
        notice.hide()
        self.bar.addWidget(notice)
        for old in self._shown:
            old.hide()
        self._shown.append(notice)
        while len(self._shown) > self.KEEP:
            self._shown.pop(0).deleteLater()
        notice.show()                  # Orca: state-changed:showing of a notification — speaks and brailles it
        self.presented.append(utt.text)
        self._timer.start(int(speaking_time(utt.text, self.wpm) * 1000) + 50)

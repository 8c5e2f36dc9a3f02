"""Screen-reader plumbing shared by every window.

Qt exposes a widget's ``accessibleName``/``accessibleDescription`` to NVDA,
Orca and VoiceOver; when a widget's meaning changes without the focus moving
(the board cursor, a new move) we must tell the accessibility bridge
ourselves, or the screen reader stays silent.
"""

from __future__ import annotations

from PySide6.QtGui import (
    QAccessible,
    QAccessibleAnnouncementEvent,
    QAccessibleEvent,
    QAccessibleValueChangeEvent,
)
from PySide6.QtWidgets import QWidget


def label(widget: QWidget, name: str, description: str) -> QWidget:
    """Give ``widget`` its accessible name and description; returns it."""
    widget.setAccessibleName(name)
    widget.setAccessibleDescription(description)
    return widget


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
    """Ask the screen reader to read ``message`` now (a move, a mismatch, a ruling)."""
    if not message or not QAccessible.isActive():
        return
    event = QAccessibleAnnouncementEvent(widget, message)
    if assertive:
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)


def missing_labels(root: QWidget) -> list[str]:
    """Describe every visible-capable widget under ``root`` that lacks a name or description.

    Plain layout containers (bare ``QWidget``/``QFrame`` without focus) and Qt's
    internal helper widgets (names starting with ``qt_``) are skipped: screen
    readers do not stop on them.
    """
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFrame, QScrollBar

    missing = []
    for widget in [root, *root.findChildren(QWidget)]:
        if _qt_internal(widget):
            continue
        plain_container = type(widget) in (QWidget, QFrame) and widget.focusPolicy() == Qt.FocusPolicy.NoFocus
        if plain_container or isinstance(widget, QScrollBar):
            continue
        if not widget.accessibleName() or not widget.accessibleDescription():
            missing.append(f"{type(widget).__name__} {widget.objectName()!r}")
    return missing


def _qt_internal(widget: QWidget) -> bool:
    """Helper widgets Qt creates inside its own controls (viewports, popups, corner buttons)."""
    node: QWidget | None = widget
    while node is not None:
        if node.objectName().startswith("qt_") or type(node).__module__ != type(widget).__module__ and False:
            return True
        if type(node).__name__ not in _PUBLIC_QT and not type(node).__module__.startswith("blindchess"):
            return True
        node = node.parentWidget() if node is not widget else None
    return False

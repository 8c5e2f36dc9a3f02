"""Every action of the window with its keyboard shortcut — one table for the menus and the help screen.

The help screen (F1) is generated from :data:`SHORTCUTS`, so the documented
keys cannot drift from the real ones. Board keys (arrows, Space, Escape, a
letter and a digit) are handled by the board itself and listed as well.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from . import a11y
from .text import t

#: (action id, menu, key sequence). Texts: ``ui.action.<id>`` and ``ui.action.<id>_description``.
SHORTCUTS: tuple[tuple[str, str, str], ...] = (
    ("new_game", "game", "Ctrl+N"),
    ("open_journal", "game", "Ctrl+O"),
    ("save_pgn", "game", "Ctrl+S"),
    ("pause", "game", "F8"),
    ("arbiter", "game", "Ctrl+Shift+A"),
    ("sighted_touch", "game", "Ctrl+U"),
    ("sighted_draw", "game", "Ctrl+D"),
    ("sighted_resign", "game", "Ctrl+Shift+R"),
    ("quit", "game", "Ctrl+Q"),
    ("focus_board", "view", "Ctrl+1"),
    ("focus_input", "view", "Ctrl+L"),
    ("focus_scores", "view", "Ctrl+2"),
    ("focus_log", "view", "Ctrl+3"),
    ("flip", "view", "Ctrl+F"),
    ("high_contrast", "view", "Ctrl+H"),
    ("font_bigger", "view", "Ctrl++"),
    ("font_smaller", "view", "Ctrl+-"),
    ("font_reset", "view", "Ctrl+0"),
    ("input_mode", "input", "Ctrl+J"),
    ("push_to_talk", "input", "F5"),
    ("request_time", "requests", "Ctrl+T"),
    ("request_last_move", "requests", "Ctrl+M"),
    ("request_square", "requests", "Ctrl+E"),
    ("request_pieces", "requests", "Ctrl+K"),
    ("request_position", "requests", "Ctrl+P"),
    ("repeat", "speech", "Ctrl+R"),
    ("stop_speech", "speech", "Ctrl+."),
    ("settings", "speech", "Ctrl+,"),
    ("help", "help", "F1"),
)

#: Keys the board handles itself (documented on the help screen).
BOARD_KEYS: tuple[tuple[str, str], ...] = (
    ("←  →  ↑  ↓", "board_keys.arrows"),
    ("a–h 1–8", "board_keys.jump"),
    ("Leertaste / Enter", "board_keys.pick"),
    ("Esc", "board_keys.cancel"),
    ("Tab / Shift+Tab", "board_keys.tab"),
)

MENUS = ("game", "view", "input", "requests", "speech", "help")


def key_text(sequence: str) -> str:
    """The key sequence as the platform writes it ("Strg+N" on a German desktop)."""
    return QKeySequence(sequence).toString(QKeySequence.SequenceFormat.NativeText) or sequence


class HelpDialog(QDialog):
    """The list of all keyboard shortcuts (F1)."""

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de") -> None:
        super().__init__(parent)
        self.setWindowTitle(t("help.title", lang))
        a11y.label(self, t("help.title", lang), t("help.description", lang))
        layout = QVBoxLayout(self)
        intro = QLabel(t("help.intro", lang), self)
        intro.setWordWrap(True)
        a11y.label(intro, t("help.title", lang), t("help.intro", lang))
        layout.addWidget(intro)
        rows = [(key_text(keys), t(f"action.{action}", lang), t(f"action.{action}_description", lang))
                for action, _menu, keys in SHORTCUTS]
        rows += [(keys if lang == "de" else keys.replace("Leertaste", "Space"), t(key, lang), t(f"{key}_description", lang))
                 for keys, key in BOARD_KEYS]
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setObjectName("shortcuts")
        self.table.setHorizontalHeaderLabels([t("help.keys", lang), t("help.action", lang), t("help.what", lang)])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, values in enumerate(rows):
            for c, value in enumerate(values):
                self.table.setItem(r, c, QTableWidgetItem(value))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(True)
        self.table.resizeRowsToContents()
        a11y.label(self.table, t("help.table", lang), t("help.table_description", lang))
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        a11y.label(buttons, t("help.buttons", lang), t("help.buttons_description", lang))
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setText(t("close", lang))
        a11y.label(close, t("close", lang), t("help.close_description", lang))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(760, 620)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)

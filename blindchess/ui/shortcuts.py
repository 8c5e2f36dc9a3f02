"""Every action of the window with its keyboard shortcut — one table for the menus and the list of keys.

F1 opens the user guide (:mod:`blindchess.ui.guide`); the list of keys (Ctrl+F1) is generated from :data:`SHORTCUTS` and the board's own
commands (:data:`blindchess.ui.board.BOARD_COMMANDS`), so the documented keys
cannot drift from the real ones; texts that count things (the input modes of
Ctrl+J) are counted from the tables (:data:`INPUT_MODES`).
"""

from __future__ import annotations

import chess
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

from ..language import piece_type_for_letter
from . import a11y
from .board import BOARD_COMMANDS, g, piece_letters
from .text import h, t

#: (action id, menu, key sequence). Texts: ``ui.action.<id>`` and ``ui.action.<id>_description``.
SHORTCUTS: tuple[tuple[str, str, str], ...] = (
    ("new_game", "game", "Ctrl+N"),
    ("open_journal", "game", "Ctrl+O"),
    ("save_pgn", "game", "Ctrl+S"),
    ("pause", "game", "F8"),
    ("arbiter", "game", "Ctrl+Shift+A"),
    ("take_back", "game", "Ctrl+Z"),
    ("sighted_touch", "game", "Ctrl+U"),
    ("sighted_draw", "game", "Ctrl+D"),
    ("sighted_resign", "game", "Ctrl+Shift+R"),
    ("claim", "game", "Ctrl+Shift+C"),
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
    ("request_touched", "requests", "Ctrl+Shift+T"),
    ("request_opponent", "requests", "Ctrl+G"),
    ("request_move_list", "requests", "Ctrl+Shift+M"),
    ("repeat", "speech", "Ctrl+R"),
    ("move_wording", "speech", "Ctrl+W"),
    ("stop_speech", "speech", "Ctrl+."),
    ("settings", "speech", "Ctrl+,"),
    ("guide", "help", "F1"),
    ("help", "help", "Ctrl+F1"),
)

#: Keys the window's focus chain handles (documented on the help screen after the board's commands).
BOARD_KEYS: tuple[tuple[str, str], ...] = (
    ("Tab / Shift+Tab", "board_keys.tab"),
)

MENUS = ("game", "view", "input", "requests", "speech", "help")

#: Input line modes: a move on the sighted board, what the blind player says, a move on the tactile
#: board (without an electronic one), what the sighted side says (answers, draw offers).
INPUT_MODES = ("sighted", "spoken", "tactile", "sighted_says")

#: Lichess NVUI's commands, typed in the move line (the blind player's mode) and Enter: the request each asks.
#: ``p`` and ``s`` take an argument: ``p N`` (where the knights stand, a piece letter of the game's language or
#: English), ``s a`` / ``s 4`` (scan the a-file, the fourth rank).
NVUI_COMMANDS: dict[str, str] = {"c": "time", "clock": "time", "t": "time", "time": "time", "l": "last_move",
                                 "last": "last_move", "o": "opponent", "opponent": "opponent", "m": "move_list",
                                 "moves": "move_list", "pos": "position", "position": "position"}


def nvui_command(text: str, lang: str) -> tuple[str, dict[str, int]] | None:
    """The request a line typed in the move line asks as an NVUI command — (kind, its arguments: "square",
    "piece_type") — or None when the line is no command (a move, a phrase). A move is never taken for one:
    no command is a move."""
    words = text.strip().split()
    if not words:
        return None
    head = words[0].lower()
    if len(words) == 1 and head in NVUI_COMMANDS:
        return NVUI_COMMANDS[head], {}
    if len(words) == 2 and head == "p":
        kind = piece_type_for_letter(words[1], lang) or piece_type_for_letter(words[1], "en")
        return ("pieces", {"piece_type": kind}) if kind is not None else None
    if len(words) == 2 and head == "s":
        arg = words[1].lower()
        if len(arg) == 1 and arg in "abcdefgh":
            return "file", {"square": chess.square(ord(arg) - ord("a"), 0)}
        if len(arg) == 1 and arg in "12345678":
            return "rank", {"square": chess.square(0, int(arg) - 1)}
    return None

def action_text(action_id: str, lang: str) -> str:
    """The menu text of an action."""
    return t(f"action.{action_id}", lang)


def action_description(action_id: str, lang: str) -> str:
    """What an action does (tooltip, status tip, help screen); the input modes are counted from the table."""
    if action_id == "input_mode":
        modes = ", ".join(t(f"input.mode_{mode}", lang) for mode in INPUT_MODES)
        return g("input_modes", lang, n=len(INPUT_MODES), modes=modes)
    return t(f"action.{action_id}_description", lang)


def help_rows(lang: str) -> list[tuple[str, str, str]]:
    """(keys, action, what it does) for every action, every board command and the focus keys."""
    rows = [(key_text(keys), action_text(action, lang), action_description(action, lang))
            for action, _menu, keys in SHORTCUTS]
    on_board = g("help_board", lang)
    rows += [(g(f"key_{command}", lang, letters=", ".join(piece_letters(lang))), on_board, g(f"cmd_{command}", lang))
             for command, _kind in BOARD_COMMANDS]
    rows += [(g("key_tab", lang), t(key, lang), t(f"{key}_description", lang)) for _keys, key in BOARD_KEYS]
    rows += [(h("nvui_keys", lang), h("nvui", lang), h("nvui_description", lang))]
    return rows


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
        rows = help_rows(lang)
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setObjectName("shortcuts")
        self.table.setHorizontalHeaderLabels([t("help.keys", lang), t("help.action", lang), t("help.what", lang)])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)          # Tab leaves the list for "Schließen"; arrows walk the rows
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

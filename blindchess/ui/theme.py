"""Normal and high-contrast themes, and font scaling, for the whole application.

High contrast follows the usual low-vision scheme (white/yellow on black,
thick focus frames); font scaling multiplies the platform font so every
widget, the board's coordinates and the clocks grow together.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("normal", "high-contrast")

_HIGH_CONTRAST_QSS = """
* { outline: none; }
QWidget:focus { border: 3px solid #ff00ff; }
QPushButton, QComboBox, QLineEdit, QSpinBox, QTimeEdit { border: 2px solid #ffff00; padding: 3px; }
QHeaderView::section { background: #000000; color: #ffff00; border: 1px solid #ffff00; }
QTableWidget { gridline-color: #ffff00; }
QCheckBox::indicator, QRadioButton::indicator { width: 18px; height: 18px; border: 2px solid #ffff00; background: #000000; }
QRadioButton::indicator { border-radius: 11px; }
QCheckBox::indicator:checked, QRadioButton::indicator:checked { background: #ffff00; }
QWidget:disabled { color: #a0a0a0; border-color: #707070; }
"""

_NORMAL_QSS = """
QWidget:focus { }
QLineEdit:focus, QComboBox:focus, QPushButton:focus, QTableWidget:focus { border: 2px solid #1e6fd9; }
"""

_base_point_size: float | None = None


def apply(app: QApplication, theme: str, font_scale: float) -> None:
    """Apply ``theme`` and ``font_scale`` to every window of ``app``."""
    global _base_point_size
    if _base_point_size is None:
        _base_point_size = app.font().pointSizeF() if app.font().pointSizeF() > 0 else 10.0
    font = QFont(app.font())
    font.setPointSizeF(_base_point_size * max(0.8, min(3.0, font_scale)))
    app.setFont(font)
    if theme == "high-contrast":
        palette = QPalette()
        black, white, yellow = QColor("#000000"), QColor("#ffffff"), QColor("#ffff00")
        for role, colour in (
            (QPalette.ColorRole.Window, black), (QPalette.ColorRole.WindowText, white),
            (QPalette.ColorRole.Base, black), (QPalette.ColorRole.AlternateBase, QColor("#1a1a1a")),
            (QPalette.ColorRole.Text, white), (QPalette.ColorRole.Button, black),
            (QPalette.ColorRole.ButtonText, yellow), (QPalette.ColorRole.Highlight, yellow),
            (QPalette.ColorRole.HighlightedText, black), (QPalette.ColorRole.ToolTipBase, black),
            (QPalette.ColorRole.ToolTipText, yellow), (QPalette.ColorRole.PlaceholderText, QColor("#c0c0c0")),
            (QPalette.ColorRole.Link, yellow),
        ):
            palette.setColor(role, colour)
        app.setPalette(palette)
        app.setStyleSheet(_HIGH_CONTRAST_QSS)
    else:
        app.setPalette(app.style().standardPalette())
        app.setStyleSheet(_NORMAL_QSS)

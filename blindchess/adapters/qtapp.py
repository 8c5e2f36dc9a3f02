"""The one Qt application object of the process, for code that draws without a window (Qt adapter).

It sits beside the layers, below both of its users: the record writers
(:mod:`blindchess.adapters.exports.scoresheet_pdf`, :mod:`blindchess.adapters.exports.envelope_pdf`)
and the Qt window, so a record never imports the user interface.

PDF writers (scoresheet, envelope) need a Qt application for fonts. They may run
from the command line (no application yet, maybe no display) or inside the app
and its tests (a ``QApplication`` already exists). Creating a plain
``QGuiApplication`` first would make every later widget impossible in that
process, so this always creates a ``QApplication``, offscreen when there is no
display, and keeps it alive for the process.
"""

from __future__ import annotations

import os
import sys

_KEEP: list = []


def ensure_app():
    """The existing Qt application, or a new offscreen-capable ``QApplication``."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    app = QCoreApplication.instance()
    if app is None:
        if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication([sys.argv[0] if sys.argv and sys.argv[0] else "blindchess"])
        _KEEP.append(app)
    return app

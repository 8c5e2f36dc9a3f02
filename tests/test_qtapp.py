"""PDF writers and the app share one Qt application object per process."""

from __future__ import annotations

import os
import subprocess
import sys


def test_widgets_still_work_after_a_pdf_was_written_in_the_same_process(tmp_path):
    """A scoresheet PDF made first (as `blindchess export` does) must not leave a
    widget-less QGuiApplication behind that breaks every later window."""
    code = f"""
import chess.pgn, io
from blindchess.records.scoresheet_pdf import write_pdf
game = chess.pgn.read_game(io.StringIO("1. e4 e5 2. Nf3 Nc6 *"))
write_pdf(game, {str(tmp_path / "sheet.pdf")!r}, "de")
from PySide6.QtWidgets import QApplication, QPushButton
assert isinstance(QApplication.instance(), QApplication)
button = QPushButton("ok"); button.show(); print(button.isVisible())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr[-800:]
    assert out.stdout.strip() == "True"
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")

"""PDF writers and the app share one Qt application object per process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys


def test_widgets_still_work_after_a_pdf_was_written_in_the_same_process(tmp_path):
    """A scoresheet PDF made first (as `blindchess export` does) must not leave a
    widget-less QGuiApplication behind that breaks every later window."""
    code = f"""
import chess.pgn, io
from blindchess.adapters.exports.scoresheet_pdf import write_scoresheet_pdf
game = chess.pgn.read_game(io.StringIO("1. e4 e5 2. Nf3 Nc6 *"))
write_scoresheet_pdf(game, {str(tmp_path / "sheet.pdf")!r}, "de")
from PySide6.QtWidgets import QApplication, QPushButton
assert isinstance(QApplication.instance(), QApplication)
button = QPushButton("ok"); button.show(); print(button.isVisible())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr[-800:]
    assert out.stdout.strip() == "True"
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")


def _app_env(home, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BLINDCHESS_LANG", "BLINDCHESS_EXIT_WHEN_READY")}
    env.update(QT_QPA_PLATFORM="offscreen", BLINDCHESS_HOME=str(home), **extra)
    return env


def test_the_gui_honours_blindchess_lang(tmp_path, _isolated_home):
    """BLINDCHESS_LANG=en gave a German window (only --lang counted)."""
    for lang in ("en", "de"):
        done = subprocess.run([sys.executable, "-m", "blindchess"], capture_output=True, text=True,
                              env=_app_env(_isolated_home, BLINDCHESS_LANG=lang, BLINDCHESS_EXIT_WHEN_READY="1"))
        assert done.returncode == 0, done.stderr[-800:]
        assert done.stdout.split()[0] == "ready" and done.stdout.split()[2] == lang
    # --lang wins over the environment
    done = subprocess.run([sys.executable, "-m", "blindchess", "app", "--lang", "de"], capture_output=True, text=True,
                          env=_app_env(_isolated_home, BLINDCHESS_LANG="en", BLINDCHESS_EXIT_WHEN_READY="1"))
    assert done.stdout.split()[2] == "de"


def test_ctrl_c_in_the_terminal_ends_the_app_cleanly(_isolated_home):
    """SIGINT did not end the Qt loop and was logged as an internal error."""
    proc = subprocess.Popen([sys.executable, "-m", "blindchess"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_app_env(_isolated_home, BLINDCHESS_LANG="de",
                                                    BLINDCHESS_REPORT_READY="1"))
    assert proc.stdout.readline().startswith("ready")   # the Qt loop runs (the new-game dialog opens next)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)   # a hang guard only
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "Abgebrochen."   # (Qt's offscreen plugin may print notes before)
    assert "Traceback" not in err and "Interner Fehler" not in err
    logs = _isolated_home / "logs"
    assert not logs.exists() or not any(logs.iterdir())


def test_the_ui_does_not_import_the_cli():
    """The cycle cli <-> ui is gone: blindchess.ui.app needs nothing from blindchess.cli."""
    code = ("import sys, blindchess.ui.app; "
            "print(sorted(m for m in sys.modules if m.startswith('blindchess.cli')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"

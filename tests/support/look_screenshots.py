"""Screenshots of the main window and the new-game dialog in every look and font size.

Run on a real display (the tests start Xvfb; see tests/ui/test_display.py)::

    python tests/support/look_screenshots.py OUTDIR [--scales 1.0,2.0] [--looks light,high-contrast]

For each look and scale it starts the window with a game of a few moves (a low clock, so the low-time digits
show), shows it, lets the X server draw it and captures the window from the screen (``QScreen.grabWindow``),
then the new-game dialog. Files: ``main-<look>-<percent>.png`` and ``new-game-<look>-<percent>.png`` (and, when the
window is one column, ``main-<look>-<percent>-below.png``: scrolled down to the panels). Prints one
JSON line per file with the sizes measured (board side, next-step font, window size) for the caller to check.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
from pathlib import Path

#: The game shown: the blind player (White, Anna) announces, both boards follow; then Black moves.
MOVES = (("tactile", "e2e4"), ("spoken", "Eva vier"), ("sighted", "e4"), ("sighted", "Sf6"), ("tactile", "g8f6"),
         ("tactile", "g1f3"), ("spoken", "Springer Felix drei"), ("sighted", "Sf3"), ("sighted", "d5"),
         ("tactile", "d7d5"))


def _settle(app, rounds: int = 20) -> None:
    for _ in range(rounds):
        app.processEvents()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--scales", default="1.0,2.0")
    parser.add_argument("--looks", default="light,high-contrast")
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)

    import os

    os.environ.setdefault("BLINDCHESS_HOME", tempfile.mkdtemp(prefix="look-shots-"))
    from PySide6.QtCore import QThread

    from blindchess.ui import theme
    from blindchess.ui.app import build
    from blindchess.ui.new_game import GameSetup, NewGameDialog
    from blindchess.ui.settings import Settings

    now = [1000.0]
    for look in args.looks.split(","):
        for scale in (float(s) for s in args.scales.split(",")):
            app, controller, window = build(Settings(lang="de", theme=look, font_scale=scale))
            controller.use_clock(lambda: now[0])
            theme.apply(app, look, scale)
            setup = GameSetup(white="Anna", black="Bernd", white_impaired=True, tactile="none", time_control="5+3",
                              lang="de", event="Vereinsmeisterschaft", site="Berlin", date="2025.06.01", round="3")
            assert controller.new_game(setup)
            for mode, text in MOVES:
                now[0] += 7.0
                {"tactile": controller.tactile_text, "sighted": controller.sighted_text,
                 "spoken": lambda t, c=controller: c.hear(t, typed=True)}[mode](text)
                controller.tick()
            now[0] += 40.0
            controller.tick()
            window.show()
            window.raise_()
            window.activateWindow()
            window.board.setFocus()
            _settle(app)
            QThread.msleep(300)   # the X server draws what Qt sent it
            _settle(app)
            percent = round(scale * 100)
            main_file = args.outdir / f"main-{look}-{percent}.png"
            shot = window.screen().grabWindow(window.winId())
            assert shot.save(str(main_file)), main_file
            board = window.board
            print(json.dumps({"file": main_file.name, "look": look, "scale": scale, "platform": app.platformName(),
                              "window": [window.width(), window.height()],
                              "one_column": getattr(window, "_one_column", False),
                              "board_side": min(board.width(), board.height()),
                              "board_visible": board.visibleRegion().boundingRect().size().toTuple()
                              == board.size().toTuple(),
                              "app_font": app.font().pointSizeF(),
                              "next_step_font": window.next_step.font().pointSizeF(),
                              "next_step_fits": window.next_step.height() >= window.next_step.heightForWidth(
                                  window.next_step.width()),
                              "image": [shot.width(), shot.height()]}), flush=True)

            if getattr(window, "_one_column", False):    # one column: the panels below the board, scrolled to
                window.left_area.verticalScrollBar().setValue(window.left_area.verticalScrollBar().maximum())
                _settle(app)
                QThread.msleep(300)
                _settle(app)
                below_file = args.outdir / f"main-{look}-{percent}-below.png"
                shot = window.screen().grabWindow(window.winId())
                assert shot.save(str(below_file)), below_file
                print(json.dumps({"file": below_file.name, "look": look, "scale": scale,
                                  "window": [window.width(), window.height()], "image": [shot.width(), shot.height()],
                                  "scores_width": window.scores.table.viewport().width(),
                                  "scores_needed": window.scores.table.horizontalHeader().length()}), flush=True)
            dialog = NewGameDialog(window, lang="de", initial=setup, today=datetime.date(2025, 6, 1))
            dialog.show()
            _settle(app)
            QThread.msleep(300)
            _settle(app)
            dialog_file = args.outdir / f"new-game-{look}-{percent}.png"
            shot = dialog.screen().grabWindow(dialog.winId())
            assert shot.save(str(dialog_file)), dialog_file
            free = dialog.screen().availableGeometry().size().toTuple()
            print(json.dumps({"file": dialog_file.name, "look": look, "scale": scale,
                              "window": [dialog.width(), dialog.height()], "image": [shot.width(), shot.height()],
                              "screen": list(free),
                              "sideways": dialog.fields_area.horizontalScrollBar().maximum() > 0,
                              "buttons_seen": dialog.ok.isVisible() and dialog.ok.visibleRegion().boundingRect().size()
                              == dialog.ok.size()}), flush=True)
            dialog.close()
            window.close()
            controller.shutdown()
            window.deleteLater()
            _settle(app)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.exit(main(sys.argv[1:]))

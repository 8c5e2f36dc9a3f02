"""Start the desktop app: ``blindchess`` (no arguments) or ``blindchess app [--journal FILE] [--lang de|en|nl|ru]``.

On start the app reopens the game of ``--journal``, else the last unfinished
game (the journal open when the app was last closed, or the newest unfinished
journal in the journal folder); otherwise it offers a new game. It needs no
hardware and no speech model: moves can be entered by hand, phrases typed,
and the tactile board simulated.

Start-up is kept short (target < 1.5 s to a usable window, see
``tests/benchmarks/bench_startup.py``): the window is shown first, the speaker,
the tactile board and the game are set up right after, from the event loop.
With ``BLINDCHESS_EXIT_WHEN_READY=1`` the app prints ``ready <seconds>`` once
the window is usable (followed by the window's language) and quits — the
benchmark and the smoke test use it; with
``BLINDCHESS_REPORT_READY=1`` it prints the same line and goes on running.

The language: ``--lang``, else ``BLINDCHESS_LANG``, else the saved setting, else the
system's language (the locale variables, or Qt's list of the user's interface languages).
Ctrl-C in the terminal (SIGINT) ends the app as closing its window does: the Qt
loop quits, the devices and the journal are shut down, exit code 130, one line
"Abgebrochen." — never an internal error.
"""

from __future__ import annotations

import argparse
import datetime
import os
import signal
import socket
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

from ..base import (
    UI_LANGS,
    ArgumentParser,
    UserError,
    chosen_lang,
    is_missing,
    log_dir,
    quoted,
    regular_file,
    shown_path,
    supported,
    tr,
    use_lang,
)

#: Exit code after Ctrl-C (128 + SIGINT), as shells report an interrupted program.
EXIT_INTERRUPTED = 130

_T0 = time.perf_counter()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The app's options, for this module's parser and ``blindchess app`` (:mod:`blindchess.cli.app`)."""
    parser.add_argument("--journal", metavar="FILE", help=tr("ui.cli_journal"))
    parser.add_argument("--lang", choices=UI_LANGS, help=tr("ui.cli_lang"))


def app_lang(explicit: str | None) -> str | None:
    """The GUI's language: ``--lang`` (also ``blindchess --lang``), else ``BLINDCHESS_LANG``, else None (the saved setting)."""
    if explicit:
        return explicit
    return chosen_lang() or supported(os.environ.get("BLINDCHESS_LANG", ""))


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The app's command line (``--journal``, ``--lang``); argparse exits on bad options."""
    parser = ArgumentParser(prog="blindchess app", description=tr("ui.cli_description"))
    add_arguments(parser)
    return parser.parse_args(list(argv))


def _log_error(exc_info=None) -> str:
    """Write a traceback (default: the current one) to the log folder; the user sees one line and this path."""
    text = "".join(traceback.format_exception(*exc_info)) if exc_info else traceback.format_exc()
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"app-error-{datetime.datetime.now():%Y%m%d-%H%M%S}.log"
        path.write_text(text, encoding="utf-8")
        return str(path)
    except OSError:
        return "-"


def _log_message(message: str) -> str:
    """Write a start-up message to the log folder; its path, or "-" when it cannot be written."""
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"app-start-{datetime.datetime.now():%Y%m%d-%H%M%S}.log"
        path.write_text(message + "\n", encoding="utf-8")
        return str(path)
    except OSError:
        return "-"


def _message_box(text: str) -> None:
    """A Windows message box (user32, no Qt needed: Qt may be what failed); waits until it is closed."""
    if sys.platform == "win32":
        import ctypes

        ctypes.windll.user32.MessageBoxW(None, text, "blindchess", 0x10 | 0x10000)   # MB_ICONERROR | MB_SETFOREGROUND


def tell(message: str) -> None:
    """A start-up problem where the user sees it: the terminal; without one (``blindchess-window.exe`` has
    no console, so ``sys.stderr`` is None) a log file and, on Windows, a message box naming it."""
    if sys.stderr is not None:
        print(message, file=sys.stderr)
        return
    log = _log_message(message)
    _message_box(message if log in message or log == "-" else f"{message}\n\n{log}")


def _no_display() -> bool:
    """On Linux without X11/Wayland Qt would abort with its own fatal message; we say it clearly instead."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def build(settings=None, *, lang: str | None = None):
    """Create (QApplication, controller, main window) without starting the event loop (tests use it)."""
    from PySide6.QtWidgets import QApplication

    from . import qt_translations, theme
    from .controller import GameController
    from .main_window import MainWindow
    from .settings import Settings

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0] if sys.argv else "blindchess"])
    app.setApplicationName("blindchess")
    app.setOrganizationName("blindchess")
    settings = settings or Settings.load()
    if lang:
        settings.lang = lang
    theme.apply(app, settings.theme, settings.font_scale)
    qt_translations.install(app, settings.lang)
    controller = GameController(settings)
    window = MainWindow(controller, settings)
    return app, controller, window


def journal_to_reopen(explicit: str | None, settings) -> Path | None:
    """The journal named on the command line, else the last unfinished game's, else None."""
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise UserError(tr("ui.journal_missing", settings.lang, path=path))
        return path
    from ..storage import describe, last_unfinished

    if settings.last_journal and Path(settings.last_journal).is_file():
        try:
            info = describe(settings.last_journal)
            if not info.finished and info.start_event is not None:
                return info.path
        except OSError:
            pass
    return last_unfinished()


class InterruptWatch:
    """Turns SIGINT (Ctrl-C in the terminal) into ``quit()`` of the running Qt loop.

    Python runs its signal handlers only between bytecodes, and a Qt loop waiting in C++
    runs none; so the signal's wake-up byte goes to a socket that a ``QSocketNotifier``
    watches — Python code then runs, the handler asks the loop to quit. ``interrupted``
    tells the caller afterwards. ``close()`` restores the previous handler.
    """

    def __init__(self, app) -> None:
        from PySide6.QtCore import QSocketNotifier, QTimer

        self.interrupted = False
        # quit from the loop, not from the handler: a modal dialog's loop opened meanwhile ends too
        self._quit = QTimer()
        self._quit.setSingleShot(True)
        self._quit.setInterval(0)
        self._quit.timeout.connect(app.quit)
        self._read, self._write = socket.socketpair()
        self._read.setblocking(False)
        self._write.setblocking(False)
        self._old_fd = signal.set_wakeup_fd(self._write.fileno())
        self._old_handler = signal.signal(signal.SIGINT, self._on_sigint)
        self._notifier = QSocketNotifier(self._read.fileno(), QSocketNotifier.Type.Read)
        self._notifier.activated.connect(self._drain)

    def interrupt(self) -> None:
        """End the app as Ctrl-C does (from the signal handler, or a KeyboardInterrupt seen in a slot)."""
        self.interrupted = True
        self._quit.start()

    def _on_sigint(self, signum, frame) -> None:
        self.interrupt()

    def _drain(self) -> None:
        try:
            self._read.recv(64)
        except BlockingIOError:
            pass

    def close(self) -> None:
        self._notifier.setEnabled(False)
        signal.signal(signal.SIGINT, self._old_handler)
        signal.set_wakeup_fd(self._old_fd)
        self._read.close()
        self._write.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app; returns the exit code (130 after Ctrl-C). No traceback reaches the user.

    The process language is the window's while it runs and what it was before afterwards.
    """
    before = chosen_lang()
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    finally:
        use_lang(before)


def _main(argv: list[str]) -> int:
    if argv and argv[0] == "app":
        argv = argv[1:]
    try:
        args = parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    lang = app_lang(args.lang)
    if _no_display():
        tell(tr("ui.no_display", lang))
        return 2
    if args.journal:
        if is_missing(args.journal):
            tell(tr("ui.journal_missing", lang, path=shown_path(args.journal)))
            return 2
        try:
            regular_file(args.journal, lang)   # a folder, a FIFO, /dev/zero, a refused name: the reason
        except UserError as exc:
            tell(exc.message)
            return exc.exit_code
    try:
        app, controller, window = build(lang=lang)
        use_lang(supported(window.settings.lang))   # messages worded without a language follow the window's
    except UserError as exc:
        tell(exc.message)
        return exc.exit_code
    except ImportError as exc:   # PySide6 missing or broken
        tell(tr("cli.no_gui", lang, error=quoted("PySide6", exc, lang)))
        return 2
    except Exception as exc:  # noqa: BLE001 - e.g. no display: one clear line, details in the log
        tell(tr("ui.start_failed", lang, error=quoted(type(exc).__name__, exc, lang), log=_log_error()))
        return 70

    from PySide6.QtCore import QTimer

    def unexpected(exc_type, exc, tb) -> None:
        """An error in a Qt slot: logged to a file, one line in the window — never a traceback."""
        if issubclass(exc_type, KeyboardInterrupt):   # Ctrl-C that arrived inside a slot
            watch.interrupt()
            return
        log = _log_error((exc_type, exc, tb))
        if isinstance(exc, UserError):
            window.show_message(exc.message)
        else:
            window.show_message(tr("ui.internal_error", window.lang, error=exc_type.__name__, log=log))

    sys.excepthook = unexpected
    watch = InterruptWatch(app)
    window.show()
    probe = os.environ.get("BLINDCHESS_EXIT_WHEN_READY") == "1"
    report = os.environ.get("BLINDCHESS_REPORT_READY") == "1"

    def ready() -> None:
        if probe or report:
            print(f"ready {time.perf_counter() - _T0:.3f} {window.lang}", flush=True)
        if probe:
            app.quit()
            return
        controller.start_devices()
        try:
            path = journal_to_reopen(args.journal, window.settings)
            if path is not None:
                controller.open_journal(path)
            else:
                window.on_new_game()
        except UserError as exc:
            window.show_message(exc.message)
        except Exception as exc:  # noqa: BLE001
            window.show_message(tr("ui.internal_error", window.lang, error=type(exc).__name__, log=_log_error()))

    QTimer.singleShot(0, ready)
    try:
        code = app.exec()
    finally:
        watch.close()
        controller.shutdown()
        sys.excepthook = sys.__excepthook__
    if watch.interrupted:
        tell(tr("cli.interrupted", lang))
        return EXIT_INTERRUPTED
    return int(code)

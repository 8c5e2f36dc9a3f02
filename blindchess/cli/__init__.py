"""The ``blindchess`` command: the app without arguments, subcommands otherwise.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
taking the parsed arguments and returning the exit code). Errors meant for the
user (:class:`blindchess.base.errors.UserError`) are printed as they are. An
``OSError`` about a path the user gave (a name too long, a symlink loop, a
folder where a file belongs …) that a command did not turn into a message itself
becomes one line naming the path and the reason, exit code 2. Anything else is
logged to a file and reported in one line — no traceback reaches a user.

The language is chosen once (:func:`blindchess.base.i18n.default_lang`): ``--lang``
anywhere on the command line (``blindchess --lang nl notation check …`` or
``blindchess notation check … --lang nl``) is the language the program speaks
and writes — messages, help, argparse's own words, spoken texts and exports.
The language of a score sheet being read has its own flag (``--sheet-lang``).
A usage error is one line in that language, exit code 2.
"""

from __future__ import annotations

import argparse
import datetime
import errno
import importlib
import sys
import traceback
from collections.abc import Sequence

from .. import __version__
from ..base import (
    UI_LANGS,
    UserError,
    chosen_lang,
    default_lang,
    journal_dir,
    log_dir,
    models_dir,
    os_error_text,
    shown_path,
    tr,
    translate_argparse,
    use_lang,
    utf8_output,
)
from .app import start_app
from .options import Parser, add_lang_argument, lang_from_argv

#: Subcommand modules, in the order ``--help`` lists them.
SUBCOMMANDS = (
    "notation",    # notation check | convert          (move language)
    "announce",    # announce GAME.pgn [--wav]          (move language, speech)
    "pegboard",    # pegboard simulate | replay         (tactile board)
    "reconcile",   # reconcile --sheet-a ...            (D.2.9 ruling)
    "journal",     # journal show | list                (crash-safe journal)
    "say",         # say TEXT --out FILE.wav            (speech)
    "listen",      # listen --wav FILE.wav              (speech recognition)
    "models",      # models list | install | remove     (speech models)
    "chess960",    # chess960 [N]                       (Chess960)
    "envelope",    # envelope ...                       (adjournment)
    "export",      # export SOURCE --format ...         (records)
    "scenario",    # scenario run FILE [--json]         (the headless table)
    "broadcast",   # broadcast PATH... [--port N]       (live broadcast over HTTP)
    "app",         # app [--journal FILE]               (the desktop app)
)


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
    """The full argument parser with every available subcommand."""
    translate_argparse()
    parser = Parser(
        prog="blindchess",
        description=tr("cli.description", lang),
        epilog=tr("cli.paths", lang, journals=journal_dir(), models=models_dir()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"blindchess {__version__}")
    add_lang_argument(parser, lang or default_lang())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def _log_internal_error() -> str:
    """Write the current traceback to the log folder and return the file's path."""
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = folder / f"error-{stamp}.log"
        path.write_text(traceback.format_exc(), encoding="utf-8")
        return str(path)
    except OSError:
        return "-"


#: What a path the user gave can cause; other OSErrors (I/O errors, no path named) are faults, logged.
USER_PATH_ERRNOS = frozenset({errno.ENAMETOOLONG, errno.ELOOP, errno.ENOENT, errno.ENOTDIR, errno.EISDIR,
                              errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EROFS, errno.ENXIO, errno.EFBIG,
                              errno.EDQUOT, errno.EEXIST})


def os_error_message(exc: OSError, lang: str | None) -> str | None:
    """One line for an ``OSError`` about a user's path, or None when it is a fault (no path named, I/O error)."""
    if exc.filename is None or exc.errno not in USER_PATH_ERRNOS:
        return None
    return tr("files.cannot_use", lang, path=shown_path(exc.filename), error=os_error_text(exc, lang))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``blindchess`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    utf8_output()
    chosen, rest = lang_from_argv(argv)
    before = chosen_lang()
    translate_argparse()
    if chosen is not None and chosen not in UI_LANGS:
        Parser(prog="blindchess").error(argparse._("argument %(argument_name)s: %(message)s") % {  # type: ignore[attr-defined]
            "argument_name": "--lang", "message": argparse._("invalid choice: %(value)r (choose from %(choices)s)") % {  # type: ignore[attr-defined]
                "value": chosen, "choices": ", ".join(repr(code) for code in UI_LANGS)}})
    if chosen is not None:
        use_lang(chosen)
    try:
        return _run(rest)
    finally:
        use_lang(before)


def _run(argv: list[str]) -> int:
    """The command of ``argv`` (``--lang`` already taken out and in force)."""
    lang = default_lang()
    try:
        if not argv or argv[0].startswith("--journal"):
            return start_app(argv)
        parser = build_parser(lang)
        args = parser.parse_args(argv)
        if getattr(args, "func", None) is None:
            parser.print_help()
            return 0
        return int(args.func(args) or 0)
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(tr("cli.interrupted", lang), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        message = os_error_message(exc, lang)
        if message is None:
            log = _log_internal_error()
            print(tr("cli.internal_error", lang, error=type(exc).__name__, log=log), file=sys.stderr)
            return 70
        print(message, file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        log = _log_internal_error()
        print(tr("cli.internal_error", lang, error=type(exc).__name__, log=log), file=sys.stderr)
        return 70


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``blindchess app [--journal FILE] [--lang de|en]``: start the desktop app.

``blindchess`` without arguments does the same (it reopens the last unfinished
game, or offers a new one). The app itself lives in :mod:`blindchess.ui.app`;
Qt is imported only when the command runs, so ``blindchess --help`` stays fast
and works without a display.
"""

from __future__ import annotations

import argparse

from ..i18n import tr


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("app", help=tr("ui.cli_help"), description=tr("ui.cli_description"))
    add_arguments(parser)
    parser.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The app's options; shared with :func:`blindchess.ui.app.main`."""
    parser.add_argument("--journal", metavar="FILE", help=tr("ui.cli_journal"))
    parser.add_argument("--lang", choices=("de", "en"), help=tr("ui.cli_lang"))


def run(args: argparse.Namespace) -> int:
    argv: list[str] = []
    if args.journal:
        argv += ["--journal", args.journal]
    if args.lang:
        argv += ["--lang", args.lang]
    from . import start_app  # prints a clear message when Qt cannot be loaded

    return start_app(argv)

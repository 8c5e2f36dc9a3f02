"""``blindchess app [--journal FILE] [--lang de|en]``: start the desktop app.

``blindchess`` without arguments does the same (it reopens the last unfinished
game, or offers a new one). The app itself lives in :mod:`blindchess.ui.app`,
which imports Qt only when the app starts, so ``blindchess --help`` stays fast
and works without a display. The dependency goes one way: the CLI knows the
app's entry point and options; the ui never imports the CLI.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..base import tr
from ..broadcast import WindowBroadcast
from ..ui import add_arguments, use
from ..ui import main as app_main


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("app", help=tr("ui.cli_help"), description=tr("ui.cli_description"))
    add_arguments(parser)
    parser.set_defaults(func=run)


def start_app(argv: Sequence[str] = ()) -> int:
    """Run the desktop app with the app's own arguments; its exit code (2 when Qt cannot start)."""
    use(WindowBroadcast)   # the window's live broadcast (its setting) is this package's
    return int(app_main(list(argv)) or 0)


def run(args: argparse.Namespace) -> int:
    argv: list[str] = []
    if args.journal:
        argv += ["--journal", args.journal]
    if args.lang:
        argv += ["--lang", args.lang]
    return start_app(argv)

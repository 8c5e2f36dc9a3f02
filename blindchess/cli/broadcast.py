"""``blindchess broadcast PATH… [--port N] [--host 127.0.0.1] [--folder DIR]``: the games live over HTTP.

PATH is a journal or a folder of journals; games appear as their journals appear. Serves
``/games.pgn``, ``/game/N.pgn``, ``/`` and ``/arbiter`` (:mod:`blindchess.broadcast`) until Ctrl-C;
``--folder DIR`` also writes ``DIR/games.pgn`` and ``DIR/roundN/games.pgn``. Listens on 127.0.0.1
unless ``--host`` says otherwise. Bad input — a PATH that does not exist or is no journal, a port
that is taken, a folder that cannot be written — is one line in the user's language, exit 2.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path

from ..base import UserError, default_lang, is_missing, os_error_text, regular_file, shown_path, tr
from ..broadcast import DEFAULT_HOST, DEFAULT_PORT, Broadcast
from ..storage import NotRegularFile, describe
from .options import add_lang_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``broadcast`` to the ``blindchess`` command."""
    lang = default_lang()
    parser = subparsers.add_parser("broadcast", help=tr("broadcast.help", lang), description=tr("broadcast.description", lang))
    parser.add_argument("paths", nargs="+", metavar="PATH", help=tr("broadcast.help_paths", lang))
    parser.add_argument("--port", type=_port(lang), default=DEFAULT_PORT, metavar="N",
                        help=tr("broadcast.help_port", lang, port=DEFAULT_PORT))
    parser.add_argument("--host", default=DEFAULT_HOST, help=tr("broadcast.help_host", lang, host=DEFAULT_HOST))
    parser.add_argument("--folder", metavar="DIR", help=tr("broadcast.help_folder", lang))
    add_lang_argument(parser, lang)
    parser.set_defaults(func=run)


def _port(lang: str):
    def port(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if not 0 <= value <= 65535:
            raise argparse.ArgumentTypeError(tr("broadcast.bad_port", lang, value=text))
        return value
    return port


def _source(text: str, lang: str) -> Path:
    """A journal or a folder of journals; UserError (one line) when it is neither."""
    path = Path(text)
    if is_missing(path):
        raise UserError(tr("broadcast.path_missing", lang, path=shown_path(path)))
    try:
        if stat.S_ISDIR(os.stat(path).st_mode):
            return path
    except OSError:
        pass     # regular_file names the reason
    regular_file(path, lang)
    try:
        info = describe(path)
    except NotRegularFile:
        raise UserError(tr("broadcast.not_a_journal", lang, path=shown_path(path))) from None
    except OSError as exc:
        raise UserError(tr("files.cannot_read", lang, path=shown_path(path), error=os_error_text(exc, lang))) from None
    if path.stat().st_size > 0 and info.start_event is None:
        raise UserError(tr("broadcast.not_a_journal", lang, path=shown_path(path)))
    return path


def _folder(text: str, lang: str) -> Path:
    """The folder the PGN files go to (made when its parent exists); UserError when it cannot be."""
    folder = Path(text)
    try:
        folder.mkdir(exist_ok=True)
        if not folder.is_dir():
            raise NotADirectoryError(20, os.strerror(20), str(folder))
    except OSError as exc:
        raise UserError(tr("broadcast.folder_unwritable", lang, folder=shown_path(folder),
                           error=os_error_text(exc, lang))) from None
    return folder


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C (exit 130, as every command); 2 for bad input."""
    lang = default_lang()
    sources = [_source(p, lang) for p in args.paths]
    folder = _folder(args.folder, lang) if args.folder else None
    broadcast = Broadcast(sources, lang=lang, host=args.host, port=args.port, folder=folder,
                          on_problem=lambda text: print(text, file=sys.stderr, flush=True))
    broadcast.start()
    try:
        url = broadcast.url
        print(tr("broadcast.serving", lang, url=url, games=f"{url}games.pgn", arbiter=f"{url}arbiter"), flush=True)
        if folder is not None:
            print(tr("broadcast.writing", lang, folder=folder), flush=True)
        broadcast.wait()
    finally:
        broadcast.stop()
    return 0

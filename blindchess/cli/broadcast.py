"""``blindchess broadcast PATH… [--port N] [--host 127.0.0.1] [--folder DIR] [--delay SECONDS]
[--stale-after SECONDS] [--arbiter-token TOKEN] [--lichess-round ID]``: the games live over HTTP.

PATH is a journal or a folder of journals; games appear as their journals appear. Serves
``/games.pgn``, ``/game/N.pgn``, ``/games.json``, ``/game/N.json``, ``/``, ``/events`` and ``/arbiter``
(:mod:`blindchess.broadcast`) until Ctrl-C; ``--folder DIR`` also writes ``DIR/games.pgn`` and
``DIR/roundN/games.pgn``; ``--lichess-round ID`` pushes the games to a Lichess broadcast round (the token
from ``LICHESS_TOKEN``). ``--delay`` holds every public answer back (never the arbiter's);
``--stale-after`` says when a silent table's game counts as stale. Listens on 127.0.0.1 unless ``--host``
says otherwise; beyond this computer the arbiter's pages need a token (``--arbiter-token``, else one made
and printed at the start). Bad input — a PATH that does not exist or is no journal, a port that is taken,
a folder that cannot be written, a round id or a number of seconds that cannot be, no Lichess token — is
one line in the user's language, exit 2.
"""

from __future__ import annotations

import argparse
import os
import re
import stat
import sys
from pathlib import Path

from ..base import UserError, default_lang, is_missing, os_error_text, regular_file, shown_path, tr
from ..broadcast import DEFAULT_HOST, DEFAULT_PORT, TOKEN_VARIABLE, Broadcast, LichessTarget, round_id_ok
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
    parser.add_argument("--delay", type=_seconds(lang), default=0.0, metavar="SECONDS", help=tr("broadcast.help_delay", lang))
    parser.add_argument("--stale-after", type=_seconds(lang), default=600.0, metavar="SECONDS",
                        help=tr("broadcast.help_stale_after", lang, seconds=600))
    parser.add_argument("--arbiter-token", type=_token(lang), metavar="TOKEN", help=tr("broadcast.help_arbiter_token", lang))
    parser.add_argument("--lichess-round", type=_round(lang), metavar="ID",
                        help=tr("broadcast.help_lichess_round", lang, variable=TOKEN_VARIABLE))
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


#: The longest delay and the longest wait for a silent table (a day).
_MAX_SECONDS = 86400
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,128}")


def _seconds(lang: str):
    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0 <= value <= _MAX_SECONDS:     # NaN fails too
            raise argparse.ArgumentTypeError(tr("broadcast.bad_seconds", lang, value=text, limit=_MAX_SECONDS))
        return value
    return seconds


def _token(lang: str):
    def token(text: str) -> str:
        if not _TOKEN.fullmatch(text):
            raise argparse.ArgumentTypeError(tr("broadcast.bad_token", lang))
        return text
    return token


def _round(lang: str):
    def round_id(text: str) -> str:
        if not round_id_ok(text):
            raise argparse.ArgumentTypeError(tr("broadcast.bad_round", lang, value=text))
        return text
    return round_id


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
    lichess = None
    if args.lichess_round:
        lichess = LichessTarget.from_environment(args.lichess_round)
        if lichess is None:
            raise UserError(tr("broadcast.lichess_no_token", lang, variable=TOKEN_VARIABLE))
    folder = _folder(args.folder, lang) if args.folder else None
    broadcast = Broadcast(sources, lang=lang, host=args.host, port=args.port, folder=folder, delay=args.delay,
                          stale_after=args.stale_after, arbiter_token=args.arbiter_token, lichess=lichess,
                          on_problem=lambda text: print(text, file=sys.stderr, flush=True))
    broadcast.start()
    try:
        url = broadcast.url
        print(tr("broadcast.serving", lang, url=url, games=f"{url}games.pgn", arbiter=f"{url}arbiter"), flush=True)
        if broadcast.token:
            print(tr("broadcast.arbiter_address", lang, url=broadcast.arbiter_url), flush=True)
        if folder is not None:
            print(tr("broadcast.writing", lang, folder=folder), flush=True)
        if args.delay:
            print(tr("broadcast.delaying", lang, seconds=f"{args.delay:g}"), flush=True)
        if lichess is not None:
            print(tr("broadcast.lichess_pushing", lang, round=lichess.round_id), flush=True)
        broadcast.wait()
    finally:
        broadcast.stop()
    return 0

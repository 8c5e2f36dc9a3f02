"""``blindchess notation check | convert``: game scores on the command line.

``check FILE [--lang LANG] [--fen FEN] [--chess960] [--json]`` reads a score
(PGN or a scoresheet transcribed as text, see :func:`blindchess.notation.read_score`)
and reports every problem with its move number and colour. Exit status: 0 when
every move is legal and unambiguous, 1 otherwise, 2 when the file cannot be read.

``convert FILE --to LANG [--from LANG] [--style fide|pgn] [--fen FEN]`` prints the
legal moves of the score in another language's notation, one move number per line;
problems go to standard error and give exit status 1. A start other than the
standard one (``--fen``, ``--chess960``, PGN ``FEN``/``Variant`` headers) is
printed first as PGN tag pairs, so the converted score reads back the same.

``--lang``/``--from`` name the *sheet's* notation language (RULES.md §4); messages
are in the user's language from ``BLINDCHESS_LANG`` (German by default).
"""

from __future__ import annotations

import argparse
import json
import sys

import chess

from .. import NOTATION_LANGS
from ..errors import UserError
from ..i18n import default_lang, tr
from ..plural import plural

#: Larger files are refused (a score is a few kilobytes; the reader caps text anyway).
MAX_FILE_BYTES = 20_000_000


def register(subparsers: argparse._SubParsersAction) -> None:
    ui = default_lang()
    parser = subparsers.add_parser("notation", help=tr("notation.cli_help", ui),
                                   description=tr("notation.cli_help", ui))
    sub = parser.add_subparsers(dest="notation_command", metavar="{check,convert}")
    sub.required = True

    check = sub.add_parser("check", help=tr("notation.cli_check_help", ui),
                           description=tr("notation.cli_check_help", ui))
    check.add_argument("file", metavar="FILE", help=tr("notation.cli_file", ui))
    check.add_argument("--lang", choices=NOTATION_LANGS, help=tr("notation.cli_lang", ui))
    _start_options(check, ui)
    check.add_argument("--json", action="store_true", help=tr("notation.cli_json", ui))
    check.set_defaults(func=run_check)

    convert = sub.add_parser("convert", help=tr("notation.cli_convert_help", ui),
                             description=tr("notation.cli_convert_help", ui))
    convert.add_argument("file", metavar="FILE", help=tr("notation.cli_file", ui))
    convert.add_argument("--to", required=True, choices=NOTATION_LANGS, help=tr("notation.cli_to", ui))
    convert.add_argument("--from", dest="lang", choices=NOTATION_LANGS, help=tr("notation.cli_lang", ui))
    convert.add_argument("--style", choices=("fide", "pgn"), default="fide", help=tr("notation.cli_style", ui))
    _start_options(convert, ui)
    convert.set_defaults(func=run_convert)


def _start_options(parser: argparse.ArgumentParser, ui: str) -> None:
    parser.add_argument("--fen", help=tr("notation.cli_fen", ui))
    parser.add_argument("--chess960", action="store_true", help=tr("notation.cli_chess960", ui))


def read_text(path: str, ui: str) -> str:
    """The text of a score file ("-": standard input); UserError (exit 2) when impossible."""
    from .. import textfile

    if path == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise UserError(tr("notation.cli_too_big", ui, path=path, size=len(data), limit=MAX_FILE_BYTES), 2)
        return decode(data, path, ui)
    return textfile.read_text(path, ui, max_bytes=MAX_FILE_BYTES)


def decode(data: bytes, path: str, ui: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252; binary is refused."""
    from .. import textfile

    return textfile.decode(data, path, ui)


def start_board(fen: str | None, chess960: bool, ui: str) -> chess.Board | None:
    """The start position from ``--fen``/``--chess960`` (None: standard or from PGN headers)."""
    if fen is None:
        return chess.Board(chess960=True) if chess960 else None
    from ..notation import fen_error_text, status_text

    try:
        board = chess.Board(fen, chess960=chess960)
    except ValueError as exc:
        raise UserError(tr("notation.cli_bad_fen", ui, fen=fen, error=fen_error_text(exc, ui)), 2) from None
    if not board.is_valid() and not chess960:
        # castling rights such as a Chess960 FEN has them: read it as Chess960 (RULES.md §5)
        other = chess.Board(fen, chess960=True)
        if other.is_valid():
            board = other
    if not board.is_valid():
        raise UserError(tr("notation.cli_bad_fen", ui, fen=fen, error=status_text(board.status(), ui)), 2)
    return board


def _read(args: argparse.Namespace, ui: str):
    from ..notation import read_score

    text = read_text(args.file, ui)
    board = start_board(args.fen, args.chess960, ui)
    return read_score(text, board=board, lang=args.lang, ui_lang=ui)


def run_check(args: argparse.Namespace) -> int:
    ui = default_lang()
    score = _read(args, ui)
    if args.json:
        print(json.dumps(score.as_dict(), ensure_ascii=False, indent=2))
    else:
        print(tr("notation.cli_lang_used", ui, lang=score.lang) if score.lang else tr("notation.cli_no_lang", ui))
        for problem in score.problems:
            print(problem.line(ui))
        if score.truncated:
            print(tr("notation.cli_truncated", ui))
        if score.ok and not score.entries:
            print(tr("notation.cli_no_moves", ui))
        elif score.ok:
            print(plural(score.plies, "notation.cli_all_ok_one", "notation.cli_all_ok", ui, plies=score.plies))
        else:
            print(tr("notation.cli_summary", ui, plies=score.plies, count=len(score.problems),
                     plies_text=plural(score.plies, "notation.half_moves_one", "notation.half_moves", ui),
                     problems_text=plural(len(score.problems), "notation.problems_one", "notation.problems", ui)))
    return 0 if score.ok else 1


def run_convert(args: argparse.Namespace) -> int:
    from ..notation import write

    ui = default_lang()
    score = _read(args, ui)
    board = score.start.copy()
    if board.chess960 or board.fen() != chess.STARTING_FEN:
        # the start travels with the score, or the converted text cannot be read back
        if board.chess960:
            print('[Variant "Chess960"]')
        print('[SetUp "1"]')
        print(f'[FEN "{board.fen()}"]')
        print()
    line: list[str] = []
    for i, move in enumerate(score.moves):
        if board.turn == chess.WHITE or i == 0:
            if line:
                print(" ".join(line))
            dots = "." if board.turn == chess.WHITE else "..."
            line = [f"{board.fullmove_number}{dots}"]
        line.append(write(board, move, args.to, style=args.style))
        board.push(move)
    if line:
        print(" ".join(line))
    for problem in score.problems:
        print(problem.line(ui), file=sys.stderr)
    if score.truncated:
        print(tr("notation.cli_truncated", ui), file=sys.stderr)
    return 0 if score.ok else 1

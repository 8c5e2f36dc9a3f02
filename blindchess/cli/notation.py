"""``blindchess notation check | convert``: game scores on the command line.

``check FILE [--sheet-lang LANG] [--fen FEN] [--chess960] [--json]`` reads a score
(PGN or a scoresheet transcribed as text, see :func:`blindchess.language.notation.read_score`)
and reports every problem with its move number and colour. Exit status: 0 when
every move is legal and unambiguous, 1 otherwise, 2 when the file cannot be read.
A heading before the first move ("Musterpartie:", "Partie 1") is named and the
score read. ``--json`` prints the reading of :meth:`ScoreReading.as_dict`.

``convert FILE --to LANG [--sheet-lang LANG] [--style fide|pgn] [--fen FEN]`` prints the
legal moves of the score in another language's notation, one move number per line;
problems go to standard error and give exit status 1. A start other than the
standard one (``--fen``, ``--chess960``, PGN ``FEN``/``Variant`` headers) is
printed first as PGN tag pairs, so the converted score reads back the same.

A file may hold several games (a PGN file; a tag pair after movetext starts the
next game, :func:`blindchess.language.notation.split_games`): both commands read every
game. ``check`` then names each game before its lines ("Partie 2: Anna – Bella")
and with ``--json`` prints ``{"games": [...]}``, one object per game with the
single-game fields plus ``"headers"`` (the game's tag pairs); ``convert`` prints
each game with its tag pairs, separated by a blank line. A file with one game
gives exactly the single-game output.

``--sheet-lang`` (``--from`` for ``convert``) names the *sheet's* notation language (FIDE
Laws Appendix C; found from the sheet when left out); messages are in the user's language
(``--lang``, ``BLINDCHESS_LANG``, the system's language).
"""

from __future__ import annotations

import argparse
import json
import sys

import chess

from ..base import NOTATION_LANGS, UserError, default_lang, plural, tr
from ..base import decode as decode_text
from ..base import read_text as read_text_file
from ..language import ScoreReading, fen_error_text, read_score, split_games, status_text, write
from .options import add_lang_argument

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
    check.add_argument("--sheet-lang", dest="sheet_lang", choices=NOTATION_LANGS, help=tr("notation.cli_lang", ui))
    add_lang_argument(check, ui)
    _start_options(check, ui)
    check.add_argument("--json", action="store_true", help=tr("notation.cli_json", ui))
    check.set_defaults(func=run_check)

    convert = sub.add_parser("convert", help=tr("notation.cli_convert_help", ui),
                             description=tr("notation.cli_convert_help", ui))
    convert.add_argument("file", metavar="FILE", help=tr("notation.cli_file", ui))
    convert.add_argument("--to", required=True, choices=NOTATION_LANGS, help=tr("notation.cli_to", ui))
    convert.add_argument("--sheet-lang", "--from", dest="sheet_lang", choices=NOTATION_LANGS, help=tr("notation.cli_lang", ui))
    add_lang_argument(convert, ui)
    convert.add_argument("--style", choices=("fide", "pgn"), default="fide", help=tr("notation.cli_style", ui))
    _start_options(convert, ui)
    convert.set_defaults(func=run_convert)


def _start_options(parser: argparse.ArgumentParser, ui: str) -> None:
    parser.add_argument("--fen", help=tr("notation.cli_fen", ui))
    parser.add_argument("--chess960", action="store_true", help=tr("notation.cli_chess960", ui))


def read_text(path: str, ui: str) -> str:
    """The text of a score file ("-": standard input); UserError (exit 2) when impossible."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise UserError(tr("notation.cli_too_big", ui, path=path, size=len(data), limit=MAX_FILE_BYTES), 2)
        return decode(data, path, ui)
    return read_text_file(path, ui, max_bytes=MAX_FILE_BYTES)


def decode(data: bytes, path: str, ui: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252; binary is refused."""
    return decode_text(data, path, ui)


def start_board(fen: str | None, chess960: bool, ui: str) -> chess.Board | None:
    """The start position from ``--fen``/``--chess960`` (None: standard or from PGN headers)."""
    if fen is None:
        return chess.Board(chess960=True) if chess960 else None
    try:
        board = chess.Board(fen, chess960=chess960)
    except ValueError as exc:
        raise UserError(tr("notation.cli_bad_fen", ui, fen=fen, error=fen_error_text(exc, ui)), 2) from None
    if not board.is_valid() and not chess960:
        # castling rights such as a Chess960 FEN has them: read it as Chess960 (FIDE Laws Guidelines II, Chess960)
        other = chess.Board(fen, chess960=True)
        if other.is_valid():
            board = other
    if not board.is_valid():
        raise UserError(tr("notation.cli_bad_fen", ui, fen=fen, error=status_text(board.status(), ui)), 2)
    return board


def _read(args: argparse.Namespace, ui: str) -> list[ScoreReading]:
    """Every game of the file, read (one reading for a file with one game or none)."""
    text = read_text(args.file, ui)
    board = start_board(args.fen, args.chess960, ui)
    chunks = split_games(text) or [text]
    return [read_score(chunk, board=board, lang=args.sheet_lang, ui_lang=ui) for chunk in chunks]


def _game_line(number: int, score: ScoreReading, ui: str) -> str:
    """``Partie 2: Anna – Bella`` (the players from the game's tag pairs, "?" when missing)."""
    players = " – ".join((score.headers.get("White") or "?", score.headers.get("Black") or "?"))
    return tr("notation.cli_game", ui, number=number, players=players)


def _report(score: ScoreReading, ui: str) -> None:
    """The text report of one game (as a one-game file has always printed it)."""
    print(tr("notation.cli_lang_used", ui, lang=score.lang) if score.lang else tr("notation.cli_no_lang", ui))
    if score.heading:
        print(tr("notation.cli_heading", ui, heading=score.heading))
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


def run_check(args: argparse.Namespace) -> int:
    ui = default_lang()
    scores = _read(args, ui)
    if args.json:
        if len(scores) == 1:
            data: dict = scores[0].as_dict()
        else:
            data = {"games": [{**s.as_dict(), "headers": dict(s.headers)} for s in scores]}
        print(json.dumps(data, ensure_ascii=False, indent=2))
    elif len(scores) == 1:
        _report(scores[0], ui)
    else:
        for number, score in enumerate(scores, start=1):
            if number > 1:
                print()
            print(_game_line(number, score, ui))
            _report(score, ui)
    return 0 if all(s.ok for s in scores) else 1


#: Tag pairs convert writes itself (from the start position), never copied from the source.
_START_TAGS = ("SetUp", "FEN", "Variant")


def _convert_one(score: ScoreReading, args: argparse.Namespace, *, with_headers: bool) -> list[str]:
    """The converted score's lines: tag pairs (the game's, when ``with_headers``; the start's), moves."""
    lines: list[str] = []
    board = score.start.copy()
    if with_headers:
        for key, value in score.headers.items():
            if key not in _START_TAGS:
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                lines.append(f'[{key} "{escaped}"]')
    if board.chess960 or board.fen() != chess.STARTING_FEN:
        # the start travels with the score, or the converted text cannot be read back
        if board.chess960:
            lines.append('[Variant "Chess960"]')
        lines.append('[SetUp "1"]')
        lines.append(f'[FEN "{board.fen()}"]')
    if lines:
        lines.append("")
    line: list[str] = []
    for i, move in enumerate(score.moves):
        if board.turn == chess.WHITE or i == 0:
            if line:
                lines.append(" ".join(line))
            dots = "." if board.turn == chess.WHITE else "..."
            line = [f"{board.fullmove_number}{dots}"]
        line.append(write(board, move, args.to, style=args.style))
        board.push(move)
    if line:
        lines.append(" ".join(line))
    return lines


def run_convert(args: argparse.Namespace) -> int:
    ui = default_lang()
    scores = _read(args, ui)
    several = len(scores) > 1
    for number, score in enumerate(scores, start=1):
        if several and number > 1:
            print()
        for line in _convert_one(score, args, with_headers=several):
            print(line)
        if several and (score.problems or score.truncated):
            print(_game_line(number, score, ui), file=sys.stderr)
        for problem in score.problems:
            print(problem.line(ui), file=sys.stderr)
        if score.truncated:
            print(tr("notation.cli_truncated", ui), file=sys.stderr)
    return 0 if all(s.ok for s in scores) else 1

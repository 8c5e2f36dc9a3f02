"""``blindchess export SOURCE --format pgn|brf|braille|wav|pdf -o FILE``: game records for every reader.

SOURCE is a journal (``.jsonl``) or a PGN file. The formats: PGN with clocks and
comments, the braille score as braille ASCII (``brf``) or Unicode braille
(``braille``), the spoken score (``wav``) and the printable scoresheet (``pdf``).
Bad input gets a message in the user's language and a non-zero exit code; the
output file is written whole or not at all (temporary file, then rename).
``-o -`` writes the record to standard output, binary formats (WAV, PDF) too,
and nothing else goes there (notes go to standard error).
A damaged journal (see :mod:`blindchess.storage.journal`) is named with the half-moves it
affects and exits 1; nothing is written unless ``--damaged`` asks for the
recovered part (the exit code stays 1).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..base import (
    DEFAULT_LANG,
    MAX_FULLMOVE,
    MAX_HALFMOVE_CLOCK,
    MAX_HEADER_CHARS,
    MAX_PAGE_LENGTH,
    MAX_PLIES,
    MAX_WIDTH,
    NOTATION_LANGS,
    UserError,
    counters_ok,
    default_lang,
    quoted,
    tr,
)
from .options import add_lang_argument

if TYPE_CHECKING:
    import chess.pgn

FORMATS = ("pgn", "brf", "braille", "wav", "pdf")
#: The output name that means standard output.
STDOUT = "-"


def register(subparsers) -> None:
    lang = default_lang()
    parser = subparsers.add_parser("export", help=tr("records.help", lang),
                                   description=tr("records.help", lang))
    parser.add_argument("source", metavar="SOURCE", help=tr("records.help_source", lang))
    parser.add_argument("--format", "-f", default="pgn", metavar="FORMAT", help=tr("records.help_format", lang))
    add_lang_argument(parser, lang)
    parser.add_argument("--notation-lang", default=None, metavar="LANG",
                        help=tr("records.help_lang", lang, default=lang if lang in NOTATION_LANGS else DEFAULT_LANG))
    parser.add_argument("--width", type=int, default=40, metavar="N", help=tr("records.help_width", lang))
    parser.add_argument("--page-length", type=int, default=25, metavar="N",
                        help=tr("records.help_page_length", lang))
    parser.add_argument("--number-sign", action="store_true", help=tr("records.help_number_sign", lang))
    parser.add_argument("--page-numbers", action="store_true", help=tr("records.help_page_numbers", lang))
    parser.add_argument("--per-move", action="store_true", help=tr("records.help_per_move", lang))
    parser.add_argument("-o", "--output", metavar="FILE", help=tr("records.help_output", lang))
    parser.add_argument("--damaged", action="store_true", help=tr("filecheck.help_damaged", lang))
    parser.set_defaults(func=run)


def _check(args: argparse.Namespace, ui_lang: str) -> tuple[str, str]:
    fmt = (args.format or "").strip().lower()
    if fmt not in FORMATS:
        raise UserError(tr("records.unknown_format", ui_lang, format=args.format, formats=", ".join(FORMATS)))
    lang = (args.notation_lang or (ui_lang if ui_lang in NOTATION_LANGS else DEFAULT_LANG)).strip().lower()
    if lang not in NOTATION_LANGS:
        raise UserError(tr("records.bad_lang", ui_lang, lang=args.notation_lang, langs=", ".join(NOTATION_LANGS)))
    if not 12 <= args.width <= MAX_WIDTH:
        raise UserError(tr("bounds.width", ui_lang, low=12, high=MAX_WIDTH, width=args.width))
    if not 3 <= args.page_length <= MAX_PAGE_LENGTH:
        raise UserError(tr("bounds.page_length", ui_lang, low=3, high=MAX_PAGE_LENGTH, lines=args.page_length))
    if not args.output:
        raise UserError(tr("records.no_output", ui_lang))
    return fmt, lang


#: A move as a PGN or a score writes it (any letters, any language): what a half-move takes at least.
_MOVE_WORD = re.compile(rb"(?:[A-Za-z\xc0-\xff]{0,3}[a-h]?[1-8]?[x:-]?[a-h][1-8]|O-O|0-0)")


def _check_size(source: str, ui_lang: str) -> None:
    """A PGN file with more moves (variations included) than four times the longest game is refused
    before it is read move by move (reading it would take minutes and all the memory)."""
    path = Path(source)
    if path.suffix.lower() in (".jsonl", ".journal"):
        return   # a journal is bounded by its own reader
    from ..base import read_bytes

    try:
        data = read_bytes(path, ui_lang)
    except UserError:
        return   # reading the game says what is wrong with the file
    if len(_MOVE_WORD.findall(data)) > 4 * MAX_PLIES:
        raise UserError(tr("bounds.plies", ui_lang, what=source, limit=MAX_PLIES))


def _check_game(game: chess.pgn.Game, source: str, ui_lang: str) -> None:
    """The game within the bounds every reader keeps (:mod:`blindchess.base.bounds`): no more half-moves than
    the longest game, a start position whose move counters a game can reach, header values no longer
    than a PGN string. Raises UserError (exit 2)."""
    plies = sum(1 for _ in game.mainline_moves())
    if plies > MAX_PLIES:
        raise UserError(tr("bounds.plies", ui_lang, what=source, limit=MAX_PLIES))
    board = game.board()
    if not counters_ok(board.halfmove_clock, board.fullmove_number):
        raise UserError(tr("bounds.move_number", ui_lang, what=source, moves=MAX_FULLMOVE,
                           clock=MAX_HALFMOVE_CLOCK))
    for name, value in game.headers.items():
        if len(value) > MAX_HEADER_CHARS:
            raise UserError(tr("bounds.value", ui_lang, what=f"{source} [{name[:40]}]", limit=MAX_HEADER_CHARS))


def run(args: argparse.Namespace) -> int:
    ui_lang = default_lang()
    fmt, lang = _check(args, ui_lang)
    from ..adapters import load_game

    warnings: list[str] = []
    damage: list[str] = []
    _check_size(args.source, ui_lang)
    game = load_game(args.source, ui_lang, warnings, damage)
    _check_game(game, args.source, ui_lang)
    for warning in [*warnings, *damage]:
        print(warning, file=sys.stderr)
    if damage and not args.damaged:   # a damaged journal is never exported as if it were whole
        print(tr("filecheck.export_refused", ui_lang), file=sys.stderr)
        return 1
    code = _write(args, game, fmt, lang, ui_lang)
    if damage:
        print(tr("filecheck.export_damaged_written", ui_lang), file=sys.stderr)
        return 1
    return code


def _write(args: argparse.Namespace, game, fmt: str, lang: str, ui_lang: str) -> int:
    if args.output == STDOUT:
        return _to_stdout(args, game, fmt, lang, ui_lang)
    target = Path(args.output)
    count = _produce(args, game, fmt, lang, ui_lang, target)
    if count is not None:
        from ..base import plural

        print(plural(count, "records.written_many_one", "records.written_many", ui_lang,
                     count=count, path=target, format=fmt))
    else:
        print(tr("records.written", ui_lang, path=target, format=fmt))
    return 0


def _to_stdout(args: argparse.Namespace, game, fmt: str, lang: str, ui_lang: str) -> int:
    """The record made whole in a temporary file, then its bytes on standard output (nothing else there)."""
    import tempfile

    if fmt == "wav" and args.per_move:
        raise UserError(tr("records.per_move_not_stdout", ui_lang))
    with tempfile.TemporaryDirectory(prefix="blindchess-export-") as folder:
        tmp = Path(folder) / f"record.{fmt}"
        _produce(args, game, fmt, lang, ui_lang, tmp)
        data = tmp.read_bytes()
    out = sys.stdout.buffer
    out.write(data)
    out.flush()
    return 0


def _produce(args: argparse.Namespace, game, fmt: str, lang: str, ui_lang: str, target: Path) -> int | None:
    """Write the record to ``target``; for ``--per-move`` WAVs the number of files written, else None."""
    from ..base import write_text

    if fmt == "pgn":
        from ..adapters import to_pgn

        write_text(target, to_pgn(game), ui_lang, newline="\n")
    elif fmt in ("brf", "braille"):
        from ..records import brf_to_unicode, game_to_brf

        text = game_to_brf(game, lang, width=args.width, page_length=args.page_length,
                                   number_sign=args.number_sign, page_numbers=args.page_numbers)
        if fmt == "brf":
            write_text(target, text, ui_lang, encoding="ascii", newline="")
        else:
            write_text(target, brf_to_unicode(text), ui_lang, newline="")
    elif fmt == "wav":
        from ..adapters import export_wav, export_wav_per_move

        if args.per_move:
            return len(export_wav_per_move(game, target, lang))
        export_wav(game, target, lang)
    else:
        try:
            from ..adapters import write_scoresheet_pdf
        except ImportError as exc:
            raise UserError(tr("records.no_qt", ui_lang, error=quoted("PySide6", exc, ui_lang))) from exc
        write_scoresheet_pdf(game, target, lang)
    return None


if __name__ == "__main__":  # pragma: no cover
    from . import main

    sys.exit(main(["export", *sys.argv[1:]]))

"""``blindchess announce GAME.pgn [--lang LANG] [--wav FILE.wav]``.

Prints the game's moves as they are announced at the board (FIDE Laws,
Appendix D.2.1), one numbered phrase per line::

    1. Eva vier
    1... Eva fünf
    2. Springer Felix drei

With ``--wav`` the same lines are spoken into one WAV file (a recording of the
game, D.2.7) by :func:`blindchess.adapters.speech.tts.render_phrases_wav`. A file that
holds no readable game is reported in the user's language (exit code 2).
The file may be PGN or a scoresheet in any notation (read with
:func:`blindchess.language.notation.read_score`) and may hold several games: each is
announced after a line naming it ("Partie 2: Anna – Bella").

The file is streamed: it is read line by line
(:func:`text_lines`, lines cut at :data:`MAX_LINE_BYTES`), split into games as
they come (:func:`blindchess.language.notation.iter_games`) and each game is printed as
soon as it is read, so memory stays bounded by the largest game, not the file
(a 19 MB file of 271,428 games: see tests/benchmarks/bench_notation.py). Only
the first game is held back until the second shows whether game lines are
needed. A game that cannot be read ends the command with exit code 2 and a
message naming the game; the games before it have been printed then. With
``--wav`` the phrases are collected for the WAV file, which is written only
when every game was read.
"""

from __future__ import annotations

import argparse
import io
import stat
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn

from ..base import UserError, default_lang, os_error_text, tr
from ..language import LANGS, announce, iter_games, read_score
from .options import add_lang_argument

#: A longer line is read in pieces of this many bytes (bounded memory on any input, e.g. /dev/zero).
MAX_LINE_BYTES = 1_000_000

Game = tuple[dict[str, str], chess.Board, list[chess.Move]]


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    spoken = lang if lang in LANGS else LANGS[0]
    parser = subparsers.add_parser("announce", help=tr("phonetic.announce_help", lang),
                                   description=tr("phonetic.announce_help", lang))
    parser.add_argument("pgn", metavar="GAME.pgn", help=tr("phonetic.announce_help_file", lang))
    add_lang_argument(parser, spoken)
    parser.add_argument("--wav", metavar="FILE.wav", type=Path, help=tr("phonetic.announce_help_wav", lang))
    parser.set_defaults(func=run)


def _check_path(path: Path, lang: str) -> None:
    """UserError (exit 2) unless ``path`` is a regular file (a FIFO or device would never end)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path,
                           error=tr("phonetic.announce_missing", lang))) from None
    except OSError as exc:
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path, error=os_error_text(exc, lang))) from None
    if stat.S_ISDIR(mode):
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path, error=tr("phonetic.announce_folder", lang)))
    if not stat.S_ISREG(mode):
        raise UserError(tr("files.binary", lang, path=path), 2)


def text_lines(path: Path, lang: str) -> Iterator[str]:
    """The lines of a text file, decoded one by one: UTF-16 with BOM, else UTF-8 (with or
    without BOM) and, for a line that is no UTF-8, Windows-1252. UserError (exit 2) for a
    missing or non-regular file and for binary data (a NUL byte)."""
    _check_path(path, lang)
    try:
        f = path.open("rb")
    except OSError as exc:
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path, error=os_error_text(exc, lang))) from None
    with f:
        head = f.read(2)
        if head in (b"\xff\xfe", b"\xfe\xff"):
            f.seek(0)
            wrapper = io.TextIOWrapper(f, encoding="utf-16", errors="strict", newline="")
            try:
                while line := wrapper.readline(MAX_LINE_BYTES):
                    yield line
            except UnicodeDecodeError:
                raise UserError(tr("files.binary", lang, path=path), 2) from None
            return
        f.seek(0)
        first = True
        while raw := f.readline(MAX_LINE_BYTES):
            if b"\x00" in raw:
                raise UserError(tr("files.binary", lang, path=path), 2)
            if first and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            first = False
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                yield raw.decode("cp1252", errors="replace")


def iter_read_games(path: Path, lang: str) -> Iterator[Game]:
    """Every game in the file, as it is read: its PGN headers, start position and moves.

    A file may hold several PGN games; each is read with
    :func:`blindchess.language.notation.read_score`, so a scoresheet typed in any of the
    six notations (FIDE Laws Appendix C) is announced as well as PGN, and
    ``FEN`` / ``Variant`` headers set the start (Chess960 included). UserError
    (exit 2) when the file is missing, binary or not a regular file, or when a
    move cannot be read (the message names the game, the move number and the
    side); the games before it have been yielded then.
    """
    number = 0
    for chunk in iter_games(text_lines(path, lang)):
        score = read_score(chunk, ui_lang=lang)
        number += 1
        if score.problems or score.truncated:
            where = path if number == 1 else tr("phonetic.announce_game_in", lang, path=path, number=number)
            problem = score.problems[0].line(lang) if score.problems else tr("notation.cli_truncated", lang)
            raise UserError(tr("phonetic.announce_bad_pgn", lang, path=where, error=problem.rstrip(".")))
        if score.entries or score.headers:
            yield dict(score.headers), score.start, list(score.moves)
        else:
            number -= 1


def read_games(path: Path, lang: str) -> list[Game]:
    """Every game in the file (see :func:`iter_read_games`); UserError (exit 2) when it holds none."""
    games = list(iter_read_games(path, lang))
    if not games:
        raise UserError(tr("phonetic.announce_no_game", lang, path=path))
    return games


def read_game(path: Path, lang: str) -> chess.pgn.Game:
    """The first game of the file as a python-chess game (see :func:`read_games`)."""
    headers, start, moves = read_games(path, lang)[0]
    game = chess.pgn.Game()
    for key, value in headers.items():
        game.headers[key] = value
    if start.fen() != chess.STARTING_FEN or start.chess960:
        game.setup(start)
    node: chess.pgn.GameNode = game
    for move in moves:
        node = node.add_variation(move)
    return game


def moves_phrases(start: chess.Board, moves: list[chess.Move], lang: str) -> list[str]:
    """One numbered announcement per move: ``1. Eva vier``, ``1... Eva fünf``."""
    board = start.copy()
    lines = []
    for move in moves:
        number = f"{board.fullmove_number}." if board.turn == chess.WHITE else f"{board.fullmove_number}..."
        lines.append(f"{number} {announce(board, move, lang)}")
        board.push(move)
    return lines


def game_phrases(game: chess.pgn.Game, lang: str) -> list[str]:
    """One numbered announcement per move of a python-chess game."""
    return moves_phrases(game.board(), list(game.mainline_moves()), lang)


def _game_title(number: int, headers: dict[str, str], lang: str, ui_lang: str) -> str:
    players = " – ".join(h for h in (headers.get("White", "?"), headers.get("Black", "?")))
    return tr("phonetic.announce_game", lang, number=number, players=players)


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    ui_lang = default_lang()
    collected: list[str] | None = None
    if args.wav is not None:
        try:
            from ..adapters import render_phrases_wav  # optional: the speech engine may not be installed
        except ImportError as exc:
            raise UserError(tr("phonetic.announce_no_wav", ui_lang, error=exc)) from exc
        collected = []

    def emit(lines: list[str]) -> None:
        for line in lines:
            print(line)
        if collected is not None:
            collected.extend(lines)

    held: Game | None = None                  # the first game, until the second shows whether titles are needed
    count = 0
    for headers, start, moves in iter_read_games(Path(args.pgn), ui_lang):
        count += 1
        if count == 1:
            held = (headers, start, moves)
            continue
        if held is not None:
            emit([_game_title(1, held[0], lang, ui_lang), *moves_phrases(held[1], held[2], lang)])
            held = None
        emit([_game_title(count, headers, lang, ui_lang), *moves_phrases(start, moves, lang)])
    if count == 0:
        raise UserError(tr("phonetic.announce_no_game", ui_lang, path=args.pgn))
    if held is not None:
        emit(moves_phrases(held[1], held[2], lang))
    if collected is not None:
        path = render_phrases_wav(collected, args.wav, lang=lang)
        print(tr("phonetic.announce_wav_written", ui_lang, path=path))
    return 0

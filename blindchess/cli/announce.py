"""``blindchess announce GAME.pgn [--lang LANG] [--wav FILE.wav]``.

Prints the game's moves as they are announced at the board (FIDE Laws,
Appendix D.2.1), one numbered phrase per line::

    1. Eva vier
    1... Eva fünf
    2. Springer Felix drei

With ``--wav`` the same lines are spoken into one WAV file (a recording of the
game, D.2.7) by :func:`blindchess.speech.tts.render_phrases_wav`. A file that
holds no readable game is reported in the user's language (exit code 2).
The file may be PGN or a scoresheet in any notation (read with
:func:`blindchess.notation.read_score`) and may hold several games: each is
announced after a line naming it ("Partie 2: Anna – Bella").
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import chess
import chess.pgn

from ..errors import UserError
from ..i18n import default_lang, tr
from ..phonetic import LANGS, announce


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    spoken = lang if lang in LANGS else LANGS[0]
    parser = subparsers.add_parser("announce", help=tr("phonetic.announce_help", lang),
                                   description=tr("phonetic.announce_help", lang))
    parser.add_argument("pgn", metavar="GAME.pgn", help=tr("phonetic.announce_help_file", lang))
    parser.add_argument("--lang", choices=LANGS, default=spoken,
                        help=tr("phonetic.announce_help_lang", lang, langs=", ".join(LANGS), default=spoken))
    parser.add_argument("--wav", metavar="FILE.wav", type=Path, help=tr("phonetic.announce_help_wav", lang))
    parser.set_defaults(func=run)


def read_games(path: Path, lang: str) -> list[tuple[dict[str, str], chess.Board, list[chess.Move]]]:
    """Every game in the file: its PGN headers, start position and moves.

    A file may hold several PGN games; each is read with
    :func:`blindchess.notation.read_score`, so a scoresheet typed in any of the
    six notations (FIDE Laws Appendix C) is announced as well as PGN, and ``FEN`` /
    ``Variant`` headers set the start (Chess960 included). UserError (exit 2)
    when the file is missing, binary or holds no game, or when a move cannot be
    read (the message names the game, the move number and the side).
    """
    from ..notation import read_score, split_games
    from ..textfile import read_text

    if not path.exists() and not path.is_symlink():
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path,
                           error=tr("phonetic.announce_missing", lang))) from None
    if path.is_dir():
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path, error=tr("phonetic.announce_folder", lang)))
    text = read_text(path, lang)
    games = []
    for chunk in split_games(text):
        headers = chess.pgn.read_headers(io.StringIO(chunk))
        score = read_score(chunk, ui_lang=lang)
        if score.problems or score.truncated:
            number = len(games) + 1
            where = path if number == 1 else tr("phonetic.announce_game_in", lang, path=path, number=number)
            problem = score.problems[0].line(lang) if score.problems else tr("notation.cli_truncated", lang)
            raise UserError(tr("phonetic.announce_bad_pgn", lang, path=where, error=problem.rstrip(".")))
        if score.entries or headers:
            games.append((dict(headers or {}), score.start, list(score.moves)))
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
    node = game
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


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    ui_lang = default_lang()
    games = read_games(Path(args.pgn), ui_lang)
    lines: list[str] = []
    for number, (headers, start, moves) in enumerate(games, start=1):
        if len(games) > 1:
            players = " – ".join(h for h in (headers.get("White", "?"), headers.get("Black", "?")))
            lines.append(tr("phonetic.announce_game", lang if lang in ("de", "en") else ui_lang,
                            number=number, players=players))
        lines += moves_phrases(start, moves, lang)
    for line in lines:
        print(line)
    if args.wav is not None:
        try:
            from ..speech.tts import render_phrases_wav  # adapter; written in parallel
        except ImportError as exc:
            raise UserError(tr("phonetic.announce_no_wav", ui_lang, error=exc)) from exc
        path = render_phrases_wav(lines, args.wav, lang=lang)
        print(tr("phonetic.announce_wav_written", ui_lang, path=path))
    return 0

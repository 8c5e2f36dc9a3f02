"""``blindchess announce GAME.pgn [--lang LANG] [--wav FILE.wav]``.

Prints the game's moves as they are announced at the board (FIDE Laws,
Appendix D.2.1), one numbered phrase per line::

    1. Eva vier
    1... Eva fünf
    2. Springer Felix drei

With ``--wav`` the same lines are spoken into one WAV file (a recording of the
game, D.2.7) by :func:`blindchess.speech.tts.render_phrases_wav`. A file that
holds no readable game is reported in the user's language (exit code 2).
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
    parser.add_argument("pgn", metavar="GAME.pgn")
    parser.add_argument("--lang", choices=LANGS, default=spoken,
                        help=tr("phonetic.announce_help_lang", lang, langs=", ".join(LANGS), default=spoken))
    parser.add_argument("--wav", metavar="FILE.wav", type=Path, help=tr("phonetic.announce_help_wav", lang))
    parser.set_defaults(func=run)


class _QuietBuilder(chess.pgn.GameBuilder):
    """Collects parse errors in ``game.errors`` without logging them to stderr."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def read_game(path: Path, lang: str) -> chess.pgn.Game:
    """The first game of a PGN file; UserError when there is none or it has errors."""
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path, error=exc.strerror or exc)) from exc
    try:
        game = chess.pgn.read_game(io.StringIO(text), Visitor=_QuietBuilder)
    except (ValueError, RuntimeError) as exc:  # defensive: python-chess may raise on odd input
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path, error=exc)) from exc
    if game is None:
        raise UserError(tr("phonetic.announce_no_game", lang, path=path))
    if game.errors:
        raise UserError(tr("phonetic.announce_bad_pgn", lang, path=path, error=game.errors[0]))
    if game.next() is None and not text.lstrip().startswith("["):
        # no tag pairs and no move: text that is no game at all ("hello world")
        raise UserError(tr("phonetic.announce_no_game", lang, path=path))
    return game


def game_phrases(game: chess.pgn.Game, lang: str) -> list[str]:
    """One numbered announcement per move: ``1. Eva vier``, ``1... Eva fünf``."""
    board = game.board()
    lines = []
    for move in game.mainline_moves():
        number = f"{board.fullmove_number}." if board.turn == chess.WHITE else f"{board.fullmove_number}..."
        lines.append(f"{number} {announce(board, move, lang)}")
        board.push(move)
    return lines


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    ui_lang = default_lang()
    lines = game_phrases(read_game(Path(args.pgn), ui_lang), lang)
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

"""``blindchess chess960 [N] [--random [--seed S]] [--lang LANG] [--json] [--unicode]``.

Prints a Chess960 start position (FIDE Laws, Guidelines II): its number, FEN, a diagram, the
spoken description and how each castling is carried out. Without a number it shows
518, the normal start position.
"""

from __future__ import annotations

import argparse
import json

import chess

from ..base import UserError, default_lang, tr
from ..laws import NORMAL_START, castling_plan, check_number, describe, random_number, start_board
from .options import add_lang_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    parser = subparsers.add_parser("chess960", help=tr("tournament.cli_chess960_help", lang),
                                   description=tr("tournament.cli_chess960_help", lang))
    parser.add_argument("number", nargs="?", type=int, help=tr("tournament.cli_chess960_number", lang))
    parser.add_argument("--random", action="store_true", help=tr("tournament.cli_random", lang))
    parser.add_argument("--seed", help=tr("tournament.cli_seed", lang))
    add_lang_argument(parser, lang)
    parser.add_argument("--json", action="store_true", help=tr("tournament.cli_json", lang))
    parser.add_argument("--unicode", action="store_true", help=tr("tournament.cli_unicode", lang))
    parser.set_defaults(func=run)


def _castling(board: chess.Board, lang: str) -> list[dict]:
    out = []
    for color in (chess.WHITE, chess.BLACK):
        for side in ("king", "queen"):
            plan = castling_plan(board, color, side)
            if plan is not None:
                out.append({"color": "white" if color else "black", "notation": plan.notation,
                            "kind": plan.kind, "kind_text": tr(f"tournament.kind_{plan.kind}", lang),
                            "king": [chess.square_name(plan.king_from), chess.square_name(plan.king_to)],
                            "rook": [chess.square_name(plan.rook_from), chess.square_name(plan.rook_to)]})
    return out


def run(args: argparse.Namespace) -> int:
    lang = args.lang
    if args.number is not None and (args.random or args.seed is not None):
        raise UserError(tr("tournament.cli_number_or_random", lang, number=args.number))
    if args.random or args.seed is not None:
        number = random_number(args.seed)
    else:
        number = check_number(518 if args.number is None else args.number, lang)
    board = start_board(number)
    spoken = describe(number, lang)
    castling = _castling(board, lang)
    if args.json:
        print(json.dumps({"number": number, "fen": board.fen(), "spoken": spoken,
                          "normal_start": number == NORMAL_START,
                          "castling": castling}, ensure_ascii=False, indent=2))
        return 0
    print(tr("tournament.chess960_position", lang, number=number))
    print(f"{tr('tournament.cli_fen', lang)}: {board.fen()}")
    print()
    print(board.unicode(borders=True) if args.unicode else str(board))
    print()
    print(spoken)
    print()
    print(f"{tr('tournament.cli_castling', lang)}:")
    for c in castling:
        color = tr(f"tournament.{c['color']}", lang)
        king, rook = tr("tournament.letter_king", lang), tr("tournament.letter_rook", lang)
        print(f"  {color} {c['notation']}: {c['kind_text']} "
              f"({king} {c['king'][0]}-{c['king'][1]}, {rook} {c['rook'][0]}-{c['rook'][1]})")
    return 0

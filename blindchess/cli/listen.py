"""``blindchess listen --wav FILE.wav [--fen FEN] [--lang LANG] [--model PATH] [--json]``.

Recognises one announcement from a WAV file against a position, with the
position's grammar, and prints what the dialogue logic decides: the move it
would play, the question it would ask, or why it understood nothing. For users
checking their set-up and for tests. Exit code 0 when a move or command was
understood, 1 when the app would ask or understood nothing, 2 on a user error
(no model: the message names ``blindchess models install LANG``).
"""

from __future__ import annotations

import argparse
import json

import chess

from ..base import UserError, default_lang, regular_file, tr
from .options import add_lang_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    parser = subparsers.add_parser("listen", help=tr("speech.cli_listen_help", lang),
                                   description=tr("speech.cli_listen_help", lang))
    parser.add_argument("--wav", required=True, metavar="FILE.wav", help=tr("speech.cli_wav", lang))
    parser.add_argument("--fen", help=tr("speech.cli_fen", lang))
    add_lang_argument(parser, lang)
    parser.add_argument("--model", metavar="PATH", help=tr("speech.cli_model", lang))
    parser.add_argument("--json", action="store_true", help=tr("speech.cli_json", lang))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..adapters import Recognizer, VoiceInput, load_for_recognition, model_for
    from ..language import Dialogue

    ui = default_lang()
    lang = args.lang
    from ..language import fen_error_text, status_text

    try:
        board = chess.Board(args.fen, chess960=True) if args.fen else chess.Board()
    except ValueError as exc:
        raise UserError(tr("speech.bad_fen", ui, error=fen_error_text(exc, ui))) from exc
    if not board.has_chess960_castling_rights():
        board.chess960 = False
    if board.status() & ~chess.STATUS_BAD_CASTLING_RIGHTS:
        raise UserError(tr("speech.bad_fen", ui, error=status_text(board.status(), ui)))
    regular_file(args.wav, ui)   # never /dev/zero or a FIFO: they would be read without end
    pcm = load_for_recognition(args.wav, lang=ui)   # the user's file first: is it there at all?
    model_path = model_for(lang, args.model, ui)
    try:
        from ..language import announce
    except ImportError as exc:
        raise UserError(tr("speech.no_phonetic", ui, error=exc)) from exc
    recognizer = Recognizer(model_path, lang, ui_lang=ui)
    voice = VoiceInput(recognizer, Dialogue(lang), board)   # the position's grammar
    result = recognizer.recognise(pcm)
    decision = voice.heard(result)
    move = decision.move
    if args.json:
        print(json.dumps({
            "text": result["text"], "confidence": result["confidence"], "alternatives": result["alternatives"],
            "decision": decision.action, "speech": decision.speech,
            "move": move.uci() if move else None, "san": board.san(move) if move else None,
            "candidates": [m.uci() for m in decision.candidates],
            "kind": getattr(decision.understanding, "kind", None),
        }, ensure_ascii=False, indent=2))
    else:
        print(tr("speech.heard", ui, text=result["text"]) if result["text"] else tr("speech.heard_nothing", ui))
        if move is not None:
            print(tr("speech.understood_move", ui, move=announce(board, move, lang), san=board.san(move)))
        elif decision.action == "command":
            print(tr("speech.understood_other", ui, kind=getattr(decision.understanding, "kind", "?")))
        elif decision.speech:
            print(decision.speech)
    return 0 if decision.action in ("play", "command") else 1

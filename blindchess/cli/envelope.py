"""``blindchess envelope``: the sealed move and the envelope of an adjourned game (Guidelines I).

* ``envelope check TEXT --fen FEN [--spoken]`` — how the arbiter reads a sealed
  move in the position before it; exit code 1 when it would lose (point 8).
* ``envelope show (--journal FILE | --fen FEN --white NAME --black NAME
  --white-used T --black-used T) [--draw-offer COLOR] [--date D --time T --venue V]
  [--event E --round R] [--pdf OUT.pdf] [--json]`` — the envelope, fields (a)–(g),
  as text, JSON or a printable PDF. From a journal it is the last adjournment in
  it; the sealed move is never printed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import chess

from ..adapters import write_envelope_pdf
from ..base import (
    MAX_FULLMOVE,
    MAX_HALFMOVE_CLOCK,
    MAX_HEADER_CHARS,
    UserError,
    counters_ok,
    default_lang,
    in_quotes,
    os_error_text,
    regular_file,
    shown_path,
    tr,
)
from ..laws import Envelope, Resumption, board_from_fen, check_sealed_move, envelope_from_events, parse_duration
from ..storage import NotAJournal, read_journal
from .options import add_lang_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    parser = subparsers.add_parser("envelope", help=tr("tournament.cli_envelope_help", lang),
                                   description=tr("tournament.cli_envelope_help", lang))
    sub = parser.add_subparsers(dest="envelope_command", metavar="COMMAND", required=True)

    check = sub.add_parser("check", help=tr("tournament.cli_check_help", lang),
                           description=tr("tournament.cli_check_help", lang))
    check.add_argument("text", help=tr("tournament.cli_check_text", lang))
    check.add_argument("--fen", default=chess.STARTING_FEN, help=tr("tournament.cli_fen_help", lang))
    check.add_argument("--spoken", action="store_true", help=tr("tournament.cli_spoken", lang))
    add_lang_argument(check, lang)
    check.add_argument("--json", action="store_true", help=tr("tournament.cli_json", lang))
    check.set_defaults(func=run_check)

    show = sub.add_parser("show", help=tr("tournament.cli_show_help", lang),
                          description=tr("tournament.cli_show_help", lang))
    show.add_argument("--journal", type=Path, help=tr("tournament.cli_journal_help", lang))
    show.add_argument("--fen", help=tr("tournament.cli_fen_help", lang))
    show.add_argument("--white", default="", help=tr("tournament.cli_white_help", lang))
    show.add_argument("--black", default="", help=tr("tournament.cli_black_help", lang))
    show.add_argument("--white-used", default="0", help=tr("tournament.cli_used_help", lang))
    show.add_argument("--black-used", default="0", help=tr("tournament.cli_used_help", lang))
    show.add_argument("--draw-offer", choices=("white", "black"), help=tr("tournament.cli_draw_help", lang))
    show.add_argument("--date", default="", help=tr("tournament.cli_date_help", lang))
    show.add_argument("--time", default="", help=tr("tournament.cli_time_help", lang))
    show.add_argument("--venue", default="", help=tr("tournament.cli_venue_help", lang))
    show.add_argument("--event", default="", help=tr("tournament.cli_event_help", lang))
    show.add_argument("--round", default="", help=tr("tournament.cli_round_help", lang))
    show.add_argument("--pdf", type=Path, help=tr("tournament.cli_pdf_help", lang))
    add_lang_argument(show, lang)
    show.add_argument("--json", action="store_true", help=tr("tournament.cli_json", lang))
    show.set_defaults(func=run_show)


def _board(fen: str, lang: str) -> chess.Board:
    """The position of ``--fen``; refused when it is no position of a game (its move number included)."""
    try:
        board = board_from_fen(fen)
    except ValueError:
        raise UserError(tr("tournament.cli_bad_fen", lang, fen=_shown(fen))) from None
    if not counters_ok(board.halfmove_clock, board.fullmove_number):
        raise UserError(tr("bounds.move_number", lang, what=in_quotes(_shown(fen), lang), moves=MAX_FULLMOVE,
                           clock=MAX_HALFMOVE_CLOCK))
    return board


def _shown(text: str, limit: int = 100) -> str:
    """A user's value as a message shows it: whole when short, else its beginning."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _seconds(text: str, lang: str) -> float:
    """A time used (``--white-used``): seconds or h:mm:ss, from 0 to :data:`blindchess.base.bounds.MAX_SECONDS`."""
    try:
        return parse_duration(text)
    except ValueError:
        raise UserError(tr("tournament.cli_bad_time", lang, text=_shown(text, 40))) from None


def _fields(args: argparse.Namespace, lang: str) -> None:
    """The envelope's written fields are at most as long as a header value (:data:`blindchess.base.bounds.MAX_HEADER_CHARS`)."""
    for name in ("white", "black", "date", "time", "venue", "event", "round"):
        if len(getattr(args, name) or "") > MAX_HEADER_CHARS:
            raise UserError(tr("bounds.value", lang, what="--" + name, limit=MAX_HEADER_CHARS))


def run_check(args: argparse.Namespace) -> int:
    lang = args.lang
    check = check_sealed_move(_board(args.fen, lang), args.text, lang, spoken=args.spoken)
    if args.json:
        print(json.dumps({"written": check.written, "ok": check.ok, "problem": check.problem,
                          "point": check.point, "uci": check.move.uci() if check.move else None,
                          "candidates": [m.uci() for m in check.candidates],
                          "message": check.message(lang)}, ensure_ascii=False, indent=2))
    else:
        print(check.message(lang))
    return 0 if check.ok else 1


def _from_journal(path: Path, lang: str) -> Envelope:
    regular_file(path, lang)   # UserError: missing, a folder, a device, a refused name
    try:
        events = read_journal(path).events
    except NotAJournal:
        raise UserError(tr("session.journal_no_start", lang, path=shown_path(path))) from None
    except OSError as exc:
        raise UserError(tr("tournament.cli_no_journal", lang, path=shown_path(path),
                           error=os_error_text(exc, lang))) from None
    envelope = envelope_from_events(events)
    if envelope is None:
        raise UserError(tr("tournament.cli_no_adjournment", lang, path=path))
    return envelope


def run_show(args: argparse.Namespace) -> int:
    lang = args.lang
    if args.journal is not None:
        envelope = _from_journal(args.journal, lang)
    elif args.fen:
        _fields(args, lang)
        board = _board(args.fen, lang)
        offer = None if args.draw_offer is None else args.draw_offer == "white"
        envelope = Envelope(white=args.white, black=args.black, position=board.fen(),
                                white_used=_seconds(args.white_used, lang),
                                black_used=_seconds(args.black_used, lang), sealer=board.turn,
                                move_number=board.fullmove_number, draw_offer=offer,
                                resumption=Resumption(args.date, args.time, args.venue),
                                event=args.event, round=args.round)
    else:
        raise UserError(tr("tournament.cli_show_needs", lang))
    if args.json:
        print(json.dumps(envelope.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(envelope.text(lang))
    if args.pdf is not None:
        path = write_envelope_pdf(envelope, args.pdf, lang)   # UserError when not written: no "PDF written" then
        print(tr("tournament.cli_pdf_written", lang, path=path))
    return 0

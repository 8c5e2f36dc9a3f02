"""``blindchess reconcile``: the arbiter's ruling under D.2.9 from two scores and two boards.

::

    blindchess reconcile --sheet-a FILE --sheet-b FILE --board-a FEN --board-b FEN
                         [--start-fen FEN | --chess960 N] [--lang LANG] [--clock-log FILE] [--json]

Sheets are game scores in any supported notation (one file each; PGN movetext,
"1. e4 e5 2. Sf3", one move per line, spoken phrases per line). Boards are FEN;
the piece placement alone is accepted. ``--json`` prints
``boards_agree``, ``sheets_agree``, ``agreed_plies``, ``ruling`` ("none" |
"correct-board" | "retrace"), ``position_fen``, ``fix_boards``, ``squares``,
``disagreement``, ``shorter``, ``missing_plies``, ``explanation`` and, when a
clock log is given, ``clocks`` (``{"ply", "white", "black", "restore", "exact"}``,
remaining seconds). Without ``--json`` the ruling is printed in words.

Clock log (``--clock-log``), any of:

* text, one line per moment: ``PLY WHITE BLACK`` — the remaining times right
  after half-move PLY was completed (0 = the start), as seconds (``5400``,
  ``5371.5``) or ``h:mm:ss`` / ``m:ss``; ``#`` starts a comment;
* JSON: a list of ``{"ply": 3, "white": 5371.5, "black": 5400}`` (or an object
  with such a list under ``"clocks"``);
* a blindchess game journal (``*.jsonl``): its recorded clock times are used.

Bad input gives a clear message and exit code 2.
"""

from __future__ import annotations

import argparse
import json

import chess

from ..base import (
    MAX_FULLMOVE,
    MAX_HALFMOVE_CLOCK,
    MAX_JSON_DEPTH,
    MAX_PLIES,
    TooDeep,
    UserError,
    counters_ok,
    default_lang,
    in_quotes,
    loads,
    tr,
    within,
)
from ..laws import TimeControl, parse_board, parse_duration, rule
from .options import add_lang_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    p = subparsers.add_parser("reconcile", help=tr("session.cli_reconcile_help", lang),
                              description=tr("session.cli_reconcile_help", lang))
    p.add_argument("--sheet-a", required=True, metavar="FILE", help=tr("session.cli_sheet", lang, which="A"))
    p.add_argument("--sheet-b", required=True, metavar="FILE", help=tr("session.cli_sheet", lang, which="B"))
    p.add_argument("--board-a", required=True, metavar="FEN", help=tr("session.cli_board", lang, which="A"))
    p.add_argument("--board-b", required=True, metavar="FEN", help=tr("session.cli_board", lang, which="B"))
    p.add_argument("--start-fen", metavar="FEN", help=tr("session.cli_start_fen", lang))
    p.add_argument("--chess960", type=int, metavar="N", help=tr("session.cli_chess960", lang))
    add_lang_argument(p, lang)
    p.add_argument("--clock-log", metavar="FILE", help=tr("session.cli_clock_log", lang))
    p.add_argument("--json", action="store_true", help=tr("session.cli_json", lang))
    p.set_defaults(func=run)


def _read_text(path: str, lang: str) -> str:
    from ..base import read_text

    return read_text(path, lang)


#: What a board can show wrongly by its pieces alone: the side to move, castling and
#: en passant are not part of a board (a piece placement alone is accepted).
_PLACEMENT_FLAWS = (chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING | chess.STATUS_TOO_MANY_KINGS
                    | chess.STATUS_TOO_MANY_WHITE_PAWNS | chess.STATUS_TOO_MANY_BLACK_PAWNS
                    | chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_TOO_MANY_WHITE_PIECES
                    | chess.STATUS_TOO_MANY_BLACK_PIECES | chess.STATUS_EMPTY)


def _board(text: str, which: str, lang: str) -> chess.BaseBoard:
    """A board argument (FEN or piece placement alone), refused with the reason when impossible."""
    from ..language import fen_error_text, status_text

    try:
        board = parse_board(text)
    except ValueError as exc:
        raise UserError(tr("session.cli_bad_fen", lang, which=which, fen=text,
                           reason=fen_error_text(exc, lang))) from None
    if isinstance(board, int):     # pragma: no cover - parse_board gives ints only for int input
        raise UserError(tr("session.cli_bad_fen", lang, which=which, fen=text, reason=tr("notation.fen_not_fen", lang)))
    flaws = chess.Board(board.board_fen() + " w - - 0 1").status() & _PLACEMENT_FLAWS
    if flaws:
        raise UserError(tr("session.cli_impossible_board", lang, which=which, fen=text,
                           reason=status_text(flaws, lang)))
    return board


def start_position(start_fen: str | None, chess960: int | None, lang: str) -> chess.Board:
    """The start board from ``--start-fen`` / ``--chess960`` (Chess960 castling recognised)."""
    if chess960 is not None:
        if not 0 <= chess960 <= 959:
            raise UserError(tr("session.cli_bad_chess960", lang, number=chess960))
        return chess.Board.from_chess960_pos(chess960)
    if not start_fen:
        return chess.Board()
    from ..language import fen_error_text, status_text

    try:
        board = chess.Board(start_fen.strip(), chess960=True)
    except ValueError:
        try:
            board = chess.Board(chess.BaseBoard(start_fen.strip().split()[0]).board_fen() + " w - - 0 1")
        except (ValueError, IndexError) as exc:
            reason = fen_error_text(exc, lang) if isinstance(exc, ValueError) else tr("notation.fen_empty_text", lang)
            raise UserError(tr("session.cli_bad_start_fen", lang, fen=start_fen, reason=reason)) from None
    if not board.has_chess960_castling_rights():
        board.chess960 = False
    if not counters_ok(board.halfmove_clock, board.fullmove_number):
        raise UserError(tr("bounds.move_number", lang, what=in_quotes(start_fen.strip()[:100], lang), moves=MAX_FULLMOVE,
                           clock=MAX_HALFMOVE_CLOCK))
    flaws = board.status() & ~chess.STATUS_BAD_CASTLING_RIGHTS
    if flaws:
        raise UserError(tr("session.cli_impossible_start", lang, fen=start_fen, reason=status_text(flaws, lang)))
    return board


def read_clock_log(path: str, lang: str) -> list[tuple[int, float, float]]:
    """(ply, white, black) rows from a clock log in any of the documented forms.

    Bounded as every reader is (:mod:`blindchess.base.bounds`): at most one row per half-move of the
    longest game, times from 0 to :data:`~blindchess.base.bounds.MAX_SECONDS`, JSON at most
    :data:`~blindchess.base.bounds.MAX_JSON_DEPTH` deep. Raises :class:`UserError` (exit 2)."""
    text = _read_text(path, lang)
    stripped = text.strip()
    if not stripped:
        raise UserError(tr("session.cli_bad_clock_log", lang, path=path, line=1))
    if stripped.startswith("{") and "\n" in stripped and '"session-start"' in stripped.split("\n", 1)[0]:
        return _journal_rows(path, lang)
    if stripped[0] in "[{":
        try:
            data = loads(stripped)
        except TooDeep:
            raise UserError(tr("bounds.nested", lang, what=path, limit=MAX_JSON_DEPTH)) from None
        except ValueError:
            data = None
        try:
            if isinstance(data, dict):
                data = data.get("clocks", [])
            if not isinstance(data, list):
                raise ValueError("no list of clock times")
            _check_rows(len(data), path, lang)
            rows = []
            for item in data:
                w, b = item.get("white"), item.get("black")
                ply = item["ply"]
                if isinstance(ply, bool) or not isinstance(ply, (int, str)) or not 0 <= int(ply) <= MAX_PLIES:
                    raise ValueError(ply)
                rows.append((int(ply), _seconds(w), _seconds(b)))
            if not rows:
                raise ValueError("no clock times")   # e.g. {"a": 1}: a JSON file, but no clock log
            return sorted(rows)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            if stripped.startswith("{"):
                try:
                    return _journal_rows(path, lang)
                except UserError:
                    pass
            raise UserError(tr("session.cli_bad_clock_log", lang, path=path, line=1)) from exc
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        _check_rows(len(rows) + 1, path, lang)
        parts = line.replace(",", " ").replace(";", " ").split()
        try:
            if len(parts) != 3:
                raise ValueError(line)
            ply = int(parts[0])
            if not 0 <= ply <= MAX_PLIES:
                raise ValueError(line)
            rows.append((ply, parse_duration(parts[1]), parse_duration(parts[2])))
        except ValueError as exc:
            raise UserError(tr("session.cli_bad_clock_log", lang, path=path, line=number)) from exc
    if not rows:
        raise UserError(tr("session.cli_bad_clock_log", lang, path=path, line=1))
    return sorted(rows)


def _check_rows(count: int, path: str, lang: str) -> None:
    """A clock log has at most one row for the start and one for each half-move of the longest game."""
    if count > MAX_PLIES + 1:
        raise UserError(tr("bounds.plies", lang, what=path, limit=MAX_PLIES))


def _seconds(value: object) -> float:
    """A time of a JSON clock log: a number or a text as the text form writes it. ValueError otherwise."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return parse_duration(repr(float(value)))   # finite, not negative, within bounds, as in the text form
    if isinstance(value, str):
        return parse_duration(value)
    raise ValueError(value)


def _journal_rows(path: str, lang: str) -> list[tuple[int, float, float]]:
    """The clock times a game journal records (the reader's bounds apply: no line is trusted)."""
    from ..storage import read_journal
    try:
        read = read_journal(path)
    except OSError as exc:
        raise UserError(tr("session.cli_bad_clock_log", lang, path=path, line=1)) from exc
    rows: dict[int, tuple[float, float]] = {}
    for ev in read.events:
        kind = ev.get("type")
        try:
            if kind == "session-start":
                tc = TimeControl.parse(str(ev.get("time_control") or "-"))
                if tc is not None:
                    rows[0] = (tc.base_seconds, tc.base_seconds)
            elif kind == "clock" and ev.get("white") is not None and ev.get("black") is not None:
                ply = ev.get("ply")
                if not within(ply, 0, MAX_PLIES):
                    continue
                white, black = _seconds(ev["white"]), _seconds(ev["black"])
                for later in [p for p in rows if p >= ply]:
                    del rows[later]
                rows[ply] = (white, black)
            elif kind == "ruling" and ev.get("kind") == "retrace":
                moves = ev.get("moves", [])
                cut = len(moves) if isinstance(moves, list) else 0
                for later in [p for p in rows if p > cut]:
                    del rows[later]
        except ValueError:
            continue   # a line whose times are no times: the reader's damage report names such lines
    if not rows:
        raise UserError(tr("session.cli_bad_clock_log", lang, path=path, line=1))
    return sorted((p, w, b) for p, (w, b) in rows.items())


def _sheet(path: str, lang: str) -> str:
    """A score's text; one longer than any game is refused before it is read move by move."""
    text = _read_text(path, lang)
    words = sum(1 for word in text.split() if not word.rstrip(".…").isdigit())
    if words > 2 * MAX_PLIES:   # a half-move takes a word at least; comments may take more
        raise UserError(tr("bounds.plies", lang, what=path, limit=MAX_PLIES))
    return text


def run(args: argparse.Namespace) -> int:
    lang = (args.lang or default_lang())[:2]
    sheet_a = _sheet(args.sheet_a, lang)
    sheet_b = _sheet(args.sheet_b, lang)
    board_a = _board(args.board_a, "A", lang)
    board_b = _board(args.board_b, "B", lang)
    start = start_position(args.start_fen, args.chess960, lang)
    clocks = read_clock_log(args.clock_log, lang) if args.clock_log else None
    r = rule(sheet_a, sheet_b, board_a, board_b, start=start, clock_history=clocks, lang=lang)
    for plies, path in ((r.plies_a, args.sheet_a), (r.plies_b, args.sheet_b)):
        if plies > MAX_PLIES:
            raise UserError(tr("bounds.plies", lang, what=path, limit=MAX_PLIES))
    data = r.to_dict()
    if clocks is None:
        data.pop("clocks", None)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(r.explain(lang))
    print(tr("session.cli_position", lang, fen=r.position_fen))
    return 0

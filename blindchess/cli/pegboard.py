"""``blindchess pegboard simulate | replay`` — the tactile board without and with hardware logs.

``simulate [--pgn GAME.pgn] [--delay S]`` opens a virtual peg-board on a
pseudo-terminal, prints its port, and plays the game (or what is typed:
"e2 e4", "Nf3", "L e2", "P e4", "S").  With ``--pgn`` it first waits until a
program opens the port: on a pseudo-terminal nothing tells the device that
the other side was opened, so the sign is the host's first ``?`` or ``V``
request (the blindchess link sends ``V?`` on every connect); when run on a
terminal, Enter starts at once too.  Moves follow at a human pace (``--delay``
seconds between moves, default 1.5; within a move the hand's steps are shorter
than the settle time, as a real slide is).  ``?`` and ``V`` are answered at
any time.  After the game the port stays open until Ctrl-C (exit code 0, no
traceback).  For scripts and tests: ``--no-wait`` starts at once,
``--exit-at-end`` ends after the game, ``--delay 0`` plays without pauses.
Negative, not-a-number or absurd ``--delay``/``--settle`` values are refused.

``replay FILE [--fen FEN] [--chess960] [--json]`` runs a protocol log through
the tracker and prints its events in time order (see
:mod:`blindchess.adapters.devices.replay`).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import chess

from ..base import (
    UserError,
    data_dir,
    default_lang,
    is_missing,
    is_windows,
    os_error_text,
    read_bytes,
    regular_file,
    shown_path,
    tr,
)
from ..pegboard import DEFAULT_SETTLE, TrackerEvent

DEFAULT_DELAY = 1.5     # seconds between two moves of a simulated game: a human pace
MAX_DELAY = 600.0       # more than ten minutes between moves is a typing slip, not a pace
MAX_SETTLE = 10.0       # the tracker waits this long before judging; longer hides every move


def _check_seconds(value: float, option: str, maximum: float, lang: str) -> None:
    """Refuse negative, not-a-number and absurd durations (``--delay 0`` stays allowed, for tests)."""
    if not math.isfinite(value) or value < 0 or value > maximum:
        raise UserError(tr("pegboard.bad_seconds", lang, option=option, value=value, max=f"{maximum:g}"))


def register(subparsers) -> None:
    lang = default_lang()
    parser = subparsers.add_parser("pegboard", help=tr("pegboard.cli_help", lang),
                                   description=tr("pegboard.cli_help", lang))
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])
    sub = parser.add_subparsers(dest="pegboard_command", metavar="ACTION")

    sim = sub.add_parser("simulate", help=tr("pegboard.cli_simulate", lang), description=tr("pegboard.cli_simulate", lang))
    sim.add_argument("--pgn", metavar="GAME.pgn", help=tr("pegboard.cli_pgn", lang))
    sim.add_argument("--delay", type=float, default=DEFAULT_DELAY, metavar="S", help=tr("pegboard.cli_delay", lang))
    sim.add_argument("--seed", type=int, default=None, help=tr("pegboard.cli_seed", lang))
    sim.add_argument("--link", metavar="PATH", default=None, help=tr("pegboard.cli_link", lang))
    sim.add_argument("--settle", type=float, default=DEFAULT_SETTLE, metavar="S", help=tr("pegboard.cli_settle", lang))
    sim.add_argument("--no-wait", action="store_true", help=tr("pegboard.cli_no_wait", lang))
    sim.add_argument("--exit-at-end", action="store_true", help=tr("pegboard.cli_exit_at_end", lang))
    sim.add_argument("--no-checksums", action="store_true", help=tr("pegboard.cli_no_checksums", lang))
    sim.set_defaults(func=simulate)

    rep = sub.add_parser("replay", help=tr("pegboard.cli_replay", lang), description=tr("pegboard.cli_replay", lang))
    rep.add_argument("file", metavar="FILE", help=tr("pegboard.cli_file", lang))
    rep.add_argument("--fen", default=None, help=tr("pegboard.cli_fen", lang))
    rep.add_argument("--chess960", action="store_true", help=tr("pegboard.cli_chess960", lang))
    rep.add_argument("--json", action="store_true", help=tr("pegboard.cli_json", lang))
    rep.add_argument("--settle", type=float, default=DEFAULT_SETTLE, metavar="S", help=tr("pegboard.cli_settle", lang))
    rep.set_defaults(func=replay)


# -- replay ------------------------------------------------------------------------

def _read(path: str, lang: str) -> bytes:
    """The log's bytes; UserError for a missing file, a folder, a device, a FIFO or a refused name."""
    if is_missing(path):
        raise UserError(tr("pegboard.file_missing", lang, path=shown_path(path)))
    return read_bytes(path, lang)


def _start_board(fen: str | None, chess960: bool, lang: str) -> chess.Board:
    if fen is None:
        return chess.Board(chess960=chess960)
    try:
        board = chess.Board(fen, chess960=chess960)
    except ValueError:
        raise UserError(tr("pegboard.bad_fen", lang, fen=fen)) from None
    if not board.is_valid() and board.status() & ~chess.STATUS_BAD_CASTLING_RIGHTS:
        raise UserError(tr("pegboard.bad_fen", lang, fen=fen))
    return board


def _local_san(san: str | None, lang: str) -> str | None:
    """English SAN with the piece letters of the user's language (Nf3 -> Sf3; FIDE Laws, Appendix C)."""
    if not san:
        return san
    from ..base import NOTATION_LANGS
    from ..language import piece_letter

    lang = lang if lang in NOTATION_LANGS else "en"
    letters = {chess.piece_symbol(p).upper(): piece_letter(p, lang) for p in chess.PIECE_TYPES}
    return "".join(letters.get(c, c) if c != "O" else c for c in san)


def describe(item, lang: str) -> str:
    """One event or note as a line of text in the user's language."""
    from ..adapters import LogNote

    time_text = f"{item.time:9.3f}s"
    if isinstance(item, LogNote):
        if item.type == "protocol-error":
            kind = tr(f"pegboard.kind_{item.kind}", lang)
            kind = item.kind if kind == f"pegboard.kind_{item.kind}" else kind
            return tr("pegboard.note_protocol_error", lang, time=time_text, line=item.line, kind=kind, text=item.text)
        if item.type == "announcement":
            if item.move is None:
                return tr("pegboard.note_announcement_unknown", lang, time=time_text, text=item.text)
            return tr("pegboard.note_announcement", lang, time=time_text, text=item.text, uci=item.move.uci())
        if item.type == "comment":
            return f"{time_text}  # {item.text}"
        return tr("pegboard.note_ident", lang, time=time_text, text=item.text)
    e: TrackerEvent = item
    names = lambda squares: ", ".join(chess.square_name(s) for s in squares)  # noqa: E731
    if e.type == "touched" and e.piece is not None and e.square is not None:
        key = "pegboard.ev_touched_own" if e.own else "pegboard.ev_touched_opp"
        symbol = chess.piece_symbol(e.piece.piece_type)
        return tr(key, lang, time=time_text, square=chess.square_name(e.square),
                  piece=tr(f"pegboard.piece_{symbol}", lang),
                  color=tr("pegboard.white" if e.piece.color else "pegboard.black", lang),
                  colored=tr(f"pegboard.{'white' if e.piece.color else 'black'}_{symbol}", lang))
    if e.type == "move" and e.move is not None:
        if e.promotion_pending:
            return tr("pegboard.ev_move_pending", lang, time=time_text, uci=e.move.uci())
        if e.replaces is not None:
            return tr("pegboard.ev_move_replaces", lang, time=time_text, san=_local_san(e.san, lang), uci=e.move.uci(), old=e.replaces.uci())
        if e.candidates or not e.certain:
            return tr("pegboard.ev_move_uncertain", lang, time=time_text, san=_local_san(e.san, lang), uci=e.move.uci(),
                      others=", ".join(m.uci() for m in e.candidates) or "-")
        return tr("pegboard.ev_move", lang, time=time_text, san=_local_san(e.san, lang), uci=e.move.uci())
    if e.type == "takeback" and e.move is not None:
        return tr("pegboard.ev_takeback", lang, time=time_text, san=_local_san(e.san, lang) or e.move.uci(), uci=e.move.uci())
    if e.type == "mismatch":
        extra = ""
        if e.expected is not None:
            extra += tr("pegboard.ev_mismatch_expected", lang, expected=e.expected.uci())
        if e.move is not None:
            extra += tr("pegboard.ev_mismatch_made", lang, made=e.move.uci())
        if e.wrong_pieces:
            extra += tr("pegboard.ev_mismatch_pieces", lang, squares=names(e.wrong_pieces))
        return tr("pegboard.ev_mismatch", lang, time=time_text, squares=names(e.squares), extra=extra)
    if e.type == "in-sync":
        return tr("pegboard.ev_in_sync", lang, time=time_text)
    if e.type == "inconsistent" and e.square is not None:
        return tr("pegboard.ev_inconsistent", lang, time=time_text, square=chess.square_name(e.square))
    return f"{time_text}  {e.type}"


def replay(args: argparse.Namespace) -> int:
    from ..adapters import LogError
    from ..adapters import replay as run

    lang = default_lang()
    _check_seconds(args.settle, "--settle", MAX_SETTLE, lang)
    data = _read(args.file, lang)
    board = _start_board(args.fen, args.chess960, lang)
    try:
        items = run(data, board, settle=args.settle, lang=lang)
    except LogError as exc:
        raise UserError(tr(f"pegboard.file_{exc.kind}", lang, path=args.file)) from None
    out = sys.stdout
    for item in items:
        if args.json:
            out.write(json.dumps(item.to_dict(), ensure_ascii=False) + "\n")
        else:
            out.write(describe(item, lang) + "\n")
    out.flush()
    return 0


# -- simulate ----------------------------------------------------------------------

def _load_game(path: str, lang: str) -> tuple[chess.Board, list[chess.Move]]:
    """The first game of a file: PGN (FEN/Variant headers too) or a scoresheet in any notation."""
    from .announce import read_games

    if is_missing(path):
        raise UserError(tr("pegboard.pgn_missing", lang, path=shown_path(path)))
    regular_file(path, lang)
    _headers, start, moves = read_games(Path(path), lang)[0]
    return start, moves


def _keyboard(sim, board: chess.Board, rng: random.Random, settle: float, lang: str) -> None:
    from ..pegboard import plan_move

    print(tr("pegboard.sim_help", lang), flush=True)
    for raw in sys.stdin:
        text = raw.strip()
        if not text:
            continue
        if text.lower() in ("q", "quit", "exit"):
            return
        words = text.replace("-", " ").split()
        try:
            if words[0].upper() in ("L", "P") and len(words) == 2:
                square = chess.parse_square(words[1].lower())
                (sim.lift if words[0].upper() == "L" else sim.place)(square)
                continue
            if words[0].upper() == "S" and len(words) == 1:
                sim.snapshot()
                continue
            move = None
            if len(words) == 2:
                move = chess.Move(chess.parse_square(words[0].lower()), chess.parse_square(words[1].lower()))
                if not board.is_legal(move):
                    promoted = chess.Move(move.from_square, move.to_square, chess.QUEEN)
                    move = promoted if board.is_legal(promoted) else move
            else:
                try:
                    move = chess.Move.from_uci(words[0].lower())
                except ValueError:
                    move = None
                if move is None or not board.is_legal(move):
                    from ..language import read

                    reading = read(board, text)
                    if not reading.ok:
                        move = None if reading.problem == "unreadable" else chess.Move.null()
                        if move is None:
                            raise ValueError(text)
                    else:
                        move = reading.move
        except ValueError:
            print(tr("pegboard.sim_bad_input", lang, text=text), flush=True)
            continue
        if move is None or not board.is_legal(move):
            print(tr("pegboard.sim_illegal", lang, text=text), flush=True)
            continue
        print(tr("pegboard.sim_move", lang, san=_local_san(board.san(move), lang)), flush=True)
        sim.perform(plan_move(board, move, rng, settle=settle))
        board.push(move)


def _wait_for_host(sim, lang: str) -> None:
    """Until the host's first ``?``/``V`` (the blindchess link sends them on connect) or Enter on a terminal."""
    import select

    interactive = sys.stdin is not None and sys.stdin.isatty()
    print(tr("pegboard.sim_waiting_tty" if interactive else "pegboard.sim_waiting", lang), flush=True)
    while not sim.wait_for_host(0.1):
        if interactive:
            ready, _, _ = select.select([sys.stdin], [], [], 0)
            if ready:
                sys.stdin.readline()
                return
    print(tr("pegboard.sim_host_seen", lang), flush=True)


def _stay_open(sim, lang: str) -> None:
    """Keep the port open (answering ``?`` and ``V``) until Ctrl-C."""
    print(tr("pegboard.sim_stay_open", lang), flush=True)
    while True:
        time.sleep(0.5)


def simulate(args: argparse.Namespace) -> int:
    lang = default_lang()
    if is_windows():   # a pseudo-terminal is the simulator's port: POSIX only
        raise UserError(tr("pegboard.sim_posix_only", lang))
    _check_seconds(args.settle, "--settle", MAX_SETTLE, lang)
    _check_seconds(args.delay, "--delay", MAX_DELAY, lang)
    from ..adapters import VirtualPegboard

    start, moves = _load_game(args.pgn, lang) if args.pgn else (chess.Board(), [])
    link = Path(args.link) if args.link else data_dir() / "pegboard-simulator"
    try:
        link.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(tr("pegboard.file_unreadable", lang, path=link.parent, error=os_error_text(exc, lang))) from None
    rng = random.Random(args.seed)
    sim = VirtualPegboard(start, link=link, checksums=not args.no_checksums)
    try:
        sim.open()
    except FileExistsError:
        raise UserError(tr("pegboard.sim_link_taken", lang, link=link)) from None
    except OSError as exc:

        raise UserError(tr("pegboard.sim_link_failed", lang, link=link, error=os_error_text(exc, lang))) from None
    restore = _unplug_on_termination()
    try:
        print(tr("pegboard.sim_port", lang, port=sim.device), flush=True)
        print(tr("pegboard.sim_link", lang, link=link), flush=True)
        if args.pgn:
            if not args.no_wait:
                _wait_for_host(sim, lang)
            sim.play(start, moves, rng=rng, delay=args.delay, settle=args.settle,
                     on_move=lambda b, m: print(tr("pegboard.sim_move", lang, san=_local_san(b.san(m), lang)),
                                               flush=True))
            time.sleep(max(1.0, 3 * args.settle))   # let the host see the last move settle
            print(tr("pegboard.sim_game_done", lang), flush=True)
            if not args.exit_at_end:
                _stay_open(sim, lang)
        else:
            _keyboard(sim, start.copy(), rng, args.settle, lang)
    except KeyboardInterrupt:
        # Ctrl-C is the normal way to unplug the simulator: no traceback, exit 0
        print(tr("pegboard.sim_closed", lang), flush=True)
    finally:
        sim.close()
        sim.remove_link()
        restore()
    return 0


def _unplug_on_termination() -> Callable[[], None]:
    """SIGTERM and SIGHUP (``kill``, a closed terminal) unplug the simulator as Ctrl-C does: the port
    closes and the link is removed. Returns the function that puts the old handlers back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None   # signal handlers can only be set in the main thread

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    old = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            old[number] = signal.signal(number, interrupt)

    def restore() -> None:
        for number, handler in old.items():
            signal.signal(number, handler)
    return restore

"""``blindchess journal list | show FILE [--json]``: game journals for the arbiter.

``list`` shows every journal in the user data folder (newest first: file,
players, half-moves made, result or "unfinished", the half-moves damage affects);
a file named ``*.jsonl`` that is no usable journal (a pipe, junk, a field of the
wrong kind) is named and skipped. ``show FILE`` reopens the game from its journal
and prints every event with its time and message, then both boards, both scores
and the clocks; what is damaged is named on stderr with the half-moves it
affects, the rest is recovered, and the exit code is 1. ``--json`` prints the
events as JSON (with ``problems``, ``affected_plies``, ``whole`` and ``moves``, the game
as recovered from the good lines, in UCI).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import chess

from ..adapters import journal_messages, journal_notes
from ..base import UserError, default_lang, journal_dir, os_error_text, tr
from ..game import JOURNAL_PROBLEM, BoardName, ScoreName, Session, from_json
from ..laws import format_time
from ..storage import NotAJournal, format_plies, list_journals, read_journal, verdict
from .options import add_lang_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    p = subparsers.add_parser("journal", help=tr("session.cli_journal_help", lang, folder=journal_dir()),
                              description=tr("session.cli_journal_help", lang, folder=journal_dir()))
    sub = p.add_subparsers(dest="journal_command", metavar="list|show")
    ls = sub.add_parser("list", help=tr("session.cli_journal_list", lang),
                        description=tr("session.cli_journal_list", lang))
    ls.add_argument("--json", action="store_true", help=tr("session.cli_json", lang))
    ls.set_defaults(func=run_list)
    show = sub.add_parser("show", help=tr("session.cli_journal_show", lang),
                          description=tr("session.cli_journal_show", lang))
    show.add_argument("file", help=tr("session.cli_journal_file", lang))
    show.add_argument("--json", action="store_true", help=tr("session.cli_json", lang))
    add_lang_argument(show, lang)
    show.set_defaults(func=run_show)
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])


def run_list(args: argparse.Namespace) -> int:
    """Every journal, newest first; a file that is no usable journal is named and skipped (exit 0)."""
    lang = default_lang()
    infos = list_journals()
    if args.json:
        print(json.dumps([{"path": str(i.path), "white": i.white, "black": i.black, "plies": i.plies,
                           "result": i.result, "finished": i.finished, "damaged": i.damaged,
                           "affected_plies": i.affected, "checked": i.checked, "error": i.error,
                           "journal": i.start_event is not None} for i in infos],
                         ensure_ascii=False, indent=2))
        return 0
    if not infos:
        print(tr("session.cli_no_journals", lang, folder=journal_dir()))
        return 0
    for i in infos:
        if i.error in (None, "no-start") and i.start_event is None:   # empty or foreign: no game in it
            print(tr("session.cli_not_a_journal_line", lang, file=i.path.name))
            continue
        if i.error is not None or i.start_event is None:   # a FIFO, junk, a bad field: named, skipped
            why = tr("filecheck.skip_" + (i.error or "no-start").replace("-", "_"), lang)
            print(tr("filecheck.list_skipped", lang, file=i.path.name, why=why))
            continue
        state = i.result if i.finished else tr("session.cli_unfinished", lang)
        notes = ""
        if i.damaged or i.affected:
            notes = " " + (tr("filecheck.list_damaged", lang, plies=format_plies(i.affected)) if i.affected
                           else tr("filecheck.list_damaged_between", lang))
        elif not i.checked:
            notes = " " + tr("filecheck.list_unchecked", lang)
        print(tr("session.cli_journal_line", lang, file=i.path.name, white=i.white, black=i.black,
                 plies=i.plies, state=state) + notes)
    return 0


def _resolve(name: str, lang: str) -> Path:
    path = Path(name)
    if not path.exists() and not path.is_absolute():
        candidate = journal_dir() / name
        if candidate.exists():
            path = candidate
    if path.is_dir():
        raise UserError(tr("session.cli_no_file", lang, path=name, error=tr("session.cli_is_folder", lang)))
    if path.exists() and not path.is_file():      # a device, a pipe, a socket: never read
        raise UserError(tr("session.cli_no_file", lang, path=name, error=tr("files.not_regular", lang)))
    if not path.is_file():
        raise UserError(tr("session.cli_no_file", lang, path=name, error=tr("session.cli_missing", lang)))
    return path


def run_show(args: argparse.Namespace) -> int:
    """Print the journal event by event and the game rebuilt from it; exit 1 when it is damaged
    (the problems and the half-moves they affect are named on stderr)."""
    lang = (args.lang or default_lang())[:2]
    path = _resolve(args.file, lang)
    # Read-only, once, as a stream: the game is rebuilt in memory; nothing is appended to the file.
    try:
        read = read_journal(path)
    except NotAJournal as exc:       # refused from its first lines: the rest is never read
        raise UserError(tr("session.journal_no_start", lang, path=args.file)) from exc
    except OSError as exc:
        raise UserError(tr("session.cli_no_file", lang, path=args.file, error=os_error_text(exc, lang))) from exc
    session = Session.load(path, read=read)
    result = verdict(read, [m.uci() for m in session.snapshot.game_moves], session.snapshot.journal_problems)
    damage = journal_messages(result, path, lang)
    if args.json:
        print(json.dumps({"events": _public(read.events), "damaged_lines": [n for n, _ in result.problems],
                          "problems": [{"line": n, "reason": why} for n, why in result.problems],
                          "affected_plies": result.plies, "recorded_plies": result.recorded,
                          "replayed_plies": result.replayed, "checked": result.checked, "whole": result.whole,
                          "moves": [m.uci() for m in session.snapshot.game_moves]},
                         ensure_ascii=False, indent=2))
        return 0 if result.whole else 1
    for line in damage:
        print(line, file=sys.stderr)
    for line in journal_notes(result, path, lang):
        print(line)
    if not result.checked:
        print(tr("filecheck.journal_unchecked", lang, path=path), file=sys.stderr)
    t0 = read.events[0].get("t", 0.0) if read.events else 0.0
    for ev in read.events:
        stamp = format_time(float(ev.get("t", t0)) - t0)
        detail = ev.get("message") or _detail(ev)
        print(f"{ev.get('seq', '?'):>5} {stamp:>8}  {ev.get('type', '?'):<20} {detail}")
    print()
    boards: tuple[BoardName, ...] = ("sighted", "tactile")
    for name in boards:
        print(f"{_cap(tr('session.board_' + name, lang))}: {session.board(name).fen()}")
    scores: tuple[ScoreName, ...] = ("sighted", "blind")
    for who in scores:
        print(f"{_cap(tr('session.score_' + who, lang))}: {' '.join(session.snapshot.score(who))}")
    now = session.snapshot.last_time
    print(tr("session.cli_clocks", lang, white=format_time(session.clock.remaining(chess.WHITE, now)),
             black=format_time(session.clock.remaining(chess.BLACK, now))))
    if session.snapshot.result:
        print(tr("session.cli_result", lang, result=session.snapshot.result))
    return 0 if result.whole else 1


def _public(events: list[dict]) -> list[dict]:
    """Journal lines as anyone may see them: a sealed move stays hidden until its envelope is opened
    (Guidelines I; the arbiter opens it with ``blindchess envelope``)."""
    opened = {e.get("sealed_seq") for e in events if e.get("type") == "envelope-opened"}
    out = []
    for ev in events:
        if ev.get("type") == "sealed-move" and "hidden" in ev and ev.get("seq") not in opened:
            ev = {**{k: v for k, v in ev.items() if k != "hidden"}, "sealed": True}
        out.append(ev)
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _detail(ev: dict) -> str:
    """The line's facts and the FIDE article the rules engine names for its event ("" when none)."""
    keys = ("board", "uci", "text", "who", "color", "square", "piece", "kind", "result", "ply")
    detail = " ".join(f"{k}={ev[k]}" for k in keys if ev.get(k) is not None)
    try:
        event = from_json(ev)
    except JOURNAL_PROBLEM:
        event = None       # a line this version cannot read as an event: its facts only
    article = event.article if event is not None else ""
    return f"{detail} ({article})" if article else detail

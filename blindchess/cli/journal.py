"""``blindchess journal list | show FILE [--json]``: game journals for the arbiter.

``list`` shows every journal in the user data folder (newest first: file,
players, half-moves made, result or "unfinished", damaged lines).
``show FILE`` reopens the game from its journal and prints every event with its
time and message, then both boards, both scores and the clocks; damaged lines
are reported, the rest is recovered. ``--json`` prints the events as JSON.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import chess

from .. import paths
from ..clock import format_time
from ..errors import UserError
from ..i18n import UI_LANGS, default_lang, tr


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    p = subparsers.add_parser("journal", help=tr("session.cli_journal_help", lang, folder=paths.journal_dir()),
                              description=tr("session.cli_journal_help", lang, folder=paths.journal_dir()))
    sub = p.add_subparsers(dest="journal_command", metavar="list|show")
    ls = sub.add_parser("list", help=tr("session.cli_journal_list", lang),
                        description=tr("session.cli_journal_list", lang))
    ls.add_argument("--json", action="store_true", help=tr("session.cli_json", lang))
    ls.set_defaults(func=run_list)
    show = sub.add_parser("show", help=tr("session.cli_journal_show", lang),
                          description=tr("session.cli_journal_show", lang))
    show.add_argument("file", help=tr("session.cli_journal_file", lang))
    show.add_argument("--json", action="store_true", help=tr("session.cli_json", lang))
    show.add_argument("--lang", default=lang, choices=UI_LANGS, help=tr("session.cli_lang", lang))
    show.set_defaults(func=run_show)
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])


def run_list(args: argparse.Namespace) -> int:
    from ..journal import list_journals
    lang = default_lang()
    infos = list_journals()
    if args.json:
        print(json.dumps([{"path": str(i.path), "white": i.white, "black": i.black, "plies": i.plies,
                           "result": i.result, "finished": i.finished, "damaged": i.damaged,
                           "journal": i.start_event is not None} for i in infos],
                         ensure_ascii=False, indent=2))
        return 0
    if not infos:
        print(tr("session.cli_no_journals", lang, folder=paths.journal_dir()))
        return 0
    for i in infos:
        if i.start_event is None:   # a file named *.jsonl that holds no game (empty, foreign, junk)
            print(tr("session.cli_not_a_journal_line", lang, file=i.path.name))
            continue
        state = i.result if i.finished else tr("session.cli_unfinished", lang)
        damaged = " " + tr("session.cli_damaged", lang) if i.damaged else ""
        print(tr("session.cli_journal_line", lang, file=i.path.name, white=i.white, black=i.black,
                 plies=i.plies, state=state) + damaged)
    return 0


def _resolve(name: str, lang: str) -> Path:
    path = Path(name)
    if not path.exists() and not path.is_absolute():
        candidate = paths.journal_dir() / name
        if candidate.exists():
            path = candidate
    if path.is_dir():
        raise UserError(tr("session.cli_no_file", lang, path=name, error=tr("session.cli_is_folder", lang)))
    if not path.is_file():
        raise UserError(tr("session.cli_no_file", lang, path=name, error=tr("session.cli_missing", lang)))
    return path


def run_show(args: argparse.Namespace) -> int:
    from ..session import Session
    lang = (args.lang or default_lang())[:2]
    path = _resolve(args.file, lang)
    # Read-only: the game is rebuilt in memory; nothing is appended to the file.
    from ..journal import read_journal
    read = read_journal(path)
    session = Session.load(path)
    if args.json:
        print(json.dumps({"events": _public(read.events), "damaged_lines": [n for n, _ in session.journal_problems]},
                         ensure_ascii=False, indent=2))
        return 0
    for n, why in session.journal_problems:
        print(tr("session.cli_damaged_line", lang, line=n, why=tr(f"session.cli_{why}", lang)))
    t0 = read.events[0].get("t", 0.0) if read.events else 0.0
    replayed = {e.get("seq"): e.get("message") for e in session.events}
    for ev in read.events:
        stamp = format_time(float(ev.get("t", t0)) - t0)
        detail = ev.get("message") or replayed.get(ev.get("seq")) or _detail(ev)
        print(f"{ev.get('seq', '?'):>5} {stamp:>8}  {ev.get('type', '?'):<20} {detail}")
    print()
    for name in ("sighted", "tactile"):
        print(f"{_cap(tr('session.board_' + name, lang))}: {session.board(name).fen()}")
    for who in ("sighted", "blind"):
        print(f"{_cap(tr('session.score_' + who, lang))}: {' '.join(session.score(who))}")
    now = session.last_time
    print(tr("session.cli_clocks", lang, white=format_time(session.clock.remaining(chess.WHITE, now)),
             black=format_time(session.clock.remaining(chess.BLACK, now))))
    if session.result:
        print(tr("session.cli_result", lang, result=session.result))
    return 0


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
    keys = ("board", "uci", "text", "who", "color", "square", "piece", "kind", "result", "ply")
    return " ".join(f"{k}={ev[k]}" for k in keys if ev.get(k) is not None)

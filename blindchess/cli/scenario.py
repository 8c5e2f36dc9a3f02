"""``blindchess scenario run FILE [--json] [--journal FILE [--resume]]``: a game at the table, played headless.

Plays a scenario script (the format: :mod:`blindchess.scenario.parser`)
through the table the app runs, on the script's clock. Without ``--json`` it
prints a readable log in the user's language; with ``--json`` one JSON object a
line in time order, the last of type ``final``. Without ``--journal`` the
journal goes to a temporary folder that is removed afterwards; with
``--journal FILE`` it is kept (a game record ``blindchess export`` and the app
open). With ``--resume`` the journal holds a game cut off by a crash: it is opened as
the app opens it after a restart, the script's lines up to its last time are
skipped and the rest played. A bad script: one line naming the line number on
stderr, exit 2, nothing written. Exit 0 when the script ran.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from .. import scenario
from ..base import UserError, default_lang, tr


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``scenario run`` to the ``blindchess`` command."""
    lang = default_lang()
    parser = subparsers.add_parser("scenario", help=tr("scenario.help", lang), description=tr("scenario.help", lang))
    verbs = parser.add_subparsers(dest="scenario_command", metavar="COMMAND")
    run_parser = verbs.add_parser("run", help=tr("scenario.help_run", lang), description=tr("scenario.help_run", lang))
    run_parser.add_argument("file", metavar="FILE", help=tr("scenario.help_file", lang))
    run_parser.add_argument("--json", action="store_true", help=tr("scenario.help_json", lang))
    run_parser.add_argument("--journal", metavar="FILE", help=tr("scenario.help_journal", lang))
    run_parser.add_argument("--resume", action="store_true", help=tr("scenario.help_resume", lang))
    run_parser.set_defaults(func=run)
    parser.set_defaults(func=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _journal_target(path: str, lang: str) -> Path:
    """The journal file to keep: new, in an existing folder. Raises :class:`UserError`."""
    target = Path(path)
    if target.is_dir():
        raise UserError(tr("scenario.journal_is_dir", lang, file=target))
    if target.exists() and target.stat().st_size > 0:
        raise UserError(tr("scenario.journal_exists", lang, file=target))
    if not target.parent.is_dir():
        raise UserError(tr("scenario.journal_no_folder", lang, folder=target.parent))
    return target


def _journal_to_resume(path: str | None, lang: str) -> Path:
    """The journal ``--resume`` continues: an existing game record. Raises :class:`UserError`."""
    if path is None:
        raise UserError(tr("scenario.resume_needs_journal", lang))
    target = Path(path)
    if not target.is_file():      # an empty one is a game killed before its first line: it is begun again
        raise UserError(tr("scenario.resume_no_journal", lang, file=target))
    return target


def execute(file: str, *, as_json: bool, journal: str | None, lang: str, resume: bool = False) -> list[str]:
    """The output lines of ``scenario run``; raises :class:`UserError` (exit 2) for a bad script or journal."""
    script = scenario.read_script(Path(file), lang)
    if resume:
        ordered = scenario.play(script, scenario.HeadlessFront(), _journal_to_resume(journal, lang), resume=True)
    elif journal:
        ordered = scenario.play(script, scenario.HeadlessFront(), _journal_target(journal, lang))
    else:
        folder = Path(tempfile.mkdtemp(prefix="blindchess-scenario-"))
        try:
            ordered = scenario.play(script, scenario.HeadlessFront(), folder / "game.jsonl")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    if as_json:
        return [json.dumps(data, ensure_ascii=False) for data in ordered]
    lines = [tr("scenario.log_title", lang, file=file, white=script.setup.white, black=script.setup.black)]
    for data in ordered:
        lines += scenario.format_event(data, lang)
    return lines


def run(args: argparse.Namespace) -> int:
    """``scenario run``: 0 when the script ran, 2 (:class:`UserError`) for a bad script."""
    lang = default_lang()
    for line in execute(args.file, as_json=args.json, journal=args.journal, lang=lang, resume=args.resume):
        sys.stdout.write(line + "\n")
    return 0

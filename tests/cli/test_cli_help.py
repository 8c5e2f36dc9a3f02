"""Every command's ``--help`` explains every argument, in the user's language."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from blindchess.cli import build_parser


def walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, path + (name,))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_subcommand_and_argument_has_a_help_text(lang, monkeypatch):
    # "models install LANG", "announce GAME.pgn" had no help; "journal list", "envelope check" no description
    monkeypatch.setenv("BLINDCHESS_LANG", lang)
    missing = []
    for path, parser in walk(build_parser(lang)):
        if path and path != ("app",) and not parser.description:
            missing.append(" ".join(path) + ": description")
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
                continue
            if path and path[0] == "app":
                continue   # the app engineer's parser
            if not action.help:
                missing.append(" ".join(path) + ": " + (action.option_strings or [action.dest])[0])
    assert missing == []


def test_help_loads_no_qt_and_the_ui_never_loads_the_cli():
    """cli -> ui only (the cycle cli <-> ui is gone); ``--help`` stays fast and works without Qt."""
    code = ("import sys\n"
            "from blindchess.cli import build_parser\n"
            "build_parser('de')\n"
            "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('PySide6')}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    code = "import sys, blindchess.ui.app, blindchess.adapters.exports.envelope_pdf; print([m for m in sys.modules if m.startswith('blindchess.cli')])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"

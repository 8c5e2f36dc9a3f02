"""``blindchess models list | install LANG [--from FILE.zip] [--sha256 HEX] | remove LANG``.

Manages the vosk speech recognition models (see :mod:`blindchess.adapters.speech.models`):
downloads with a progress bar on stderr, checks the SHA-256, extracts safely,
installs atomically, within the catalogue's size figures and an overall deadline.
Every ``models`` command first removes staging folders an installation that was
killed left behind. ``remove`` accepts only a model name of the catalogue (exit 2
otherwise: ``.``, ``..`` and paths are refused).
"""

from __future__ import annotations

import argparse
import os
import sys

from ..base import default_lang, tr


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    parser = subparsers.add_parser("models", help=tr("speech.cli_models_help", lang),
                                   description=tr("speech.cli_models_help", lang))
    sub = parser.add_subparsers(dest="models_command", metavar="list|install|remove")
    p_list = sub.add_parser("list", help=tr("speech.cli_models_list", lang),
                            description=tr("speech.cli_models_list", lang))
    p_list.set_defaults(func=run_list)
    p_install = sub.add_parser("install", help=tr("speech.cli_models_install", lang),
                               description=tr("speech.cli_models_install", lang))
    p_install.add_argument("lang", metavar="LANG", help=tr("speech.cli_model_lang", lang))
    p_install.add_argument("--from", dest="source", metavar="FILE.zip", help=tr("speech.cli_from", lang))
    p_install.add_argument("--sha256", help=tr("speech.cli_sha256", lang))
    p_install.set_defaults(func=run_install)
    p_remove = sub.add_parser("remove", help=tr("speech.cli_models_remove", lang),
                              description=tr("speech.cli_models_remove", lang))
    p_remove.add_argument("lang", metavar="LANG", help=tr("speech.cli_model_lang", lang))
    p_remove.set_defaults(func=run_remove)
    parser.set_defaults(func=run_list)


def run_list(args: argparse.Namespace) -> int:
    from ..adapters import ENV_MODEL, clean_stale, configured_problem, status

    clean_stale()
    ui = default_lang()
    print(tr("speech.models_header", ui))
    for info, path in status():
        state = tr("speech.model_installed", ui, path=path) if path else tr("speech.model_not_installed", ui)
        print(f"{info.lang:<8} {info.name:<31} {state}")
    env = os.environ.get(ENV_MODEL)
    if env:
        print(tr("speech.model_env", ui, path=env))
        problem = configured_problem(None, ui, ui)
        if problem is not None:
            print(problem)
    return 0


class _ProgressBar:
    """A one-line progress bar on stderr."""

    def __init__(self, ui: str | None) -> None:
        self.ui = ui
        self.shown = -1
        self.open = False       # a bar is on the line: a message after it starts a line of its own

    def end(self) -> None:
        """End the bar's line (before a message, when the download stopped part-way)."""
        if self.open:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.open = False

    def __call__(self, done: int, total: int | None) -> None:
        if total:
            percent = int(done * 100 / total)
            if percent == self.shown and done != total:
                return
            self.shown = percent
            bar = "#" * (percent // 4) + "." * (25 - percent // 4)
            text = tr("speech.download_progress", self.ui, done=f"{done / 1e6:.1f}", total=f"{total / 1e6:.1f}")
            line = f"\r[{bar}] {percent:3d}%  {text}"
        else:
            line = f"\r{done / 1e6:.1f} MB"
        sys.stderr.write(line)
        self.open = True
        if total and done >= total:
            sys.stderr.write("\n")
            self.open = False
        sys.stderr.flush()


def run_install(args: argparse.Namespace) -> int:
    from ..adapters import clean_stale, info_for, install, model_url

    clean_stale()   # a staging folder left by an installation that was killed
    ui = default_lang()
    info = info_for(args.lang, ui)
    if not args.source:
        print(tr("speech.downloading", ui, name=info.name, url=model_url(info)), file=sys.stderr)
    bar = _ProgressBar(ui)
    try:
        result = install(args.lang, source=args.source, progress=bar, expected_sha256=args.sha256, ui_lang=ui)
    finally:
        bar.end()       # an error's one line stands on a line of its own, not after the bar
    if not result.verified:
        print(tr("speech.checksum_unknown", ui, name=result.name, sha256=result.sha256), file=sys.stderr)
    print(tr("speech.installed", ui, name=result.name, lang=result.lang, path=result.path))
    return 0


def run_remove(args: argparse.Namespace) -> int:
    from ..adapters import clean_stale, remove

    clean_stale()
    ui = default_lang()
    if remove(args.lang, ui_lang=ui):
        print(tr("speech.removed", ui, lang=args.lang))
        return 0
    print(tr("speech.not_installed", ui, lang=args.lang), file=sys.stderr)
    return 1

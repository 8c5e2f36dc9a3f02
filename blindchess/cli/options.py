"""Options every command shares: ``--lang`` (one meaning everywhere) and one-line usage errors."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..base import UI_LANGS, tr
from ..base import ArgumentParser as Parser

__all__ = ["Parser", "add_lang_argument", "lang_from_argv"]


def lang_from_argv(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` / ``--lang=X`` taken out of ``argv`` (before a ``--``): (the last X or None, the rest).

    The value is returned as given; the caller checks it (:data:`blindchess.base.i18n.UI_LANGS`).
    """
    rest: list[str] = []
    lang: str | None = None
    items = list(argv)
    i = 0
    while i < len(items):
        item = items[i]
        if item == "--":
            rest += items[i:]
            break
        if item == "--lang" and i + 1 < len(items):
            lang = items[i + 1]
            i += 2
            continue
        if item.startswith("--lang="):
            lang = item.partition("=")[2]
            i += 1
            continue
        rest.append(item)
        i += 1
    return lang, rest


def add_lang_argument(parser: argparse.ArgumentParser, lang: str) -> None:
    """``--lang``: the language the program speaks and writes (one meaning in every command)."""
    parser.add_argument("--lang", default=lang, choices=UI_LANGS, help=tr("cli.lang", lang))

"""Singular or plural of a counted message — chosen by data, not by "(s)" or "(e)".

A message that contains a count has two keys in the locale files, ``<key>_one``
(for exactly one, often with the word "one" written out) and ``<key>`` (every
other count). :func:`plural` picks one. Where a language has more forms than
two — Russian: 1 минута, 2 минуты, 5 минут, 21 минута — the ``<key>`` entry of
its catalogue is a table of CLDR plural forms, and :func:`blindchess.i18n.tr`
picks the form by Babel's CLDR plural rules for that language:

    minutes = { one = "{n} минута", few = "{n} минуты", many = "{n} минут", other = "{n} минуты" }

    plural(3, "notation.half_moves_one", "notation.half_moves", "de")   # "3 Halbzüge"
    plural(5, "notation.half_moves_one", "notation.half_moves", "ru")   # "5 полуходов"
"""

from __future__ import annotations

from typing import Any

from .i18n import plural_category, tr

__all__ = ["is_one", "plural", "plural_category"]


def is_one(n: float | str) -> bool:
    """True when ``n`` is exactly one (also "1" and 1.0, as counts are sometimes formatted)."""
    try:
        return float(n) == 1.0
    except (TypeError, ValueError):
        return False


def plural(n: float | str, one_key: str, other_key: str, lang: str | None = None, **params: Any) -> str:
    """``tr(one_key)`` when ``n`` is exactly one, else ``tr(other_key)`` in the plural form of ``n``.

    ``n`` is passed as ``{n}`` too; it chooses among the plural forms of ``other_key`` (CLDR rules).
    """
    params.setdefault("n", n)
    return tr(one_key if is_one(n) else other_key, lang, **params)

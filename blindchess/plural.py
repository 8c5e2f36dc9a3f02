"""Singular or plural of a counted message — chosen by data, not by "(s)" or "(e)".

German and English use the singular for exactly one and the plural for every
other count (0, 2, 1.5 …).  A message that contains a count has two keys in the
locale files, ``<key>_one`` and ``<key>`` (or any two keys given explicitly);
:func:`plural` picks one.  Languages with more forms (Russian) fall back to
these two through :func:`blindchess.i18n.tr` until they get their own rule.

    plural(3, "notation.half_moves_one", "notation.half_moves", "de")   # "3 Halbzüge"
"""

from __future__ import annotations

from typing import Any

from .i18n import tr

__all__ = ["is_one", "plural"]


def is_one(n: float | str) -> bool:
    """True when ``n`` is exactly one (also "1" and 1.0, as counts are sometimes formatted)."""
    try:
        return float(n) == 1.0
    except (TypeError, ValueError):
        return False


def plural(n: float | str, one_key: str, other_key: str, lang: str | None = None, **params: Any) -> str:
    """``tr(one_key)`` when ``n`` is one, else ``tr(other_key)``; ``n`` is passed as ``{n}`` too."""
    params.setdefault("n", n)
    return tr(one_key if is_one(n) else other_key, lang, **params)

"""The texts of :mod:`blindchess.table.lookups` (``locale/lookups.<lang>.toml``)."""

from __future__ import annotations

from ..i18n import tr

__all__ = ["t"]


def t(key: str, lang: str, /, **params: object) -> str:
    """The lookup text ``key`` in ``lang``."""
    return tr(f"lookups.{key}", lang, **params)

"""The app's own words: ``t("key")`` is ``i18n.tr("ui.key")``.

All user-visible text of the window comes from ``locale/ui.<lang>.toml`` (German,
English, Dutch and Russian) and, for what the window says and how it is heard
(verbosity, "where am I", the arbiter's confirmations), ``locale/listening.<lang>.toml``; moves, squares and rulings are worded by the core
modules (notation, phonetic, ruling) in the game's language.
"""

from __future__ import annotations

from ..base import UI_LANGS, tr

__all__ = ["UI_LANGS", "h", "t"]


def t(key: str, lang: str | None = None, /, **params: object) -> str:
    """The interface text ``key`` in ``lang``."""
    return tr(f"ui.{key}", lang, **params)


def h(key: str, lang: str | None = None, /, **params: object) -> str:
    """A text of what the window says and how it is heard (``locale/listening.<lang>.toml``)."""
    return tr(f"listening.{key}", lang, **params)

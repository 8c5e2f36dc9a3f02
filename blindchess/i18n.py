"""User-facing messages in the user's language, as data.

Catalogues are TOML files ``blindchess/locale/<domain>.<lang>.toml``; a key is
``"<domain>.<name>"``. Values are ``str.format`` templates. A missing
translation falls back to English, then to German, then to the key itself, so a
message is never lost.
"""

from __future__ import annotations

import functools
import os
import tomllib

from . import DEFAULT_LANG
from .resources import locale_dir

UI_LANGS = ("de", "en")


def default_lang() -> str:
    """The language from ``BLINDCHESS_LANG``, else German."""
    lang = os.environ.get("BLINDCHESS_LANG", DEFAULT_LANG).strip().lower()[:2]
    return lang or DEFAULT_LANG


@functools.cache
def catalogue(domain: str, lang: str) -> dict[str, str]:
    """The messages of one domain in one language (empty when there is none)."""
    path = locale_dir() / f"{domain}.{lang}.toml"
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)}


def tr(key: str, lang: str | None = None, /, **params: object) -> str:
    """The message ``key`` ("domain.name") in ``lang``, filled with ``params``."""
    domain, _, name = key.partition(".")
    lang = (lang or default_lang())[:2]
    for candidate in (lang, "en", "de"):
        template = catalogue(domain, candidate).get(name)
        if template is not None:
            try:
                return template.format(**params)
            except (KeyError, IndexError, ValueError):
                return template
    return key

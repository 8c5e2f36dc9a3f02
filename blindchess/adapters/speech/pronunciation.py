"""Pronunciation fixes per language, read from ``voices/<lang>.pronunciation.toml``.

Speech engines mispronounce some words of the chess phonetic alphabet (FIDE
Laws, Appendix D.2.1): espeak-ng reads "Cäsar" like Latin and stresses "David"
on the second syllable. The fixes are data, one file per language, so a
maintainer can correct a word without touching code. ``[words]`` holds plain
respellings for every engine; ``[espeak]`` exact phonemes in espeak's ``[[...]]``
notation, used only when espeak-ng speaks.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field

from ...base import voices_dir

#: espeak-ng voices for languages without a pronunciation file.
_DEFAULT_ESPEAK_VOICES = {"en": "en-gb", "de": "de", "fr": "fr", "it": "it", "nl": "nl", "ru": "ru"}


@dataclass(frozen=True)
class Pronunciation:
    """The fixes for one language."""

    lang: str
    espeak_voice: str
    language: str
    words: dict[str, str] = field(default_factory=dict)
    espeak: dict[str, str] = field(default_factory=dict)
    expect: dict[str, str] = field(default_factory=dict)

    def apply(self, text: str, *, espeak: bool = False) -> str:
        """``text`` with every listed word replaced (espeak phonemes when ``espeak``)."""
        table = dict(self.words)
        if espeak:
            table.update(self.espeak)
        return _replace(text, table)


def _replace(text: str, table: dict[str, str]) -> str:
    if not table:
        return text
    lookup = {k.casefold(): v for k, v in table.items()}
    keys = sorted(table, key=len, reverse=True)  # longest first: "en passant" before "en"
    pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(k) for k in keys) + r")(?!\w)", re.IGNORECASE)
    return pattern.sub(lambda m: lookup[m.group(0).casefold()], text)


@functools.cache
def load(lang: str) -> Pronunciation:
    """The fixes for ``lang`` (none, with a sensible voice, when there is no file or it is broken)."""
    lang = (lang or "de")[:2].lower()
    data: dict = {}
    try:
        with (voices_dir() / f"{lang}.pronunciation.toml").open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        data = {}
    engine = data.get("engine", {}) if isinstance(data.get("engine"), dict) else {}

    def table(name: str) -> dict[str, str]:
        raw = data.get(name, {})
        return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    return Pronunciation(
        lang=lang,
        espeak_voice=str(engine.get("espeak") or _DEFAULT_ESPEAK_VOICES.get(lang, lang)),
        language=str(engine.get("language") or lang),
        words=table("words"),
        espeak=table("espeak"),
        expect=table("expect"),
    )

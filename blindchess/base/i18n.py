"""User-facing messages in the user's language, as data.

Catalogues are TOML files ``blindchess/base/locale/<domain>.<lang>.toml``; a key is
``"<domain>.<name>"``. Values are ``str.format`` templates. A message with a
count may instead be a table of plural forms named by the CLDR plural
categories of its language (``one``, ``few``, ``many``, ``other``; Russian has
all four, German, English and Dutch only ``one`` and ``other``)::

    minutes = { one = "{n} минута", few = "{n} минуты", many = "{n} минут", other = "{n} минуты" }

The form is chosen by Babel's CLDR plural rules from the parameter named by the
table's ``count`` entry, else ``n``, else the only whole-number parameter. A
missing translation falls back to English, then to German, then to the key
itself, so a message is never lost.

The language is chosen once (:func:`default_lang`): a language set for this
process (:func:`use_lang`, from ``--lang``), else ``BLINDCHESS_LANG``, else the
system's language (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` on POSIX;
the user's interface language on Windows and macOS), else English — also for the
"C" locale and for a language blindchess does not speak.
"""

from __future__ import annotations

import argparse
import functools
import locale
import os
import sys
import tomllib
from collections.abc import Mapping
from typing import Any, NoReturn

from babel import Locale, UnknownLocaleError

from .resources import locale_dir

#: Languages whose notation letters blindchess reads and writes (FIDE Laws, Appendix C).
NOTATION_LANGS = ("de", "en", "fr", "it", "nl", "ru")
#: The language when neither ``--lang``, ``BLINDCHESS_LANG``, the saved setting nor the system
#: names one of de, en, nl, ru: a "C" locale or a French system gets English, the language most
#: users of another language read.
DEFAULT_LANG = "en"

#: Languages the program speaks and writes: every message exists in each of them.
UI_LANGS = ("de", "en", "nl", "ru")

#: Each language named in its own language (the language choosers show these).
LANG_NAMES = {"de": "Deutsch", "en": "English", "nl": "Nederlands", "ru": "Русский"}

#: The CLDR plural categories a catalogue's plural table may use.
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")

_chosen: str | None = None

Message = str | dict[str, str]


def supported(lang: str | None) -> str | None:
    """``lang``'s two-letter code when it is one of :data:`UI_LANGS` ("nl_BE.UTF-8" → "nl"), else None."""
    if not lang:
        return None
    code = lang.strip().lower().replace("-", "_").split("_")[0].split(".")[0].split("@")[0]
    return code if code in UI_LANGS else None


def use_lang(lang: str | None) -> None:
    """Make ``lang`` the language of this process (None: back to the environment's).

    Raises ValueError for a language that is not one of :data:`UI_LANGS`.
    """
    global _chosen
    if lang is not None and supported(lang) is None:
        raise ValueError(lang)
    _chosen = supported(lang)


def system_lang() -> str | None:
    """The user's language as the system gives it, when blindchess speaks it; else None.

    POSIX: the first of ``LANGUAGE`` (a list, "nl:en"), ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG`` that is set, as gettext reads them ("C" and "POSIX" name no
    language). Windows: the user's interface language. macOS: the system locale.
    """
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if not value:
            continue
        if name != "LANGUAGE" and value.split(".")[0] in ("C", "POSIX"):
            return None
        for part in value.split(":"):
            found = supported(part)
            if found:
                return found
        if name != "LANGUAGE":
            return None
    if sys.platform == "win32":
        return _windows_ui_lang()
    if sys.platform == "darwin":
        return supported(locale.getlocale()[0] or "")
    return None


def _windows_ui_lang() -> str | None:
    """The Windows user's interface language (GetUserDefaultUILanguage)."""
    import ctypes

    windll = getattr(ctypes, "windll", None)
    if windll is None:
        return None
    langid = int(windll.kernel32.GetUserDefaultUILanguage())
    return supported(locale.windows_locale.get(langid, ""))


def default_lang() -> str:
    """The language chosen for this process, else ``BLINDCHESS_LANG``, else the system's, else English.

    A ``BLINDCHESS_LANG`` that names no language of the program ("fr") is passed over.
    """
    if _chosen:
        return _chosen
    return supported(os.environ.get("BLINDCHESS_LANG", "")) or system_lang() or DEFAULT_LANG


@functools.cache
def catalogue(domain: str, lang: str) -> dict[str, Message]:
    """The messages of one domain in one language (empty when there is none).

    A value is a template, or a table of plural forms (see the module's docstring).
    """
    path = locale_dir() / f"{domain}.{lang}.toml"
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    messages: dict[str, Message] = {}
    for key, value in data.items():
        if isinstance(value, str):
            messages[key] = value
        elif isinstance(value, dict) and isinstance(value.get("other"), str):
            messages[key] = {k: v for k, v in value.items() if isinstance(v, str)}
    return messages


@functools.cache
def _locale(lang: str) -> Locale | None:
    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return None


def plural_category(n: float | int | str, lang: str) -> str:
    """The CLDR plural category of the count ``n`` in ``lang`` ("one", "few", "many", "other" …).

    ``n`` may be a number or a number written as text ("1", "1.5"); anything else is "other".
    """
    try:
        number = float(n) if isinstance(n, str) else n
    except ValueError:
        return "other"
    found = _locale(lang[:2])
    if found is None or isinstance(number, bool):
        return "other"
    if isinstance(number, float) and number.is_integer() and not (isinstance(n, str) and "." in n):
        number = int(number)
    return str(found.plural_form(abs(number)))


def _count_of(forms: Mapping[str, str], params: Mapping[str, object]) -> object:
    named = forms.get("count")
    if named is not None:
        return params.get(named)
    if "n" in params:
        return params["n"]
    counts = [v for v in params.values() if isinstance(v, int | float) and not isinstance(v, bool)]
    return counts[0] if len(counts) == 1 else None


def _template(message: Message, lang: str, params: Mapping[str, object]) -> str:
    if isinstance(message, str):
        return message
    count = _count_of(message, params)
    category = plural_category(count, lang) if isinstance(count, int | float | str) else "other"
    return message.get(category) or message["other"]


def lookup(key: str, lang: str) -> Message | None:
    """The raw message ``key`` in exactly ``lang`` (no fallback), or None."""
    domain, _, name = key.partition(".")
    return catalogue(domain, lang[:2]).get(name)


def tr(key: str, lang: str | None = None, /, **params: object) -> str:
    """The message ``key`` ("domain.name") in ``lang``, filled with ``params``.

    Never raises: a key missing in ``lang`` falls back to English, then German, then
    the key itself; a template whose parameters do not fit is returned unfilled.
    """
    domain, _, name = key.partition(".")
    lang = (lang or default_lang())[:2]
    for candidate in (lang, "en", "de"):
        message = catalogue(domain, candidate).get(name)
        if message is not None:
            template = _template(message, candidate, params)
            try:
                return template.format(**params)
            except (KeyError, IndexError, ValueError):
                return template
    return key


def quoted(source: str, text: object, lang: str | None = None, /) -> str:
    """Another program's own words (PortAudio's, vosk's, the operating system's) for a sentence of ours.

    They are never mixed into the user's language: named by their source and set in the language's
    quotation marks ("PortAudio: «Error querying device -1»"). An exception without a text is named
    by its type.
    """
    words = str(text).strip() or (type(text).__name__ if isinstance(text, BaseException) else "")
    return tr("files.quoted", lang, source=source, text=words)


def in_quotes(text: object, lang: str | None = None, /) -> str:
    """``text`` in the quotation marks of ``lang`` („…“, “…”, ‘…’, «…»)."""
    return tr("files.in_quotes", lang, text=text)


def trn(key: str, n: float | int | str, lang: str | None = None, /, **params: Any) -> str:
    """``tr(key)`` for the count ``n`` (passed as ``{n}`` too), in the plural form of ``lang``."""
    params.setdefault("n", n)
    return tr(key, lang, **params)


def chosen_lang() -> str | None:
    """The language set for this process by :func:`use_lang` (``--lang``), else None."""
    return _chosen


def argparse_text(message: str, lang: str | None = None) -> str:
    """argparse's own words ("usage: ", "positional arguments", "invalid choice …") in ``lang``.

    argparse asks gettext for them by their English text; the catalogue
    ``argparse.<lang>.toml`` is keyed by that text. An unknown text stays English.
    """
    found = catalogue("argparse", (lang or default_lang())[:2]).get(message)
    return _template(found, (lang or default_lang())[:2], {}) if found is not None else message


def argparse_ntext(singular: str, plural: str, n: int, lang: str | None = None) -> str:
    """argparse's counted words (``expected %s arguments``) in ``lang``'s plural form for ``n``."""
    code = (lang or default_lang())[:2]
    found = catalogue("argparse", code).get(singular)
    if isinstance(found, dict):
        return found.get(plural_category(n, code)) or found["other"]
    if found is not None:
        return found
    return singular if n == 1 else plural


def translate_argparse() -> None:
    """Let argparse speak the process's language (:func:`default_lang`, looked up at each use).

    argparse takes its words from the two gettext functions it imported
    (``from gettext import gettext as _, ngettext``); these are pointed at the
    ``argparse`` catalogues. Idempotent.
    """
    argparse._ = argparse_text  # type: ignore[attr-defined]
    argparse.ngettext = argparse_ntext  # type: ignore[attr-defined]


def _metavar(name: str, lang: str) -> str:
    """A placeholder of the usage ("FILE", "N", "GAME.pgn") in ``lang``; an unknown one (a list of commands) as it is."""
    found = catalogue("argparse", lang).get(name)
    return found if isinstance(found, str) else name


class _NamedNumber:
    """``int`` or ``float`` as an option's type, named in the user's language in argparse's
    "invalid %(type)s value" (argparse names the type by its ``__name__``)."""

    def __init__(self, kind: type[int] | type[float], name: str) -> None:
        self.kind = kind
        self.__name__ = name

    def __call__(self, text: str) -> int | float:
        return self.kind(text)


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser in the user's language whose usage errors are one line, exit code 2.

    Everything argparse says is in the process's language (:func:`default_lang` when the parser is
    used): its own words (:func:`translate_argparse`), ``--version``'s help, and the placeholders of
    the usage ("FILE" is "DATEI", "BESTAND", "ФАЙЛ"), looked up by their English name in the
    ``argparse`` catalogue — also the placeholders argparse makes from an option's name (``--fen``:
    "FEN"). Placeholders made of choices ("{de,en,nl,ru}") and command names stay as typed.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        translate_argparse()
        super().__init__(*args, **kwargs)
        self._metavars_in: str | None = None

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """As argparse's; ``action="version"`` gets its help in the user's language (Python 3.11 has none)."""
        if kwargs.get("action") == "version" and "help" not in kwargs:
            kwargs["help"] = argparse_text("show program's version number and exit")
        return super().add_argument(*args, **kwargs)

    def _translate_metavars(self) -> None:
        lang = default_lang()[:2]
        if self._metavars_in == lang:
            return
        self._metavars_in = lang
        for action in self._actions:
            if action.type in (int, float) or isinstance(action.type, _NamedNumber):
                number = action.type.kind if isinstance(action.type, _NamedNumber) else action.type
                action.type = _NamedNumber(number, _metavar(number.__name__, lang))   # "invalid int value" in words
            original = getattr(action, "_english_metavar", None)
            if original is None:
                if action.nargs == 0 or isinstance(action, argparse._HelpAction | argparse._VersionAction):
                    continue
                if action.metavar is None and action.choices is not None:
                    continue                                    # shown as its choices: {de,en,nl,ru}
                original = action.metavar if action.metavar is not None else action.dest.upper()
                action._english_metavar = original  # type: ignore[attr-defined]
            if isinstance(original, tuple):
                action.metavar = tuple(_metavar(name, lang) for name in original)
            else:
                action.metavar = _metavar(str(original), lang)

    def format_usage(self) -> str:
        self._translate_metavars()
        return super().format_usage()

    def format_help(self) -> str:
        self._translate_metavars()
        return super().format_help()

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._translate_metavars()       # the placeholders an error names ("the following arguments are required: DATEI")
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` in one line (no usage block) and exit with code 2."""
        self.exit(2, argparse_text("%(prog)s: error: %(message)s\n") % {"prog": self.prog, "message": message})


# ---------------------------------------------------------------- singular or plural of a counted message
# Singular or plural of a counted message — chosen by data, not by "(s)" or "(e)".
#
# A message that contains a count has two keys in the locale files, ``<key>_one``
# (for exactly one, often with the word "one" written out) and ``<key>`` (every
# other count). :func:`plural` picks one. Where a language has more forms than
# two — Russian: 1 минута, 2 минуты, 5 минут, 21 минута — the ``<key>`` entry of
# its catalogue is a table of CLDR plural forms, and :func:`tr`
# picks the form by Babel's CLDR plural rules for that language:
#
#     minutes = { one = "{n} минута", few = "{n} минуты", many = "{n} минут", other = "{n} минуты" }
#
#     plural(3, "notation.half_moves_one", "notation.half_moves", "de")   # "3 Halbzüge"
#     plural(5, "notation.half_moves_one", "notation.half_moves", "ru")   # "5 полуходов"


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

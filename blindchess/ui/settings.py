"""Settings that survive a restart: language, voice, rate, model, port, board profile, theme, font scale,
spoken clock warnings, the speech channel, earcons, the live broadcast of the game (off by default), how much
the blind player hears (verbosity) and whether the keyboard stays in the move line after the opponent's move.

Stored with QSettings in an INI file inside the user data folder
(``paths.data_dir()/settings.ini``), so a portable install and every test
(``BLINDCHESS_HOME``) get their own, and the file can be read and edited by hand.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from dataclasses import field as dataclass_field
from typing import Any

from PySide6.QtCore import QLocale, QSettings

from ..base import DEFAULT_LANG, UI_LANGS, data_dir, supported, system_lang
from ..language import WORDINGS
from ..table import VERBOSITIES
from . import theme

#: Where speech goes (``Settings.speech_channel``; see :mod:`blindchess.ui.voice`): the user's screen reader when
#: one runs and the program's voice otherwise ("auto"), the program's voice, the user's own screen reader, or both
#: without duplicates.
CHANNELS = ("auto", "app", "screenreader", "both")


def system_ui_lang() -> str:
    """The user's language as the system gives it (locale variables, else Qt's interface languages), else English."""
    found = system_lang()
    if found:
        return found
    for name in QLocale.system().uiLanguages():
        found = supported(name)
        if found:
            return found
    return DEFAULT_LANG


@dataclass
class Settings:
    lang: str = dataclass_field(default_factory=system_ui_lang)   # the language in use (not saved: derived)
    language: str = ""          # the language the user chose in the settings; "" = the system's, followed
    voice: str = ""             # pyttsx3/espeak voice id; "" = the language's default
    rate: int = 0               # words per minute; 0 = engine default
    model: str = ""             # vosk model folder; "" = found by language
    port: str = ""              # serial port of the tactile board; "" = none
    board_profile: str = ""     # boards/<profile>.toml; "simulator" = the virtual board
    theme: str = "normal"       # theme.CHOICES: "normal" (follows the system) | "light" | "dark" | "high-contrast"
    font_scale: float = 1.0     # 0.8 … 3.0
    spoken_clock_warnings: bool = False  # low-time warnings spoken; off: only on request (D.2.10 d)
    last_journal: str = ""      # the journal of the game open when the app was closed
    speech_channel: str = "auto"  # one of CHANNELS
    earcons: bool = True        # short sounds for move, capture, check, question, error
    wording: str = "phonetic"   # squares and moves: board_words.WORDINGS ("phonetic" | "nato" | "san"); Ctrl+W
    broadcast: bool = False     # the game broadcast live on http://127.0.0.1:<broadcast_port>/ (blindchess.broadcast)
    broadcast_port: int = 8765
    verbosity: str = "normal"   # how much the blind player hears: table.speech.VERBOSITIES ("brief" | "normal" | "full")
    keep_line_focus: bool = True  # after the opponent's move the keyboard stays in (or comes back to) the move line

    @classmethod
    def load(cls) -> Settings:
        store = _store()
        values: dict[str, Any] = {}
        for field in fields(cls):
            raw = store.value(field.name)
            if raw is None:
                continue
            try:
                values[field.name] = _cast(field.default, raw)
            except (TypeError, ValueError):
                continue  # a hand-edited bad value falls back to the default
        if "language" not in values and "lang" in values:
            values["language"] = values["lang"]      # a settings file of an earlier version: its language chosen
        values.pop("lang", None)
        settings = cls(**values)
        settings.font_scale = min(3.0, max(0.8, settings.font_scale))
        if settings.theme not in theme.CHOICES:
            settings.theme = "normal"
        if settings.speech_channel not in CHANNELS:
            settings.speech_channel = "auto"
        if settings.language not in UI_LANGS:
            settings.language = ""
        settings.lang = settings.language or system_ui_lang()
        if settings.wording not in WORDINGS:
            settings.wording = "phonetic"
        if not 1 <= settings.broadcast_port <= 65535:
            settings.broadcast_port = 8765
        if settings.verbosity not in VERBOSITIES:
            settings.verbosity = "normal"
        return settings

    def save(self) -> None:
        """Write every setting; the language only as chosen (none chosen: the system's is followed)."""
        store = _store()
        for key, value in asdict(self).items():
            if key != "lang":
                store.setValue(key, value)
        store.remove("lang")
        store.sync()


def _cast(default: object, raw: object) -> object:
    """``raw`` (as QSettings read it) as the type of ``default``; ValueError for a bad number."""
    text = str(raw)
    if isinstance(default, bool):
        return text.lower() in ("1", "true", "yes")
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    return text


def settings_path() -> str:
    return str(data_dir() / "settings.ini")


def _store() -> QSettings:
    return QSettings(settings_path(), QSettings.Format.IniFormat)

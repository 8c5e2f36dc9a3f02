"""The base layer: what every other layer stands on (no chess here).

Messages in four languages and their plural forms (:mod:`.i18n`), the user's error
(:mod:`.errors`), the user's folders (:mod:`.paths`) and the shipped data (:mod:`.resources`),
the one event base and its JSON codec (:mod:`.events`), speech priorities and the queue of every
speech output (:mod:`.speaking`), reading a user's text file with plain messages (:mod:`.textfile`) and writing whole files
atomically (:mod:`.files`), every call that differs between Windows, macOS and Linux
(:mod:`.system`), and the limits on everything a user hands the program (:mod:`.bounds`).
The message catalogues are data in ``locale/``.

Other packages import this face, never its modules."""

from __future__ import annotations

from .bounds import (
    MAX_FULLMOVE,
    MAX_HALFMOVE_CLOCK,
    MAX_HEADER_CHARS,
    MAX_JOURNAL_BYTES,
    MAX_JSON_DEPTH,
    MAX_LINE_BYTES,
    MAX_PAGE_LENGTH,
    MAX_PERIODS,
    MAX_PLIES,
    MAX_SCRIPT_LINE_CHARS,
    MAX_SCRIPT_LINES,
    MAX_SECONDS,
    MAX_SETTLE,
    MAX_WIDTH,
    TooDeep,
    counters_ok,
    loads,
    seconds,
    within,
)
from .errors import UserError
from .events import Event, Fact, decode_fields, encode_fields, json_value
from .files import atomic_folder, atomic_path, output_target, write_text, write_with
from .i18n import (
    DEFAULT_LANG,
    LANG_NAMES,
    NOTATION_LANGS,
    UI_LANGS,
    ArgumentParser,
    chosen_lang,
    default_lang,
    in_quotes,
    plural,
    quoted,
    supported,
    system_lang,
    tr,
    translate_argparse,
    use_lang,
)
from .paths import data_dir, journal_dir, log_dir, models_dir
from .resources import boards_dir, guide_dir, voices_dir
from .speaking import DEFAULT_WPM, Priority, SpeechQueue, Utterance, may_cut, speaking_time
from .system import is_port_path, is_windows, lock_file, make_blocking, open_fd, sync_folder, unlock_file, utf8_output
from .textfile import decode, is_missing, os_error_text, read_bytes, read_text, regular_file, shown_path

__all__ = [
    "ArgumentParser", "atomic_folder", "atomic_path", "boards_dir", "chosen_lang", "counters_ok", "data_dir",
    "decode", "decode_fields", "DEFAULT_LANG", "default_lang", "DEFAULT_WPM", "may_cut", "Priority", "speaking_time",
    "SpeechQueue", "Utterance", "encode_fields", "Event", "Fact", "guide_dir",
    "in_quotes", "is_missing", "is_port_path", "is_windows", "journal_dir", "json_value", "LANG_NAMES", "loads",
    "lock_file", "log_dir", "make_blocking", "MAX_FULLMOVE", "MAX_HALFMOVE_CLOCK", "MAX_HEADER_CHARS",
    "MAX_JOURNAL_BYTES", "MAX_JSON_DEPTH", "MAX_LINE_BYTES", "MAX_PAGE_LENGTH", "MAX_PERIODS", "MAX_PLIES", "MAX_SCRIPT_LINE_CHARS",
    "MAX_SCRIPT_LINES", "MAX_SECONDS", "MAX_SETTLE", "MAX_WIDTH", "models_dir", "NOTATION_LANGS", "open_fd",
    "os_error_text", "output_target", "plural", "quoted", "read_bytes", "read_text", "regular_file", "seconds",
    "shown_path", "supported", "sync_folder", "system_lang", "TooDeep", "tr", "translate_argparse", "UI_LANGS",
    "unlock_file", "use_lang", "UserError", "utf8_output", "voices_dir", "within", "write_text", "write_with",
]

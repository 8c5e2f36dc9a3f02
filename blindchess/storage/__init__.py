"""Storage: the game journal, one unit of lines per input, written before anyone is told (:mod:`.journal`),
and followed as it grows (:mod:`.tail`).

Other packages import this face, never its modules."""

from __future__ import annotations

from .journal import (
    MAX_BYTES,
    RESERVED_FIELDS,
    SUFFIX,
    InputId,
    JournalInUse,
    JournalRead,
    JournalWriter,
    NotAJournal,
    NotRegularFile,
    Verdict,
    check_start,
    describe,
    envelope_path,
    format_plies,
    last_unfinished,
    list_journals,
    new_path,
    read_envelope,
    read_journal,
    verdict,
    write_envelope,
)
from .tail import JournalTail, TailUnit, as_of

__all__ = [
    "as_of", "check_start", "describe", "envelope_path", "format_plies", "InputId", "JournalInUse", "JournalRead", "JournalTail", "JournalWriter", "last_unfinished", "list_journals",
    "MAX_BYTES", "new_path", "NotAJournal", "NotRegularFile", "read_envelope", "read_journal", "RESERVED_FIELDS", "SUFFIX", "TailUnit", "Verdict", "verdict",
    "write_envelope",
]

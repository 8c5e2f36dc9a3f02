"""Journal behaviours a mutation run showed unpinned (issue 14, "tests that would fail if it broke").

The journal is the game's legal record (FIDE Laws Art. 8: the score; Appendix D.2.7):
each line is on the disk when ``append`` returns, a journal at the size limit is still
read, and a file system that cannot sync folders does not stop the game.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from blindchess import journal
from blindchess.journal import JournalWriter, read_journal


def test_a_writer_is_open_until_closed_and_closing_twice_does_nothing(tmp_path: Path):
    writer = JournalWriter(tmp_path / "g.jsonl")
    assert writer.closed is False
    writer.append({"type": "note", "t": 1.0})
    writer.close()
    assert writer.closed is True
    writer.close()
    assert [e["type"] for e in read_journal(tmp_path / "g.jsonl").events] == ["note"]


def test_each_line_is_synced_unless_the_caller_syncs_later(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    writer = JournalWriter(tmp_path / "g.jsonl")
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    writer.append({"type": "note", "t": 1.0})
    assert len(synced) == 1
    writer.append({"type": "note", "t": 2.0}, sync=False)
    assert len(synced) == 1
    writer.sync()
    assert len(synced) == 2
    writer.close()


def test_a_journal_of_exactly_the_size_limit_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append({"type": "note", "t": 1.0})
    writer.close()
    monkeypatch.setattr(journal, "MAX_BYTES", path.stat().st_size)
    assert [e["type"] for e in read_journal(path).events] == ["note"]


def test_a_folder_that_cannot_be_synced_does_not_stop_a_new_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if os.path.isdir(f"/proc/self/fd/{fd}") or not os.path.isfile(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EINVAL, "folder sync not supported")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    writer = JournalWriter(tmp_path / "new" / "g.jsonl")
    writer.append({"type": "note", "t": 1.0})
    writer.close()
    assert [e["type"] for e in read_journal(tmp_path / "new" / "g.jsonl").events] == ["note"]


def test_a_real_error_syncing_the_folder_is_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EIO, "input/output error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError) as info:
        JournalWriter(tmp_path / "new" / "g.jsonl")
    assert info.value.errno == errno.EIO


def test_the_damaged_half_moves_are_named_as_ranges_and_single_moves():
    assert journal.format_plies([3, 4, 5, 9]) == "3–5, 9"
    assert journal.format_plies([1, 3, 5]) == "1, 3, 5"
    assert journal.format_plies([9, 7, 8, 8]) == "7–9"

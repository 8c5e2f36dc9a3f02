"""A journal file that already exists when a writer opens it: what the writer makes of what it finds there
(docs/developer/journal-format.md: the journal's own lines after its first write, what a crash cut off ended
before the next line).
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from blindchess.storage import journal
from blindchess.storage.journal import JournalWriter, read_journal

START = {"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "A"}, "black": {"name": "B"}}
NOTE = {"seq": 2, "type": "note", "t": 1.0, "text": "x"}


def test_a_file_of_blank_lines_gets_the_set_up_s_copy_and_the_length_line_after_its_first_write(tmp_path: Path):
    # Nothing of a game in it yet: its first write is a journal's first write, with the journal's own lines.
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n")
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit([NOTE])
    writer.close()
    read = read_journal(path)
    assert read.problems == [] and [e["type"] for e in read.events] == ["session-start", "note"]
    assert read.length == journal.Length(4, 0, True)        # the set-up, its copy, the length line, the note
    lines = path.read_bytes().split(b"\n")
    assert lines[0] == b"" and b'"type":"session-start-copy"' in lines[2]


@pytest.mark.parametrize("cut", [b"{", b'{"seq":1,"type":"session-start","t":0.0,"white":{"na'])
def test_a_first_write_a_crash_cut_is_named_and_the_game_written_again_is_a_checked_journal(
        tmp_path: Path, cut: bytes):
    # A crash inside the journal's first write (one byte into it, or further): what it left is ended, named in
    # a cut-off line and never applied; the set-up written again begins a journal of this version — checked,
    # with its copy and its length line — read whole after it.
    path = tmp_path / "g.jsonl"
    path.write_bytes(cut)
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit([NOTE])
    writer.close()
    read = read_journal(path)
    lines = path.read_bytes().split(b"\n")
    assert lines[0] == cut and json.loads(lines[1])["type"] == "cut-off"
    assert read.checked and read.problems == read.notes == [(1, "truncated")]
    assert [e["type"] for e in read.events] == ["session-start", "note"]
    assert read.length == journal.Length(6, 0, True) and journal.verdict(read, []).whole
    # its set-up damaged later: read from the copy, which stands where the copy stands (line 4)
    lines[2] = lines[2].replace(b'"A"', b'"Z"')
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    assert read.start_from_copy and read.events[0]["white"] == {"name": "A"} and read.lines[0] == 4


def test_a_journal_whose_last_line_was_cut_is_ended_and_synced_before_anything_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # A journal of the earlier format (no check fields) whose last line a crash cut: opening it ends that
    # line and makes the end durable at once — a second crash right after leaves no glued lines.
    path = tmp_path / "g.jsonl"
    path.write_bytes(b'{"seq":1,"type":"session-start","t":0.0}\n{"seq":2,"type":"note","t":1.0,"te')
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    writer = JournalWriter(path)
    assert synced == [writer._fd]            # the ending, synced before the writer is handed over
    writer.abandon()                         # killed right after
    assert path.read_bytes().endswith(b'"te\n')
    read = read_journal(path)
    assert not read.checked and read.problems == [(2, "truncated")] and [e["seq"] for e in read.events] == [1]


def test_a_failed_write_after_reopening_a_journal_of_blank_lines_names_no_event_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # The cut-off line carries the number of the last event before it: in a file of blank lines, none (0).
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n")
    writer = JournalWriter(path)
    real = os.write
    answers = [10]

    def write(fd: int, data: bytes) -> int:
        if answers:
            return real(fd, bytes(data[:answers.pop()]))
        if data[:1] != b"\n" and b'"cut-off"' not in bytes(data):
            raise OSError(errno.ENOSPC, "no space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    with pytest.raises(OSError):
        writer.append_unit([START])
    writer.close()
    marks = [json.loads(x) for x in path.read_bytes().split(b"\n") if b'"cut-off"' in x]
    assert [(m["seq"], m["numbers"]) for m in marks] == [(0, [1, 3])]


def test_a_unit_a_crash_cut_at_a_line_end_is_named_and_synced_before_anything_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # The crash stopped a unit after its first whole line (the length line had not yet counted it): opening
    # the journal names what was cut off in a cut-off line and makes that durable at once, counted by the
    # length line — killed right after, the journal is whole.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    before = path.read_bytes()
    writer.append_unit([{"seq": 2, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4"},
                        {"seq": 3, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"}])
    writer.abandon()
    added = path.read_bytes()[len(before):]
    path.write_bytes(before + added[:added.index(b"\n") + 1])
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    writer = JournalWriter(path)
    assert synced == [writer._fd]
    writer.abandon()
    lines = path.read_bytes().split(b"\n")[:-1]
    mark = json.loads(lines[-1])
    assert (mark["type"], mark["line"], mark["derived"]) == ("cut-off", 4, True)     # the journal's own line
    read = read_journal(path)
    assert read.length is not None and read.length.lines == len(lines) == 5
    assert read.notes == [(4, "truncated")] and journal.verdict(read, []).whole


def test_reopening_a_whole_journal_writes_and_syncs_nothing_until_the_next_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # A game reopened (the app's start, a resumption): the journal is left exactly as it was — still closed on
    # purpose — until something happens at the table.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.close()
    before = path.read_bytes()
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    writer = JournalWriter(path)
    assert synced == [] and path.read_bytes() == before
    writer.abandon()
    assert read_journal(path).length == journal.Length(3, 0, True)


def test_a_first_write_cut_just_before_its_last_newline_keeps_its_length_line_counting(tmp_path: Path):
    # The crash took only the newline after the length line: the journal is whole, and once reopened its length
    # line goes on counting (the newline is added first, then the line rewritten in place with it).
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.abandon()
    path.write_bytes(path.read_bytes()[:-1])
    writer = JournalWriter(path)
    writer.append_unit([NOTE])
    writer.close()
    read = read_journal(path)
    assert read.problems == [] and [e["type"] for e in read.events] == ["session-start", "note"]
    assert read.length == journal.Length(4, 0, True)


def test_a_line_of_a_named_cut_off_unit_damaged_later_is_damage(tmp_path: Path):
    # A unit cut after two of its three lines, named on reopening; the second line changed later by a byte:
    # damage, never taken for what the crash cut off (the reader cannot tell what the line held).
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    before = path.read_bytes()
    writer.append_unit([{"seq": 2, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4"},
                        {"seq": 3, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"},
                        {"seq": 4, "type": "score", "t": 1.0, "derived": True}])
    writer.abandon()
    added = path.read_bytes()[len(before):].split(b"\n")
    path.write_bytes(before + b"\n".join(added[:2]) + b"\n")
    JournalWriter(path).close()
    lines = path.read_bytes().split(b"\n")[:-1]
    mark = json.loads(lines[-1])
    assert (mark["type"], mark["from"], mark["line"]) == ("cut-off", 4, 5)
    assert read_journal(path).notes == [(4, "truncated"), (5, "truncated")]
    lines[4] = lines[4].replace(b"e2e4", b"e2e3")
    path.write_bytes(b"\n".join(lines) + b"\n")
    read = read_journal(path)
    assert read.notes == [] and (5, "corrupt") in read.problems


def test_a_line_deleted_right_before_a_unit_a_crash_cut_off_is_named_missing(tmp_path: Path):
    # A deleted line is found anywhere — also just before the unit a crash cut off at the end of the file
    # (which itself loses nothing).
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit([NOTE])
    writer.append_unit([dict(NOTE, seq=3, t=2.0)])
    before = path.read_bytes()
    writer.append_unit([{"seq": 4, "type": "board-move", "t": 3.0, "board": "sighted", "uci": "e2e4"},
                        {"seq": 5, "type": "move-made", "t": 3.0, "derived": True, "ply": 1, "uci": "e2e4"}])
    writer.abandon()
    added = path.read_bytes()[len(before):]
    lines = (before + added[:added.index(b"\n") + 1]).split(b"\n")[:-1]
    path.write_bytes(b"\n".join(lines[:4] + lines[5:]) + b"\n")       # the second note (line 5) deleted
    read = read_journal(path)
    assert sorted(read.problems) == [(5, "missing"), (5, "truncated")] and read.notes == [(5, "truncated")]
    assert not journal.verdict(read, []).whole

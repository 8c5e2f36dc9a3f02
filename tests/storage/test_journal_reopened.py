"""A journal file that already exists when a writer opens it: what the writer makes of what it finds there
(docs/developer/journal-format.md: the journal's own lines after its first write, what a crash cut off ended
before the next line).
"""

from __future__ import annotations

from pathlib import Path

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


def test_a_first_write_cut_after_its_first_byte_is_ended_before_the_game_is_written_again(tmp_path: Path):
    # A crash one byte into the journal's first write: that byte stays a line of its own (reported, never
    # applied), and the set-up written again is read whole after it.
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"{")
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit([NOTE])
    writer.close()
    read = read_journal(path)
    assert path.read_bytes().startswith(b"{\n{")
    assert read.problems == [(1, "truncated")]
    assert [e["type"] for e in read.events] == ["session-start", "note"]

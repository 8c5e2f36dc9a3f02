"""Lines no writer of this program makes, and files that change while they are read: each is told for what it
is, never a crash, never taken for a line of the game (docs/developer/journal-format.md, "Bounded").
"""

from __future__ import annotations

import errno
import json
import os
import tracemalloc
import zlib
from pathlib import Path

import pytest

from blindchess.storage import journal
from blindchess.storage.journal import JournalWriter, NotAJournal, check_start, last_unfinished, read_journal

START = {"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "A"}, "black": {"name": "B"}}


def _game(path: Path) -> list[bytes]:
    writer = JournalWriter(path)
    writer.append_unit([START])
    for seq, t in ((2, 1.0), (3, 2.0), (4, 3.0)):
        writer.append_unit([{"seq": seq, "type": "note", "t": t, "text": "x"}])
    writer.close()
    return path.read_bytes().split(b"\n")[:-1]


def _checked(body: str) -> bytes:
    """``body`` (a JSON object without its closing brace) with a right CRC, as a writer would end it."""
    raw = body.encode("utf-8")
    return raw + b',"crc":"%08x"}' % zlib.crc32(raw + b"}")


@pytest.mark.parametrize("odd", [
    b'{"seq":9,"type":"note","t":1.0,"text":' + b"[" * 40 + b"]" * 40 + b"}",      # nested past the bound
    b'{"seq":9,"type":"note","t":1.0,"n":' + b"7" * 5000 + b"}",                  # a number too long to read
])
def test_a_line_too_deep_or_with_a_number_too_long_to_read_is_damage_and_the_game_is_read(tmp_path: Path, odd: bytes):
    path = tmp_path / "g.jsonl"
    lines = _game(path)
    path.write_bytes(b"\n".join(lines[:4] + [odd] + lines[4:]) + b"\n")
    read = read_journal(path)
    assert read.problems == [(5, "corrupt")]
    assert [e.get("seq") for e in read.events] == [1, 2, 3, 4]


@pytest.mark.parametrize("fields", ['"game_id":"not-a-game","line_no":5', '"game_id":"%s","line_no":0'])
def test_a_line_whose_crc_fits_but_whose_game_id_or_number_cannot_be_is_damage(tmp_path: Path, fields: str):
    # A CRC is no signature: a line must also name a game (32 hex digits) and a line number from 1 to be a
    # checked line of a game. Such a line is damage; it neither names a game nor shifts the line numbers.
    path = tmp_path / "g.jsonl"
    lines = _game(path)
    game_id = read_journal(path).game_id
    odd = _checked('{"seq":9,"type":"note","t":1.0,' + (fields % game_id if "%s" in fields else fields))
    path.write_bytes(b"\n".join(lines[:4] + [odd] + lines[4:]) + b"\n")
    read = read_journal(path)
    assert read.problems == [(5, "corrupt")] and read.game_id == game_id
    assert [e.get("seq") for e in read.events] == [1, 2, 3, 4]


def test_checking_that_a_file_begins_as_a_journal_reads_only_its_beginning(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch):
    # The broadcast asks whether a file it is pointed at is a journal before it copies it: the answer is in
    # the first lines, whatever follows them.
    path = tmp_path / "g.jsonl"
    _game(path)
    with path.open("ab") as f:
        f.write(b"{}\n" * 1_500_000)                    # 4.5 MB of junk after the game
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"{}\n" * 1_500_000)
    read_bytes = []
    real = os.read

    def counting(fd: int, n: int) -> bytes:
        data = real(fd, n)
        read_bytes.append(len(data))
        return data

    monkeypatch.setattr(journal.os, "read", counting)
    check_start(path)                                   # a journal: no error
    assert sum(read_bytes) <= 1 << 20                   # one chunk, never the junk after the game
    read_bytes.clear()
    with pytest.raises(NotAJournal):
        check_start(junk)
    assert sum(read_bytes) <= 1 << 20


def test_a_journal_removed_while_the_app_looks_for_its_game_is_skipped(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    # Another program (a file manager, a sync tool) removes a journal between the folder's listing and its
    # reading: the app's start skips it and offers the game that is there.
    folder = tmp_path / "journals"
    folder.mkdir()
    there = folder / "b.jsonl"
    _game(there)
    gone = folder / "a.jsonl"
    real_glob = Path.glob
    monkeypatch.setattr(Path, "glob", lambda self, pattern: iter([gone, *real_glob(self, pattern)]))
    assert last_unfinished(folder) == there
    listed = journal.list_journals(folder)
    assert [(i.path.name, i.error) for i in listed] == [("b.jsonl", None), ("a.jsonl", "unreadable")]


def test_a_junk_line_of_megabytes_before_the_length_line_leaves_the_length_line_rewritable(tmp_path: Path):
    # The set-up's copy, before the length line, overwritten by megabytes (a line longer than any journal
    # line, let go as it is read): the lines after it are still found where they are, so the game goes on
    # and its length line is rewritten in place — only the overwritten line is damage.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.abandon()
    lines = path.read_bytes().split(b"\n")[:-1]
    junk = b'{"junk":"' + b"j" * (3 << 20) + b'"}'                   # three megabytes and more: spans whole chunks
    path.write_bytes(b"\n".join(lines[:1] + [junk] + lines[2:]) + b"\n")
    writer = JournalWriter(path)
    writer.append_unit([{"seq": 2, "type": "note", "t": 1.0, "text": "x"}])
    writer.close()
    read = read_journal(path)
    assert read.problems == [(2, "corrupt")]
    assert [e["type"] for e in read.events] == ["session-start", "note"]
    assert read.length == journal.Length(4, 0, True)               # the set-up, its copy, itself and the note


def test_a_read_error_names_the_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # A disk that fails while the journal is read: the error says which file (the user is told its name).
    path = tmp_path / "g.jsonl"
    _game(path)

    def failing(fd: int, n: int) -> bytes:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(journal.os, "read", failing)
    with pytest.raises(OSError) as info:
        read_journal(path)
    assert info.value.errno == errno.EIO and info.value.filename == str(path)


@pytest.mark.parametrize("where", ["in the middle", "at the end"])
def test_a_line_broken_inside_is_damage_never_a_write_cut_off(tmp_path: Path, where: str):
    # A changed byte that breaks the JSON inside a line (not where a crash stops a write: its text goes on
    # after the fault) is damage, even as the file's last line (reported as a line that ends early, without
    # its newline — but never taken for a write cut off, which would lose nothing).
    path = tmp_path / "g.jsonl"
    lines = _game(path)
    index = 4 if where == "in the middle" else len(lines) - 1
    lines[index] = lines[index].replace(b'"type":"note"', b'"type" "note"')
    path.write_bytes(b"\n".join(lines) + (b"\n" if where == "in the middle" else b""))
    read = read_journal(path)
    assert read.problems == [(index + 1, "corrupt" if where == "in the middle" else "truncated")]
    assert read.notes == [] and not journal.verdict(read, []).whole


def test_a_line_of_forty_megabytes_is_let_go_as_it_is_read(tmp_path: Path):
    # Reading costs the game, not the file: a line longer than any journal line is never held — the memory
    # the reader takes stays that of a chunk and a line, however long the junk.
    path = tmp_path / "g.jsonl"
    _game(path)
    with path.open("ab") as f:
        f.write(b'{"junk":"' + b"j" * (40 << 20) + b'"}\n')
    tracemalloc.start()
    try:
        read = read_journal(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert read.problems == [(7, "corrupt")] and len(read.events) == 4
    assert peak < 3 << 20, peak                   # a chunk (1 MiB) and a line (at most 1 MB)


def test_an_empty_file_is_read_as_no_line_and_ending_whole(tmp_path: Path):
    # Nothing to end before the first line is written (a writer that finds the file adds no newline).
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"")
    read = read_journal(path)
    assert (read.events, read.problems, read.checked, read.ends_with_newline) == ([], [], False, True)
    assert read.next_line_no == 1


def test_only_the_journal_s_own_length_line_counts_its_length(tmp_path: Path):
    # An event that happens to carry "lines", "plies" and "closed" is no length line; a length line whose
    # count is of the wrong kind (edited, its CRC made to fit) counts nothing — the journal is read either way.
    path = tmp_path / "g.jsonl"
    lines = _game(path)
    game_id = read_journal(path).game_id
    lookalike = _checked('{"seq":5,"type":"note","t":5.0,"lines":99,"plies":7,"closed":true,'
                         f'"game_id":"{game_id}","line_no":7,"plies_before":0')
    path.write_bytes(b"\n".join(lines + [lookalike]) + b"\n")
    read = read_journal(path)
    assert read.length == journal.Length(6, 0, True) and read.problems == []
    length = json.loads(lines[2])
    for field, value in (("plies", "x"), ("lines", -1), ("closed", 1), ("plies_before", None)):
        edited = dict(length, **{field: value})
        del edited["crc"]
        body = json.dumps(edited, separators=(",", ":"))[:-1]
        path.write_bytes(b"\n".join(lines[:2] + [_checked(body)] + lines[3:]) + b"\n")
        read = read_journal(path)
        assert read.length is None and read.problems == [], field
        assert [e["seq"] for e in read.events] == [1, 2, 3, 4]


def test_a_copy_of_something_else_than_the_set_up_never_stands_in_for_it(tmp_path: Path):
    # Line 1 lost, and the copy's "start" is not a set-up (edited, its CRC made to fit): the game has no
    # set-up (the journal list names it), rather than a note taken for one.
    path = tmp_path / "g.jsonl"
    lines = _game(path)
    copy = json.loads(lines[1])
    for start in ({"seq": 2, "type": "note", "t": 1.0, "text": "x"}, {"seq": 1, "type": "session-start", "t": "0"}):
        edited = dict(copy, start=start)
        del edited["crc"]
        path.write_bytes(b"\n".join([_checked(json.dumps(edited, separators=(",", ":"))[:-1])] + lines[2:]) + b"\n")
        read = read_journal(path)
        assert read.problems == [(1, "missing")] and not read.start_from_copy
        assert [e["type"] for e in read.events] == ["note", "note", "note"]
        assert journal.describe(path).error == "no-start"

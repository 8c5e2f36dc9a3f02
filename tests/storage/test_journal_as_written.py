"""The journal's lines as this version writes them, byte for byte (docs/developer/journal-format.md).

Other programs read the journal (``jq``, the broadcast, a later version of blindchess that continues a game
written by this one), so its text is a promise: UTF-8 as it is (a name stays readable), the fields the writer
adds always last and in their order, the journal's own lines derived, the length line padded to one size so
it can be rewritten in place — by this version and by any that reads a journal this one left.
"""

from __future__ import annotations

import errno
import json
import os
import uuid
from pathlib import Path

import pytest

from blindchess.storage import journal
from blindchess.storage.journal import InputId, JournalWriter, read_journal

GAME_ID = "5f0c2a0b1c2d3e4f5a6b7c8d9e0f10e1"
START = {"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "Jürgen"}, "black": {"name": "Тарас"}}
E4 = [{"seq": 2, "type": "board-move", "t": 1.5, "board": "sighted", "uci": "e2e4"},
      {"seq": 3, "type": "move-made", "t": 1.5, "derived": True, "ply": 1, "uci": "e2e4"}]

#: A game's first unit (the set-up) and the unit of its first half-move (script line 7), closed on purpose.
WRITTEN = (
    '{"seq":1,"type":"session-start","t":0.0,"white":{"name":"Jürgen"},"black":{"name":"Тарас"},'
    '"game_id":"5f0c2a0b1c2d3e4f5a6b7c8d9e0f10e1","line_no":1,"unit_lines":1,"plies_before":0,"crc":"59254220"}\n'
    '{"seq":1,"type":"session-start-copy","t":0.0,"derived":true,"start":{"seq":1,"type":"session-start","t":0.0,'
    '"white":{"name":"Jürgen"},"black":{"name":"Тарас"}},'
    '"game_id":"5f0c2a0b1c2d3e4f5a6b7c8d9e0f10e1","line_no":2,"plies_before":0,"crc":"55dfa352"}\n'
    '{"seq":1,"type":"journal-length","t":0.0,"derived":true,"lines":           5,"plies":    1,"closed":true ,'
    '"game_id":"5f0c2a0b1c2d3e4f5a6b7c8d9e0f10e1","line_no":3,"plies_before":0,"crc":"b08eebdf"}\n'
    '{"seq":2,"type":"board-move","t":1.5,"board":"sighted","uci":"e2e4",'
    '"game_id":"5f0c2a0b1c2d3e4f5a6b7c8d9e0f10e1","line_no":4,"unit_lines":2,"input":"script:7","plies_before":0,'
    '"crc":"a34dd9af"}\n'
    '{"seq":3,"type":"move-made","t":1.5,"derived":true,"ply":1,"uci":"e2e4",'
    '"game_id":"5f0c2a0b1c2d3e4f5a6b7c8d9e0f10e1","line_no":5,"plies_before":0,"crc":"4015d6c9"}\n'
)


@pytest.fixture
def fixed_game_id(monkeypatch: pytest.MonkeyPatch) -> str:
    """A new journal's game_id is random; here it is the one of :data:`WRITTEN`."""
    monkeypatch.setattr(journal.uuid, "uuid4", lambda: uuid.UUID(GAME_ID))
    return GAME_ID


def test_a_game_s_journal_is_written_byte_for_byte_as_documented(tmp_path: Path, fixed_game_id: str):
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit(E4, ident=InputId("script", 7))
    writer.close()
    assert path.read_text(encoding="utf-8") == WRITTEN
    # the names as written (UTF-8, never \u escapes): grep finds the players
    assert "Jürgen".encode() in path.read_bytes() and "Тарас".encode() in path.read_bytes()
    lines = [json.loads(x) for x in WRITTEN.splitlines()]
    # the journal's own lines are derived: a tool that keeps the inputs (select(.derived|not)) sees the game's
    assert [x["type"] for x in lines if not x.get("derived")] == ["session-start", "board-move"]
    read = read_journal(path)
    assert read.problems == [] and read.recorded == ["e2e4"] and read.length == journal.Length(5, 1, True)


def test_a_journal_this_version_left_is_continued_with_its_length_line_rewritten_in_place(tmp_path: Path):
    # A game reopened (by this version or a later one): the new lines are counted in the length line the
    # journal already has, which keeps its size.
    path = tmp_path / "g.jsonl"
    path.write_bytes(WRITTEN.encode("utf-8"))          # byte for byte, "\n" on every system
    writer = JournalWriter(path)
    writer.append_unit([{"seq": 4, "type": "board-move", "t": 3.0, "board": "sighted", "uci": "e7e5"},
                        {"seq": 5, "type": "move-made", "t": 3.0, "derived": True, "ply": 2, "uci": "e7e5"}],
                       ident=InputId("script", 8))
    counted = read_journal(path).length
    writer.close()
    before, after = WRITTEN.splitlines(), path.read_text(encoding="utf-8").splitlines()
    assert after[:2] + after[3:5] == before[:2] + before[3:5]          # only the length line changed in place
    assert len(after[2]) == len(before[2]) and '"lines":           7,"plies":    2,"closed":true ,' in after[2]
    assert counted == journal.Length(7, 2, False)         # synced, not yet closed
    read = read_journal(path)
    assert read.problems == [] and read.game_id == GAME_ID and read.recorded == ["e2e4", "e7e5"]
    assert read.length == journal.Length(7, 2, True)
    assert read.inputs == {"script": InputId("script", 8)}


def _disk_full_after(monkeypatch: pytest.MonkeyPatch, answers: list[int | None]) -> None:
    """``os.write`` as a filling disk: each call takes the next answer — a number of bytes written, or None for
    "no space left"; once the answers are used up the disk has space again."""
    real = os.write

    def write(fd: int, data: bytes) -> int:
        if not answers:
            return real(fd, data)
        take = answers.pop(0)
        if take is None:
            raise OSError(errno.ENOSPC, "no space left on device")
        return real(fd, bytes(data[:take]))

    monkeypatch.setattr(os, "write", write)


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


def test_a_new_journal_whose_first_write_fails_names_it_with_no_event_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # The disk is full at the very first write: the fragment is ended and named by a cut-off line, which
    # carries the number of the event before it — none yet, 0 (event numbers never go down in a journal).
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    _disk_full_after(monkeypatch, [12, None])
    with pytest.raises(OSError):
        writer.append_unit([START])
    writer.close()
    lines = _lines(path)
    assert lines[0] == b'{"seq":1,"ty'
    mark = json.loads(lines[1])
    assert (mark["type"], mark["seq"], mark["numbers"], mark["line_no"]) == ("cut-off", 0, [1, 3], 4)
    assert mark["derived"] is True                       # the journal's own line, no event of the game
    read = read_journal(path)                             # what the disk took was never acted on
    assert read.events == [] and read.notes == read.problems == [(1, "truncated")]


def test_a_reopened_journal_names_a_failed_write_after_its_last_event(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # The game reopened, then the disk fills up: the cut-off line carries the number of the last event the
    # journal holds (3), not a number from before it.
    path = tmp_path / "g.jsonl"
    path.write_bytes(WRITTEN.encode("utf-8"))          # byte for byte, "\n" on every system
    writer = JournalWriter(path)
    _disk_full_after(monkeypatch, [20, None])
    with pytest.raises(OSError):
        writer.append_unit([{"seq": 4, "type": "note", "t": 2.0, "text": "x"}])
    writer.close()
    mark = json.loads(_lines(path)[-1])
    assert (mark["type"], mark["seq"], mark["line_no"]) == ("cut-off", 3, 7)
    read = read_journal(path)
    assert read.notes == [(6, "truncated")] and journal.verdict(read, ["e2e4"]).whole


def test_a_fragment_is_ended_once_however_often_the_full_disk_refuses_the_line_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # The disk takes part of a line and its newline, then refuses the cut-off line: the fragment is ended
    # once, and the next write names it first — one JSON object a line, never an empty line in between.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    _disk_full_after(monkeypatch, [15, None, 1, None])     # fragment, full, its newline, the cut-off line refused
    with pytest.raises(OSError):
        writer.append_unit(E4)
    writer.append_unit([{"seq": 4, "type": "note", "t": 2.0, "text": "space again"}])
    writer.close()
    lines = _lines(path)
    assert all(line.strip() for line in lines)
    assert [json.loads(x)["type"] for x in lines[4:]] == ["cut-off", "note"]
    read = read_journal(path)
    assert read.notes == [(4, "truncated")] and journal.verdict(read, []).whole
    assert [e["type"] for e in read.events] == ["session-start", "note"]


@pytest.mark.parametrize("taken", ["nothing", "one byte", "the first line whole"])
def test_what_the_disk_took_of_a_failed_unit_is_named_by_its_numbers_and_never_glued(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: str):
    # The disk fills up at any byte of a unit: what it took (a byte, a whole line) keeps its numbers and is
    # named in a cut-off line at once; nothing taken, nothing is named and no number is used. Either way every
    # line is one JSON object (a fragment ended once, never an empty line) and the unit is never applied.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    first = writer.next_line_no
    line = len(json.dumps(E4[0]))                                   # shorter than the written line: inside it
    take = {"nothing": 0, "one byte": 1, "the first line whole": None}[taken]
    real = os.write

    def write(fd: int, data: bytes) -> int:
        nonlocal take
        if take is None:
            take = bytes(data).index(b"\n") + 1
        if b'"cut-off"' in bytes(data) or data == b"\n":
            return real(fd, data)
        if take == 0:
            raise OSError(errno.ENOSPC, "no space left on device")
        wrote, take = real(fd, bytes(data[:take])), 0
        return wrote

    monkeypatch.setattr(os, "write", write)
    with pytest.raises(OSError):
        writer.append_unit(E4)
    monkeypatch.setattr(os, "write", real)
    writer.append_unit([{"seq": 4, "type": "note", "t": 2.0, "text": "x"}])
    writer.close()
    lines = [json.loads(x) for x in _lines(path)[3:] if x.startswith(b"{") and x.endswith(b"}")]
    marks = [x for x in lines if x["type"] == "cut-off"]
    if taken == "nothing":
        assert marks == [] and lines[-1]["line_no"] == first
    else:
        assert [m["numbers"] for m in marks] == [[first, first + 1]] and lines[-1]["line_no"] == first + 3
    assert all(x.strip() for x in _lines(path)) and line > 1
    read = read_journal(path)
    assert [e["type"] for e in read.events] == ["session-start", "note"] and read.recorded == []
    assert journal.verdict(read, []).whole


def test_a_journal_of_the_earlier_format_ends_a_failed_line_without_a_line_of_the_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # A journal without check fields stays in its format: a fragment a full disk left is ended, and no
    # checked cut-off line is added to it.
    path = tmp_path / "g.jsonl"
    path.write_bytes(b'{"seq":1,"type":"session-start","t":0.0}\n')
    writer = JournalWriter(path)
    _disk_full_after(monkeypatch, [10, None])
    with pytest.raises(OSError):
        writer.append({"seq": 2, "type": "note", "t": 1.0, "text": "x"})
    writer.append({"seq": 3, "type": "note", "t": 2.0, "text": "Jürgen"})
    writer.close()
    assert path.read_bytes() == ('{"seq":1,"type":"session-start","t":0.0}\n{"seq":2,"\n'
                                 '{"seq":3,"type":"note","t":2.0,"text":"Jürgen"}\n').encode()


def test_a_first_write_not_yet_synced_is_counted_by_no_length_line(tmp_path: Path):
    # The length line counts only what an fsync made durable: killed between the first write and its fsync,
    # the journal's length line counts nothing yet — no line, no half-move, not closed.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append(START, sync=False)
    writer.abandon()
    read = read_journal(path)
    assert read.length == journal.Length(0, 0, False) and read.problems == []


def test_a_whole_line_of_a_failed_write_damaged_later_is_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # The disk took the first line of a unit whole, then filled up: that line is named by the cut-off line and
    # never applied. Changed later by a byte, it is damage like any changed line — never taken for the cut.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    real = os.write
    calls = {"n": 0}

    def write(fd: int, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            return real(fd, bytes(data[:bytes(data).index(b"\n") + 1]))
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "no space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    with pytest.raises(OSError):
        writer.append_unit(E4)
    monkeypatch.setattr(os, "write", real)
    writer.append_unit([{"seq": 4, "type": "note", "t": 2.0, "text": "x"}])
    writer.close()
    assert read_journal(path).notes == [(4, "truncated")]
    lines = _lines(path)
    lines[3] = lines[3].replace(b"e2e4", b"e2e3")
    path.write_bytes(b"\n".join(lines) + b"\n")
    read = read_journal(path)
    assert read.problems == [(4, "corrupt")] and read.notes == []


def test_a_write_cut_off_after_two_damaged_lines_is_still_told_from_damage(tmp_path: Path):
    # The length line counts five lines; lines 4 and 5 are damaged (one stretch of two), then a crash cut the
    # next write: that sixth line was never acted on — a note, not damage.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit([{"seq": 2, "type": "note", "t": 1.0, "text": "a"}])
    writer.append_unit([{"seq": 3, "type": "note", "t": 2.0, "text": "b"}])
    writer.abandon()
    lines = _lines(path)
    for index in (3, 4):
        lines[index] = lines[index].replace(b'"text":"', b'"text":"X')
    path.write_bytes(b"\n".join(lines) + b'\n{"seq":4,"type":"note","t":3.0,"te')
    read = read_journal(path)
    assert read.length == journal.Length(5, 0, False)
    assert read.problems == [(4, "corrupt"), (6, "truncated")] and read.notes == [(6, "truncated")]

"""Journal behaviours a mutation run showed unpinned ("tests that would fail if it broke").

The journal is the game's legal record (FIDE Laws Art. 8: the score; Appendix D.2.7):
each line is on the disk when ``append`` returns, a journal at the size limit is still
read, and a file system that cannot sync folders does not stop the game.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import logging
import os
from pathlib import Path

import pytest

from blindchess.storage import journal
from blindchess.storage.journal import JournalWriter, read_journal
from tests.support.paths import DATA


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


def test_an_old_journal_refuses_a_number_that_is_not_finite_and_stays_plain_json(tmp_path: Path):
    # the journal is the game's legal record and must stay JSON lines other tools read: NaN is no JSON
    path = tmp_path / "old.jsonl"
    path.write_text('{"seq":1,"type":"session-start","t":1.0}\n', encoding="utf-8")
    writer = JournalWriter(path)
    assert writer.checked is False
    with pytest.raises(ValueError):
        writer.append({"type": "note", "t": float("nan")})
    writer.close()
    assert path.read_text(encoding="utf-8") == '{"seq":1,"type":"session-start","t":1.0}\n'


def test_a_line_cut_off_by_a_failed_write_keeps_its_number_and_the_next_line_gets_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # a disk that fills up in the middle of a line: the fragment is ended, the next line is not glued to it,
    # and the line numbers go on counting the fragment (nothing is reported missing after it)
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append({"type": "note", "t": 1.0})
    real_write = os.write
    calls = {"n": 0}

    def write(fd: int, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            return real_write(fd, bytes(data[:10]))
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "no space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)
    with pytest.raises(OSError):
        writer.append({"type": "note", "t": 2.0})
    # line 2 is the journal's length line, line 3 the fragment, line 4 the cut-off line naming it
    assert writer.next_line_no == 5
    writer.append({"type": "note", "t": 3.0})
    writer.close()
    read = read_journal(path)
    assert [e["t"] for e in read.events] == [1.0, 3.0]
    assert [e["line_no"] for e in read.events] == [1, 5]
    assert read.lines == [1, 5]
    assert [(d.line, d.reason, d.plies) for d in read.damage] == [(3, "truncated", [])]
    assert read.notes == [(3, "truncated")] and journal.verdict(read, []).whole   # never acted on


def test_a_damage_report_is_a_value_that_cannot_be_changed():
    # what the reader found is shown to the arbiter as it was found
    damage = journal.Damage(3, "corrupt", 1, 2)
    assert damage.count == 1 and damage.plies == [2]
    with pytest.raises(dataclasses.FrozenInstanceError):
        damage.line = 4  # type: ignore[misc]
    assert {damage: "x"}[journal.Damage(3, "corrupt", 1, 2)] == "x"


def test_a_last_line_with_a_changed_byte_is_damage_not_a_write_cut_off_by_a_crash(tmp_path: Path):
    # a crash may cut the last line (nothing was acted on); a changed byte in it is damage all the same
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append({"type": "note", "t": 1.0})
    writer.close()
    with open(path, "ab") as f:
        f.write(b'{"type":"note","t":2.0,"x":"\xff"}')
    read = read_journal(path)
    assert read.notes == []
    assert [(d.line, d.reason) for d in read.damage] == [(3, "corrupt")]   # line 2: the length line


def test_a_duplicated_line_and_a_damaged_line_each_count_as_one_line(tmp_path: Path):
    # the arbiter is told how many lines each problem concerns: one duplicated line is one line
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    for t in (1.0, 2.0, 3.0):
        writer.append({"type": "note", "t": t})
    writer.close()
    lines = path.read_bytes().split(b"\n")     # note, the journal's length line, note, note
    damaged = lines[2].replace(b'"t":2.0', b'"t":4.0')
    path.write_bytes(b"\n".join([lines[0], lines[1], lines[0], damaged, lines[3], b""]))
    read = read_journal(path)
    assert [(d.line, d.reason, d.count) for d in read.damage] == [(3, "duplicate", 1), (4, "corrupt", 1)]


def test_the_verdict_says_how_many_lines_are_missing_and_where(tmp_path: Path):
    # a deleted line is reported with its count, before the line that follows the gap
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    for t in (1.0, 2.0, 3.0, 4.0):
        writer.append({"type": "note", "t": t})
    writer.close()
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([lines[0], lines[3], b""]))
    judged = journal.verdict(read_journal(path), [])
    assert judged.missing_lines == {2: 2}
    assert not judged.whole


def test_a_file_that_is_no_journal_is_named_in_the_log_and_a_good_one_is_not(
        tmp_path: Path, caplog: pytest.LogCaptureFixture):
    # "journal list" and the app's start skip a bad file and name it
    good = tmp_path / "good.jsonl"
    writer = JournalWriter(good)
    writer.append({"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "A"}, "black": {"name": "B"}})
    writer.close()
    (tmp_path / "junk.jsonl").write_bytes(b"\x00\x01 not a journal\n")
    with caplog.at_level(logging.WARNING, logger="blindchess.storage.journal"):
        infos = journal.list_journals(tmp_path)
    assert sorted(i.path.name for i in infos) == ["good.jsonl", "junk.jsonl"]
    named = [r.getMessage() for r in caplog.records]
    assert len(named) == 1 and "junk.jsonl" in named[0]


# --------------------------------------------------------------------------- the journal's own rules, pinned

START = {"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "A"}, "black": {"name": "B"}}


def _game(path: Path, *, close: bool, units: bool = False) -> JournalWriter:
    """A short game's journal: one half-move made (its input and its move-made line), then one more input."""
    writer = JournalWriter(path)
    lines = [[START],
             [{"seq": 2, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4"},
              {"seq": 3, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"}],
             [{"seq": 4, "type": "board-move", "t": 2.0, "board": "sighted", "uci": "e7e5"}]]
    for unit in lines:
        if units:
            writer.append_unit(unit)
        else:
            for event in unit:
                writer.append(event)
    if close:
        writer.close()
    return writer


@pytest.mark.parametrize("fragment", [b'{"seq":9,', b'{"seq":9', b'{"seq":9,"type":"no', b'{"seq":9,"type":',
                                      b'{"seq":9,"type":"note","t":2.5,"game_id":"'])
def test_a_write_cut_off_after_any_byte_of_the_last_line_loses_nothing(tmp_path: Path, fragment: bytes):
    # A crash stops the last write anywhere: after a comma or a colon, inside a number or a string. That
    # line was never acted on: reported, but the journal is whole.
    path = tmp_path / "g.jsonl"
    _game(path, close=False)
    with open(path, "ab") as f:
        f.write(fragment)
    read = read_journal(path)
    last = len(path.read_bytes().split(b"\n"))
    assert read.notes == read.problems == [(last, "truncated")]
    assert journal.verdict(read, ["e2e4"]).whole


def test_a_session_start_pasted_from_another_game_is_foreign_and_the_game_keeps_its_own(tmp_path: Path):
    ours, theirs = tmp_path / "ours.jsonl", tmp_path / "theirs.jsonl"
    _game(ours, close=True)
    _game(theirs, close=True)
    lines = ours.read_bytes().split(b"\n")
    pasted = theirs.read_bytes().split(b"\n")[0]
    ours.write_bytes(b"\n".join(lines[:4] + [pasted] + lines[4:]))
    read = read_journal(ours)
    assert read.problems == [(5, "foreign")]
    assert read.game_id == json.loads(lines[0])["game_id"] and read.recorded == ["e2e4"]


@pytest.mark.parametrize(("close", "units", "named"), [
    (False, False, [2]),   # a game not closed, written line by line: the damaged input may have made half-move 2
    (True, False, []),     # closed on purpose: every input's derived lines were written, so it made none
    (False, True, []),     # written in units: an input and what it caused stand together
])
def test_a_damaged_last_line_names_the_half_move_it_may_have_made(tmp_path: Path, close, units, named):
    path = tmp_path / "g.jsonl"
    _game(path, close=close, units=units)
    lines = path.read_bytes().split(b"\n")
    last = len(lines) - 2
    lines[last] = lines[last].replace(b"e7e5", b"e7e6")           # the CRC catches it
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    assert read.problems == [(last + 1, "corrupt")] and read.affected_plies() == named


def test_damage_between_half_moves_is_never_whole_and_a_cut_off_write_alone_is(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    _game(path, close=True)
    lines = path.read_bytes().split(b"\n")
    middle = len(lines) - 3                                         # the move-made line of half-move 1
    clock = json.loads(lines[middle])
    assert clock["type"] == "move-made"
    damaged = lines[:middle] + [lines[middle].replace(b'"t":1.0', b'"t":1.5')] + lines[middle + 1:]
    path.write_bytes(b"\n".join(damaged))
    judged = journal.verdict(read_journal(path), ["e2e4", "e7e5"])
    assert judged.plies == [] and judged.problems and not judged.whole   # nothing lost, still damaged
    notes_only = journal.Verdict([(9, "truncated")], [], 1, 1, True, notes=[(9, "truncated")])
    assert notes_only.whole
    lost = journal.Verdict([], [2], 2, 1, True)
    assert not lost.whole


def test_a_damaged_last_line_of_a_journal_without_a_length_line_names_the_next_half_move(tmp_path: Path):
    # A journal written before the length line existed cannot tell what its damaged last line held:
    # it may have been the input of the next half-move.
    fixture = DATA / "journals" / "game_whole.jsonl"
    lines = fixture.read_bytes().split(b"\n")
    assert b'"journal-length"' not in fixture.read_bytes()
    whole = read_journal(fixture)
    last = len(lines) - 2
    lines[last] = lines[last][:20] + bytes([lines[last][20] ^ 0x01]) + lines[last][21:]
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    assert read.problems == [(last + 1, "corrupt")] and read.length is None
    assert read.affected_plies() == [len(whole.recorded) + 1]


@pytest.mark.parametrize("name", sorted(p.name for p in (DATA / "journals").glob("*.jsonl")))
def test_journals_of_the_earlier_format_still_open_whole(name: str, capsys: pytest.CaptureFixture[str]):
    # Written by the format before the length line, the set-up's copy and the half-move counts.
    from blindchess.cli import main

    path = DATA / "journals" / name
    read = read_journal(path)
    assert read.problems == [] and read.length is None and not read.start_from_copy
    assert read.checked is (name != "before_split.jsonl")    # that one was written before the check fields
    assert main(["journal", "show", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["whole"] and len(shown["moves"]) >= len(read.recorded)


def test_a_journal_without_check_fields_still_opens_unchecked(capsys: pytest.CaptureFixture[str]):
    from blindchess.cli import main

    path = DATA / "session_before_split.jsonl"
    read = read_journal(path)
    assert not read.checked and read.problems == [] and read.length is None
    assert main(["journal", "show", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == ["e2e4", "e7e5", "g1f3", "b8c6"]


@pytest.mark.parametrize("stop", ["at-a-line-end", "inside-a-line"])
def test_a_unit_cut_off_by_a_failed_write_is_never_completed_by_the_next_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: str):
    # The disk fills up in the middle of a unit: the next unit gets numbers after the whole failed one,
    # so its lines are never taken for the failed unit's missing ones; the failed unit is never applied.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    unit = [{"seq": 2, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4"},
            {"seq": 3, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"},
            {"seq": 4, "type": "score", "t": 1.0, "derived": True}]
    first = writer.next_line_no
    real_write = os.write
    calls = {"n": 0}

    def write(fd: int, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            cut = bytes(data).index(b"\n") + (1 if stop == "at-a-line-end" else -5)
            return real_write(fd, bytes(data[:cut]))
        if calls["n"] == 2 and stop == "at-a-line-end":
            raise OSError(errno.ENOSPC, "no space left on device")
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "no space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)
    with pytest.raises(OSError):
        writer.append_unit(unit)
    monkeypatch.setattr(os, "write", real_write)
    assert writer.next_line_no == first + len(unit) + 1        # the unit's numbers, then the line naming it
    writer.append_unit([{"seq": 5, "type": "board-move", "t": 2.0, "board": "sighted", "uci": "d2d4"}])
    writer.close()
    read = read_journal(path)
    assert [e["uci"] for e in read.events if e["type"] == "board-move"] == ["d2d4"]   # the failed unit: never applied
    assert read.recorded == [] and read.notes and journal.verdict(read, []).whole


def test_a_failed_write_the_disk_takes_nothing_of_is_named_before_the_next_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    real_write = os.write
    calls = {"n": 0}

    def write(fd: int, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            return real_write(fd, bytes(data[:15]))           # a fragment, then a full disk
        raise OSError(errno.ENOSPC, "no space left on device")

    monkeypatch.setattr(os, "write", write)
    with pytest.raises(OSError):
        writer.append_unit([{"seq": 2, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4"}])
    monkeypatch.setattr(os, "write", real_write)                # space again
    writer.append_unit([{"seq": 3, "type": "board-move", "t": 2.0, "board": "sighted", "uci": "d2d4"}])
    writer.close()
    read = read_journal(path)
    assert [e["uci"] for e in read.events if e["type"] == "board-move"] == ["d2d4"]
    assert read.notes and journal.verdict(read, []).whole


def test_a_withdrawn_move_leaves_the_recorded_game(tmp_path: Path):
    # D.2.8: a move withdrawn by a correction is no longer part of the game the journal records.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    for event in (START, {"seq": 2, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"},
                  {"seq": 3, "type": "move-made", "t": 2.0, "derived": True, "ply": 2, "uci": "e7e5"},
                  {"seq": 4, "type": "move-withdrawn", "t": 3.0, "derived": True, "ply": 2}):
        writer.append(event)
    writer.close()
    assert read_journal(path).recorded == ["e2e4"]


def test_a_file_of_blank_lines_becomes_a_journal_from_line_1(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n\n")
    writer = JournalWriter(path)
    writer.append(START)
    writer.close()
    read = read_journal(path)
    assert read.checked and read.problems == [] and read.events[0]["line_no"] == 1


def test_the_journal_list_of_a_missing_folder_is_empty_and_a_junk_file_is_unchecked(tmp_path: Path):
    assert journal.list_journals(tmp_path / "no-such-folder") == []
    (tmp_path / "junk.jsonl").write_bytes(b"\x00\xff junk\n")
    os.mkfifo(tmp_path / "pipe.jsonl")
    infos = {i.path.name: i for i in journal.list_journals(tmp_path)}
    assert set(infos) == {"junk.jsonl", "pipe.jsonl"}
    assert all(i.error is not None and i.checked is False and i.start_event is None for i in infos.values())
    assert infos["pipe.jsonl"].error == "not-regular"


def test_a_second_lost_block_is_named_after_a_first_one_was(tmp_path: Path):
    # Two problems apart: a damaged note, later the last half-move's input and move-made lost. The second
    # loss is named from the count of the line after it, never from the first problem's.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    units = [[START],
             [{"seq": 2, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4"},
              {"seq": 3, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"}],
             [{"seq": 4, "type": "note", "t": 1.5, "text": "x"}],
             [{"seq": 5, "type": "press", "t": 1.7, "color": "white"}],
             [{"seq": 6, "type": "board-move", "t": 2.0, "board": "sighted", "uci": "e7e5"},
              {"seq": 7, "type": "move-made", "t": 2.0, "derived": True, "ply": 2, "uci": "e7e5"}],
             [{"seq": 8, "type": "note", "t": 3.0, "text": "y"}],
             [{"seq": 9, "type": "note", "t": 4.0, "text": "z"}]]
    for unit in units:
        for event in unit:
            writer.append(event)
    writer.close()
    lines = path.read_bytes().split(b"\n")
    kinds = [json.loads(x).get("type") for x in lines if x]
    note = kinds.index("note")
    lines[note] = lines[note].replace(b'"x"', b'"X"')                # damaged: between half-moves
    second = [i for i, k in enumerate(kinds) if k in ("board-move", "move-made")][-2:]
    kept = [x for i, x in enumerate(lines) if i not in second]
    path.write_bytes(b"\n".join(kept))
    read = read_journal(path)
    assert read.affected_plies(["e2e4"]) == [2]


def test_a_deleted_first_line_is_named_missing_and_the_set_up_read_from_its_copy(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    _game(path, close=True, units=True)
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[1:]))
    read = read_journal(path)
    assert read.problems == [(1, "missing")] and read.damage[0].count == 1
    assert read.start_from_copy and read.events[0]["type"] == "session-start"


def test_a_damaged_line_and_a_deleted_one_after_it_are_both_named(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    _game(path, close=True)
    lines = path.read_bytes().split(b"\n")              # start, copy, length, input, move-made, input, ""
    damaged = lines[3].replace(b"e2e4", b"e2e3")
    path.write_bytes(b"\n".join(lines[:3] + [damaged] + lines[5:]))    # line 5 (the move-made) deleted
    read = read_journal(path)
    assert [(d.line, d.reason, d.count) for d in read.damage] == [(4, "corrupt", 1), (5, "missing", 1)]

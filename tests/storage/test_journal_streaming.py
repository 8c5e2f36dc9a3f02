"""A journal is read as a stream: what reading costs is the game it holds, whatever else the file contains.

A file that is no journal is refused from its first lines (one line for the user), never read to its end; junk
in a journal — a run of damaged lines, however long, or a line longer than any journal line — is one problem
naming its first and last line, and is never held; the game's lines are read as always. ``journal list`` and
the app's start read one file at a time, the app's start newest first until it finds the game to reopen. The
figures (memory and time for 600,000 lines of ``{}``, 60 lines of 0.9 MB and a real 160-half-move game) are
in ``tests/benchmarks/bench_journal_memory.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import chess
import pytest

from blindchess.adapters import journal_messages
from blindchess.cli import main
from blindchess.game import Player, Session
from blindchess.storage import journal
from blindchess.storage.journal import (
    HEAD_LINES,
    InputId,
    JournalWriter,
    NotAJournal,
    last_unfinished,
    list_journals,
    read_journal,
    verdict,
)

MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]


def played(path: Path, moves: list[str] = MOVES, *, close: bool = True) -> Session:
    """A game as the table plays it (the sighted player White, the blind player Black)."""
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    t = 0.0
    for i, uci in enumerate(moves):
        t += 5.0
        move = chess.Move.from_uci(uci)
        if i % 2 == 0:
            s.board_move("sighted", move, t)
            s.press_clock(chess.WHITE, t + 0.5)
            s.board_move("tactile", move, t + 1.0)
        else:
            s.board_move("tactile", move, t + 0.5)
            s.announce(move, uci, t + 1.0)
            s.press_clock(chess.BLACK, t + 1.5)
            s.board_move("sighted", move, t + 2.0)
    if close:
        s.close()
    return s


class ReadCounter:
    """Counts the bytes read from files (os.read), to show how far a reader went."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bytes = 0
        real = os.read

        def read(fd: int, n: int) -> bytes:
            data = real(fd, n)
            self.bytes += len(data)
            return data

        monkeypatch.setattr(journal.os, "read", read)


@pytest.mark.parametrize("junk", [b"{}\n", b"[]\n", b"not json at all\n", b'{"seq":1,"type":"x","t":0}\n',
                                  b"\x00\xff\xfe" * 100 + b"\n", b"\n\n{}\n"])
def test_a_file_that_is_no_journal_is_refused_from_its_first_lines(tmp_path, monkeypatch, junk):
    path = tmp_path / "junk.jsonl"
    path.write_bytes(junk * 300_000)          # megabytes of it
    counter = ReadCounter(monkeypatch)
    with pytest.raises(NotAJournal):
        read_journal(path)
    assert counter.bytes <= 1 << 20           # the first chunk, never the rest


def test_a_file_of_one_endless_line_is_refused_without_holding_it(tmp_path, monkeypatch):
    path = tmp_path / "one.jsonl"
    with path.open("wb") as f:
        f.write(b'{"a":"' + b"x" * (40 << 20) + b'"}\n')   # 40 MB in one line
    counter = ReadCounter(monkeypatch)
    with pytest.raises(NotAJournal):
        read_journal(path)
    assert counter.bytes == path.stat().st_size   # read to its end as a stream: nothing else tells where it ends


def test_the_refusal_is_one_line_for_the_user(tmp_path, capsys):
    path = tmp_path / "junk.jsonl"
    path.write_bytes(b"{}\n" * 10_000)
    for args in (["journal", "show", str(path)], ["export", str(path), "-o", str(tmp_path / "out.pgn")]):
        assert main(args) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "junk.jsonl" in err[0] and "Journal" in err[0], err
    assert not (tmp_path / "out.pgn").exists()


def test_a_short_file_is_judged_by_the_lines_it_has(tmp_path):
    # fewer whole lines than HEAD_LINES: judged by those; a first write cut off (no newline) is no refusal
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"{}\n")
    with pytest.raises(NotAJournal):
        read_journal(path)
    path.write_bytes(b'{"seq":1,"type":"session-start","t":0.0,"white":{"na')
    read = read_journal(path)
    assert read.events == [] and read.problems == [(1, "truncated")]
    assert HEAD_LINES == 3


def test_junk_appended_to_a_journal_is_one_problem_and_the_game_is_read(tmp_path):
    path = tmp_path / "g.jsonl"
    played(path)
    whole = read_journal(path)
    lines = path.read_bytes().count(b"\n")
    with path.open("ab") as f:
        f.write(b"{}\n" * 50_000 + b"\n" + b"junk\n" * 50_000)     # blank lines between damaged ones: one run
    read = read_journal(path)
    assert read.events == whole.events and read.recorded == whole.recorded
    assert read.problems == [(lines + 1, "corrupt")]
    assert read.damage[0].count == 100_001                  # lines lines+1 … lines+100,001
    session = Session.load(path, read=read)
    result = verdict(read, [m.uci() for m in session.snapshot.game_moves], session.snapshot.journal_problems)
    # after the game's last line nothing tells what a damaged line held: the next half-move may be lost
    assert not result.whole and result.plies == [7] and result.spans == {lines + 1: 100_001}
    told = journal_messages(result, path, "en")
    assert f"lines {lines + 1}–{lines + 100_001}:" in "\n".join(told)


def test_a_line_longer_than_any_journal_line_is_damage_never_held(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    played(path)
    data = path.read_bytes().split(b"\n")
    long = b'{"seq":9,"type":"note","t":1.0,"text":"' + b"y" * (3 << 20) + b'"}'
    path.write_bytes(b"\n".join(data[:6] + [long] + data[6:]))
    held: list[int] = []
    real = journal._parse

    def parse(number: int, raw: bytes, last: bool):
        held.append(len(raw))
        return real(number, raw, last)

    monkeypatch.setattr(journal, "_parse", parse)
    read = read_journal(path)
    assert (7, "corrupt") in read.problems
    assert max(held) < (1 << 20)               # the long line never reached the parser: it was let go as read


def test_journal_list_names_a_junk_file_and_the_app_start_reads_newest_first(tmp_path, monkeypatch):
    folder = tmp_path / "journals"
    folder.mkdir()
    finished = folder / "a-finished.jsonl"
    s = played(finished, close=False)
    s.resign(chess.BLACK, 30.0)
    s.close()
    unfinished = folder / "b-unfinished.jsonl"
    played(unfinished)
    newest_junk = folder / "c-junk.jsonl"
    newest_junk.write_bytes(b"{}\n" * 100_000)
    for age, path in enumerate((newest_junk, unfinished, finished)):
        os.utime(path, (1_700_000_000 - age * 100, 1_700_000_000 - age * 100))
    infos = {i.path.name: i for i in list_journals(folder)}
    assert infos["c-junk.jsonl"].error == "no-start" and infos["c-junk.jsonl"].start_event is None
    assert infos["b-unfinished.jsonl"].error is None and not infos["b-unfinished.jsonl"].finished
    described: list[str] = []
    real = journal.describe
    monkeypatch.setattr(journal, "describe", lambda p: described.append(Path(p).name) or real(p))
    assert last_unfinished(folder) == unfinished
    assert described == ["c-junk.jsonl", "b-unfinished.jsonl"]        # the older journal is never read


def test_every_unit_keeps_its_input_and_the_reader_knows_the_highest_of_each_origin(tmp_path):
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([{"seq": 1, "type": "session-start", "t": 0.0}])
    writer.append_unit([{"seq": 2, "type": "note", "t": 1.0}, {"seq": 3, "type": "x", "t": 1.0, "derived": True}],
                       ident=InputId("script", 17))
    writer.append_unit([{"seq": 4, "type": "note", "t": 2.0}], ident=InputId("script", 18, 1))
    writer.append_unit([{"seq": 5, "type": "note", "t": 3.0}], ident=InputId("app", 4))
    writer.close()
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    firsts = [line for line in lines if "unit_lines" in line]
    assert [line.get("input") for line in firsts] == [None, "script:17", "script:18.1", "app:4"]
    assert all("input" not in line for line in lines if "unit_lines" not in line)
    assert list(firsts[1])[-6:] == ["game_id", "line_no", "unit_lines", "input", "plies_before", "crc"]
    read = read_journal(path)
    assert read.problems == []
    assert read.inputs == {"script": InputId("script", 18, 1), "app": InputId("app", 4)}
    # a unit cut off by a crash was never applied: its input is not held
    data = path.read_bytes()
    cut = data.rindex(b'"input":"app:4"')
    path.write_bytes(data[:cut])
    assert read_journal(path).inputs == {"script": InputId("script", 18, 1)}


@pytest.mark.parametrize("text", ["script:17", "script:17.3", "app:1", "a-b:999999999999.999999"])
def test_an_input_s_identity_reads_back_as_written(text):
    ident = InputId.parse(text)
    assert ident is not None and str(ident) == text


@pytest.mark.parametrize("text", ["", "script", "script:", "Script:1", "script:-1", "script:1.", "x:1.1234567",
                                  "script:1:2", 17, None, "a" * 17 + ":1"])
def test_what_is_no_identity_reads_as_none(text):
    assert InputId.parse(text) is None


def test_identities_of_one_origin_come_in_order():
    assert InputId("script", 9) < InputId("script", 10) < InputId("script", 10, 1) < InputId("script", 11)
    with pytest.raises(ValueError):
        InputId("Script", 1)
    with pytest.raises(ValueError):
        InputId("script", -1)


def test_one_damaged_line_is_named_as_its_line_not_as_a_stretch(tmp_path):
    path = tmp_path / "g.jsonl"
    played(path)
    lines = path.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b'"t":', b'"t" :', 1)          # one line changed: its CRC fails
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    session = Session.load(path, read=read)
    result = verdict(read, [m.uci() for m in session.snapshot.game_moves], session.snapshot.journal_problems)
    assert result.problems == [(6, "corrupt")] and result.spans == {}
    assert "  line 6:" in "\n".join(journal_messages(result, path, "en"))


def test_an_envelope_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not(tmp_path, monkeypatch):
    game = tmp_path / "g.jsonl"
    journal.write_envelope(game, {"seq": 4, "hidden": {"written": "e4"}})
    size = journal.envelope_path(game).stat().st_size
    monkeypatch.setattr(journal, "MAX_BYTES", size)
    assert journal.read_envelope(game) == {"seq": 4, "hidden": {"written": "e4"}}
    monkeypatch.setattr(journal, "MAX_BYTES", size - 1)
    assert journal.read_envelope(game) is None          # too big to be an envelope: none that can be read


def test_a_file_past_the_journal_size_limit_is_listed_as_too_big_unread(tmp_path):
    # a sparse file one byte past the limit: refused by its size, not read (never read for ever)
    big = tmp_path / "huge.jsonl"
    with big.open("wb") as f:
        f.truncate(journal.MAX_BYTES + 1)
    (entry,) = journal.list_journals(tmp_path)
    assert entry.error == "too-big" and entry.start_event is None


def test_a_journal_whose_start_is_on_its_third_line_is_read_and_on_its_fourth_is_refused(tmp_path):
    # the first HEAD_LINES whole lines decide: damaged lines before the start (a disk's garbage) are allowed
    # up to two; a third line of junk before any journal line and the file is no journal
    good = tmp_path / "g.jsonl"
    played(good)
    data = good.read_bytes()
    two = tmp_path / "two.jsonl"
    two.write_bytes(b"{}\n" * (HEAD_LINES - 1) + data)
    read = read_journal(two)
    assert [e["uci"] for e in read.events if e["type"] == "move-made"] == MOVES
    three = tmp_path / "three.jsonl"
    three.write_bytes(b"{}\n" * HEAD_LINES + data)
    with pytest.raises(NotAJournal):
        read_journal(three)


def test_the_half_moves_a_replay_does_not_reproduce_are_named_from_one(tmp_path):
    path = tmp_path / "g.jsonl"
    played(path)
    read = read_journal(path)
    assert read.affected_plies(MOVES) == []
    assert read.affected_plies(MOVES[:3] + ["d7d6"] + MOVES[4:]) == [4]     # 2...d6 where 2...Nc6 was recorded
    assert read.affected_plies(MOVES[:5]) == [6]                            # the replay stops short of 3...a6


def test_a_journal_ending_with_a_unit_of_one_line_is_whole(tmp_path):
    # a touch is a unit of one line: the last unit of the journal, whole, is neither cut off nor dropped
    path = tmp_path / "g.jsonl"
    s = played(path, close=False)
    s.touch(chess.G8, 40.0)
    s.abandon()                       # as a crash leaves it: the program never closed it
    read = read_journal(path)
    assert read.events[-1]["type"] == "touch" and read.events[-1]["unit_lines"] == 1
    assert read.problems == [] and read.notes == []


def test_an_envelope_with_a_value_json_cannot_hold_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(ValueError):
        journal.write_envelope(tmp_path / "g.jsonl", {"sealed_at": float("nan")})
    assert list(tmp_path.iterdir()) == []


def test_a_half_move_whose_record_is_damaged_is_named_from_one_unless_the_replay_recovers_it(tmp_path):
    path = tmp_path / "g.jsonl"
    played(path)
    lines = path.read_bytes().split(b"\n")
    at = next(i for i, line in enumerate(lines) if b'"move-made"' in line and b'"ply":4' in line)
    lines[at] = lines[at].replace(b'"san"', b'"sXn"')          # 2...Nc6's record damaged
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    assert read.recorded[3] is None
    assert read.affected_plies() == [4]
    assert read.affected_plies(MOVES[:3]) == [4, 5, 6]        # the replay stops before it
    assert read.affected_plies(MOVES) == []                   # its input line is whole: the replay recovers it


def test_a_dangling_link_among_the_journals_does_not_keep_the_app_from_its_game(tmp_path):
    # a link to a journal since deleted (a folder synced from elsewhere): it is sorted by the link's own time
    # and skipped as unreadable; the unfinished game is still found
    game = tmp_path / "g.jsonl"
    played(game, close=False).abandon()
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "deleted.jsonl")
    assert last_unfinished(tmp_path) == game


def test_a_file_that_is_no_journal_is_listed_as_such_and_a_journal_beside_it_is_read(tmp_path):
    (tmp_path / "junk.jsonl").write_bytes(b"{}\n" * 10)
    played(tmp_path / "g.jsonl")
    entries = {e.path.name: e for e in list_journals(tmp_path)}
    assert entries["junk.jsonl"].error == "no-start" and entries["junk.jsonl"].start_event is None
    assert entries["g.jsonl"].error is None and entries["g.jsonl"].white == "Anna"

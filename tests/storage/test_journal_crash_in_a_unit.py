"""A crash while a unit is being written (an input and every event it causes: one write, then fsync): what the
reader makes of the journal the table left. Real journals written by the rules engine at the table; the crash is the
file as it stood at that byte — the length line rewritten in place only after the unit's fsync."""

from __future__ import annotations

import json
from pathlib import Path

import chess

from blindchess.game import Player, Session
from blindchess.storage import journal
from blindchess.storage.journal import read_journal

E4 = chess.Move.from_uci("e2e4")


def _line_types(data: bytes) -> list[str]:
    return [json.loads(line)["type"] for line in data.split(b"\n") if line]


def _announced(path: Path) -> tuple[bytes, bytes]:
    """The journal before and after the unit that makes White's first half-move (the blind player's
    announcement: the announce line, its move-made line and what it asks of the other board)."""
    s = Session.new(Player("Anna", True), Player("Bert"), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    s.board_move("tactile", E4, 1.0)
    before = path.read_bytes()
    s.announce(E4, "Eva vier", 1.5)
    after = path.read_bytes()
    s.abandon()
    added = _line_types(after[len(before):])
    assert added[0] == "announce" and "move-made" in added and len(added) >= 3    # a unit of several lines
    return before, after


def test_a_crash_at_any_byte_of_the_unit_that_makes_a_move_leaves_the_game_before_it_and_loses_nothing(
        tmp_path: Path):
    path = tmp_path / "g.jsonl"
    before, after = _announced(path)
    first_new = before.count(b"\n") + 1                  # the number of the unit's first line
    whole = read_journal(path)
    assert whole.recorded == ["e2e4"] and whole.problems == []
    for cut in range(len(before) + 1, len(after) - 1):     # (up to the last line's newline: that is whole)
        torn = before + after[len(before):cut]            # the length line still counts the lines before the unit
        path.write_bytes(torn)
        read = read_journal(path)
        shown = torn.count(b"\n") + (0 if torn.endswith(b"\n") else 1)
        # never half an input: the move is not made, nothing of the unit is applied, the lines are named
        assert read.recorded == [], cut
        assert [e["type"] for e in read.events] == [t for t in _line_types(before) if t not in journal.OWN_TYPES], cut
        assert read.notes == read.problems == [(n, "truncated") for n in range(first_new, shown + 1)], cut
        assert journal.verdict(read, []).whole, cut
        assert read.next_line_no == shown + 1, cut          # the next line is numbered after what stands
    path.write_bytes(after[:-1])                          # every line written, the last one's newline not yet
    read = read_journal(path)
    assert read.recorded == ["e2e4"] and read.problems == read.notes == []
    path.write_bytes(after)
    assert read_journal(path).recorded == ["e2e4"]


def test_a_unit_the_length_line_counts_but_the_file_no_longer_holds_whole_is_damage(tmp_path: Path):
    # The fsync made the unit durable and the length line counts it: lines of it missing later are damage
    # (the move was made and acted on), never a write cut off by the crash.
    path = tmp_path / "g.jsonl"
    before, after = _announced(path)
    unit = after[len(before):].split(b"\n")[:-1]
    for kept in range(1, len(unit)):
        path.write_bytes(after[:len(before)] + b"".join(line + b"\n" for line in unit[:kept]))
        read = read_journal(path)
        lines_left = before.count(b"\n") + kept
        assert read.notes == [], kept
        # named after the last line the file holds, with how many lines are gone
        assert read.problems == [(lines_left + 1, "missing")] and read.damage[0].count == len(unit) - kept, kept
        assert not journal.verdict(read, []).whole, kept


def test_a_unit_torn_by_a_crash_is_never_applied_after_the_game_is_reopened_and_goes_on(tmp_path: Path):
    # The game reopened after the crash writes on below the torn unit; its lines stay unapplied, every one named.
    path = tmp_path / "g.jsonl"
    before, after = _announced(path)
    unit = after[len(before):].split(b"\n")[:-1]
    first_new = before.count(b"\n") + 1
    path.write_bytes(before + b"".join(line + b"\n" for line in unit[:2]))   # the move-made line among them
    s = Session.open(path, 10.0)
    assert s.snapshot.game_moves == ()
    s.board_move("tactile", chess.Move.from_uci("d2d4"), 11.0)
    s.announce(chess.Move.from_uci("d2d4"), "Dora vier", 12.0)
    s.close()
    read = read_journal(path)
    assert read.notes == read.problems == [(first_new, "truncated"), (first_new + 1, "truncated")]
    assert read.recorded == ["d2d4"] and journal.verdict(read, ["d2d4"]).whole
    assert Session.load(path).snapshot.game_moves == (chess.Move.from_uci("d2d4"),)


def test_the_set_up_s_copy_stands_in_at_the_start_when_the_first_line_is_damaged(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    _, after = _announced(path)
    first, rest = after.split(b"\n", 1)
    path.write_bytes(first.replace(b'"Anna"', b'"Anne"') + b"\n" + rest)     # the checksum no longer agrees
    read = read_journal(path)
    assert read.problems == [(1, "corrupt")] and read.start_from_copy
    assert read.events[0]["type"] == "session-start" and read.events[0]["white"]["name"] == "Anna"
    assert [e["type"] for e in read.events][1:3] == ["clock-start", "board-move"]     # in its place: first
    assert read.recorded == ["e2e4"]
    assert Session.load(path).snapshot.game_moves == (E4,)

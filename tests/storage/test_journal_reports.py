"""What the reader reports is shown to the arbiter as it was found (FIDE Laws Art. 8: the score is the game's
record; Appendix D.2.7): a report cannot be changed after the reading, and a write a crash cut off is one line,
reported once — never a stretch of damaged lines.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from blindchess.storage import journal
from blindchess.storage.journal import JournalWriter, read_journal, verdict

START = {"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "A"}, "black": {"name": "B"}}


def _cut_game(path: Path) -> journal.JournalRead:
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit([{"seq": 2, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4"},
                        {"seq": 3, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"}])
    writer.abandon()
    with path.open("ab") as f:
        f.write(b'{"seq":4,"type":"board-move","t":2.0,"bo')         # the next write, cut by a crash
    return read_journal(path)


def test_a_write_cut_off_is_one_line_reported_once_and_loses_nothing(tmp_path: Path):
    read = _cut_game(tmp_path / "g.jsonl")
    assert [(d.line, d.reason, d.count, d.plies) for d in read.damage] == [(6, "truncated", 1, [])]
    found = verdict(read, ["e2e4"])
    assert found.whole and found.spans == {} and found.missing_lines == {} and found.notes == [(6, "truncated")]


def test_what_the_reader_found_cannot_be_changed_after_the_reading(tmp_path: Path):
    read = _cut_game(tmp_path / "g.jsonl")
    found = verdict(read, ["e2e4"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.damage[0].reason = "corrupt"            # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.plies = [1]                            # type: ignore[misc]
    assert read.length is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.length.lines = 99                       # type: ignore[misc]
    # values: the same findings are equal and can be collected, e.g. to name each problem once
    assert len({read.damage[0], _cut_game(tmp_path / "h.jsonl").damage[0]}) == 1


def test_a_half_move_the_record_skips_is_named_unless_the_replay_makes_it(tmp_path: Path):
    # The journal records half-moves 1 and 3 (the line of the 2nd never written): the 2nd is named as
    # possibly lost when the replay stops before it, and not when the replay makes it.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append(START)
    writer.append({"seq": 2, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"})
    writer.append({"seq": 3, "type": "move-made", "t": 3.0, "derived": True, "ply": 3, "uci": "g1f3"})
    writer.close()
    read = read_journal(path)
    assert read.recorded == ["e2e4", None, "g1f3"] and read.problems == []
    assert read.affected_plies() == [2]
    assert read.affected_plies(["e2e4"]) == [2, 3]
    assert read.affected_plies(["e2e4", "e7e5"]) == [3]
    assert read.affected_plies(["e2e4", "e7e5", "g1f3"]) == []


@pytest.mark.parametrize("damaged, replayed, named", [
    (0, ["e2e4", "e7e5"], []),            # the first input damaged, the replay makes its half-move: recovered
    (1, ["e2e4", "e7e5"], []),            # the last one, made by the replay: recovered
    (1, ["e2e4"], [2]),                   # the last one, not made by the replay: named
    (1, ["e2e4", "d7d5"], [2]),           # made otherwise than recorded: named
])
def test_a_half_move_whose_input_line_is_damaged_is_named_only_if_the_replay_does_not_make_it_as_recorded(
        tmp_path: Path, damaged: int, replayed: list[str], named: list[int]):
    # The replay of the good lines may still make the half-move of a damaged input line (the other board's
    # line gives it): then nothing is lost.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    for seq, (ply, uci) in enumerate(((1, "e2e4"), (2, "e7e5"))):
        writer.append_unit([{"seq": 2 + 2 * seq, "type": "board-move", "t": float(ply), "board": "sighted", "uci": uci},
                            {"seq": 3 + 2 * seq, "type": "move-made", "t": float(ply), "derived": True, "ply": ply,
                             "uci": uci}])
    writer.append_unit([{"seq": 6, "type": "note", "t": 3.0, "text": "x"}])
    writer.close()
    lines = path.read_bytes().split(b"\n")
    inputs = [i for i, x in enumerate(lines) if b'"type":"board-move"' in x]
    lines[inputs[damaged]] = lines[inputs[damaged]].replace(b'"board":"sighted"', b'"board":"Sighted"')
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    assert [(d.reason, d.plies) for d in read.damage] == [("corrupt", [damaged + 1])]
    assert read.recorded == ["e2e4", "e7e5"]
    assert read.affected_plies(replayed) == named


def test_a_half_move_whose_input_and_record_are_both_damaged_is_named_from_the_next_line(tmp_path: Path):
    # Both lines of the unit that made the 2nd half-move are damaged: nothing of it is left but the count the
    # next good line carries (plies_before 2) — the 2nd half-move is named lost.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    for seq, (ply, uci) in enumerate(((1, "e2e4"), (2, "e7e5"))):
        writer.append_unit([{"seq": 2 + 2 * seq, "type": "board-move", "t": float(ply), "board": "sighted", "uci": uci},
                            {"seq": 3 + 2 * seq, "type": "move-made", "t": float(ply), "derived": True, "ply": ply,
                             "uci": uci}])
    writer.append_unit([{"seq": 6, "type": "note", "t": 3.0, "text": "x"}])
    writer.close()
    lines = path.read_bytes().split(b"\n")
    for index in (5, 6):
        lines[index] = lines[index].replace(b"e7e5", b"e7e6")
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    assert read.recorded == ["e2e4"] and [(d.line, d.count) for d in read.damage] == [(6, 2)]
    assert read.affected_plies(["e2e4"]) == [2]


def test_damage_before_the_first_half_move_names_no_half_move(tmp_path: Path):
    # A damaged note before any move was made: nothing recorded is lost, before the game's first half-move.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit([{"seq": 2, "type": "note", "t": 0.5, "text": "x"}])
    writer.append_unit([{"seq": 3, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4"},
                        {"seq": 4, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"}])
    writer.close()
    path.write_bytes(path.read_bytes().replace(b'"text":"x"', b'"text":"y"'))
    read = read_journal(path)
    assert [(d.line, d.reason, d.plies) for d in read.damage] == [(4, "corrupt", [])]
    assert verdict(read, ["e2e4"]).plies == []


def test_a_damaged_last_line_of_a_game_without_moves_names_no_half_move(tmp_path: Path):
    # Closed on purpose before any move: its damaged last line lost no half-move.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([START])
    writer.append_unit([{"seq": 2, "type": "note", "t": 0.5, "text": "x"}])
    writer.close()
    path.write_bytes(path.read_bytes().replace(b'"text":"x"', b'"text":"y"'))
    read = read_journal(path)
    assert [(d.line, d.reason, d.plies) for d in read.damage] == [(4, "corrupt", [])]

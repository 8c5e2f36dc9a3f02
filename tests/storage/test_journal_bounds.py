"""The journal's bounds, exactly (docs/developer/journal-format.md, "Bounded"): a line of at most
:data:`~blindchess.base.bounds.MAX_LINE_BYTES` is read wherever it stands — across the reader's chunks, its
newline the first byte of the next one —, a byte more is damage; a ruling may record up to
:data:`~blindchess.base.bounds.MAX_PLIES` half-moves, one more is no record; a half-move withdrawn (D.2.8) is
one from 1 on.
"""

from __future__ import annotations

from pathlib import Path

from blindchess.base import MAX_LINE_BYTES, MAX_PLIES
from blindchess.storage import journal
from blindchess.storage.journal import JournalWriter, read_journal

START = {"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "A"}, "black": {"name": "B"}}


def _note(writer: JournalWriter, seq: int, size: int) -> dict:
    """A note whose line, newline included, is ``size`` bytes long as ``writer`` writes it next."""
    event = {"seq": seq, "type": "note", "t": float(seq), "text": ""}
    bare = len(journal._encode_checked(event, writer.game_id, writer.next_line_no, 0))
    event["text"] = "n" * (size - bare)
    assert len(journal._encode_checked(event, writer.game_id, writer.next_line_no, 0)) == size
    return event


def test_lines_of_the_longest_size_are_read_across_chunks_and_a_byte_more_is_damage(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append(START)
    chunk = journal._CHUNK
    # a note up to MAX_LINE_BYTES before the end of the reader's first chunk, then a line of exactly
    # MAX_LINE_BYTES ending there: its newline is the first byte of the second chunk
    writer.append(_note(writer, 2, chunk - MAX_LINE_BYTES - path.stat().st_size))
    assert path.stat().st_size == chunk - MAX_LINE_BYTES
    writer.append(_note(writer, 3, MAX_LINE_BYTES + 1))
    assert path.read_bytes()[chunk:chunk + 1] == b"\n"
    writer.append(_note(writer, 4, MAX_LINE_BYTES + 1))        # the longest line again, inside one chunk
    writer.append(_note(writer, 5, MAX_LINE_BYTES + 2))        # one byte longer
    writer.append({"seq": 6, "type": "note", "t": 6.0, "text": "after"})
    writer.close()
    read = read_journal(path)
    assert [e["seq"] for e in read.events] == [1, 2, 3, 4, 6]
    assert read.problems == [(7, "corrupt")]                    # the set-up, its copy, the length line, 2, 3, 4, 5


def _recorded(path: Path, *events: dict) -> list[str | None]:
    writer = JournalWriter(path)
    writer.append(START)
    for event in events:
        writer.append(event)
    writer.close()
    return read_journal(path).recorded


def test_a_ruling_records_up_to_the_longest_game_and_no_more(tmp_path: Path):
    longest = ["e2e4"] * MAX_PLIES
    assert len(_recorded(tmp_path / "a.jsonl", {"seq": 2, "type": "ruling", "t": 1.0, "moves": longest})) == MAX_PLIES
    made = {"seq": 2, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"}
    assert _recorded(tmp_path / "b.jsonl", made, {"seq": 3, "type": "ruling", "t": 2.0,
                                                  "moves": longest + ["e7e5"]}) == ["e2e4"]


def test_a_half_move_withdrawn_is_counted_from_one(tmp_path: Path):
    made = [{"seq": 2, "type": "move-made", "t": 1.0, "derived": True, "ply": 1, "uci": "e2e4"},
            {"seq": 3, "type": "move-made", "t": 2.0, "derived": True, "ply": 2, "uci": "e7e5"}]
    first = {"seq": 4, "type": "move-withdrawn", "t": 3.0, "derived": True, "ply": 1}
    none = {"seq": 4, "type": "move-withdrawn", "t": 3.0, "derived": True, "ply": 0}
    assert _recorded(tmp_path / "a.jsonl", *made, first) == []               # the first half-move and all after it
    assert _recorded(tmp_path / "b.jsonl", *made, none) == ["e2e4", "e7e5"]  # no half-move 0: nothing withdrawn


def test_a_move_line_whose_half_move_is_no_whole_number_records_nothing(tmp_path: Path):
    # A line edited by hand or written by another program: "ply" 1.0, "1" or true names no half-move — the
    # journal is read (never a crash) and records no move from it.
    for number, ply in enumerate((1.0, "1", True, 2.5)):
        made = {"seq": 2, "type": "move-made", "t": 1.0, "derived": True, "ply": ply, "uci": "e2e4"}
        withdrawn = {"seq": 3, "type": "move-withdrawn", "t": 2.0, "derived": True, "ply": ply}
        good = {"seq": 4, "type": "move-made", "t": 3.0, "derived": True, "ply": 1, "uci": "d2d4"}
        assert _recorded(tmp_path / f"{number}.jsonl", made, good, withdrawn) == ["d2d4"]

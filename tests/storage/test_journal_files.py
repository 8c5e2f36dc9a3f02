"""The journals as files an organiser and an arbiter handle: their names (the players', readable, bounded),
the list of them (``journal list``, the app's start), and the sealed envelope beside a journal (Guidelines
I.2–3: the arbiter's envelope, one size whatever it holds, the move as the sealer wrote it).
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

from blindchess.base import MAX_HEADER_CHARS
from blindchess.storage import journal
from blindchess.storage.journal import JournalWriter, list_journals, read_journal, verdict

WHEN = datetime.datetime(2026, 11, 29, 14, 30, 0)


def test_a_journal_is_named_by_its_players_readably_and_never_too_long(tmp_path: Path):
    assert journal.new_path("Jürgen Groß", "Анна", when=WHEN, folder=tmp_path).name == \
        "20261129-143000-Jürgen_Groß-Анна.jsonl"
    long = journal.new_path("A" * 60, "B", when=WHEN, folder=tmp_path).name
    assert long == f"20261129-143000-{'A' * 40}-B.jsonl"
    # a name of nothing but punctuation (or none) still names a player
    assert journal.new_path("?!", "", when=WHEN, folder=tmp_path).name == "20261129-143000-player-player.jsonl"


def _game(path: Path, white: str, black: str = "B") -> None:
    writer = JournalWriter(path)
    writer.append_unit([{"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": white},
                         "black": {"name": black}}])
    writer.close()


def test_a_player_s_name_is_listed_up_to_the_longest_a_header_holds(tmp_path: Path):
    _game(tmp_path / "a.jsonl", "W" * MAX_HEADER_CHARS)
    _game(tmp_path / "b.jsonl", "W" * (MAX_HEADER_CHARS + 1))
    infos = {i.path.name: i for i in list_journals(tmp_path)}
    assert infos["a.jsonl"].white == "W" * MAX_HEADER_CHARS and infos["a.jsonl"].error is None
    assert infos["b.jsonl"].error == "bad-field" and infos["b.jsonl"].start_event is None
    writer = JournalWriter(tmp_path / "c.jsonl")       # a name that is no text
    writer.append_unit([{"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": 42}, "black": {"name": "B"}}])
    writer.close()
    assert journal.describe(tmp_path / "c.jsonl").error == "bad-field"


def test_a_file_that_holds_no_game_is_listed_as_nothing_played_nothing_damaged(tmp_path: Path):
    # What the list says of a file it cannot use: no half-move, not finished, not a damaged game — only why.
    (tmp_path / "junk.jsonl").write_bytes(b"{}\n" * 5)
    os.mkfifo(tmp_path / "pipe.jsonl")
    infos = {i.path.name: i for i in list_journals(tmp_path)}
    for name, error in (("junk.jsonl", "no-start"), ("pipe.jsonl", "not-regular")):
        info = infos[name]
        assert (info.error, info.plies, info.finished, info.damaged, info.result) == (error, 0, False, False, None)


def test_two_damaged_lines_one_after_another_are_named_as_one_stretch(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    _game(path, "A")
    writer = JournalWriter(path)
    for seq in (2, 3, 4, 5):
        writer.append_unit([{"seq": seq, "type": "note", "t": float(seq), "text": "x"}])
    writer.close()
    lines = path.read_bytes().split(b"\n")
    for index in (4, 5):
        lines[index] = lines[index].replace(b'"text":"x"', b'"text":"y"')
    path.write_bytes(b"\n".join(lines))
    found = verdict(read_journal(path), [])
    assert found.problems == [(5, "corrupt")] and found.spans == {5: 2}


def test_the_envelope_is_always_one_size_and_keeps_the_move_as_written(tmp_path: Path):
    # Guidelines I.2-3: its size tells nothing of the move; the arbiter who opens the file reads the move in
    # the sealer's words (UTF-8, as every file of the program).
    game = tmp_path / "g.jsonl"
    sizes = []
    for written in ("e4", "Ладья d1–d8, шах " * 5):
        journal.write_envelope(game, {"seq": 4, "hidden": {"written": written}})
        sizes.append(journal.envelope_path(game).stat().st_size)
        raw = journal.envelope_path(game).read_bytes()
        assert written.encode("utf-8") in raw
        assert journal.read_envelope(game) == {"seq": 4, "hidden": {"written": written}}
        assert json.loads(raw) == {"seq": 4, "hidden": {"written": written}}
    assert sizes == [1024, 1024]


def test_a_line_without_check_fields_among_damaged_ones_is_part_of_their_stretch(tmp_path: Path):
    # In a journal of this version a line without game_id/line_no/crc is no line of it: with a damaged line
    # next to it, the two are one stretch of damage, named once.
    path = tmp_path / "g.jsonl"
    _game(path, "A")
    writer = JournalWriter(path)
    for seq in (2, 3, 4):
        writer.append_unit([{"seq": seq, "type": "note", "t": float(seq), "text": "x"}])
    writer.close()
    lines = path.read_bytes().split(b"\n")
    lines[4] = lines[4].replace(b'"text":"x"', b'"text":"y"')
    lines[5] = b'{"seq":4,"type":"note","t":4.0,"text":"x"}'
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    found = verdict(read, [])
    assert found.problems == [(5, "corrupt")] and found.spans == {5: 2}
    assert [e["seq"] for e in read.events] == [1, 2]


def test_a_line_deleted_after_a_stretch_of_damage_is_named_missing(tmp_path: Path):
    # Two damaged lines, then one deleted: the stretch stands for its two numbers, the deleted line is one
    # line missing.
    path = tmp_path / "g.jsonl"
    _game(path, "A")
    writer = JournalWriter(path)
    for seq in (2, 3, 4, 5):
        writer.append_unit([{"seq": seq, "type": "note", "t": float(seq), "text": "x"}])
    writer.close()
    lines = path.read_bytes().split(b"\n")
    for index in (3, 4):
        lines[index] = lines[index].replace(b'"text":"x"', b'"text":"y"')
    del lines[5]
    path.write_bytes(b"\n".join(lines))
    found = verdict(read_journal(path), [])
    assert found.problems == [(4, "corrupt"), (6, "missing")]
    assert found.spans == {4: 2} and found.missing_lines == {6: 1}


def _lines_of(path: Path, white: str, notes: int) -> list[bytes]:
    _game(path, white)
    writer = JournalWriter(path)
    for seq in range(2, 2 + notes):
        writer.append_unit([{"seq": seq, "type": "note", "t": float(seq), "text": white}])
    writer.close()
    return path.read_bytes().split(b"\n")[:-1]


def test_as_many_lines_pasted_from_another_game_before_it_leave_the_game_whose_set_up_it_holds(tmp_path: Path):
    # Three lines of game A pasted before game B's three: as many lines of each, the journal is B's — the
    # game whose set-up it holds; A's lines are foreign.
    other = _lines_of(tmp_path / "a.jsonl", "A", 3)[3:6]
    own = _lines_of(tmp_path / "b.jsonl", "B", 0)
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(other + own) + b"\n")
    read = read_journal(path)
    assert read.game_id == read_journal(tmp_path / "b.jsonl").game_id
    assert [e["white"]["name"] for e in read.events] == ["B"]
    assert read.problems == [(1, "foreign"), (2, "foreign"), (3, "foreign")]


def test_a_line_of_the_earlier_format_before_a_journal_of_this_version_is_damage(tmp_path: Path):
    own = _lines_of(tmp_path / "b.jsonl", "B", 1)
    for old in (b'{"seq":0,"type":"note","t":0.0,"text":"old"}',
                b'{"seq":1,"type":"session-start","t":0.0,"white":{"name":"Old"},"black":{"name":"X"}}'):
        path = tmp_path / "g.jsonl"
        path.write_bytes(b"\n".join([old] + own) + b"\n")
        read = read_journal(path)
        assert read.checked and read.problems == [(1, "corrupt")]
        assert [e["type"] for e in read.events] == ["session-start", "note"]
        assert read.events[0]["white"]["name"] == "B"


def test_a_journal_of_one_line_units_names_exactly_what_a_damaged_last_line_lost(tmp_path: Path):
    # Every input written as a unit — here each of one line: a damaged last line (the journal not closed)
    # lost only what it held, not a half-move after it (a unit holds its input and all it caused).
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([{"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "A"}, "black": {"name": "B"}}])
    writer.append_unit([{"seq": 2, "type": "note", "t": 1.0, "text": "x"}])
    writer.append_unit([{"seq": 3, "type": "note", "t": 2.0, "text": "x"}])
    writer.abandon()
    lines = path.read_bytes().split(b"\n")
    lines[-2] = lines[-2].replace(b'"text":"x"', b'"text":"y"')
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    assert [(d.line, d.reason, d.plies) for d in read.damage] == [(5, "corrupt", [])]


def test_lines_written_one_by_one_after_the_last_unit_are_read_as_lines_not_as_a_unit_cut_off(tmp_path: Path):
    # After a unit, lines written one by one (not yet counted by the length line when the program stopped):
    # whole lines of the game, applied — not the rest of a unit a crash cut off.
    path = tmp_path / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([{"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "A"}, "black": {"name": "B"}}])
    writer.append_unit([{"seq": 2, "type": "note", "t": 1.0, "text": "x"},
                        {"seq": 3, "type": "note", "t": 1.0, "text": "y", "derived": True}])
    writer.append({"seq": 4, "type": "note", "t": 2.0, "text": "z"}, sync=False)
    writer.abandon()
    read = read_journal(path)
    assert read.problems == [] and [e["seq"] for e in read.events] == [1, 2, 3, 4]
    # the same with the length line damaged (nothing then counts the lines on the disk)
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"closed":false', b'"closed":falsE')
    path.write_bytes(b"\n".join(lines))
    read = read_journal(path)
    assert read.problems == [(3, "corrupt")] and [e["seq"] for e in read.events] == [1, 2, 3, 4]


def test_a_closed_journal_cut_inside_a_line_names_that_line_and_the_lines_after_it(tmp_path: Path):
    # Closed on purpose with six lines; the file now ends inside line 5: line 5 is cut (it was on the disk:
    # damage) and line 6 is missing.
    path = tmp_path / "g.jsonl"
    _game(path, "A")
    writer = JournalWriter(path)
    for seq in (2, 3, 4):
        writer.append_unit([{"seq": seq, "type": "note", "t": float(seq), "text": "x"}])
    writer.close()
    data = path.read_bytes()
    lines = data.split(b"\n")
    path.write_bytes(b"\n".join(lines[:4]) + b"\n" + lines[4][:20])
    read = read_journal(path)
    assert read.length == journal.Length(6, 0, True)
    assert read.problems == [(5, "truncated"), (6, "missing")] and read.notes == []
    assert verdict(read, []).missing_lines == {6: 1}
    # the first line read from its copy stands where the copy stands
    path.write_bytes(data.replace(lines[0], lines[0].replace(b'"A"', b'"Z"'), 1))
    read = read_journal(path)
    assert read.start_from_copy and read.events[0]["type"] == "session-start" and read.lines[:2] == [2, 4]

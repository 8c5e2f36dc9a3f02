"""No damaged line of a journal loses more than itself, and every loss is named exactly.

Journals are written by playing scenario scripts through ``blindchess scenario run --journal``
(the table, the rules engine and the journal as the app runs them); they are judged only
through what a user runs — ``blindchess journal show --json`` (the half-moves named as
affected, and the game recovered from the good lines), ``journal list`` and ``export`` — and
the journal reader's public functions. "Lost" is measured, not assumed: the half-moves
where the game recovered from the damaged journal differs from the game recovered from the
whole one.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from blindchess.cli import main
from blindchess.storage import journal
from tests.support.paths import SCENARIOS


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _record(name: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The journal a scenario script leaves (written through the table, closed at the script's end)."""
    path = folder / f"{name}.jsonl"
    code, _, err = _run(["scenario", "run", str(SCENARIOS / f"{name}.scn"), "--journal", str(path)], capsys)
    assert code == 0, err
    return path


def _show(path: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    code, out, _ = _run(["journal", "show", str(path), "--json"], capsys)
    shown = json.loads(out)
    assert code == (0 if shown["whole"] else 1)
    return shown


def _lost(original: list[str], recovered: list[str]) -> list[int]:
    """The half-moves the recovered game does not reproduce (missing, different, or invented)."""
    return [p for p in range(1, max(len(original), len(recovered)) + 1)
            if p > len(original) or p > len(recovered) or original[p - 1] != recovered[p - 1]]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["game_whole", "crash_ruling", "d5_wrong_promotion"])
def test_one_flipped_bit_in_any_line_names_exactly_the_half_moves_lost(name, tmp_path, capsys):
    path = _record(name, tmp_path, capsys)
    whole = _show(path, capsys)
    assert whole["whole"] and whole["problems"] == []
    original = whole["moves"]
    lines = path.read_bytes().split(b"\n")[:-1]
    rng = random.Random(21)
    damaged = tmp_path / "damaged.jsonl"
    for index, line in enumerate(lines):
        flipped = bytearray(line)
        flipped[rng.randrange(len(line))] ^= 1 << rng.randrange(8)
        damaged.write_bytes(b"".join((bytes(flipped) if i == index else x) + b"\n" for i, x in enumerate(lines)))
        shown = _show(damaged, capsys)
        assert not shown["whole"] and shown["problems"], (index + 1, line)     # the damage is always told
        assert shown["affected_plies"] == _lost(original, shown["moves"]), (index + 1, line, shown["problems"])


def test_a_damaged_first_line_loses_only_itself_the_game_is_listed_and_exported(tmp_path, capsys, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("BLINDCHESS_HOME", str(home))
    path = _record("game_whole", tmp_path, capsys)
    original = _show(path, capsys)["moves"]
    lines = path.read_bytes().split(b"\n")
    first = bytearray(lines[0])
    first[len(first) // 2] ^= 0x04
    lines[0] = bytes(first)
    folder = home / "journals"
    folder.mkdir(parents=True)
    target = folder / "game.jsonl"
    target.write_bytes(b"\n".join(lines))
    read = journal.read_journal(target)
    assert read.start_from_copy and read.problems == [(1, "corrupt")]
    shown = _show(target, capsys)
    assert shown["moves"] == original and shown["affected_plies"] == [] and not shown["whole"]
    code, out, _ = _run(["journal", "list", "--json"], capsys)
    listed = json.loads(out)
    assert code == 0 and len(listed) == 1 and listed[0]["journal"] and listed[0]["error"] is None
    assert listed[0]["white"] == "Bernd Blind" and listed[0]["plies"] == len(original)
    assert journal.last_unfinished(folder) == target        # the app offers to go on with it
    out_pgn = tmp_path / "game.pgn"
    code, _, err = _run(["export", str(target), "-o", str(out_pgn)], capsys)
    assert code == 1 and not out_pgn.exists() and "1" in err
    code, _, _ = _run(["export", str(target), "-o", str(out_pgn), "--damaged"], capsys)
    assert code == 1 and '[White "Bernd Blind"]' in out_pgn.read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["game_whole", "crash_ruling"])
def test_a_cut_end_names_the_lines_and_half_moves_it_lost(name, tmp_path, capsys):
    # The journal knows its own length: a closed journal cut anywhere before its end — at a line's
    # end or inside a line — is never whole, and the half-moves named are exactly those lost.
    path = _record(name, tmp_path, capsys)
    original = _show(path, capsys)["moves"]
    data = path.read_bytes()
    length = journal.read_journal(path).length
    assert length is not None and length.closed and length.lines == data.count(b"\n")
    ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A][:-1]
    counted_from = next(i for i, x in enumerate(data.split(b"\n")) if json.loads(x)["type"] == journal.LENGTH)
    ends = ends[counted_from:]         # a journal cut back before its length line cannot know its length
    cut = tmp_path / "cut.jsonl"
    for end in ends + [e + 7 for e in ends]:
        cut.write_bytes(data[:end])
        shown = _show(cut, capsys)
        assert not shown["whole"], end
        assert shown["affected_plies"] == _lost(original, shown["moves"]), (end, shown["problems"])
        assert {p["reason"] for p in shown["problems"]} & {"missing", "truncated"}, end


def test_a_journal_killed_while_writing_loses_nothing_and_names_the_cut_write(tmp_path, capsys):
    # A crash, not a cut: the last write stopped in the middle of a line the program never acted on.
    # The length line counts only what was on the disk, so the fragment is a note, not damage.
    path = _record("d5_wrong_promotion", tmp_path, capsys)
    original = _show(path, capsys)["moves"]
    lines = path.read_bytes().split(b"\n")[:-1]
    length_at = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == journal.LENGTH)
    counted = json.loads(lines[length_at])
    assert counted["closed"] is True and counted["lines"] == len(lines)
    # As the journal stood before the script's end was written: not closed, counting every line.
    reopened = tmp_path / "crashed.jsonl"
    shutil.copy(path, reopened)
    text = lines[length_at].decode().replace('"closed":true ', '"closed":false')
    body = text[:text.rindex(',"crc":')] + "}"
    import zlib
    text = text[:text.rindex('"crc":')] + f'"crc":"{zlib.crc32(body.encode()):08x}"}}'
    lines[length_at] = text.encode()
    reopened.write_bytes(b"".join(x + b"\n" for x in lines) + b'{"seq":999,"type":"board-move","t":99.0,"bo')
    shown = _show(reopened, capsys)
    assert shown["whole"] and shown["moves"] == original and shown["affected_plies"] == []
    assert shown["problems"] == [{"line": len(lines) + 1, "reason": "truncated"}]

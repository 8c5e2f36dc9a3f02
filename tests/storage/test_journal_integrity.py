"""The self-checking journal: line checks, damage named, pins.

Real journals are made by playing games through ``Session`` with a journal; then
bytes are flipped, lines deleted, duplicated and transplanted from another game at
many seeded random positions, and nothing may be reported as whole that is not.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import random
import subprocess
import sys
import zlib
from pathlib import Path
from types import SimpleNamespace

import chess
import pytest

from blindchess.base import paths
from blindchess.base.errors import UserError
from blindchess.cli import main
from blindchess.game import Player, Session
from blindchess.storage import journal
from tests.support.paths import REPO

# Two real games (the Spanish, Steinitz–Chigorin 1892 opening; a Sicilian) — enough plies to matter.
RUY = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
       "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5", "d2d4", "d8c7"]
SICILIAN = ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5"]


def play(path: Path, moves: list[str], *, finish: bool = False, close: bool = True) -> None:
    """A game as the table plays it: the sighted player moves on his board and presses, the move is
    mirrored on the peg board; the blind player touches, moves, announces, presses; both keep scores."""
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    t = 0.0
    for i, uci in enumerate(moves):
        t += 5.0
        if i % 2 == 0:
            s.board_move("sighted", chess.Move.from_uci(uci), t)
            s.press_clock(chess.WHITE, t + 0.5)
            s.board_move("tactile", chess.Move.from_uci(uci), t + 1.0)
            s.write("sighted", uci, t + 1.5)
        else:
            s.touch(chess.parse_square(uci[:2]), t)
            s.board_move("tactile", chess.Move.from_uci(uci), t + 0.5)
            s.announce(chess.Move.from_uci(uci), uci, t + 1.0)
            s.press_clock(chess.BLACK, t + 1.5)
            s.board_move("sighted", chess.Move.from_uci(uci), t + 2.0)
            s.write("blind", uci, t + 2.5)
    if finish:
        s.resign(chess.BLACK, t + 10.0)
    if close:
        s.close()
    else:
        s.abandon()          # killed: the system lets the file go, nothing more is written


def judge(path: Path) -> journal.Verdict:
    read = journal.read_journal(path)
    session = Session.load(path)
    return journal.verdict(read, [m.uci() for m in session.snapshot.game_moves], session.snapshot.journal_problems)


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("games")
    out = {}
    for name, moves in (("ruy", RUY), ("sicilian", SICILIAN)):
        path = folder / f"{name}.jsonl"
        play(path, moves)
        out[name] = path.read_bytes()
    return out


# --------------------------------------------------------------------------- the line format

def test_every_line_is_plain_json_with_game_id_line_no_and_crc(tmp_path, games):
    lines = games["ruy"].decode("utf-8").splitlines()
    ids = set()
    for number, line in enumerate(lines, start=1):
        event = json.loads(line)            # other tools read it as ordinary JSON
        checks = [k for k in event if k in journal.RESERVED_FIELDS]
        assert checks in (["game_id", "line_no", "plies_before", "crc"],
                          ["game_id", "line_no", "unit_lines", "plies_before", "crc"])   # a unit's first line
        assert list(event)[-len(checks):] == checks
        assert event["line_no"] == number and {"seq", "type", "t"} <= set(event)
        # the documented CRC: CRC-32 of the line with ,"crc":"…" removed
        body = line[:line.rindex(',"crc":')] + "}"
        assert event["crc"] == f"{zlib.crc32(body.encode('utf-8')):08x}"
        ids.add(event["game_id"])
    assert len(ids) == 1 and len(ids.pop()) == 32
    path = tmp_path / "g.jsonl"
    path.write_bytes(games["ruy"])
    result = judge(path)
    assert result.whole and result.checked and result.recorded == len(RUY) == result.replayed


def test_reopening_continues_game_id_and_line_numbers(tmp_path):
    path = tmp_path / "g.jsonl"
    play(path, RUY[:4])
    first = journal.read_journal(path)
    again = Session.open(path, now=100.0)
    again.board_move("sighted", chess.Move.from_uci("f1b5"), 101.0)
    again.close()
    read = journal.read_journal(path)
    assert read.game_id == first.game_id and not read.problems
    numbers = [json.loads(x)["line_no"] for x in path.read_text(encoding="utf-8").splitlines()]
    assert numbers == list(range(1, len(numbers) + 1))
    assert [e["line_no"] for e in read.events] == sorted(e["line_no"] for e in read.events)


# --------------------------------------------------------------------------- each kind of damage

def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1]


def _write(path: Path, lines: list[bytes], tail: bytes = b"") -> None:
    path.write_bytes(b"".join(x + b"\n" for x in lines) + tail)


def _ply_line(lines: list[bytes], ply: int) -> int:
    """The index of the line of the input that made half-move ``ply`` (the line before its move-made)."""
    made = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "move-made" and json.loads(x)["ply"] == ply)
    return max(i for i in range(made) if not json.loads(lines[i]).get("derived"))


def test_a_changed_byte_in_a_move_line_names_the_line_and_the_ply(tmp_path, games, capsys):
    lines = _lines(games["ruy"])
    index = _ply_line(lines, 7)
    lines[index] = lines[index].replace(b'"b5a4"', b'"b5c4"') if b'"b5a4"' in lines[index] else \
        lines[index][:20] + bytes([lines[index][20] ^ 0x01]) + lines[index][21:]
    path = tmp_path / "g.jsonl"
    _write(path, lines)
    result = judge(path)
    assert (index + 1, "corrupt") in result.problems
    assert 7 in result.plies and not result.whole
    out = tmp_path / "out.pgn"
    assert main(["export", str(path), "--format", "pgn", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert not out.exists() and f"Zeile {index + 1}: beschädigt" in err and "7" in err
    assert main(["export", str(path), "--format", "pgn", "-o", str(out), "--damaged"]) == 1
    assert out.exists()
    assert main(["journal", "show", str(path)]) == 1
    assert f"Zeile {index + 1}" in capsys.readouterr().err


def test_a_changed_byte_in_session_start_loses_only_that_line(tmp_path, games, capsys):
    # The set-up stands twice (line 1 and its copy): one damaged line loses no more than itself.
    lines = _lines(games["ruy"])
    lines[0] = lines[0].replace(b'"Anna"', b'"Anne"')
    path = tmp_path / "g.jsonl"
    _write(path, lines)
    read = journal.read_journal(path)
    assert read.problems == [(1, "corrupt")] and read.start_from_copy
    result = judge(path)
    assert result.plies == [] and not result.whole
    assert [m.uci() for m in Session.load(path).snapshot.game_moves] == RUY
    out = tmp_path / "o.pgn"
    assert main(["export", str(path), "--format", "pgn", "-o", str(out)]) == 1 and not out.exists()
    assert main(["export", str(path), "--format", "pgn", "-o", str(out), "--damaged"]) == 1
    assert '[White "Anna"]' in out.read_text(encoding="utf-8")
    # Both copies of the set-up damaged: no game in it.
    copy = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == journal.START_COPY)
    lines[copy] = lines[copy].replace(b'"Anna"', b'"Anne"')
    _write(path, lines)
    with pytest.raises(UserError):
        Session.load(path)


def test_deleted_duplicated_moved_and_foreign_lines(tmp_path, games):
    ruy, sic = _lines(games["ruy"]), _lines(games["sicilian"])
    path = tmp_path / "g.jsonl"
    cases = {
        "missing": ruy[:30] + ruy[31:],
        "duplicate": ruy[:30] + [ruy[29]] + ruy[30:],
        "out-of-order": ruy[:30] + [ruy[31], ruy[30]] + ruy[32:],
        "foreign": ruy[:30] + [sic[30]] + ruy[31:],
    }
    for reason, lines in cases.items():
        _write(path, lines)
        result = judge(path)
        assert (31, reason) in result.problems or (32, reason) in result.problems, (reason, result.problems)
        assert not result.whole
    # A deleted move line: the game comes out shorter or different, never whole.
    lines = list(ruy)
    del lines[_ply_line(ruy, 9)]
    _write(path, lines)
    result = judge(path)
    assert 9 in result.plies and not result.whole


def test_appending_after_a_line_cut_off_by_a_crash(tmp_path):
    # Pin: the next event is never glued to the fragment; it gets its own line and number.
    path = tmp_path / "g.jsonl"
    play(path, RUY, close=False)          # killed: the journal is not closed
    lines = _lines(path.read_bytes())
    fragment = lines[-1][: len(lines[-1]) // 2]       # the next line, cut off while being written
    _write(path, lines, tail=fragment)
    lines.append(fragment)
    read = journal.read_journal(path)
    assert read.problems == [(len(lines), "truncated")]
    writer = journal.JournalWriter(path)
    writer.append({"seq": 999, "type": "note", "t": 500.0, "text": "after the crash"})
    writer.close()
    data = path.read_bytes().split(b"\n")
    assert data[len(lines) - 1] == fragment          # the fragment stands alone on its line
    marker = json.loads(data[len(lines)])             # the writer names the fragment it ended
    assert marker["type"] == journal.CUT_OFF and marker["line"] == len(lines) and marker["derived"] is True
    assert json.loads(data[len(lines) + 1])["text"] == "after the crash"
    read = journal.read_journal(path)
    assert read.problems == [(len(lines), "truncated")]   # no line counted as missing, nothing glued
    assert read.notes == [(len(lines), "truncated")]      # a write cut off by the crash: nothing lost
    assert read.events[-1]["text"] == "after the crash" and read.events[-1]["line_no"] == len(lines) + 2


def test_a_damaged_line_in_the_middle_is_never_taken_for_a_cut_off_write(tmp_path, games):
    # The same bytes as a cut-off write, but with their newline and no writer's line naming them:
    # damage (it may have been acted on), never a note.
    lines = _lines(games["ruy"])
    index = _ply_line(lines, len(RUY))
    path = tmp_path / "g.jsonl"
    _write(path, lines[:index] + [lines[index][:40]] + lines[index + 1:])
    result = judge(path)
    assert (index + 1, "truncated") in result.problems and not result.notes and not result.whole


def test_a_cut_off_last_line_is_reported_and_loses_nothing(tmp_path):
    path = tmp_path / "g.jsonl"
    play(path, RUY[:-1], close=False)        # killed while the input of the last half-move was being written
    lines = _lines(path.read_bytes())
    index = len(lines)
    _write(path, lines, tail=b'{"seq":999,"type":"board-move","t":500.0,"board":"sighted","uci":"d8')
    result = judge(path)
    # Written before it was acted on (the journal comes first): reported, but the game is whole —
    # the replay holds every half-move the good lines record.
    assert result.problems == [(index + 1, "truncated")] and result.notes == result.problems
    assert result.whole and result.plies == []


# --------------------------------------------------------------------------- the randomized corruption test

def _mutations(rng: random.Random, ruy: list[bytes], sic: list[bytes]):
    for _ in range(120):   # flipped bytes, anywhere (newlines included)
        data = bytearray(b"".join(x + b"\n" for x in ruy))
        pos = rng.randrange(len(data))
        data[pos] ^= rng.randrange(1, 256)
        yield "flip", bytes(data)
    for _ in range(50):
        i = rng.randrange(len(ruy))
        yield "delete", b"".join(x + b"\n" for x in ruy[:i] + ruy[i + 1:])
    for _ in range(50):
        i, j = rng.randrange(len(ruy)), rng.randrange(len(ruy) + 1)
        lines = list(ruy)
        lines.insert(j, ruy[i])
        yield "duplicate", b"".join(x + b"\n" for x in lines)
    for _ in range(50):
        i, j = rng.randrange(len(sic)), rng.randrange(len(ruy))
        lines = list(ruy)
        if rng.random() < 0.5:
            lines[j] = sic[i]          # replaced by a line of another game
        else:
            lines.insert(j, sic[i])    # pasted in
        yield "transplant", b"".join(x + b"\n" for x in lines)


@pytest.mark.slow
def test_nothing_damaged_is_reported_whole(tmp_path, games):
    ruy, sic = _lines(games["ruy"]), _lines(games["sicilian"])
    rng = random.Random(14)
    path = tmp_path / "g.jsonl"
    seen = {"flip": 0, "delete": 0, "duplicate": 0, "transplant": 0}
    for kind, data in _mutations(rng, ruy, sic):
        assert data != games["ruy"]
        path.write_bytes(data)
        try:
            read = journal.read_journal(path)
            session = Session.load(path)
        except UserError:       # no game at all (the start line damaged): certainly not reported whole
            assert journal.read_journal(path).damaged
            seen[kind] += 1
            continue
        replayed = [m.uci() for m in session.snapshot.game_moves]
        result = journal.verdict(read, replayed, session.snapshot.journal_problems)
        assert not result.whole, (kind, data)
        assert read.damaged, (kind, "the reader itself must see it")
        if replayed != RUY:     # a game that came out shorter or different: its first wrong ply is named
            first = next((i for i, (a, b) in enumerate(zip(replayed, RUY)) if a != b),
                         min(len(replayed), len(RUY))) + 1
            assert first in result.plies, (kind, first, result.plies)
        seen[kind] += 1
    assert seen == {"flip": 120, "delete": 50, "duplicate": 50, "transplant": 50}


# --------------------------------------------------------------------------- old journals, field kinds

def test_an_old_journal_without_check_fields_opens_unchecked(tmp_path, games, capsys):
    old = [json.dumps({k: v for k, v in json.loads(x).items() if k not in journal.RESERVED_FIELDS})
           for x in games["ruy"].decode().splitlines()]
    path = tmp_path / "old.jsonl"
    path.write_text("".join(x + "\n" for x in old), encoding="utf-8")
    result = judge(path)
    assert result.whole and not result.checked
    assert [m.uci() for m in Session.load(path).snapshot.game_moves] == RUY
    assert main(["journal", "show", str(path)]) == 0
    assert "ohne Prüfsummen" in capsys.readouterr().err
    # Appending keeps the old format: the file does not turn into a mix.
    writer = journal.JournalWriter(path)
    writer.append({"seq": 999, "type": "note", "t": 1.0, "text": "x"})
    writer.close()
    assert "crc" not in json.loads(path.read_text().splitlines()[-1])
    assert not journal.read_journal(path).damaged


@pytest.mark.parametrize("line, valid", [
    ('{"seq": 2, "type": "note", "t": 1.0}', True),
    ('{"seq": true, "type": "note", "t": 1.0}', False),
    ('{"seq": 2, "type": "note", "t": NaN}', False),
    ('{"seq": 2, "type": "note", "t": Infinity}', False),
    ('{"seq": 2, "type": "note", "t": false}', False),
    ('{"seq": 2, "type": "", "t": 1.0}', False),
])
def test_seq_true_or_t_nan_are_not_valid(tmp_path, line, valid):
    path = tmp_path / "old.jsonl"
    path.write_text('{"seq": 1, "type": "session-start", "t": 0.0}\n' + line + "\n", encoding="utf-8")
    read = journal.read_journal(path)
    assert (read.problems == []) is valid
    assert len(read.events) == (2 if valid else 1)


def test_the_writer_refuses_nan_and_its_own_fields(tmp_path):
    writer = journal.JournalWriter(tmp_path / "g.jsonl")
    with pytest.raises(ValueError):
        writer.append({"seq": 1, "type": "note", "t": math.nan})
    with pytest.raises(ValueError):
        writer.append({"seq": 1, "type": "note", "t": 0.0, "crc": "00000000"})
    writer.close()
    assert (tmp_path / "g.jsonl").read_bytes() == b""


# --------------------------------------------------------------------------- folders, names, listing

def test_a_second_name_clash_gets_the_next_number(tmp_path):
    when = datetime.datetime(2026, 11, 29, 14, 30, 0)
    first = journal.new_path("Anna", "Bert", when=when, folder=tmp_path)
    assert first.name == "20261129-143000-Anna-Bert.jsonl"
    first.touch()
    second = journal.new_path("Anna", "Bert", when=when, folder=tmp_path)
    assert second.name == "20261129-143000-Anna-Bert-2.jsonl"
    second.touch()
    assert journal.new_path("Anna", "Bert", when=when, folder=tmp_path).name == "20261129-143000-Anna-Bert-3.jsonl"


def test_a_new_journal_syncs_its_folder(tmp_path, monkeypatch):
    synced: list[Path] = []
    real = journal._fsync_folder
    monkeypatch.setattr(journal, "_fsync_folder", lambda folder: (synced.append(Path(folder)), real(folder)))
    path = tmp_path / "deeper" / "g.jsonl"
    journal.JournalWriter(path).close()
    assert path.parent in synced and tmp_path in synced   # the new name and the new folder are durable
    synced.clear()
    journal.JournalWriter(path).close()                   # reopening creates no name: nothing to sync
    assert synced == []


def test_last_unfinished_is_the_newest_unfinished_never_a_finished_one(tmp_path):
    old, finished, newer = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    play(old, RUY[:2])
    play(newer, RUY[:4])
    play(finished, RUY[:6], finish=True)
    os.utime(old, (1000, 1000))
    os.utime(newer, (2000, 2000))
    os.utime(finished, (3000, 3000))      # the newest file is a finished game
    assert journal.last_unfinished(tmp_path) == newer
    os.utime(old, (2500, 2500))
    assert journal.last_unfinished(tmp_path) == old
    infos = {i.path: i for i in journal.list_journals(tmp_path)}
    assert infos[finished].finished and infos[finished].result and infos[newer].plies == 4


def _bad_files(folder: Path) -> dict[str, str]:
    os.mkfifo(folder / "fifo.jsonl")
    (folder / "folder.jsonl").mkdir()
    (folder / "junk.jsonl").write_bytes(b"\x00\xff no journal\n")
    start = {"seq": 1, "type": "session-start", "t": 0.0, "white": "not a player", "black": {"name": "B"}}
    (folder / "badfield.jsonl").write_text(json.dumps(start) + "\n", encoding="utf-8")
    return {"fifo.jsonl": "not-regular", "folder.jsonl": "not-regular", "junk.jsonl": "no-start",
            "badfield.jsonl": "bad-field"}


def test_journal_list_and_the_app_skip_and_name_bad_files(tmp_path):
    folder = paths.journal_dir()
    folder.mkdir(parents=True, exist_ok=True)
    good = folder / "good.jsonl"
    play(good, RUY[:3])
    os.utime(good, (1000, 1000))          # older than every bad file
    bad = _bad_files(folder)
    infos = {i.path.name: i for i in journal.list_journals()}
    assert {name: infos[name].error for name in bad} == bad
    assert journal.last_unfinished() == good
    from blindchess.ui.app import journal_to_reopen
    assert journal_to_reopen(None, SimpleNamespace(last_journal=str(folder / "badfield.jsonl"), lang="de")) == good
    # The CLI in a real process (a FIFO must not make it wait): exit 0, every bad file named.
    env = dict(os.environ, PYTHONPATH=str(REPO), BLINDCHESS_LANG="de")
    done = subprocess.run([sys.executable, "-m", "blindchess", "journal", "list"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    for name, why in bad.items():   # a file with no game in it is named as before (the earlier wording)
        assert f"{name}: {'kein blindchess-Journal' if why == 'no-start' else 'übersprungen'}" in done.stdout
    assert "good.jsonl: Anna – Bert" in done.stdout
    listed = json.loads(subprocess.run([sys.executable, "-m", "blindchess", "journal", "list", "--json"],
                                       capture_output=True, text=True, env=env, timeout=120).stdout)
    assert {Path(e["path"]).name: e["error"] for e in listed if e["error"]} == bad


def test_reading_a_fifo_refuses_it_without_waiting(tmp_path):
    fifo = tmp_path / "x.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(journal.NotRegularFile):
        journal.read_journal(fifo)
    with pytest.raises(OSError):
        journal.JournalWriter(fifo)

"""A journal followed as it grows is served exactly as a whole reading of the same bytes serves it, and a new
move costs what its own lines cost: every scenario game, looked at after each unit the table writes (and, now
and then, in the middle of one), against a fresh whole reading; a long game's new unit is taken alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from blindchess import scenario
from blindchess.base.errors import UserError
from blindchess.broadcast.movetext import MoveText
from blindchess.broadcast.reading import GameFollower, read_game
from blindchess.game import Player, Session
from blindchess.storage import journal as journal_module
from blindchess.storage.tail import as_of
from tests.support.broadcast import half_move, long_game
from tests.support.paths import SCENARIOS

#: A few games with most of what a journal holds (touches, rulings, claims, adjournment, a crash, Chess960).
QUICK = ("game_whole", "claim_threefold", "ruling_pegs_set_right_past_a_move", "adjournment_sealed_by_the_blind_player",
         "crash_placed", "game_chess960", "claim_illegal_said")


def follow_while_played(script: Path, tmp_path: Path, seed: int) -> tuple[int, int, int]:
    """Play ``script`` into a journal; after each unit the table writes, copy what is new to a journal followed
    (sometimes half a unit first) and compare the follower's game with a fresh whole reading of the same bytes.
    Returns (looks compared, looks that took only new units, whole readings)."""
    rng = random.Random(seed)
    real = tmp_path / "table" / (script.stem + ".jsonl")
    mirror = tmp_path / "hall" / real.name
    real.parent.mkdir(parents=True, exist_ok=True)
    mirror.parent.mkdir(parents=True, exist_ok=True)
    mirror.write_bytes(b"")
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    follower = GameFollower(mirror, "en", work)
    compared = 0

    def check() -> None:
        nonlocal compared
        try:
            whole = read_game(mirror, "en", work)
        except UserError:
            assert follower.game is None
            return
        game = follower.game
        assert game is not None
        assert (game.pgn, game.moves, game.sans, game.fen, game.state, game.damage) == \
            (whole.pgn, whole.moves, whole.sans, whole.fen, whole.state, whole.damage), (script.name, mirror.stat().st_size)
        compared += 1

    real_sync = journal_module.JournalWriter.sync

    def sync(writer: journal_module.JournalWriter) -> None:
        real_sync(writer)
        if writer.path != real:
            return
        data = real.read_bytes()
        envelope = real.with_name(real.name + ".envelope.json")
        if envelope.exists():
            mirror.with_name(mirror.name + ".envelope.json").write_bytes(envelope.read_bytes())
        old = mirror.stat().st_size
        with mirror.open("r+b") as f:
            if len(data) > old + 2 and rng.random() < 0.3:      # the reader comes in the middle of a write
                f.seek(old)
                f.write(data[old:rng.randrange(old + 1, len(data))])
                f.flush()
                follower.look()
                follower.look(settled=True)                      # as if the table had stopped there
                check()
            f.seek(0)
            f.write(data)                                        # the unit whole, the length line counting it
        follower.look()
        check()

    journal_module.JournalWriter.sync = sync       # type: ignore[method-assign]
    try:
        scenario.play(scenario.read_script(script, "de"), scenario.HeadlessFront(), real)
    finally:
        journal_module.JournalWriter.sync = real_sync   # type: ignore[method-assign]
    return compared, follower.tail_reads, follower.whole_reads


@pytest.mark.parametrize("name", QUICK)
def test_a_game_followed_unit_by_unit_is_served_as_a_whole_reading_serves_it(name: str, tmp_path: Path) -> None:
    compared, tail, whole = follow_while_played(SCENARIOS / f"{name}.scn", tmp_path, seed=len(name))
    assert compared > 5 and tail > whole          # most looks take only the new units


@pytest.mark.slow
def test_every_scenario_game_followed_unit_by_unit_is_served_as_a_whole_reading_serves_it(tmp_path: Path) -> None:
    scripts = sorted(SCENARIOS.glob("*.scn"))
    totals = [0, 0, 0]
    for i, script in enumerate(scripts):
        for k, n in enumerate(follow_while_played(script, tmp_path / script.stem, seed=i)):
            totals[k] += n
    assert totals[0] > 1000 and totals[1] > 2 * totals[2]


def test_a_long_game_s_new_move_is_taken_alone_and_written_from_its_own_half_move(tmp_path: Path, monkeypatch) -> None:
    """At ply 400 a new half-move is read from its own bytes, replayed alone and only the last two half-moves of
    the PGN are written again — not the game from the start."""
    path = tmp_path / "long.jsonl"
    s = Session.new(Player("Weiß"), Player("Schwarz", True), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    moves = long_game(401)
    monkeypatch.setattr("os.fsync", lambda fd: None)     # setting the game up fast: the same bytes
    for i, move in enumerate(moves[:400]):
        half_move(s, move, i + 1.0)
    follower = GameFollower(path, "de", tmp_path)
    follower.look()
    assert follower.game is not None and follower.game.plies == 400
    written: list[int] = []
    real_update = MoveText.update

    def update(self: MoveText, first: int, opening: str, plies) -> None:
        written.append(len(plies))
        real_update(self, first, opening, plies)

    monkeypatch.setattr(MoveText, "update", update)
    read: list[int] = []
    import blindchess.broadcast.reading as reading

    real_read = reading._read_from
    monkeypatch.setattr(reading, "_read_from", lambda *a: (lambda out: (read.append(len(out[0])), out)[1])(real_read(*a)))
    size = path.stat().st_size
    half_move(s, moves[400], 401.0)
    follower.look()
    assert follower.game.plies == 401 and (follower.whole_reads, follower.tail_reads) == (1, 1)
    assert read == [path.stat().st_size - size + 1]      # only the new bytes (and the line end before them)
    assert written == [2]                                # the last half-move before and the new one
    assert follower.game.pgn == read_game(path, "de", tmp_path).pgn
    s.close()


def test_a_unit_read_before_its_line_end_is_written_is_not_taken_again_when_the_line_end_comes(tmp_path: Path) -> None:
    """A reader that comes while the last line of a unit lacks only its line end reads that unit (its line checks);
    when the line end arrives the follower goes on after it — the touch on that line is commented once."""
    real = tmp_path / "table.jsonl"
    scenario.play(scenario.read_script(SCENARIOS / "eboard_wrong_mirror.scn", "de"), scenario.HeadlessFront(), real)
    data = real.read_bytes()
    touch = data.rfind(b'"type":"touch"')
    cut = data.index(b"\n", touch)                   # the touch's unit is this one line: whole but for its end
    then = as_of(data[:cut + 1])                     # the journal as it stood when that unit was written
    mirror = tmp_path / "hall" / "table.jsonl"
    mirror.parent.mkdir()
    mirror.write_bytes(then[:-1])
    follower = GameFollower(mirror, "en", tmp_path)
    follower.look(settled=True)
    touches = follower.game.pgn.count("touched") if follower.game else 0
    mirror.write_bytes(then)
    follower.look()
    assert follower.game is not None and follower.game.pgn.count("touched") == touches
    assert follower.game.pgn == read_game(mirror, "en", tmp_path).pgn
    mirror.write_bytes(data)
    follower.look()
    assert follower.game.pgn == read_game(mirror, "en", tmp_path).pgn

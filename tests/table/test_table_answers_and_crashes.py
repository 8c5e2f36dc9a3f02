"""Behaviours an independent mutation sample found unpinned, each stated and held (table and rules engine).

Driven through the table's public methods with explicit times (the simulated peg-board of
``tests.support.table`` keeps its pegs across a crash) and through the rules engine's
``Session`` façade — never through private helpers, so the tests hold however the rules are
split into modules:

* only the person asked answers a question (FIDE Laws D.2.1: the blind player's question is his);
* an answer by voice that still fits several moves picks none of them (D.2.1: the move is the
  one announced, not a guess);
* the resignation is confirmed with key 1, withdrawn with key 2, any other key is no answer;
* a wrong mirror on the pegs stands as the pegs' expected position until the ruling (D.2.9);
* an announced promotion not yet placed is remembered across a crash (D.2.1);
* a new game never takes over a journal that already holds one; a game continued from a
  finished PGN keeps its result, an unfinished one has none.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from blindchess.game import Player, Session
from blindchess.storage import read_journal
from blindchess.table.commands import Answers, BlindSays, ClockPress, SightedMove, Tick
from blindchess.table.events import Asked, DeviceRequest, GameEnded, Moved, Refused
from blindchess.table.table import Table
from tests.support.table import Run, blind_move

TWO_ROOKS = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"      # a1 and h1 can both reach d1


def test_only_the_person_asked_answers_the_question():
    run = Run()
    run.table.handle(BlindSays("ich gebe auf", 1.0), 1.0)
    asked = run.of(Asked)
    assert len(asked) == 1 and asked[0].to == "blind"
    run.table.handle(Answers("sighted", "yes"), 2.0)                     # not his question
    assert run.of(Refused)[-1].what == "answer" and run.table.question is not None
    assert not run.of(GameEnded)
    run.table.handle(Answers("blind", "yes"), 3.0)
    assert [e.result for e in run.of(GameEnded)] == ["0-1"]


def test_an_answer_by_voice_that_fits_several_moves_picks_none():
    run = Run(start_fen=TWO_ROOKS, tactile="none")               # without pegs the announcement is the move
    run.table.handle(BlindSays("Turm David eins", 1.0), 0.5)
    assert len(run.of(Asked)) == 1 and set(run.of(Asked)[0].candidates) == {"a1d1", "h1d1"}
    run.table.handle(BlindSays("Turm David eins", 1.0), 1.0)           # the same words again: still either rook
    run.table.handle(Tick(), 3.0)
    assert not run.of(Moved)
    assert len(run.of(Asked)) == 2 and run.table.question is not None   # asked again, nothing chosen
    phrase = run.table.question.phrases[run.table.question.candidates.index("h1d1")]
    run.table.handle(BlindSays(phrase, 1.0), 4.0)                      # one of the offered phrases: that move
    run.table.handle(Tick(), 6.0)
    assert [m.uci for m in run.of(Moved)] == ["h1d1"]


def test_the_resignation_is_confirmed_by_key_1_withdrawn_by_key_2_and_nothing_else_answers():
    run = Run()
    run.table.handle(BlindSays("ich gebe auf", 1.0), 1.0)
    run.table.handle(Answers("blind", 3), 2.0)                           # no such key
    assert run.of(Refused)[-1].what == "answer" and run.table.question is not None
    run.table.handle(Answers("blind", 2), 3.0)                           # withdrawn
    assert run.table.question is None and not run.of(GameEnded)
    run.table.handle(BlindSays("ich gebe auf", 1.0), 4.0)
    run.table.handle(Answers("blind", 1), 5.0)
    assert [e.result for e in run.of(GameEnded)] == ["0-1"]


def test_a_wrong_mirror_on_the_pegs_stands_until_the_ruling():
    run = Run()
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.table.handle(SightedMove("e2e4"), 2.5)
    run.table.handle(ClockPress(chess.WHITE), 2.7)
    run.table.handle(SightedMove("e7e5"), 3.0)                         # the sighted player's move
    run.table.handle(ClockPress(chess.BLACK), 3.2)
    run.peg_move("e7e6", 4.0)                                   # mirrored wrongly on the pegs
    run.table.handle(Tick(), 5.0)
    wrong = chess.Board()
    for uci in ("e2e4", "e7e6"):
        wrong.push_uci(uci)
    expected = [e.fen for e in run.of(DeviceRequest) if e.what == "expect"]
    assert run.table.session.snapshot.divergence is not None
    assert expected and expected[-1] == wrong.fen()             # the pegs are expected where they stand


def test_an_announced_promotion_not_yet_placed_is_remembered_across_a_crash(tmp_path):
    run = Run(journal=tmp_path / "game.jsonl", start_fen="7k/P7/8/8/8/8/8/K7 w - - 0 1")
    run.table.handle(Tick(), 0.5)
    run.table.handle(BlindSays("Bauer Anna acht wird Dame", 1.0), 1.0)             # announced before the pegs are moved
    run.crash_and_resume(2.0)
    run.peg_move("a7a8", 3.0)                                   # a peg cannot show which piece
    run.table.handle(Tick(), 5.0)
    assert [m.uci for m in run.of(Moved)] == ["a7a8q"]


def test_a_new_game_never_takes_over_a_journal_that_holds_one(tmp_path):
    taken = tmp_path / "taken.jsonl"
    Session.new(Player("A"), Player("B", True), None, journal=taken, now=0.0).close()
    before = taken.read_bytes()
    with pytest.raises(FileExistsError):
        Session.new(Player("C"), Player("D", True), None, journal=taken, now=1.0)
    assert taken.read_bytes() == before
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")                                      # an empty file holds no game: it is used
    Session.new(Player("C"), Player("D", True), None, journal=empty, now=1.0).close()
    assert b'"session-start"' in empty.read_bytes()
    one_byte = tmp_path / "one.jsonl"
    one_byte.write_bytes(b"\n")
    with pytest.raises(FileExistsError):
        Session.new(Player("C"), Player("D", True), None, journal=one_byte, now=1.0)
    fresh = tmp_path / "fresh.jsonl"                            # no file yet: created
    Session.new(Player("C"), Player("D", True), None, journal=fresh, now=1.0).close()
    assert fresh.exists()


@pytest.mark.parametrize(("pgn", "result"), [
    ('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n', "1-0"),          # resigned, say
    ('[White "A"]\n[Black "B"]\n[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n', "1/2-1/2"),
    ('[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 *\n', None),                      # not finished
    ('[White "A"]\n[Black "B"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n', "0-1"),      # mate: the moves say it
])
def test_a_game_continued_from_pgn_keeps_its_result(pgn, result):
    s = Session.from_pgn(pgn, now=0.0)
    assert s.snapshot.result == result


def test_the_answer_keys_of_a_question_are_its_candidates(tmp_path: Path):
    run = Run(start_fen=TWO_ROOKS)
    run.table.handle(BlindSays("Turm David eins", 1.0), 0.5)
    run.table.handle(Answers("blind", 0), 1.0)                           # keys start at 1
    run.table.handle(Answers("blind", 3), 1.5)                           # two candidates: no key 3
    assert [r.what for r in run.of(Refused)] == ["answer", "answer"] and run.table.question is not None


def test_the_blind_player_s_move_under_way_goes_on_after_a_crash(tmp_path):
    # D.2.2, D.2.3: he lifted his pawn, the program died and came back; the pegs are where his hands left them (the
    # pawn in his hand): placed and announced, it is his move — the table does not wait for the pegs to be set right
    run = Run(journal=tmp_path / "game.jsonl")
    run.table.handle(Tick(), 0.5)
    run.lift("e2", 1.0)
    run.crash_and_resume(1.5)
    run.place("e4", 2.0)
    run.table.handle(BlindSays("Bauer Eva vier", 1.0), 2.5)
    run.table.handle(Tick(), 3.0)
    assert [m.uci for m in run.of(Moved)] == ["e2e4"]
    assert [e["type"] for e in read_journal(tmp_path / "game.jsonl").events].count("touch") == 1


def test_a_game_cut_off_before_its_clock_was_started_gets_it_started_from_its_beginning(tmp_path):
    # the program died between the game's first line and its clock's start: reopened, White's clock runs from
    # the game's start (a crash gives nobody time); without a time control there is no clock to start
    for control, expected in (("90+30", 5400.0 - 5.0), (None, None)):
        path = tmp_path / f"{control}.jsonl"
        Session.new(Player("Anna"), Player("Bert", True), control, journal=path, now=0.0).abandon()    # killed here
        table = Table.resume(path, 5.0)
        clock = table.session.clock
        if expected is None:
            assert clock.running is None
        else:
            assert clock.running == chess.WHITE and clock.remaining(chess.WHITE, 5.0) == expected
        table.close()

"""Suggestions for slips, ranked as an arbiter would.

The slip set comes from real games (tests/data/games) through the benchmark's
own generator (tests/benchmarks/bench_suggestions.py), on a smaller fixed
sample: the meant move must come first in at least 80 % of the visible slips
and among the first three in at least 98 %. The explanation must fit the case.
"""

from __future__ import annotations

import importlib.util
import sys

import chess
import pytest

from blindchess.language.notation import read, read_score
from tests.support.paths import TESTS

_BENCH = TESTS / "benchmarks" / "bench_suggestions.py"
_spec = importlib.util.spec_from_file_location("bench_suggestions", _BENCH)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("bench_suggestions", bench)
_spec.loader.exec_module(bench)


@pytest.fixture(scope="module")
def sample():
    return bench.slip_set(per_game=5, seed=11)


def test_the_sample_is_built_from_real_games_and_covers_every_kind(sample):
    assert len({s.game for s in sample}) >= 50
    kinds = {s.kind for s in sample}
    assert {"letter", "pawn-letter", "square"} <= kinds
    assert {s.lang for s in sample} == set(bench.LANGS)


def test_every_visible_slip_is_flagged_at_its_half_move(sample):
    outcomes = [bench.judge(s) for s in sample]
    seen = [o for o in outcomes if not o.silent]
    assert len(seen) >= 200
    assert all(o.flagged for o in seen)


def test_the_meant_move_comes_first_in_80_and_among_three_in_98_percent(sample):
    f = bench.figures([bench.judge(s) for s in sample])
    assert f["first"] >= 0.80, f
    assert f["top3"] >= 0.98, f


def test_the_other_score_settles_almost_every_slip(sample):
    f = bench.figures([bench.judge(s, with_other=True) for s in sample])
    assert f["first"] >= 0.98, f


def test_the_following_moves_decide_between_equally_near_moves():
    # "Sf4" after 4. La4: Sd4 and Sf6 are both two squares away; only after Sf6 ...
    score = read_score("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf4 5. 0-0 Le7 6. Te1 b5 7. Lb3 d6", lang="de")
    assert score.problems[0].written == "Sf4"
    assert score.problems[0].suggestions[0] == "Sf6"


def test_a_wrong_piece_letter_suggests_the_piece_that_reaches_the_square():
    # 2. Lf3 (the bishop's letter for the knight): Le2 is as near, but only after Sf3 can White castle
    score = read_score("1. e4 e5 2. Lf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. 0-0 Le7", lang="de")
    assert score.problems[0].suggestions[0] == "Sf3"
    # the German initial of "Bauer" before a pawn move
    pawn = read_score("1. e4 e5 2. Sf3 Sc6 3. Bd4 exd4", lang="de")
    assert pawn.problems[0].suggestions[0] == "d4"


def test_a_letter_meaning_different_pieces_is_explained_as_such():
    board = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    r = read(board, "Rd1")                 # English rook, French/Italian king
    assert r.problem == "ambiguous"
    msg = r.message("de")
    assert "der Buchstabe R bedeutet Turm (englisch) oder König (französisch, italienisch)" in msg
    assert "zwei gleiche Figuren" not in msg
    assert "the letter R means rook (English) or king (French, Italian)" in r.message("en")
    # two like pieces keep the old explanation
    knights = chess.Board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    same = read(knights, "Sd2", "de")
    assert same.problem == "ambiguous"
    assert "zwei gleiche Figuren" in same.message("de")


def test_an_ambiguous_entry_lists_first_the_candidate_the_next_moves_fit():
    # 3. Sd2 with knights on b1 and f3: only after Sbd2 can the f3 knight go to e5
    score = read_score("1. d4 Sf6 2. Sf3 d5 3. Sd2 e6 4. Se5 Ld6", lang="de")
    problem = score.problems[0]
    assert (problem.problem, problem.written) == ("ambiguous", "Sd2")
    assert problem.suggestions == ["Sbd2", "Sfd2"]

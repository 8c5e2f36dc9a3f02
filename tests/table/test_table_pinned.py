"""Table behaviours the mutation sample found unpinned: the arbiter's ruling when there is none to give (D.2.9),
the assistant told once that the sighted player's flag fell without supervision (D.2.10 e, A.4.4)."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import ArbiterApply, ArbiterContinue, ArbiterPause, ClockPress, Tick
from blindchess.table.events import Refused, Shown
from tests.support.table import Run, blind_move


def test_the_arbiter_applying_a_ruling_while_the_boards_agree_is_refused_and_changes_nothing():
    run = Run(time_control="90+30")
    run.handle(ArbiterApply(), 1.0)
    assert [r.what for r in run.of(Refused)] == ["ruling"]
    assert run.table.game.plies == 0 and not run.table.game.rulings


def test_the_assistant_is_told_once_that_the_sighted_player_s_flag_fell_without_supervision():
    # rapid without adequate supervision (A.4.4): a fallen flag counts only when claimed; the blind player's
    # assistant is told he may point it out — once, however often time passes after it
    run = Run(time_control="15+0", supervised=False, assistant="Anna Hilfe", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(ClockPress(chess.WHITE), 3.0)               # Black's clock runs: 900 s, his flag falls at 903 s
    told = tr("tournament.asst_claim_flag", "de", color=tr("tournament.black", "de"))
    for t in (600.0, 902.0):
        run.handle(Tick(), t)
    assert not [e for e in run.of(Shown) if told in e.text]
    for t in (904.0, 905.0, 950.0):
        run.handle(Tick(), t)
    assert [e.text for e in run.of(Shown) if told in e.text] == [f"Anna Hilfe: {told}"]
    assert run.table.game.result is None                  # not claimed: the game goes on (A.4.4)


def test_the_arbiter_stops_the_clock_and_starts_it_again_and_the_time_between_counts_for_nobody():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(ClockPress(chess.WHITE), 3.0)               # Black's clock runs
    run.handle(ArbiterPause(), 13.0)
    assert run.table.session.clock.paused
    run.handle(ArbiterContinue(), 113.0)
    clock = run.table.session.clock
    assert not clock.paused and clock.running == chess.BLACK
    assert clock.remaining(chess.BLACK, 123.0) == 5400.0 - 20.0     # 10 s before the stop, 10 s after it

"""The arbiter's own decisions under D.2.9 and the score keepers' corrections: retracing to a half-move of his
choice (refused outside the game, the clocks as they stood then), an entry of a game score written or corrected
by hand (refused where there is no such entry), and an entry that differs from the game shown."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import AmendScore, ArbiterRetrace, ClockPress, SightedMove, Tick
from blindchess.table.events import Refused, Ruled, Said, Shown, Touched
from tests.support.table import Run, blind_move


def _two_plies(run: Run) -> None:
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)                  # the mirror on the sighted player's board
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.handle(SightedMove("e7e5"), 10.0)
    run.peg_move("e7e5", 10.5)
    run.handle(ClockPress(chess.BLACK), 12.0)


def test_a_retrace_beyond_the_half_moves_made_is_refused_to_the_arbiter_and_changes_nothing():
    run = Run(time_control="90+30", blind="white")
    _two_plies(run)
    for plies in (3, -1):
        run.handle(ArbiterRetrace(plies), 20.0)
    refused = run.of(Refused)
    assert [r.what for r in refused] == ["ruling", "ruling"]
    assert refused[0].text == tr("table.no_such_ply", "de", plies=3, made=2)
    assert refused[1].text == tr("table.no_such_ply", "de", plies=-1, made=2)
    assert run.table.game.plies == 2 and not run.of(Ruled)


def test_a_retrace_to_every_half_move_made_is_the_arbiter_s_ruling_and_is_said_to_all():
    run = Run(time_control="90+30", blind="white")
    _two_plies(run)
    run.handle(ArbiterRetrace(2), 20.0)                   # the whole game: still his decision
    assert [(r.kind, r.plies) for r in run.of(Ruled)] == [("retrace", 2)]
    run.handle(ArbiterRetrace(0), 30.0)                   # back to the start
    assert [(r.kind, r.plies) for r in run.of(Ruled)] == [("retrace", 2), ("retrace", 0)]
    assert run.table.game.plies == 0
    run.handle(Tick(), 40.0)
    said = [(s.t, s.to, s.text) for s in run.of(Said) if s.t >= 30.0]
    assert said == [
        (30.0, "all", "Entscheid: zurück auf die Stellung nach 0 Halbzügen."),
        # the pegs still show 1.e4 e5: the squares that differ, one by one, to the blind player
        (said[1][0], "blind", "Bitte das Tastbrett richtigstellen: Eva zwei weißer Bauer, Eva vier leer, "
                              "Eva fünf leer, Eva sieben schwarzer Bauer."),
    ]
    shown = [e.text for e in run.of(Shown) if e.t == 30.0]
    assert shown == ["Entscheid des Schiedsrichters (FIDE D.2.9): Der Schiedsrichter hat anders entschieden. "
                     "Der Schiedsrichter nimmt die Züge bis Halbzug 0 zurück.",
                     "Das Tastbrett zeigt eine andere Stellung: e2, e4, e5, e7."]


def test_a_retrace_sets_the_clocks_as_they_stood_after_that_half_move():
    run = Run(time_control="90+30", blind="white")
    _two_plies(run)
    clock = run.table.session.clock
    before = clock.times_at(1)
    assert before is not None
    run.handle(ArbiterRetrace(1), 40.0)
    assert run.table.game.plies == 1
    assert clock.remaining(chess.WHITE, 40.0) == before.remaining[0]
    assert clock.remaining(chess.BLACK, 40.0) == before.remaining[1]
    assert before.remaining[0] != 5400.0            # White had used time and got the increment: not the start


def test_an_entry_is_corrected_and_one_added_after_the_last_but_none_beyond_it():
    run = Run(time_control="90+30", blind="white")
    _two_plies(run)
    assert run.table.game.score("sighted") == ("e4", "e5")
    run.handle(AmendScore("sighted", 3, "Sf3"), 20.0)         # entry 4: there is no entry 3 yet
    refused = run.of(Refused)
    assert [(r.what, r.text) for r in refused] == [("score", tr("table.no_such_entry", "de", number=4))]
    assert run.table.game.score("sighted") == ("e4", "e5")
    run.handle(AmendScore("sighted", 2, "Sf3"), 21.0)         # entry 3, right after the last
    assert run.table.game.score("sighted") == ("e4", "e5", "Sf3")
    run.handle(AmendScore("sighted", 1, "e6"), 22.0)          # entry 2 corrected: it now differs from the game
    assert run.table.game.score("sighted") == ("e4", "e6", "Sf3")
    deviation = [e.text for e in run.of(Shown) if e.t == 22.0]
    assert any("e6" in text and tr("session.score_sighted", "de") in text for text in deviation), deviation
    run.handle(AmendScore("sighted", 0, "e3"), 23.0)          # entry 1 corrected too
    assert run.table.game.score("sighted") == ("e3", "e6", "Sf3")
    assert len(run.of(Refused)) == 1


def test_after_a_retrace_the_pegs_set_right_are_no_touch_and_he_hears_when_they_agree_then_a_lift_counts_again():
    run = Run(time_control="90+30", blind="white")
    _two_plies(run)
    run.handle(ArbiterRetrace(0), 20.0)
    run.handle(Tick(), 25.0)                        # he is told the squares to set right
    touches = len(run.of(Touched))
    run.lift("e4", 30.0)
    run.place("e2", 30.5)
    run.lift("e5", 31.0)
    run.handle(Tick(), 33.0)                        # one peg still wrong: nothing more is said
    assert not [s for s in run.of(Said) if s.t >= 30.0]
    run.place("e7", 34.0)
    run.handle(Tick(), 36.0)
    run.handle(Tick(), 39.0)
    assert len(run.of(Touched)) == touches          # setting the pegs right touches nothing (D.2.2)
    done = [(s.to, s.text) for s in run.of(Said) if s.t >= 30.0]
    assert done == [("blind", "Das Tastbrett stimmt wieder.")]
    assert "Das Tastbrett stimmt wieder." in [e.text for e in run.of(Shown) if e.t >= 30.0]
    run.lift("g1", 40.0)                            # his move now: a lift is a touch again
    assert [t.square for t in run.of(Touched)][touches:] == ["g1"]

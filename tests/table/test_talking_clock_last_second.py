"""The talking clock in the last second (D.2.10 d): under a second left the flag is still up and the clock says
"0 Sekunden" (a digital clock shows whole seconds, rounded down); only at zero is the time out. A warning may be chosen down to the last second, never at zero. The arbiter's "start the clock" does nothing
to a clock that runs. What falls due next: a flag fallen and not yet seen at once, a flag seen no more; the blind
player's warnings only while his own clock runs."""

from __future__ import annotations

import dataclasses

import chess
import pytest

from blindchess.base import tr
from blindchess.table.clock import DUE_MARGIN, WarningPreferences, spoken_time
from blindchess.table.commands import ArbiterContinue, BlindSays, ClockPress, Finish, Tick
from blindchess.table.events import Said, Shown
from tests.support.table import Run


def test_under_a_second_left_is_not_yet_time_out() -> None:
    assert spoken_time(0.5, "de") == "0 Sekunden"
    assert spoken_time(1.0, "de") == "1 Sekunde"
    assert spoken_time(0.0, "de") == "Zeit abgelaufen"


def test_warnings_chosen_down_to_the_last_second_and_never_at_zero() -> None:
    prefs = WarningPreferences.chosen(60, 1, 0, -5, 60)
    assert prefs.opted_in and prefs.thresholds == (60.0, 1.0)      # largest first, once each
    with pytest.raises(dataclasses.FrozenInstanceError):
        prefs.thresholds = ()       # type: ignore[misc]  # the player's choice is a value, not changed in place


def test_the_arbiter_starting_a_clock_that_runs_changes_nothing() -> None:
    run = Run(blind="white", tactile="none", time_control="90+30")
    run.handle(ArbiterContinue(), 5.0)
    assert tr("table.clock_resumed", "de") not in [e.text for e in run.of(Shown)]
    assert run.table.session.clock.running == chess.WHITE and not run.table.session.clock.paused


def _black_s_clock_runs(**setup: object) -> Run:
    run = Run(blind="white", tactile="none", time_control="10+0", rules="rapid", supervised=False, **setup)
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(ClockPress(chess.WHITE), 1.5)           # Black's ten minutes run: her flag falls at 601.5
    run.handle(Finish(), 2.0)
    return run


def test_a_flag_fallen_unseen_is_due_at_once_and_once_seen_no_longer() -> None:
    run = _black_s_clock_runs()
    assert run.table.next_due(2.0) == 601.5 + DUE_MARGIN
    assert run.table.next_due(700.0) == 700.0 + DUE_MARGIN     # fallen since the table last let time pass
    run.handle(Tick(), 601.5)                                    # seen; without supervision play goes on (A.4.4)
    assert run.table.game.result is None
    assert run.table.next_due(601.5) is None and run.table.next_due(700.0) is None


def test_the_blind_player_s_warnings_fall_due_only_on_his_own_clock() -> None:
    run = _black_s_clock_runs(warnings=(60.0,))
    assert run.table.next_due(2.0) == 601.5 + DUE_MARGIN       # her clock runs: her flag, not his warning


def test_a_warning_chosen_for_the_last_half_second_falls_due_then() -> None:
    run = Run(blind="white", tactile="none", time_control="10+0", warnings=(0.5,))
    run.handle(Finish(), 0.1)
    assert run.table.next_due(1.0) == 600.0 - 0.5 + DUE_MARGIN      # his own clock runs from the start


def test_warnings_chosen_in_a_game_without_a_blind_player_are_said_to_nobody() -> None:
    run = Run(blind="none", tactile="none", time_control="10+0", warnings=(300.0,))
    run.handle(Tick(), 400.0)
    run.handle(Finish(), 401.0)
    assert not [e for e in run.events if isinstance(e, Said) and e.t >= 300.0]

"""The talking clock in the last second (D.2.10 d): under a second left the flag is still up and the clock says
"0 Sekunden" (a digital clock shows whole seconds, rounded down); only at zero is the time out. A warning may be chosen down to the last second, never at zero. The arbiter's "start the clock" does nothing
to a clock that runs."""

from __future__ import annotations

import dataclasses

import chess
import pytest

from blindchess.base import tr
from blindchess.table.clock import WarningPreferences, spoken_time
from blindchess.table.commands import ArbiterContinue
from blindchess.table.events import Shown
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

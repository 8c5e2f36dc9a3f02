"""The talking clock in the last second (D.2.10 d): under a second left the flag is still up and the clock says
"0 Sekunden" (a digital clock shows whole seconds, rounded down); only at zero is the time out."""

from __future__ import annotations

from blindchess.table.clock import spoken_time


def test_under_a_second_left_is_not_yet_time_out() -> None:
    assert spoken_time(0.5, "de") == "0 Sekunden"
    assert spoken_time(1.0, "de") == "1 Sekunde"
    assert spoken_time(0.0, "de") == "Zeit abgelaufen"

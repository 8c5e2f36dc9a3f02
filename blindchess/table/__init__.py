"""The table: one game at one table as the three people at it live it (pure core).

:class:`Table` takes the inputs (with the time passed in) and gives typed events
(:mod:`.events`) to its subscribers; :class:`TableSetup` says how the table is set up.

Other packages import this face, never its modules."""

from __future__ import annotations

from .eboard import touch_report
from .ending import QuickplayGround, QuickplayVerdict
from .events import Asked, DeviceRequest, Diverged, Final, Heard, Moved, Refused, Ruled, Said, Shown, Speak, TableEvent
from .setup import TableSetup
from .speech import VERBOSITIES, blind_hears, brief_form, spoken, step_for_blind, window_heard, worded
from .table import Table

__all__ = [
    "Asked", "DeviceRequest", "Diverged", "Final", "Heard", "Moved", "QuickplayGround", "QuickplayVerdict", "Refused",
    "Ruled", "Said", "Shown", "Speak", "spoken", "Table", "TableEvent", "TableSetup", "touch_report",
    "VERBOSITIES", "blind_hears", "brief_form", "step_for_blind", "window_heard", "worded",
]

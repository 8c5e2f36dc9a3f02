"""The table: one game at one table as the three people at it live it (pure core).

:class:`Table` takes the inputs as commands (:mod:`.commands`, one frozen dataclass
each, applied by :meth:`Table.handle` with the time passed in) and gives typed events
(:mod:`.events`) to its subscribers; :class:`TableSetup` says how the table is set up.

Other packages import this face, never its modules."""

from __future__ import annotations

from .commands import (
    AgreesCorrection,
    AmendScore,
    Answers,
    ArbiterAdjourn,
    ArbiterAnnul,
    ArbiterApply,
    ArbiterContinue,
    ArbiterLate,
    ArbiterPause,
    ArbiterQuickplay,
    ArbiterResult,
    ArbiterResume,
    ArbiterResumeAbsent,
    ArbiterResumeSealerAbsent,
    ArbiterRetrace,
    ArbiterSetClock,
    ArbiterToggleClock,
    BlindSays,
    Claims,
    ClaimsQuickplay,
    ClaimsSetup,
    ClaimsTouch,
    ClockPress,
    Command,
    ConnectEngine,
    EBoardInput,
    EngineFailed,
    EngineMove,
    Finish,
    GameResult,
    OffersDraw,
    PegInput,
    PegLine,
    PointsOutClock,
    Reading,
    Repeat,
    Request,
    Resigns,
    Seals,
    SetupFault,
    SetWording,
    SightedMove,
    SightedSays,
    SightedTouch,
    StopSpeech,
    TactileMove,
    TakesBack,
    Tick,
)
from .eboard import touch_report
from .ending import QuickplayGround, QuickplayVerdict
from .events import Asked, DeviceRequest, Diverged, Final, Heard, Moved, Refused, Ruled, Said, Shown, Speak, TableEvent
from .setup import Answer, Question, TableSetup, Who
from .speech import spoken
from .table import Table

__all__ = [
    "AgreesCorrection", "ArbiterAnnul", "ArbiterLate", "ArbiterResumeSealerAbsent", "ClaimsSetup", "ClaimsTouch",
    "PointsOutClock", "SetupFault",
    "AmendScore", "Answer", "Answers", "ArbiterAdjourn", "ArbiterApply", "ArbiterContinue", "ArbiterPause",
    "ArbiterQuickplay", "ArbiterResult", "ArbiterResume", "ArbiterResumeAbsent", "ArbiterRetrace", "ArbiterSetClock",
    "ArbiterToggleClock", "Asked", "BlindSays", "Claims", "ClaimsQuickplay", "ClockPress", "Command", "ConnectEngine",
    "DeviceRequest", "Diverged", "EBoardInput", "EngineFailed", "EngineMove", "Final", "Finish", "GameResult", "Heard",
    "Moved", "OffersDraw", "PegInput", "PegLine", "Question", "QuickplayGround", "QuickplayVerdict", "Reading",
    "Refused", "Repeat", "Request", "Resigns", "Ruled", "Said", "Seals", "SetWording", "Shown", "SightedMove",
    "SightedSays", "SightedTouch", "Speak", "spoken", "StopSpeech", "Table", "TableEvent", "TableSetup",
    "TactileMove", "TakesBack", "Tick", "touch_report", "Who",
]

"""The rules engine: two boards, two scores, move completion, clocks and flags, claims and endings,
D.2.9 rulings, rule sets and adjournment (FIDE Laws of Chess, Appendix D) — commands in, typed events
out (:class:`Session`, :mod:`blindchess.game.events`). No wording, no questions, no speech, no I/O but
the journal."""

from __future__ import annotations

from .core import JOURNAL_PROBLEM
from .events import (
    Adjourned,
    Announce,
    AnnounceIgnored,
    AnnounceMismatch,
    AnnounceUnclear,
    BoardMove,
    BoardMoveRejected,
    BoardName,
    BoardsAgree,
    Claim,
    ClaimJudged,
    ClaimKind,
    ClockRefused,
    ClockTimes,
    Color,
    CorrectionAgreed,
    CorrectionRefused,
    Divergence,
    DrawDeclined,
    DrawOffer,
    EnvelopeLost,
    EnvelopeOpened,
    FlagFallen,
    GameEnd,
    GameEvent,
    IllegalCorrected,
    JournalDamaged,
    Mirrored,
    MirrorNeeded,
    MoveMade,
    MoveWithdrawn,
    Note,
    Player,
    QuickplayFiled,
    QuickplayGround,
    QuickplayVerdict,
    ResponderClockStarted,
    Ruling,
    RulingOverride,
    ScoreDeviation,
    ScoreName,
    SealedMove,
    TakeBack,
    TimeAdded,
    Touch,
    color_name,
    from_json,
)
from .session import Session
from .state import GameSnapshot, Parting

__all__ = [
    "Adjourned", "Announce", "AnnounceIgnored", "AnnounceMismatch", "AnnounceUnclear", "BoardMove",
    "BoardMoveRejected", "BoardName", "BoardsAgree", "Claim", "ClaimJudged", "ClaimKind", "ClockRefused",
    "ClockTimes", "Color", "color_name", "CorrectionAgreed", "CorrectionRefused", "Divergence", "DrawDeclined", "DrawOffer",
    "EnvelopeLost", "EnvelopeOpened", "FlagFallen", "from_json", "GameEnd", "GameEvent", "GameSnapshot",
    "IllegalCorrected", "JOURNAL_PROBLEM", "JournalDamaged", "Mirrored", "MirrorNeeded", "MoveMade", "MoveWithdrawn", "Note", "Parting",
    "Player", "QuickplayFiled", "QuickplayGround", "QuickplayVerdict", "ResponderClockStarted", "Ruling",
    "RulingOverride", "ScoreDeviation", "ScoreName", "SealedMove", "Session", "TakeBack", "TimeAdded", "Touch",
]

"""The rules engine: two boards, two scores, move completion, clocks and flags, claims and endings,
D.2.9 rulings, rule sets and adjournment (FIDE Laws of Chess, Appendix D) — commands in, typed events
out (:class:`Session`, :mod:`blindchess.game.events`). No wording, no questions, no speech, no I/O but
the journal."""

from .events import Player
from .session import Session

__all__ = ["Player", "Session"]

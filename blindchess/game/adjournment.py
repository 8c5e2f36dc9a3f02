"""Adjournment: the sealed move (FIDE Laws, Guidelines I.1-2) and the opening of the envelope (I.7).

:class:`~blindchess.game.events.SealedMove` carries ``public`` (what the envelope shows,
I.2) and ``hidden`` (the move as written). The journal holds it whole; everyone else sees
it without ``hidden`` until :meth:`Adjournment.open_envelope` (see :mod:`blindchess.game.log`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .events import EnvelopeOpened, SealedMove
from .state import GameState

__all__ = ["Adjournment"]


class Adjournment:
    """The sealed move of one game; see the module docstring."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def seal_move(self, public: Mapping[str, Any], hidden: Mapping[str, Any], now: float) -> SealedMove:
        """Journal a sealed move; returns it as everyone may see it (without ``hidden``)."""
        ev = self.state.log.record(SealedMove(t=now, public=dict(public), hidden=dict(hidden)))
        return dataclasses.replace(ev, hidden=None, sealed=True)

    @property
    def envelope_sealed(self) -> bool:
        """Whether a sealed move is waiting for its envelope to be opened."""
        log = self.state.log
        return any(seq not in log.opened for seq in log.sealed)

    def sealed_move(self, *, reveal: bool = False) -> SealedMove | None:
        """The latest sealed move (None if nothing was sealed).

        Without ``reveal``: as a player may see it (``hidden`` only once the envelope is
        opened). ``reveal=True`` gives it whole — for the arbiter's own checks at
        resumption (Guidelines I.7, I.8); never show it on the responder's side before the opening.
        """
        log = self.state.log
        if not log.sealed:
            return None
        seq = max(log.sealed)
        ev = log.sealed[seq]
        return ev if reveal or seq in log.opened else dataclasses.replace(ev, hidden=None, sealed=True)

    def open_envelope(self, now: float) -> EnvelopeOpened:
        """The envelope is opened (Guidelines I.7): the sealed move becomes public. ValueError when none is closed."""
        log = self.state.log
        waiting = [seq for seq in log.sealed if seq not in log.opened]
        if not waiting:
            raise ValueError("no sealed move to open")
        seq = max(waiting)
        return log.record(EnvelopeOpened(t=now, sealed_seq=seq, hidden=dict(log.sealed[seq].hidden or {})))

    def on_envelope_opened(self, ev: EnvelopeOpened) -> None:
        self.state.log.reveal(ev.sealed_seq)

"""Adjournment: the sealed move (FIDE Laws, Guidelines I 1-2) and the opening of the envelope (I 7).

``sealed-move`` carries ``public`` (what the envelope shows, I 2) and ``hidden``
(the move as written). The journal holds it whole; everyone else sees it without
``hidden`` until :meth:`Adjournment.open_envelope` (see :mod:`blindchess.game.log`).
"""

from __future__ import annotations

from typing import Any

from .events import Event
from .log import without_hidden
from .state import GameState

__all__ = ["Adjournment"]


class Adjournment:
    """The sealed move of one game; see the module docstring."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def seal_move(self, public: dict[str, Any], hidden: dict[str, Any], now: float, **fields: Any) -> Event:
        """Journal a sealed move; returns the public event (without ``hidden``, with ``"sealed": True``)."""
        ev = self.state.log.do("sealed-move", now, text="adjourned", public=dict(public), hidden=dict(hidden),
                               article="Guidelines I", **fields)
        return without_hidden(ev)

    @property
    def envelope_sealed(self) -> bool:
        """Whether a sealed move is waiting for its envelope to be opened."""
        log = self.state.log
        return any(seq not in log.opened for seq in log.sealed)

    def sealed_move(self, *, reveal: bool = False) -> Event | None:
        """The latest sealed-move event (None if nothing was sealed).

        Without ``reveal``: as a player may see it (``hidden`` only once the envelope is
        opened). ``reveal=True`` gives the whole event — for the arbiter's own checks at
        resumption (Guidelines I 7, 8); never show it on the responder's side before the opening.
        """
        log = self.state.log
        if not log.sealed:
            return None
        seq = max(log.sealed)
        ev = log.sealed[seq]
        return dict(ev) if reveal or seq in log.opened else without_hidden(ev)

    def open_envelope(self, now: float, **fields: Any) -> Event:
        """The envelope is opened (Guidelines I 7): the sealed move becomes public. ValueError when none is closed."""
        log = self.state.log
        waiting = [seq for seq in log.sealed if seq not in log.opened]
        if not waiting:
            raise ValueError("no sealed move to open")
        seq = max(waiting)
        return log.do("envelope-opened", now, text="envelope-opened", sealed_seq=seq,
                      hidden=dict(log.sealed[seq]["hidden"]), article="Guidelines I 7", **fields)

    def on_envelope_opened(self, ev: Event) -> None:
        self.state.log.reveal(int(ev["sealed_seq"]))

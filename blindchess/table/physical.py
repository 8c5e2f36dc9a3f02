"""What the two physical boards at the table have in common (pure).

The blind player's peg-board (:mod:`~blindchess.table.tactile`) and the sighted
player's electronic board (:mod:`~blindchess.table.eboard`) each report what the
hands did; each is judged against the position it should show, once what it
reports has stood still for the settle time:

* :func:`expected_position` — the position a physical board should show now;
* :class:`Settling` — when the board's last reported change has settled.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from ..game import BoardName, Session

__all__ = ["Settling", "expected_position"]


def expected_position(session: Session, board: BoardName) -> chess.Board:
    """The position the physical ``board`` should show now (a copy).

    The game's position; the board's own while it is ahead of the game (a move
    carried out before it was announced, D.2.3) or while a wrong mirror on it
    stands until the arbiter's ruling (D.2.9).
    """
    own, game = session.snapshot.board_length(board), session.snapshot.plies
    if own > game or (session.snapshot.divergence is not None and own >= game):
        return session.board(board)
    return session.game_board()


@dataclass
class Settling:
    """When a board's last reported change has stood still for ``settle`` seconds.

    ``last`` is the time of the last change (None: nothing reported yet).
    """

    settle: float
    last: float | None = None

    def changed(self, now: float) -> None:
        """The board reported a change at ``now``."""
        self.last = now

    def settled_at(self) -> float | None:
        """When the last change settles (None: nothing reported yet)."""
        return None if self.last is None else self.last + self.settle

    def due(self, now: float) -> float | None:
        """When the last change settles, if that is after ``now`` (else None: nothing waits)."""
        at = self.settled_at()
        return at if at is not None and at > now else None

    def settled(self, now: float) -> bool:
        """Whether the last change has settled at ``now`` (True when nothing was reported)."""
        return self.last is None or now - self.last >= self.settle - 1e-9

    def idle_at(self, now: float) -> float:
        """When the last change has settled, ``now`` at the earliest."""
        at = self.settled_at()
        return now if at is None else max(now, at)

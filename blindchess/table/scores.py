"""The two scores, written by the table as their keepers write them (D.2.7, D.2.9, D.2.10 c; pure).

When a move is made, both scores get it as it was announced, in the session
language's notation: the blind player's recording holds his own moves as he
announced them and the opponent's as they were announced to him; the sighted
score likewise. Boards never write scores, so a wrong mirror leaves them
agreeing and D.2.9's first case ("correct-board") applies. After a ruling the
scores are completed to the game. An entry written or corrected by hand
(:meth:`ScoreKeeper.amend`) is the keeper's own.
"""

from __future__ import annotations

from ..i18n import tr
from .setup import Who
from .state import TableState

__all__ = ["ScoreKeeper"]


class ScoreKeeper:
    """Writes both scores through ``Session.write`` (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    def write(self, index: int, text: str, now: float) -> None:
        """Both keepers write the move of half-move ``index`` as announced (D.2.7, D.2.10 c)."""
        s = self.state.session
        for who in ("blind", "sighted"):
            entries = s.score(who)
            if index < len(entries):
                if entries[index] != text:
                    s.write(who, text, now, index=index)
            else:
                for i in range(len(entries), index):
                    s.write(who, self.state.written(i), now)
                s.write(who, text, now)

    def complete(self, now: float) -> None:
        """After a ruling: entries the game has and a score lacks are written (the game goes on from there)."""
        s = self.state.session
        plies = len(s.game_moves)
        for who in ("blind", "sighted"):
            for i in range(len(s.score(who)), plies):
                s.write(who, self.state.written(i), now)

    def amend(self, who: Who, index: int, text: str, now: float) -> bool:
        """Entry ``index`` (0-based) of ``who``'s score written or corrected by hand; False (refused) when
        there is no such entry (an entry may be added only right after the last)."""
        s = self.state.session
        entries = s.score(who)
        if not 0 <= index <= len(entries):
            self.state.refuse(now, "score", tr("table.no_such_entry", self.state.lang, number=index + 1))
            return False
        s.write(who, text, now, index=index if index < len(entries) else None)
        self.state.process()
        return True

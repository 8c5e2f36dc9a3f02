"""What the arbiter needs to know of one table, as the journal has it — kept up to date event by event.

The claims (Art. 6.8, 9.2, 9.3, A.4) and fallen flags (Art. 6.9) are gathered from the game's events as
they come (:class:`TableWatch` looks only at the events recorded since its last look); the rest is the
rules engine's state as it stands: whose move, where a board parts from the game (D.2.9) with the
ruling the engine proposes, the draw offer (Art. 9.1), the adjournment (Guidelines I), the clocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from ..game import Claim, ClaimJudged, FlagFallen, Parting, Session

__all__ = ["ClaimRecord", "TableReport", "TableWatch"]


@dataclass(frozen=True)
class ClaimRecord:
    """A claim at the table (Art. 6.8, 9.2, 9.3, A.4): who, what, and the arbiter's judgment
    (``upheld`` None while none is recorded)."""

    color: chess.Color
    kind: str
    upheld: bool | None


@dataclass(frozen=True)
class TableReport:
    """What the arbiter needs to know of one table, as the journal has it.

    ``parting``: where a board parts from the game (D.2.9), ``proposal``: the ruling the rules
    engine proposes for it in plain words, ``proposal_kind`` that ruling's kind ("correct-board", "retrace",
    "none") and ``proposal_plies`` the half-moves it keeps; ``flags``: the sides whose flag fell (Art. 6.9);
    ``claims``: the claims made, in order; ``clocks``: the times left (White, Black; None without a
    time control) as of the journal's last entry, ``running``: whose clock ran then."""

    to_move: chess.Color
    result: str | None
    reason: str | None
    parting: Parting | None
    proposal: str | None
    proposal_kind: str | None
    proposal_plies: int
    flags: tuple[chess.Color, ...]
    claims: tuple[ClaimRecord, ...]
    draw_offer: chess.Color | None
    adjourned: bool
    sealed: bool
    clocks: tuple[float | None, float | None]
    running: chess.Color | None

    @property
    def needs_arbiter(self) -> bool:
        """The boards part (D.2.9) or a flag fell in a game still going on."""
        return self.parting is not None or (bool(self.flags) and self.result is None)


class TableWatch:
    """The table's report of one game, the game's events looked at once each (a new list of events — a line
    the replay dropped — is looked at again from its start)."""

    def __init__(self) -> None:
        self._events: object = None
        self._seen = 0
        self._flags: list[chess.Color] = []
        self._claims: list[ClaimRecord] = []

    def report(self, session: Session, lang: str) -> TableReport:
        events = session.events
        if events is not self._events or len(events) < self._seen:
            self._events, self._seen, self._flags, self._claims = events, 0, [], []
        for ev in events[self._seen:]:
            if isinstance(ev, FlagFallen):
                color = ev.color == "white"
                if color not in self._flags:
                    self._flags.append(color)
            elif isinstance(ev, Claim):
                self._claims.append(ClaimRecord(ev.color == "white", ev.kind, None))
            elif isinstance(ev, ClaimJudged):
                judged = ClaimRecord(ev.color == "white", ev.kind, ev.upheld)
                if self._claims and self._claims[-1].upheld is None and self._claims[-1].color == judged.color:
                    self._claims[-1] = judged
                else:
                    self._claims.append(judged)
        self._seen = len(events)
        parting = session.snapshot.divergence
        proposal = kind = None
        plies = 0
        if parting is not None and session.snapshot.result is None:
            ruling = session.propose_ruling(lang)
            if ruling is not None:
                proposal, kind, plies = ruling.explain(lang), ruling.kind, len(ruling.moves)
        clock = session.clock
        at = session.snapshot.last_time
        times = tuple(None if clock.time_control is None else clock.remaining(c, at) for c in (chess.WHITE, chess.BLACK))
        running = clock.running if clock.ticking else None
        return TableReport(session.snapshot.to_move, session.snapshot.result, session.snapshot.result_reason, parting, proposal, kind, plies,
                           tuple(self._flags), tuple(self._claims), session.snapshot.draw_offer, session.snapshot.adjourned,
                           session.snapshot.envelope_sealed, (times[0], times[1]), running)

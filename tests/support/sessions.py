"""Games for the rules engine's tests: Bernd (White, blind) against Sabine, moves made on both boards."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.game import Player, Session


def played(moves: tuple[str, ...], journal: Path | None = None, time_control: str | None = "90+30") -> Session:
    """Bernd Blind (White) against Sabine Sehend, ``moves`` (UCI) made one a second from t = 1: the mover's own
    board first (White's move announced), his clock pressed (when there is a clock), then the other board.
    The next free time is ``1.0 + len(moves)``."""
    s = Session.new(Player("Bernd Blind", True), Player("Sabine Sehend"), time_control, journal=journal, now=0.0)
    if time_control is not None:
        s.start_clock(0.0)
    t = 1.0
    for uci in moves:
        move = chess.Move.from_uci(uci)
        mover = s.snapshot.to_move
        first, second = ("tactile", "sighted") if mover == chess.WHITE else ("sighted", "tactile")
        s.board_move(first, move, t)
        if mover == chess.WHITE:
            s.announce(move, uci, t + 0.1)
        if time_control is not None:
            s.press_clock(mover, t + 0.2)
        s.board_move(second, move, t + 0.3)
        t += 1.0
    return s

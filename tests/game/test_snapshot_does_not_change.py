"""What the table reads of the game — the snapshot, the boards' parting (D.2.9) — is a record of one moment: it
cannot be changed by its reader, and the game going on leaves it as it was."""

from __future__ import annotations

import dataclasses

import chess
import pytest

from blindchess.game import Player, Session

M = chess.Move.from_uci


def test_a_snapshot_and_the_boards_parting_in_it_stay_as_they_were_read():
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", M("e2e4"), 1.0)
    s.press_clock(chess.WHITE, 2.0)
    s.board_move("tactile", M("d2d4"), 3.0)                 # Bert mirrors a different move: the boards part
    snap = s.snapshot
    parting = snap.divergence
    assert parting is not None and (parting.ply, parting.board) == (1, "tactile")      # after half-move 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.result = "1-0"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        parting.ply = 0  # type: ignore[misc]
    s.take_back("tactile", 4.0)
    s.board_move("tactile", M("e2e4"), 5.0)
    assert s.snapshot.divergence is None
    assert snap.divergence == parting and snap.board_moves["tactile"] == (M("d2d4"),)

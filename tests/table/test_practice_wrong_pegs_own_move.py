"""In a practice game with coaching, pegs that show no move while it is the blind player's own move (a peg
knocked over, a peg put down on a wrong square) are no slip in mirroring the computer's move: the computer's
move is not told again and the summary counts no mirror slip."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.table.opponent import Slips
from tests.support.practice_driver import BlindSide
from tests.table.test_practice import WHITE_VS_ENGINE, Scripted

M = chess.Move.from_uci


def test_a_wrong_peg_in_his_own_move_is_no_mirror_slip(tmp_path: Path):
    s = BlindSide(WHITE_VS_ENGINE.replace("engine 1", "engine 1 coaching"), tmp_path / "game.jsonl",
                  engines=lambda setup: Scripted("e7e5", "b8c6"))
    s.play(M("e2e4"))
    s.wait()
    s.later(1.0)
    s.pegs(M("e7e5"), s.table.session.board("tactile"))      # the computer's move mirrored right
    s.later(2.0)
    told = len(s.said_to_blind())
    s.peg("L a1")                                           # his own move: a rook peg put down where no rook goes
    s.later(0.3)
    s.peg("P a5")
    s.later(3.0)
    assert not s.table.tactile_in_sync
    assert not [t for t in s.said_to_blind()[told:] if "Eva fünf" in t]
    assert Slips.count(s.table.session.snapshot.notes).mirror == 0
    s.close()

"""In a practice game with coaching "take back" is refused, changing nothing, when the blind player has made no
move yet (the computer as White has moved) and once the game is over."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.base import tr
from blindchess.table.commands import Resigns, TakesBack
from blindchess.table.events import Refused
from tests.support.practice_driver import BlindSide
from tests.table.test_practice import Scripted

BLACK_VS_ENGINE = "@white Rechner\n@black Bernd\n@blind black\n@opponent engine 1 coaching\n@time 15+10\n@settle 0.5\n"
M = chess.Move.from_uci


def _refusals(s: BlindSide) -> list[tuple[str, str]]:
    return [(e.what, e.text) for e in s.events if isinstance(e, Refused)]


def test_take_back_before_his_first_move_is_refused(tmp_path: Path):
    s = BlindSide(BLACK_VS_ENGINE, tmp_path / "game.jsonl", engines=lambda setup: Scripted("e2e4", "g1f3"))
    s.wait()                                              # the computer (White) has played 1.e4
    assert s.table.session.snapshot.plies == 1
    s.front.handle(TakesBack(), s.now)
    assert _refusals(s) == [("take-back", tr("engine.take_back_nothing", "de"))]
    assert s.table.session.snapshot.plies == 1
    s.close()


def test_take_back_after_the_game_is_over_is_refused(tmp_path: Path):
    s = BlindSide(BLACK_VS_ENGINE, tmp_path / "game.jsonl", engines=lambda setup: Scripted("e2e4", "g1f3"))
    s.wait()
    s.pegs(M("e2e4"), s.table.session.board("tactile"))
    s.later(1.0)
    s.play(M("e7e5"))
    s.wait()
    assert s.table.session.snapshot.plies == 3
    s.front.handle(Resigns("blind"), s.now)
    s.say("ja")
    s.later(1.0)
    assert s.table.session.snapshot.result == "1-0"
    s.front.handle(TakesBack(), s.now)
    assert ("take-back", tr("engine.take_back_nothing", "de")) in _refusals(s)
    assert s.table.session.snapshot.plies == 3 and s.table.session.snapshot.result == "1-0"
    s.close()

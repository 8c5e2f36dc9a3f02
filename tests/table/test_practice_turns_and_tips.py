"""Practice against the computer: it plays only when the game lets it (while the arbiter has stopped the clock
it waits, then it thinks afresh), an engine's illegal answer is never played (it is asked again), and the coaching tip for
words that name no move shows how moves are said."""

from __future__ import annotations

import dataclasses

import chess
import pytest

from blindchess.base import tr
from blindchess.language import phonetic
from blindchess.table.commands import ArbiterContinue, ArbiterPause, ConnectEngine, EngineMove, Tick
from blindchess.table.events import DeviceRequest, Moved
from blindchess.table.opponent import MIN_DELAY, Slips
from blindchess.table.setup import TableSetup
from blindchess.table.table import Table
from tests.table.test_practice import WHITE_VS_ENGINE, Scripted, moved, side

M = chess.Move.from_uci


def test_the_computer_does_not_move_while_the_arbiter_has_stopped_the_clock(tmp_path):
    chooser = Scripted("e7e5", "c7c5")
    s = side(tmp_path, WHITE_VS_ENGINE, chooser)
    s.play(M("e2e4"))
    pressed_at = s.now
    s.front.handle(ArbiterPause(), s.now + 1.0)
    s.wait(pressed_at + 60.0, flags=True)
    assert list(s.table.session.snapshot.game_moves) == [M("e2e4")]
    s.front.handle(ArbiterContinue(), pressed_at + 60.0)
    s.now = pressed_at + 60.0
    s.wait()
    reply = moved(s, 2)
    assert reply.uci == "c7c5" and reply.t == pressed_at + 60.0 + MIN_DELAY[0]     # its turn begins afresh
    assert len(chooser.asked) == 2
    s.close()


def test_an_illegal_move_from_the_engine_is_not_played_and_the_engine_is_asked_again(tmp_path):
    setup = TableSetup(white="Rechner", black="Bernd", blind="black", tactile="none", opponent="engine",
                       engine_level=6)
    table = Table.new(setup, 0.0, tmp_path / "g.jsonl")
    events: list = []
    table.subscribe(events.append)
    table.handle(ConnectEngine(None), 0.0)
    table.handle(EngineMove(M("e2e5"), chess.STARTING_FEN), 1.0)        # no legal move
    asked = [e for e in events if isinstance(e, DeviceRequest) and e.device == "engine"]
    assert [e.fen for e in asked] == [chess.STARTING_FEN, chess.STARTING_FEN]
    table.handle(EngineMove(M("d2d4"), chess.STARTING_FEN), 2.0)
    table.handle(Tick(), MIN_DELAY[5])
    assert [(m.uci, m.t) for m in events if isinstance(m, Moved)] == [("d2d4", MIN_DELAY[5])]
    table.close()


def test_coaching_for_words_that_name_nothing_shows_how_a_move_is_said(tmp_path):
    s = side(tmp_path, WHITE_VS_ENGINE.replace("@opponent engine 1", "@opponent engine 1 coaching"), Scripted("e7e5"))
    s.later(1.0)
    s.say("Blabla")                                   # nothing placed on the pegs either
    s.wait()
    example = phonetic.announce(chess.Board(), M("b1a3"), "de")        # a piece move, the first in UCI order
    tip = f"{tr('engine.coach_no_words', 'de')} {tr('engine.coach_form', 'de', example=example)}"
    assert tip in s.said_to_blind()
    s.close()


def test_the_slips_of_a_game_are_a_value_counted_once():
    """The summary's counts are a value: equal counts are equal, and nothing changes them after counting."""
    slips = Slips(unclear=2)
    assert slips == Slips(unclear=2) and len({slips, Slips(unclear=2)}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        slips.unclear = 3          # type: ignore[misc]

"""Every input at the table is a command handed to Table.handle; the engine's state is one frozen snapshot;
the engine's events are dispatched from one queue, so what follows what is decided by the code."""

from __future__ import annotations

import dataclasses
import typing

import chess
import pytest

from blindchess.game import GameSnapshot, Player, Session
from blindchess.table import Command, Table, TableSetup
from blindchess.table.commands import (
    Answers,
    ArbiterResult,
    BlindSays,
    Claims,
    ClaimsSetup,
    ClockPress,
    Resigns,
    SetWording,
    SightedMove,
    SightedTouch,
    TactileMove,
)
from blindchess.table.events import Asked, Moved, Refused, Shown, Touched
from blindchess.table.table import Table as TableClass


def test_every_command_has_one_arm_of_the_one_match():
    commands = typing.get_args(Command)
    assert len(commands) == len(set(commands)) == 45
    assert all(dataclasses.is_dataclass(c) and c.__dataclass_params__.frozen for c in commands)   # type: ignore[attr-defined]
    source = TableClass._apply.__code__.co_names
    assert all(c.__name__ in source for c in commands)


@pytest.mark.parametrize("build", [
    lambda: Claims("blind", "stalemate"),             # type: ignore[arg-type]
    lambda: SetWording("morse"),                      # type: ignore[arg-type]
    lambda: ArbiterResult("2-0"),                     # type: ignore[arg-type]
    lambda: ClaimsSetup("blind", "rooks"),            # type: ignore[arg-type]
])
def test_a_command_refuses_a_name_the_table_does_not_know_before_it_reaches_the_table(build):
    with pytest.raises(ValueError):
        build()


def game() -> tuple[Table, list]:
    table = Table.new(TableSetup(white="Bernd Blind", black="Sabine Sehend", blind="white", time_control="90+30",
                                 tactile="none", assistant="Anna Hilfe"), 0.0)
    events: list = []
    table.subscribe(events.append)
    return table, events


def test_a_game_is_played_with_commands_alone():
    table, events = game()
    table.handle(BlindSays("Bauer Eva vier", None), 1.0)
    table.handle(ClockPress(chess.WHITE), 1.5)
    table.handle(SightedMove(chess.Move.from_uci("e2e4")), 2.0)    # the mirror, as the window gives it
    table.handle(SightedMove("e5"), 3.0)                            # the sighted player's move, as typed
    table.handle(ClockPress(chess.BLACK), 3.5)
    table.handle(TactileMove("e7e5"), 4.0)
    assert [(e.ply, e.san) for e in events if isinstance(e, Moved)] == [(1, "e4"), (2, "e5")]
    assert table.game.game_moves == (chess.Move.from_uci("e2e4"), chess.Move.from_uci("e7e5"))
    table.handle(Resigns("sighted"), 5.0)
    asked = [e for e in events if isinstance(e, Asked)]
    assert asked and asked[-1].to == "sighted"
    table.handle(Answers("sighted", "no"), 5.5)
    assert table.game.result is None and table.question is None
    start = len(events)
    table.handle(ClockPress(chess.BLACK), 6.0)                      # White's move is not made: refused
    assert [e.what for e in events[start:] if isinstance(e, Refused)] == ["press"]
    assert table.game.plies_pressed == 2


def test_the_snapshot_is_one_frozen_record_built_again_after_each_command():
    s = Session.new(Player("Anna", True), Player("Bert"), "90+30", now=0.0)
    before = s.snapshot
    assert s.snapshot is before                                    # shared by every reader until the next command
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.result = "1-0"                                      # type: ignore[misc]
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 1.0)
    assert s.snapshot is not before and before.moves("tactile") == ()
    assert s.snapshot.moves("tactile") == (chess.Move.from_uci("e2e4"),) and isinstance(s.snapshot, GameSnapshot)


def test_a_touch_is_reported_before_the_assistants_note_about_it():
    """The dispatch does not nest: the touch the sighted player made comes first, then what the table makes of
    it for the assistant to tell the arbiter (D.2.10 e)."""
    table, events = game()
    table.handle(BlindSays("Bauer Eva vier", None), 1.0)
    table.handle(ClockPress(chess.WHITE), 1.5)
    table.handle(SightedMove("e2e4"), 2.0)
    start = len(events)
    table.handle(SightedTouch(chess.G8), 3.0)
    after = [e for e in events[start:] if isinstance(e, (Touched, Shown))]
    assert isinstance(after[0], Touched) and after[0].square == "g8"
    assert any(isinstance(e, Shown) and e.text.startswith("Anna Hilfe:") for e in after[1:])

"""The blind player's choices while the game runs: the wording he hears moves in (kept across a crash through the
journal), the table's language, stopping the voice, the window's own reading, and "take back" refused outside
a practice game with coaching."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import (
    ClockPress,
    Finish,
    Reading,
    Request,
    SetLanguage,
    SetWording,
    SightedMove,
    StopSpeech,
    TakesBack,
    Tick,
)
from blindchess.table.events import Refused, Said
from tests.support.table import Run, blind_move


def _opponent_move_heard(run: Run, t: float) -> str:
    said = [s.text for s in run.of(Said) if s.t >= t and s.to == "blind"]
    assert said
    return said[0]


def test_the_wording_chosen_is_what_he_hears_and_a_resumed_game_keeps_it(tmp_path):
    run = Run(journal=tmp_path / "g.jsonl", time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.handle(SetWording("nato"), 4.0)
    run.handle(SetWording("nato"), 4.5)                  # the same again: nothing more noted
    run.handle(SightedMove("e7e5"), 10.0)
    run.handle(Tick(), 20.0)
    heard = _opponent_move_heard(run, 10.0)
    assert "Echo" in heard and "Eva" not in heard
    notes = [n for n in run.table.session.snapshot.notes if n.text == tr("table.note_wording", "de")]
    assert len(notes) == 1
    run.crash_and_resume(30.0)
    assert run.table.state.wording == "nato"


def test_the_table_speaks_the_language_chosen_while_the_game_runs():
    run = Run(time_control=None, blind="white")
    run.handle(SetLanguage("en"), 1.0)
    run.handle(Request("time", "blind"), 2.0)
    run.handle(Tick(), 30.0)
    assert [s.text for s in run.of(Said) if s.t >= 2.0] == [tr("table.time_without_clock", "en", moves=0)]


def test_stopping_the_voice_cuts_what_is_said_and_the_window_s_reading_is_said_to_him():
    run = Run(time_control="90+30", blind="white")
    run.handle(Tick(), 30.0)
    run.handle(Reading("Eva zwei: weißer Bauer"), 31.0)
    run.handle(StopSpeech(), 31.2)                       # cut at once
    run.handle(Reading("Gustav eins: weißer Springer"), 40.0)
    run.handle(Finish(), 40.1)
    said = [(s.text, s.cut) for s in run.of(Said) if s.t >= 31.0]
    assert said == [("Eva zwei: weißer Bauer", True), ("Gustav eins: weißer Springer", False)]


def test_take_back_outside_a_practice_game_is_refused():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(TakesBack(), 3.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("take-back", tr("engine.take_back_not_coaching", "de"))]
    assert run.table.game.plies == 1

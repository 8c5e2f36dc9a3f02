"""The app and the headless table give the same events for the same script.

Every scenario in ``tests/scenarios/`` is played twice with ``scenario.run``:
through :class:`~blindchess.scenario.runner.HeadlessFront` (what ``blindchess
scenario run`` does) and through :class:`~blindchess.ui.scenario_front.AppFront`,
which drives the real main window offscreen — clicks on the sighted board, the
input line, the clock buttons, the question panel, the arbiter's view — on the
script's clock. The JSON event lists (every type, every field, every time
stamp, the final state) must be identical. The one thing left out is the
window's own reading of the board cursor (``speak`` events of priority
"reading" and their ``said``): it exists only where there is a board widget
with the keyboard focus, and the table's speech policy lets it cut or delay
nothing (``AppFront`` docstring); a test below reads squares while confirmations
are spoken and shows that nothing else changes.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from blindchess.adapters.speech.tts import Speaker
from blindchess.scenario import HeadlessFront, play, read_script
from blindchess.storage import InputId
from blindchess.table.commands import BlindSays, Command
from blindchess.table.events import Speak
from blindchess.ui.scenario_front import AppFront
from tests.support.paths import SCENARIOS

SCRIPTS = sorted(p.name for p in SCENARIOS.glob("*.scn"))


def _play(front, name: str, journal: Path) -> list[dict]:
    script = read_script(SCENARIOS / name, "de")
    return play(script, front, journal)


@pytest.fixture
def speaker():
    with Speaker("de", engine="text") as spoken:  # no sound device here: texts are reported, not played
        yield spoken


def test_there_are_scenarios_to_compare():
    assert len(SCRIPTS) >= 10


@pytest.mark.parametrize("name", SCRIPTS)
def test_the_app_gives_the_same_events_as_the_headless_table(qtbot, tmp_path, speaker, name):
    headless = _play(HeadlessFront(), name, tmp_path / "headless.jsonl")
    front = AppFront(lang="de", speaker=speaker)
    qtbot.addWidget(front.window)
    app = _play(front, name, tmp_path / "app.jsonl")
    assert front.readings == set()          # nothing was left out of this comparison
    assert [e["type"] for e in app] == [e["type"] for e in headless]
    assert app == headless
    assert any(e["type"] == "move" for e in app) or "crash" in name   # the scripts really played
    assert app[-1]["type"] == "final"


def _without_reading_traces(events: list[dict]) -> list[dict]:
    """What a reading may leave: a move that cuts it says ``interrupt`` in its ``speak`` event, and the
    table's ``idle_at`` waits for a reading still being said, so the final's time stamp and the clocks
    at that moment are later. Everything else must be equal."""
    out = []
    for e in events:
        if e["type"] == "speak":
            e = {k: v for k, v in e.items() if k != "interrupt"}
        elif e["type"] == "final":
            e = {k: v for k, v in e.items() if k not in ("t", "clocks")}
        out.append(e)
    return out


class ReadingFront(AppFront):
    """The app front with someone walking the board cursor right after every announcement (defect 1)."""

    def handle(self, command: Command, now: float, ident: InputId | None = None) -> None:
        super().handle(command, now, ident)
        if isinstance(command, BlindSays):
            self.window.board.move_cursor(chess.A1)   # the cursor square is read aloud, through the table
            self.window.board.move_cursor(chess.B2)


@pytest.mark.parametrize("name", ["d1_confirmation_not_cut.scn", "game_whole.scn"])
def test_the_windows_readings_cut_and_delay_nothing(qtbot, tmp_path, speaker, name):
    """Board readings while confirmations are spoken: left out, the events are exactly the headless ones."""
    headless = _play(HeadlessFront(), name, tmp_path / "headless.jsonl")
    front = ReadingFront(lang="de", speaker=speaker)
    qtbot.addWidget(front.window)
    everything: list = []
    front.controller.tableEvent.connect(everything.append)
    app = _play(front, name, tmp_path / "app.jsonl")
    readings = [e for e in everything if isinstance(e, Speak) and e.priority == "reading"]
    # the first square waited behind the confirmation and was replaced by the next: only the last is read
    assert readings and {e.text for e in readings} == {"Bella zwei, weißer Bauer"}
    assert _without_reading_traces(app) == _without_reading_traces(headless)
    confirmations = [e for e in app if e["type"] == "said" and e["text"].startswith("Zug ausgeführt")]
    assert confirmations and not any(e["cut"] for e in confirmations)   # a confirmation is never cut

"""No time is given unasked, by any channel (FIDE Laws D.2.10 d).

A whole game (a scholar's mate at 6 minutes a side) is played through the real
window on the script's clock; both clocks run down past every low-time
threshold the app knows (5 minutes and 1 minute, ``controller.WARNINGS``), and
once in the middle the blind player asks for the time. Everything that reaches
a person is recorded: the program's voice (a text-only Speaker), the screen
reader (a recording stand-in for the speech-dispatcher client, whose delivery
``test_screenreader.py`` checks for real), the message line, the log and any
AT-SPI announcement the window still sends. For each speech channel:

* warnings off (the default): the only time said anywhere is the answer to the
  request, once, on the blind player's channel — never in the message line
  (the log lists it as said);
* warnings chosen: the two warnings for the blind player's own clock come in
  addition, on the same channel only, each once.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from blindchess.adapters.speech.tts import Speaker
from blindchess.base.i18n import tr
from blindchess.scenario import Script, parse, play
from blindchess.table.events import ClockPressed, GameEnded, Speak
from blindchess.table.speech import spoken
from blindchess.ui import a11y
from blindchess.ui.controller import WARNINGS
from blindchess.ui.scenario_front import AppFront
from tests.support.recording_reader import RecordingReader

GAME = """\
# Scholar's mate, 6 minutes a side: both clocks run down past 5 minutes and 1 minute.
@white Bernd Blind
@black Sabine Sehend
@blind white
@time 6+0
10.0   peg     L e2
10.4   peg     P e4
11.0   blind   says Eva vier
12.0   clock   press white
13.0   sighted move e2e4
79.0   sighted move e7e5
80.0   clock   press black
82.0   peg     L e7
82.4   peg     P e5
148.0  peg     L f1
148.4  peg     P c4
149.0  blind   says Läufer Cäsar vier
150.0  clock   press white
151.0  sighted move f1c4
399.0  sighted move b8c6
400.0  clock   press black
402.0  peg     L b8
402.4  peg     P c6
420.0  blind   says wie viel Zeit habe ich
648.0  peg     L d1
648.4  peg     P h5
649.0  blind   says Dame Hector fünf
650.0  clock   press white
651.0  sighted move d1h5
658.0  sighted move g8f6
659.0  clock   press black
661.0  peg     L g8
661.4  peg     P f6
663.0  peg     L f7
663.4  peg     L h5
663.8  peg     P f7
664.5  blind   says Dame schlägt Felix sieben
666.0  sighted move h5f7
"""
ASKED_AT = 420.0


def _time_words(lang: str) -> re.Pattern[str]:
    """Any spoken time of the talking clock in ``lang``: "4 Minuten 18", "42 Sekunden", "1 Stunde",
    "Zeit abgelaufen" (built from its own catalogue, so a changed wording is still found)."""
    units = []
    for unit in ("seconds", "minutes", "hours"):
        for form in ("one", "many"):
            units.append(re.escape(tr(f"tournament.clock_{unit}_{form}", lang, n=7)).replace("7", r"\d+"))
    return re.compile("|".join(units + [re.escape(tr("tournament.clock_out", lang))]))


TIME = _time_words("de")


class Front(AppFront):
    """The window, with the blind player's chosen warnings (what the new-game dialog passes when he opted in)."""

    warnings: tuple[float, ...] = ()

    def start(self, script: Script, journal: Path, now: float) -> None:
        self.journal = journal
        setup = dataclasses.replace(script.setup, warnings=self.warnings)
        assert self._at(now).start(setup, journal)


@pytest.mark.parametrize("warnings", [False, True], ids=["warnings-off", "warnings-chosen"])
@pytest.mark.parametrize("channel", ["app", "screenreader", "both"])
def test_no_channel_gives_time_unasked_over_a_whole_game(qtbot, tmp_path, monkeypatch, channel, warnings):
    announced: list[str] = []
    original = a11y.announce
    monkeypatch.setattr(a11y, "announce", lambda w, m, assertive=False: (announced.append(m), original(w, m, assertive)))
    with Speaker("de", engine="text") as speaker:
        app_voice: list[str] = []
        speaker.on_event(lambda e: app_voice.append(e.text) if e.kind == "text" else None)
        front = Front(lang="de", speaker=speaker)
        front.warnings = WARNINGS if warnings else ()
        qtbot.addWidget(front.window)
        reader = RecordingReader()
        front.controller.voice.use(channel, lang="de", screen_reader=reader)
        events: list = []
        front.controller.tableEvent.connect(events.append)
        message_line: list[str] = []
        front.controller.info.connect(message_line.append)
        play(parse(GAME, "de"), front, tmp_path / "game.jsonl")
        message_line.append(front.window.message.text())
        log = [text for _kind, text in front.window.log.texts()]
        front.controller.voice.close()

    # the game really crossed every threshold, for both players, and ended on the board
    clocks = [e for e in events if isinstance(e, ClockPressed)]
    for side in ("white", "black"):
        times = [getattr(e, side) for e in clocks]
        assert max(times) > WARNINGS[0] and min(times) < WARNINGS[-1], side
    assert any(isinstance(e, GameEnded) and e.reason == "checkmate" for e in events)

    answer = [e.text for e in events if isinstance(e, Speak) and e.t == ASKED_AT]
    assert len(answer) == 1 and TIME.search(answer[0])           # asked: answered, with the times
    warned = [spoken(tr("tournament.clock_warning", "de", time=t)) for t in
              (tr("tournament.clock_minutes_many", "de", n=5), tr("tournament.clock_minutes_one", "de", n=1))]
    allowed = answer + (warned if warnings else [])
    timed_events = [e.text for e in events if isinstance(e, Speak) and TIME.search(e.text)]
    assert sorted(timed_events) == sorted(allowed)                # the table decided nothing else

    blind_channel = app_voice if channel == "app" else reader.said
    other_channel = reader.said if channel == "app" else app_voice
    assert sorted(t for t in blind_channel if TIME.search(t)) == sorted(allowed)   # each once, on his channel
    assert [t for t in other_channel if TIME.search(t)] == []
    assert [t for t in message_line + announced if TIME.search(t)] == []           # never shown unasked
    assert sorted(t for t in log if TIME.search(t)) == sorted(allowed)              # the log: what was said
    if channel == "app":
        assert reader.said == []
    elif channel == "screenreader":
        assert app_voice == []

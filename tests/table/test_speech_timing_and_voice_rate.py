"""When the table's one voice is free again, what begins when a question is cut, a touch that finds the voice
taken by a waiting text, and the voice's rate read from ``voices/<lang>.toml`` (the listener's time is a cost:
the modelled speaking time decides what is cut and when the table may go on)."""

from __future__ import annotations

from pathlib import Path

import pytest

from blindchess.table import speech
from blindchess.table.events import Said, Speak
from blindchess.table.speech import DEFAULT_WPM, SpeechPolicy, voice_rate

WPM = 60.0      # one word a second: the times below are word counts


def _spoken(events: list) -> list[tuple[float, str, str]]:
    return [(round(e.t, 3), e.text, e.priority) for e in events if isinstance(e, Speak)]


def test_the_voice_is_free_when_everything_waiting_is_said_readings_aside() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    assert policy.idle_at(5.0) == 5.0 and policy.next_end() is None
    policy.say("eins zwei drei", "blind", "reading", 0.0)            # the board cursor's echo, 3 s
    assert policy.idle_at(0.0) == pytest.approx(3.0)
    assert policy.idle_at(0.0, readings=False) == 0.0                 # anything said cuts it: nothing waits for it
    assert policy.next_end() == pytest.approx(3.0) and policy.next_end(readings=False) is None
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 1.0)     # cuts the reading, 4 s
    policy.say("Sie haben noch zehn Minuten.", "blind", "answer", 2.0)   # waits, 5 s
    policy.say("Anna eins Turm", "blind", "reading", 2.5)              # waits last, 3 s
    assert policy.next_end(readings=False) == pytest.approx(5.0)
    assert policy.idle_at(2.5, readings=False) == pytest.approx(10.0)
    assert policy.idle_at(2.5) == pytest.approx(13.0)
    assert policy.pending == 2


def test_after_a_question_is_cut_the_waiting_text_begins_with_the_next_moment() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Meinten Sie Springer Felix drei?", "blind", "question", 0.0, about="question")
    policy.say("Sie haben noch zehn Minuten.", "blind", "answer", 1.0)
    out = policy.cancel("question", 2.0)                # answered: it stops being read
    assert [(e.text, e.cut) for e in out if isinstance(e, Said)] == [("Meinten Sie Springer Felix drei?", True)]
    assert _spoken(out) == []                            # nothing begins inside the cancelling input
    begun = policy.advance(2.5)
    assert _spoken(begun) == [(2.5, "Sie haben noch zehn Minuten.", "answer")]
    assert [e.interrupt for e in begun if isinstance(e, Speak)] == [False]        # nothing is being said to cut
    assert policy.advance(10.0)[0] == Said(2.5, "blind", "Sie haben noch zehn Minuten.", False, False)


def test_a_touch_said_when_the_voice_falls_silent_but_a_text_waits_is_not_said() -> None:
    """A status (a touch) is said at once or not at all: when the voice falls silent in the very moment it comes
    and a text of higher priority waits, that text goes first and the touch is dropped, never said late."""
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 0.0)                   # until 4 s
    policy.say("Sie haben noch zehn Minuten.", "blind", "answer", 1.0)              # waits
    out = policy.say("Berührt: Springer Gustav eins.", "blind", "status", 4.0)      # the move ends at 4 s
    assert _spoken(out) == [(4.0, "Sie haben noch zehn Minuten.", "answer")]
    later = policy.finish(30.0)
    assert not [e for e in later if "Berührt" in e.text]
    assert policy.pending == 0


def test_a_touch_when_the_voice_falls_silent_and_nothing_waits_is_said_at_once() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 0.0)
    out = policy.say("Berührt: Springer Gustav eins.", "blind", "status", 4.0)
    assert _spoken(out) == [(4.0, "Berührt: Springer Gustav eins.", "status")]


def test_the_last_announcement_is_what_repeat_says() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    assert policy.last_announcement is None
    policy.say("Sie haben noch zehn Minuten.", "blind", "answer", 0.0)
    assert policy.last_announcement is None
    policy.say("Schwarz: Springer Felix sechs.", "blind", "move", 1.0)
    policy.say("Ihr Umschlag", "blind", "question", 2.0, private=True)     # private: never repeated
    assert policy.last_announcement == "Schwarz: Springer Felix sechs."


# ---------------------------------------------------------------- the voice's rate
@pytest.fixture
def voices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(speech, "voices_dir", lambda: tmp_path)
    voice_rate.cache_clear()
    yield tmp_path
    voice_rate.cache_clear()


@pytest.mark.parametrize(("text", "wpm"), [
    ("rate = 150\n", 150.0),
    ("rate = 1\n", 1.0),
    ("rate = 162.5\n", 162.5),
    ("[speech]\nrate = 140\n", 140.0),
    ("[voice]\nrate = 130\n", 130.0),
    ("rate = 0\n", DEFAULT_WPM),
    ("rate = -20\n", DEFAULT_WPM),
    ("rate = true\n", DEFAULT_WPM),
    ('rate = "fast"\n', DEFAULT_WPM),
    ("speech = 3\n", DEFAULT_WPM),
    ("rate = = broken\n", DEFAULT_WPM),
])
def test_the_voice_rate_is_the_voices_positive_rate_else_175(voices: Path, text: str, wpm: float) -> None:
    (voices / "xx.toml").write_text(text, encoding="utf-8")
    assert voice_rate("xx") == wpm
    assert SpeechPolicy("xx").duration("eins zwei") == pytest.approx(2 * 60 / wpm)


def test_a_language_without_a_voice_file_speaks_at_175(voices: Path) -> None:
    assert voice_rate("zz") == DEFAULT_WPM


def test_switching_the_language_takes_its_voices_rate(voices: Path) -> None:
    (voices / "xx.toml").write_text("rate = 120\n", encoding="utf-8")
    policy = SpeechPolicy("zz")
    assert policy.wpm == DEFAULT_WPM
    policy.use_language("xx")
    assert (policy.lang, policy.wpm) == ("xx", 120.0)
    policy.use_language("zz", wpm=90)
    assert (policy.lang, policy.wpm) == ("zz", 90.0)


def test_a_request_asked_again_cuts_its_answer_but_waits_behind_an_older_waiting_text() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Sie haben noch zehn Minuten.", "blind", "answer", 0.0, about=speech.REQUEST, replace=True)
    policy.say("Bitte das Tastbrett richtigstellen.", "blind", "answer", 1.0)            # waits
    out = policy.say("Sie haben noch neun Minuten.", "blind", "answer", 2.0, about=speech.REQUEST, replace=True)
    assert [(e.text, e.cut) for e in out if isinstance(e, Said)] == [("Sie haben noch zehn Minuten.", True)]
    assert _spoken(out) == [(2.0, "Bitte das Tastbrett richtigstellen.", "answer")]
    assert [e.interrupt for e in out if isinstance(e, Speak)] == [True]      # it begins by cutting the older answer
    assert _spoken(policy.finish(30.0)) == [(6.0, "Sie haben noch neun Minuten.", "answer")]


def test_an_empty_text_still_reports_what_finished_meanwhile() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 0.0)
    assert policy.say("(FIDE D.2.3)", "blind", "answer", 10.0) == [Said(0.0, "blind", "Zug ausgeführt: Eva vier.", False,
                                                                          False)]
    assert policy.pending == 0 and policy.next_end() is None


def test_the_texts_for_the_blind_players_ears_are_counted() -> None:
    """The window tells by this count whether an input of his was answered aloud."""
    policy = SpeechPolicy("de", wpm=WPM)
    assert policy.asked_for_blind == 0
    for to, priority in (("blind", "move"), ("all", "question"), ("blind", "answer")):
        policy.say(f"Text für {to} {priority}", to, priority, 1.0)
    assert policy.asked_for_blind == 3
    for to, priority in (("sighted", "move"), ("sighted", "answer"), ("blind", "status"), ("all", "notice"),
                         ("blind", "reading")):
        policy.say(f"Text für {to} {priority}", to, priority, 2.0)
    assert policy.asked_for_blind == 3
    policy.say("(D.2.9)", "blind", "answer", 3.0)         # nothing left to say: not counted
    assert policy.asked_for_blind == 3


def test_internal_ids_are_found_in_a_text() -> None:
    assert speech.internal_ids("Regel sighted_follows: retrace nach correct-board") == [
        "sighted_follows", "retrace", "correct-board"]
    assert speech.internal_ids("Zug ausgeführt: Eva vier.") == []



def _question_cut_with_an_answer_waiting() -> SpeechPolicy:
    """A question cut (answered) while an answer waits: the voice is silent until the next moment."""
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Meinten Sie Springer Felix drei?", "blind", "question", 0.0, about="question")
    policy.say("Sie haben noch zehn Minuten.", "blind", "answer", 1.0)
    policy.cancel("question", 2.0)
    return policy


def test_a_text_that_finds_the_voice_silent_and_an_older_one_waiting_waits_its_turn() -> None:
    policy = _question_cut_with_an_answer_waiting()
    out = policy.say("Schwarz hat Remis angeboten.", "blind", "answer", 2.0)
    assert _spoken(out) == [(2.0, "Sie haben noch zehn Minuten.", "answer")]
    assert [e.interrupt for e in out if isinstance(e, Speak)] == [False]     # the voice was silent: nothing cut
    assert _spoken(policy.finish(30.0)) == [(7.0, "Schwarz hat Remis angeboten.", "answer")]


def test_a_touch_that_finds_the_voice_silent_and_a_text_waiting_is_not_said() -> None:
    policy = _question_cut_with_an_answer_waiting()
    out = policy.say("Berührt: Springer Gustav eins.", "blind", "status", 2.0)
    assert _spoken(out) == [(2.0, "Sie haben noch zehn Minuten.", "answer")]
    assert not [e for e in policy.finish(30.0) if "Berührt" in e.text] and policy.pending == 0


def test_a_touch_that_finds_the_voice_silent_and_only_a_reading_waiting_is_said_at_once() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Meinten Sie Springer Felix drei?", "blind", "question", 0.0, about="question")
    policy.say("Anna eins Turm", "blind", "reading", 1.0)
    policy.cancel("question", 2.0)
    out = policy.say("Berührt: Springer Gustav eins.", "blind", "status", 2.0)
    assert _spoken(out) == [(2.0, "Berührt: Springer Gustav eins.", "status")]
    assert policy.pending == 1


def test_a_text_that_cuts_the_one_being_said_begins_as_an_interruption() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    [first] = policy.say("Anna eins Turm", "blind", "reading", 0.0)
    assert isinstance(first, Speak) and not first.interrupt
    out = policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 1.0)
    assert [(e.text, e.interrupt) for e in out if isinstance(e, Speak)] == [("Zug ausgeführt: Eva vier.", True)]
    out = policy.say("Sie haben noch zehn Minuten.", "blind", "answer", 2.0)     # waits: no interruption
    assert [e for e in out if isinstance(e, Speak)] == []
    later = policy.advance(5.0)
    assert [(e.text, e.interrupt) for e in later if isinstance(e, Speak)] == [("Sie haben noch zehn Minuten.", False)]


def test_cancelling_what_is_over_leaves_another_text_being_said_uncut() -> None:
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Sie haben noch zehn Minuten.", "blind", "answer", 0.0)
    assert policy.cancel("question", 1.0) == []
    assert policy.next_end() == pytest.approx(5.0)
    assert policy.advance(5.0) == [Said(0.0, "blind", "Sie haben noch zehn Minuten.", False, False)]


def test_an_utterance_is_over_at_its_end_give_or_take_a_rounding() -> None:
    """Times are sums of floats: an utterance counts as over within a nanosecond of its modelled end."""
    policy = SpeechPolicy("de", wpm=WPM)
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 0.0)      # until 4 s
    assert [e.cut for e in policy.advance(4.0 - 1e-9) if isinstance(e, Said)] == [False]
    assert policy.next_end() is None

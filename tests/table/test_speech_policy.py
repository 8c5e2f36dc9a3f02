"""The table's speech policy: priorities, what may cut what, modelled speaking time, repeat, clean texts."""

from __future__ import annotations

import tomllib

import pytest

from blindchess.base.resources import locale_dir
from blindchess.table.events import Said, Speak
from blindchess.table.speech import (
    DEFAULT_WPM,
    PRIORITIES,
    REQUEST,
    SpeechPolicy,
    blind_hears,
    brief_form,
    internal_ids,
    may_cut,
    spoken,
    step_for_blind,
    voice_rate,
    window_heard,
    worded,
)


def said(events: list[Said | Speak]) -> list[tuple[float, str, bool]]:
    return [(round(e.t, 3), e.text, e.cut) for e in events if isinstance(e, Said)]


def test_speaking_time_is_words_at_the_voice_rate() -> None:
    policy = SpeechPolicy("de")
    assert voice_rate("de") == DEFAULT_WPM == 175.0
    assert policy.duration("Zug ausgeführt: Eva vier.") == pytest.approx(4 * 60 / 175)
    assert SpeechPolicy("de", wpm=120).duration("eins zwei") == pytest.approx(1.0)


def test_an_utterance_ends_uncut_at_its_modelled_end() -> None:
    policy = SpeechPolicy("de")
    out = policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 1.0)
    assert [type(e) for e in out] == [Speak] and out[0].t == 1.0 and not out[0].interrupt
    end = 1.0 + policy.duration("Zug ausgeführt: Eva vier.")
    assert policy.advance(end - 0.01) == []
    assert said(policy.advance(end)) == [(1.0, "Zug ausgeführt: Eva vier.", False)]


@pytest.mark.parametrize("later", ["status", "reading", "answer", "move", "question"])
def test_a_move_announcement_is_never_cut(later: str) -> None:
    policy = SpeechPolicy("de")
    policy.say("Zug ausgeführt: Springer Felix drei.", "blind", "move", 0.0)
    out = policy.say("Eva vier", "blind", later, 0.2)
    assert not said(out) and not [e for e in out if isinstance(e, Speak)]
    done = policy.finish(0.3)
    assert said(done)[0] == (0.0, "Zug ausgeführt: Springer Felix drei.", False)
    if later == "status":
        assert len(said(done)) == 1          # a status is said at once or not at all
    else:
        assert said(done)[1][1] == "Eva vier"


def test_a_question_is_never_cut_and_the_answer_waits_behind_it() -> None:
    policy = SpeechPolicy("de")
    policy.say("Meinten Sie Springer Felix drei?", "blind", "question", 0.0)
    policy.say("Sie: 12 Minuten, Gegner: 8 Minuten, 3 Züge", "blind", "answer", 0.5)
    done = said(policy.finish(0.6))
    assert [cut for _, _, cut in done] == [False, False]
    assert done[1][0] == pytest.approx(policy.duration("Meinten Sie Springer Felix drei?"), abs=1e-3)


def test_what_cuts_what() -> None:
    """A text is cut only by the text that replaces it (the same request); the echoes of a hand sooner: a reading
    by anything, a status (a peg just lifted) by anything but a reading."""
    for new in PRIORITIES:
        for current in PRIORITIES:
            echo = current == "reading" or (current == "status" and new != "reading")
            assert may_cut(new, current) == echo, (new, current)
            assert may_cut(new, current, same_request=True)
    with pytest.raises(ValueError):
        may_cut("urgent", "move")


@pytest.mark.parametrize("later", ["move", "question"])
def test_an_answer_being_said_is_not_cut_by_a_move_that_waits_behind_it(later: str) -> None:
    policy = SpeechPolicy("de")
    policy.say("Reihe fünf: Eva fünf, schwarzer Bauer. 7 Felder leer.", "blind", "answer", 0.0, about=REQUEST,
               replace=True)
    out = policy.say("Springer Cäsar sechs", "blind", later, 0.5)
    assert not said(out)
    done = said(policy.finish(0.6))
    assert [cut for _, _, cut in done] == [False, False] and done[1][1] == "Springer Cäsar sechs"


def test_notices_of_the_window_wait_for_everything_about_the_game() -> None:
    policy = SpeechPolicy("de")
    policy.say("Übertragung: http://127.0.0.1:8765/", "blind", "notice", 0.0, about="broadcast", replace=True)
    policy.say("Darstellung: normal, Schriftgröße 100 %", "blind", "notice", 0.1, about="look", replace=True)
    policy.say("Eva fünf", "blind", "move", 0.2)
    policy.say("Darstellung: normal, Schriftgröße 120 %", "blind", "notice", 0.3, about="look", replace=True)
    done = said(policy.finish(0.4))
    assert [(text, cut) for _, text, cut in done] == [
        ("Übertragung: http://127.0.0.1:8765/", False), ("Eva fünf", False),
        ("Darstellung: normal, Schriftgröße 120 %", False)]


def test_a_reading_is_cut_by_the_next_reading_and_the_cut_is_reported() -> None:
    policy = SpeechPolicy("de")
    policy.say("Eva vier: weißer Bauer", "blind", "reading", 0.0)
    out = policy.say("Eva fünf: leer", "blind", "reading", 0.1)
    assert said(out) == [(0.0, "Eva vier: weißer Bauer", True)]
    assert [e.interrupt for e in out if isinstance(e, Speak)] == [True]


def test_waiting_texts_go_by_priority_and_only_the_latest_reading_waits() -> None:
    policy = SpeechPolicy("de")
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 0.0)
    policy.say("Eva eins", "blind", "reading", 0.1)
    policy.say("Eva zwei", "blind", "reading", 0.2)
    policy.say("Nicht verstanden.", "blind", "answer", 0.3)
    policy.say("Eva fünf", "all", "move", 0.4)
    order = [text for _, text, _ in said(policy.finish(0.5))]
    assert order == ["Zug ausgeführt: Eva vier.", "Eva fünf", "Nicht verstanden.", "Eva zwei"]
    assert policy.idle_at(100.0) == 100.0


def test_repeat_says_the_last_announcement_not_the_last_text() -> None:
    policy = SpeechPolicy("de")
    assert policy.repeat(0.0) == []
    policy.say("Springer Cäsar sechs", "blind", "move", 0.0)
    policy.say("Berührt: weißer Bauer auf Eva zwei.", "blind", "status", 5.0)
    policy.say("Eva drei", "blind", "reading", 6.0)
    out = policy.repeat(7.0)
    assert [e.text for e in out if isinstance(e, Speak)] == ["Springer Cäsar sechs"]


def test_stop_cuts_and_drops_everything() -> None:
    policy = SpeechPolicy("de")
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 0.0)
    policy.say("Eva fünf", "blind", "move", 0.1)
    assert said(policy.stop(0.5)) == [(0.0, "Zug ausgeführt: Eva vier.", True)]
    assert policy.finish(1.0) == [] and policy.pending == 0


def test_article_numbers_are_not_spoken() -> None:
    assert spoken("Zug ausgeführt: Eva vier (D.2.3).") == "Zug ausgeführt: Eva vier."
    assert spoken("Auf dem Tastbrett ist e4 kein regelgemäßer Zug (Art. 7).") == \
        "Auf dem Tastbrett ist e4 kein regelgemäßer Zug."
    assert spoken("Bitte den Schiedsrichter rufen (FIDE Laws D.2.9).") == "Bitte den Schiedsrichter rufen."
    assert "D.2" not in spoken("Nach D.2.9 gilt, was notiert ist.")
    assert spoken("e4 is op het tastbord geen reglementaire zet (FIDE art. 7).") == \
        "e4 is op het tastbord geen reglementaire zet."
    assert spoken("e4 — не правильный ход на тактильной доске (ФИДЕ ст. 7).") == \
        "e4 — не правильный ход на тактильной доске."
    policy = SpeechPolicy("de")
    out = policy.say("Berührt: weißer Bauer auf Eva zwei (D.2.2).", "blind", "status", 0.0)
    assert [e.text for e in out if isinstance(e, Speak)] == ["Berührt: weißer Bauer auf Eva zwei."]


def test_unknown_priorities_and_listeners_are_refused() -> None:
    policy = SpeechPolicy("de")
    with pytest.raises(ValueError):
        policy.say("x", "blind", "urgent", 0.0)
    with pytest.raises(ValueError):
        policy.say("x", "arbiter", "move", 0.0)


@pytest.mark.parametrize("lang", ["de", "en", "nl", "ru"])
def test_the_table_catalogue_has_no_internal_ids_and_speaks_no_articles(lang: str) -> None:
    with (locale_dir() / f"table.{lang}.toml").open("rb") as f:
        texts = tomllib.load(f)
    forms = {k: (list(v.values()) if isinstance(v, dict) else [v]) for k, v in texts.items()}  # plural forms too
    assert not {k: v for k, v in forms.items() if any(internal_ids(text) for text in v)}
    with (locale_dir() / "table.de.toml").open("rb") as f:
        keys = set(tomllib.load(f))
    assert set(texts) == keys
    spoken_keys = ["move_confirmed", "touched", "divergence_said", "ruling_correct_tactile", "ruling_retrace",
                   "ask_resign", "ask_draw_accept", "draw_offered_to_blind", "tactile_mismatch", "cancelled"]
    assert not [k for k in spoken_keys if "D." in texts[k] or "Art." in texts[k]]


def test_withdraw_drops_only_waiting_texts_about_that_thing() -> None:
    # A ruling settles the divergence: its text still waiting is never said; others are.
    policy = SpeechPolicy("de")
    policy.say("Zug ausgeführt: Läufer Cäsar vier.", "blind", "move", 0.0)
    policy.say("Die Bretter weichen voneinander ab.", "all", "answer", 0.3, about="boards")
    policy.say("Remis angeboten.", "blind", "answer", 0.4)
    policy.say("Das Tastbrett zeigt eine andere Stellung.", "blind", "answer", 0.5, about="boards")
    assert policy.withdraw("boards") == 2 and policy.pending == 1
    policy.say("Entscheid: das Brett wird berichtigt.", "all", "move", 0.6)
    assert [text for _, text, _ in said(policy.finish(0.7))] == [
        "Zug ausgeführt: Läufer Cäsar vier.", "Entscheid: das Brett wird berichtigt.", "Remis angeboten."]
    assert policy.withdraw("boards") == 0


def test_withdraw_does_not_cut_what_is_being_said() -> None:
    policy = SpeechPolicy("de")
    policy.say("Die Bretter weichen voneinander ab.", "all", "answer", 0.0, about="boards")
    assert policy.withdraw("boards") == 0
    assert said(policy.finish(0.1)) == [(0.0, "Die Bretter weichen voneinander ab.", False)]


def test_next_end_is_the_end_of_what_is_being_said() -> None:
    policy = SpeechPolicy("de")
    assert policy.next_end() is None
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 1.0)
    policy.say("Eva fünf", "blind", "move", 1.2)
    first = 1.0 + policy.duration("Zug ausgeführt: Eva vier.")
    assert policy.next_end() == pytest.approx(first)
    policy.advance(first)
    assert policy.next_end() == pytest.approx(first + policy.duration("Eva fünf"))
    policy.advance(first + 5.0)
    assert policy.next_end() is None


def test_a_request_asked_again_replaces_its_older_answer() -> None:
    """Newer replaces older: the answer being said is cut, a waiting one dropped; other texts keep their place."""
    policy = SpeechPolicy("de")
    policy.say("Zug ausgeführt: Eva vier.", "blind", "move", 0.0)
    rank = "Reihe fünf: Eva fünf, schwarzer Bauer. 7 Felder leer."
    policy.say(rank, "blind", "answer", 0.1, about="request rank", replace=True)          # waits for the move
    policy.say(rank, "blind", "answer", 0.2, about="request rank", replace=True)          # … replaces it
    assert policy.pending == 1
    end = policy.duration("Zug ausgeführt: Eva vier.")
    policy.advance(end)
    events = policy.say("Reihe fünf: Eva fünf, leer.", "blind", "answer", end + 0.5, about="request rank",
                        replace=True)
    assert said(events) == [(round(end, 3), rank, True)]                                    # cut at once
    assert said(policy.finish(end + 10.0)) == [(round(end + 0.5, 3), "Reihe fünf: Eva fünf, leer.", False)]


# ---------------------------------------------------------------- the speech plan

def test_the_blind_player_never_hears_what_is_said_to_the_sighted_side() -> None:
    for verbosity in ("brief", "normal", "full"):
        for priority in PRIORITIES:
            assert not blind_hears(verbosity, "sighted", priority)
            assert not blind_hears(verbosity, "blind", "reading")     # the echo of keys is the focus reader's
        for to in ("blind", "all"):
            assert blind_hears(verbosity, to, "move") and blind_hears(verbosity, to, "question")
            assert blind_hears(verbosity, to, "answer")
            assert blind_hears(verbosity, to, "status") == (verbosity != "brief")
    with pytest.raises(ValueError):
        blind_hears("chatty", "blind", "move")


def test_the_window_says_answers_always_notices_from_normal_and_steps_at_full() -> None:
    assert [window_heard(v, "answer") for v in ("brief", "normal", "full")] == [True, True, True]
    assert [window_heard(v, "notice") for v in ("brief", "normal", "full")] == [False, True, True]
    assert [window_heard(v, "step") for v in ("brief", "normal", "full")] == [False, False, True]
    with pytest.raises(ValueError):
        window_heard("normal", "gossip")


@pytest.mark.parametrize(("lang", "confirmed", "move"), [
    ("de", "Zug ausgeführt: Springer Felix drei.", "Springer Felix drei."),
    ("en", "Move made: Knight Felix three.", "Knight Felix three."),
    ("ru", "Ход сделан: Конь Феликс три.", "Конь Феликс три."),
])
def test_brief_says_a_confirmed_move_as_the_move_alone(lang: str, confirmed: str, move: str) -> None:
    assert brief_form(confirmed, lang) == move
    assert brief_form("Springer Cäsar sechs", lang) == "Springer Cäsar sechs"


def test_a_next_step_concerns_the_blind_player_unless_it_is_the_sighted_sides() -> None:
    assert not step_for_blind("Anna zieht e5 auf dem Tastbrett nach.", "de")     # he has just heard the move
    assert step_for_blind("Anna (Weiß) ist am Zug: Zug auf dem Tastbrett setzen und ansagen.", "de")
    # right after the opponent's move he has heard, that it is his move says nothing new
    assert not step_for_blind("Anna (Weiß) ist am Zug: Zug auf dem Tastbrett setzen und ansagen.", "de", after_move=True)
    assert step_for_blind("Anna (Weiß) ist am Zug: Zug ansagen.", "de")                # without a tactile board
    assert not step_for_blind("Anna (Weiß) ist am Zug: Zug ansagen.", "de", after_move=True)
    assert step_for_blind("Die Partie ist beendet: 1-0.", "de", after_move=True) == \
        step_for_blind("Die Partie ist beendet: 1-0.", "de")
    assert step_for_blind("Partie beendet: 1-0.", "de")
    assert not step_for_blind("Auf dem Brett des sehenden Spielers nachziehen: e4.", "de")
    assert not step_for_blind("Bernd (Schwarz) ist am Zug: Zug auf dem Brett des sehenden Spielers ausführen.", "de")
    assert not step_for_blind("Mirror on the sighted player's board: Bb5.", "en")


@pytest.mark.parametrize(("lang", "text", "words"), [
    ("de", "Sbxd2", "Springer Bella schlägt David zwei"),
    ("de", "0-0", "Kurze Rochade"),
    ("de", "O-O-O+", "Lange Rochade Schach"),
    ("de", "e8=D#", "Eva acht wird Dame matt"),
    ("de", "Weiß: e4", "Weiß: Eva vier"),
    ("en", "Nbxd2 and 0-0", "Knight Bella takes David two and short castling"),
    ("ru", "Крg1", "Король Густав один"),
    ("de", "Ergebnis 1-0, 0-1 oder 1/2-1/2; Zug 12", "Ergebnis 1-0, 0-1 oder 1/2-1/2; Zug 12"),
])
def test_raw_notation_is_said_in_words(lang: str, text: str, words: str) -> None:
    assert worded(text, lang) == words
    assert worded("Sf3", "de", "san") == "Springer f3"
    assert worded("Sf3", "de", "nato") == "Springer Foxtrot drei"
